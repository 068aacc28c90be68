"""The Detour board file and the loader that must refuse a broken one."""

from rules.core import BoardError
from rules.detour import DetourBoard
from support import board_data, raises


def spaces_by_id(data):
    return {s["id"]: s for s in data["spaces"]}


def refused(data):
    return str(raises(BoardError, DetourBoard, data))


def test_the_board_has_every_kind_of_space_the_rules_name():
    board = DetourBoard(board_data("detour"))
    kinds = board.kinds
    assert [board.ids[s] for s in board.starts] == ["d1", "a4"]
    assert [board.ids[s] for s in board.finishes] == ["j13", "m10"]
    assert kinds.count("star") == 6 and kinds.count("wheel_star") == 4 and kinds.count("centre") == 1
    assert len(board.wheel_ids) == 4
    assert len(board) == 91 and board.pixels == 105 and board.sensors == 91
    assert len(board.extras["die1"]) == 7 and len(board.extras["die2"]) == 7
    assert sorted(board.leds + board.extras["die1"] + board.extras["die2"]) == list(range(105))
    assert sorted(board.sensor_of) == list(range(91))


def test_each_wheel_has_four_positions_that_each_route_the_path_differently():
    board = DetourBoard(board_data("detour"))
    for w in range(4):
        star = board.wheel_cells[9 * w + 4]
        routes = set()
        for p in range(4):
            wheels = bytearray(4)
            wheels[w] = p
            routes.add(tuple(board.mask(board.wheel_cells[9 * w + k], wheels) for k in range(9)))
            assert board.mask(star, wheels) in (3, 6, 12, 9)  # the star joins two neighbouring arms
        assert len(routes) == 4


def test_a_wheel_can_open_a_loop_from_the_starts_to_the_finish():
    board = DetourBoard(board_data("detour"))

    def reaches_finish(wheels):
        s, heading = board.starts[0], board.arrows[0]
        for _ in range(200):
            path, heading = board.walk(s, heading, 1, wheels)
            s = path[-1]
            if board.kinds[s] == "finish":
                return True
        return False

    assert not reaches_finish(bytearray(4))  # at the start the STARTs loop among themselves
    assert reaches_finish(bytearray([0, 1, 1, 0]))


def test_a_dead_end_is_refused_naming_the_space():
    data = board_data("detour")
    spaces_by_id(data)["e1"]["exits"] = "W"
    assert "'e1'" in refused(data)


def test_an_exit_without_a_way_back_is_refused():
    data = board_data("detour")
    spaces_by_id(data)["h13"]["exits"] = "ESW"
    message = refused(data)
    assert "'h13'" in message and "3 exits" in message


def test_a_pixel_used_twice_is_refused_naming_both():
    data = board_data("detour")
    spaces_by_id(data)["e1"]["led"] = spaces_by_id(data)["f1"]["led"]
    message = refused(data)
    assert "'e1'" in message and "'f1'" in message and "led" in message


def test_a_missing_or_mistyped_field_is_named():
    data = board_data("detour")
    del spaces_by_id(data)["g7"]["sensor"]
    assert "'g7'" in refused(data) and "'sensor'" in refused(data)
    data = board_data("detour")
    spaces_by_id(data)["g7"]["x"] = "6"
    assert "'x'" in refused(data)
    data = board_data("detour")
    data["game"] = "sniggle"
    assert "'game'" in refused(data)


def test_a_start_arrow_must_point_along_the_path():
    data = board_data("detour")
    spaces_by_id(data)["d1"]["arrow"] = "N"
    assert "arrow" in refused(data)


def test_a_wheel_must_sit_on_a_wheel_star_with_its_block_around_it():
    data = board_data("detour")
    data["wheels"][0]["star"] = "g7"
    assert "wheel #1" in refused(data)
    data = board_data("detour")
    data["wheels"][1]["start"] = 4
    assert "wheel #2" in refused(data)


def test_a_space_outside_the_grid_or_on_another_is_refused():
    data = board_data("detour")
    spaces_by_id(data)["e1"]["x"] = 40
    assert "'e1'" in refused(data)
    data = board_data("detour")
    spaces_by_id(data)["e1"]["x"] = 5
    message = refused(data)
    assert "'e1'" in message and "'f1'" in message and "already" in message


def test_a_board_that_is_not_an_object_is_refused():
    assert "JSON object" in refused([1, 2])
