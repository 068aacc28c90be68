"""What every game's board file must give, and what a Pico can hold: a file
asking for more is refused with a message naming the field."""

from rules.core import BoardError
from rules.games import find_game
from support import board_data, raises

HUGE = 1 << 40


def refused(name, data):
    return str(raises(BoardError, find_game(name), data, 2))


def test_a_game_with_two_dice_needs_both_die_faces():
    for name in ("detour", "sniggle"):
        data = board_data(name)
        del data["extras"]["die2"]
        assert refused(name, data).startswith("extras 'die2': ")
        data = board_data(name)
        data["extras"]["die1"] = data["extras"]["die1"][:6]
        assert refused(name, data).startswith("extras 'die1': ")


def test_pixel_and_sensor_counts_are_what_a_pico_can_drive():
    for name in ("detour", "mehen", "sniggle", "snuka"):
        for key in ("pixels", "sensors"):
            for value in (HUGE, 257, -1):
                data = board_data(name)
                data[key] = value
                assert refused(name, data).startswith("board: field %r is %d, outside " % (key, value))
        data = board_data(name)
        data["pixels"] = data["sensors"] = 256
        board = find_game(name)(data, 2).board
        assert board.pixels == 256 and board.sensors == 256


def test_the_grid_size_is_what_a_byte_holds():
    for size in ([HUGE, 13], [13, 256], [0, 13], [13, True]):
        data = board_data("detour")
        data["size"] = size
        assert refused("detour", data).startswith("board: field 'size' must be [width, height], each from 1 to 255")


def test_a_board_without_spaces_is_refused():
    data = board_data("snuka")
    data["spaces"] = []
    assert refused("snuka", data).startswith("board: field 'spaces' lists 0 spaces")


def test_a_space_named_by_a_path_or_a_wheel_that_is_not_there_names_the_field():
    data = board_data("sniggle")
    data["paths"][0]["spaces"][2] = "nowhere"
    assert refused("sniggle", data) == "path #1: no space 'nowhere'"
    data = board_data("detour")
    data["wheels"][1]["star"] = "nowhere"
    assert refused("detour", data) == "wheel #2: no space 'nowhere'"
