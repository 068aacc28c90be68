"""The Tiddlee Snuka cloth and the loader that must refuse a broken one."""

from rules.core import BoardError
from rules.snuka import BLACK, BLUE, BUTTONS, GREEN, MAUVE, PINK, RED, YELLOW, Snuka, SnukaBoard
from support import board_data, raises


def refused(data):
    return str(raises(BoardError, SnukaBoard, data))


def by_id(data):
    return {s["id"]: s for s in data["spaces"]}


def test_the_cloth_has_six_pockets_a_spot_per_colour_and_fifteen_reds():
    board = SnukaBoard(board_data("snuka"))
    assert [board.ids[s] for s in board.pockets] == ["TL", "TM", "TR", "BL", "BM", "BR"]
    assert len(board.spots[RED]) == 15
    for c, name in ((YELLOW, "yellow"), (GREEN, "green"), (MAUVE, "mauve"), (BLUE, "blue"), (PINK, "pink"), (BLACK, "black")):
        assert board.spots[c] == (board.space(name),) and board.kinds[board.space(name)] == "spot_" + name
    assert len(board.bars) == 6 and all(len(bar) == 8 for bar in board.bars)
    assert sorted(board.leds + sum(board.bars, ())) == list(range(board.pixels))
    assert sorted(board.sensor_of[s] for s in board.pockets) == [0, 1, 2, 3, 4, 5]


def test_pockets_sit_in_the_corners_and_the_middle_of_the_long_sides():
    board = SnukaBoard(board_data("snuka"))
    right, bottom = board.width - 1, board.height - 1
    assert board.width > board.height
    where = [(board.xs[s], board.ys[s]) for s in board.pockets]
    assert where == [(0, 0), (right // 2, 0), (right, 0), (0, bottom), (right // 2, bottom), (right, bottom)]


def test_the_colour_spots_lie_where_the_picture_shows_them():
    board = SnukaBoard(board_data("snuka"))
    middle, centre = (board.width - 1) // 2, (board.height - 1) // 2

    def at(c):
        s = board.spots[c][0]
        return board.xs[s], board.ys[s]

    # yellow between the top two pockets at left, green at right; blue and mauve likewise at the bottom
    assert 0 < at(YELLOW)[0] < middle < at(GREEN)[0] < board.width - 1
    assert at(YELLOW)[1] < centre and at(GREEN)[1] < centre
    assert 0 < at(BLUE)[0] < middle < at(MAUVE)[0] < board.width - 1
    assert at(BLUE)[1] > centre and at(MAUVE)[1] > centre
    # our choice for pink and black: the ends of the centre line, either side of the reds
    reds_x = [board.xs[s] for s in board.spots[RED]]
    assert at(PINK)[1] == at(BLACK)[1] == centre
    assert at(PINK)[0] < min(reds_x) and at(BLACK)[0] > max(reds_x)


def test_the_reds_are_three_groups_of_five_across_the_centre():
    board = SnukaBoard(board_data("snuka"))
    spots = board.spots[RED]
    groups = [spots[i:i + 5] for i in (0, 5, 10)]
    for n in range(2):  # each group lies wholly to the left of the next
        assert max(board.xs[s] for s in groups[n]) < min(board.xs[s] for s in groups[n + 1])
    assert all(abs(board.ys[s] - (board.height - 1) // 2) <= 1 for s in spots)


def test_a_broken_cloth_is_refused_naming_what_is_wrong():
    data = board_data("snuka")
    by_id(data)["yellow"]["kind"] = "spot_green"
    assert "spot_yellow" in refused(data)
    data = board_data("snuka")
    by_id(data)["TL"]["kind"] = "spot_black"
    assert "exactly one spot_black" in refused(data)
    data = board_data("snuka")
    data["spaces"] = [s for s in data["spaces"] if s["kind"] != "pocket"]
    assert "pocket" in refused(data)
    data = board_data("snuka")
    data["spaces"] = [s for s in data["spaces"] if s["kind"] != "spot_red"]
    assert "spot_red" in refused(data)
    data = board_data("snuka")
    data["extras"] = {}
    assert "score1" in refused(data)
    data = board_data("snuka")
    data["extras"]["score1"] = []
    assert "'score1'" in refused(data)
    data = board_data("snuka")
    by_id(data)["r3"]["kind"] = "spot_white"
    assert "'r3'" in refused(data)
    data = board_data("snuka")
    by_id(data)["BM"]["led"] = 0
    assert "'BM'" in refused(data) and "led 0" in refused(data)
    data = board_data("snuka")
    data["game"] = "detour"
    assert "'snuka'" in refused(data)


def test_the_twelve_buttons_sit_on_the_chain_after_the_spot_sensors():
    board = SnukaBoard(board_data("snuka"))
    assert [name for name, _ in board.buttons] == list(BUTTONS) and len(BUTTONS) == 12
    spots = sorted(board.sensor_of[s] for s in range(len(board.ids)) if board.kinds[s] != "pocket")
    inputs = [n for _, n in board.buttons]
    assert spots == list(range(6, 27)) and inputs == list(range(27, 39))
    # the chain is as long as its inputs: five 74HC165s, input 39 the only one spare on the last
    assert board.sensors == 39 and (board.sensors + 7) // 8 == 5


def test_a_wrong_button_entry_is_refused_naming_the_button():
    for name, value, said in (
        ("purple", 39, ("buttons 'purple'", "foul_off")),
        ("miss", 7, ("buttons 'miss'", "space 'green'")),
        ("safe", 37, ("buttons 'safe'", "input 37 is already used by buttons 'miss'")),
        ("red", 39, ("buttons 'red'", "from 0 to 38")),
        ("red", "27", ("buttons 'red'",)),
    ):
        data = board_data("snuka")
        data["buttons"][name] = value
        message = refused(data)
        for words in said:
            assert words in message, (name, value, message)
    data = board_data("snuka")
    data["buttons"] = [27]
    assert "'buttons'" in refused(data)


def test_a_board_without_buttons_or_with_some_of_them_loads():
    data = board_data("snuka")
    del data["buttons"]
    assert SnukaBoard(data).buttons == ()
    data = board_data("snuka")
    data["buttons"] = {"safe": 30, "red": 27}
    assert SnukaBoard(data).buttons == (("red", 27), ("safe", 30))


def test_a_smaller_cloth_with_fewer_reds_plays_with_fewer_reds():
    data = board_data("snuka")
    data["spaces"] = [s for s in data["spaces"] if s["id"] not in ("r11", "r12", "r13", "r14", "r15")]
    assert Snuka(data, 2).reds == 10
