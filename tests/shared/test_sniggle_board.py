"""The Sniggle board file and the loader that must refuse a broken one."""

from rules.core import BoardError
from rules.sniggle import COLOURS, SniggleBoard
from support import board_data, raises


def spaces_by_id(data):
    return {s["id"]: s for s in data["spaces"]}


def refused(data):
    return str(raises(BoardError, SniggleBoard, data))


def test_the_board_has_every_space_the_rules_name():
    board = SniggleBoard(board_data("sniggle"))
    kinds = board.kinds
    assert len(board) == 181 and (board.width, board.height) == (12, 17)
    assert kinds.count("main") == 120 and kinds.count("zone") == 28 and kinds.count("trademark") == 1
    assert kinds.count("start") == 16 and kinds.count("home") == 16
    assert [board.ids[s] for s in board.start[:4]] == ["SR1", "SR2", "SR3", "SR4"]
    assert [board.ids[s] for s in board.home[12:]] == ["HY1", "HY2", "HY3", "HY4"]
    assert board.ids[board.trademark] == "TM"
    # white spaces and five safe spaces of each player colour in the main area
    main = [board.colour[s] for s in range(len(board)) if kinds[s] == "main"]
    assert [main.count(c) for c in range(5)] == [100, 5, 5, 5, 5]
    assert all(board.colour[s] == 0 for s in range(len(board)) if kinds[s] in ("zone", "trademark"))


def test_every_space_has_its_own_pixel_and_sensor_and_the_dice_have_seven_each():
    board = SniggleBoard(board_data("sniggle"))
    assert board.pixels == 195 and board.sensors == 181
    assert len(board.extras["die1"]) == 7 and len(board.extras["die2"]) == 7
    assert sorted(board.leds + board.extras["die1"] + board.extras["die2"]) == list(range(195))
    assert sorted(board.sensor_of) == list(range(181))


def test_the_two_paths_run_round_the_zone_in_opposite_directions_past_every_matching_square():
    board = SniggleBoard(board_data("sniggle"))
    left, right = board.path
    assert [board.ids[s] for s in left[:2]] == ["Z1", "Z2"] and list(right) == list(left)[::-1]
    for k in range(16):
        beside = left[board.entry[0][k]]
        assert beside == right[board.entry[1][k]]  # one space beside each square, on both paths
        assert abs(board.xs[beside] - board.xs[board.home[k]]) + abs(board.ys[beside] - board.ys[board.home[k]]) == 1


def test_each_starting_square_leads_forward_into_the_main_area():
    board = SniggleBoard(board_data("sniggle"))
    assert list(board.start_steps) == [1, 1, 2, 2] * 4
    assert [board.ids[s] for s in board.start_cell[:4]] == ["c1", "g1", "c1", "g1"]


def test_a_missing_or_wrong_colour_is_named():
    data = board_data("sniggle")
    spaces_by_id(data)["e5"]["colour"] = "purple"
    message = refused(data)
    assert "'e5'" in message and "purple" in message and "white" in message
    data = board_data("sniggle")
    del spaces_by_id(data)["e5"]["colour"]
    assert "'colour'" in refused(data)
    data = board_data("sniggle")
    spaces_by_id(data)["Z3"]["colour"] = "red"
    assert "'Z3'" in refused(data) and COLOURS[0] in refused(data)


def test_the_squares_must_be_complete_and_unique():
    data = board_data("sniggle")
    spaces_by_id(data)["SR2"]["number"] = 1
    message = refused(data)
    assert "'SR2'" in message and "'SR1'" in message
    data = board_data("sniggle")
    spaces_by_id(data)["HB4"]["number"] = 5
    assert "'HB4'" in refused(data)
    data = board_data("sniggle")
    spaces_by_id(data)["HG3"]["kind"] = "main"
    del spaces_by_id(data)["HG3"]["number"]
    assert "home square G3 is missing" in refused(data)


def test_the_trademark_is_one_space_two_cells_wide_above_the_main_area():
    data = board_data("sniggle")
    spaces_by_id(data)["TM"]["width"] = 20
    assert "'TM'" in refused(data) and "width" in refused(data)
    data = board_data("sniggle")
    spaces_by_id(data)["TM"]["kind"] = "main"
    assert "trademark" in refused(data)
    data = board_data("sniggle")
    tm = spaces_by_id(data)["TM"]
    tm["x"], tm["y"] = 1, 16  # beside SR3, out of the main area's way
    message = refused(data)
    assert "'TM'" in message and "'SR3'" in message


def test_the_paths_must_start_above_the_trademark_and_hang_together():
    data = board_data("sniggle")
    data["paths"][0]["spaces"] = data["paths"][0]["spaces"][1:]
    assert "path #1" in refused(data)
    data = board_data("sniggle")
    data["paths"][1]["spaces"][3:5] = data["paths"][1]["spaces"][4:2:-1]
    assert "path #2" in refused(data) and "adjoin" in refused(data)
    data = board_data("sniggle")
    data["paths"] = data["paths"][:1]
    assert "2 paths" in refused(data)
    data = board_data("sniggle")
    data["paths"][0]["spaces"][5] = "e5"
    assert "'e5'" in refused(data)


def test_both_paths_must_pass_beside_every_matching_square():
    data = board_data("sniggle")
    data["paths"][0]["spaces"] = data["paths"][0]["spaces"][:20]  # stops before the right-hand squares
    message = refused(data)
    assert "path #1" in message and "exactly once" in message


def test_a_starting_square_must_lead_into_the_main_area():
    data = board_data("sniggle")
    spaces_by_id(data)["c1"]["kind"] = "zone"
    data["paths"][0]["spaces"].append("c1")  # keep it on a path; the starting squares under it are cut off
    assert "'SR1'" in refused(data)


def test_a_board_that_is_not_an_object_is_refused():
    assert "JSON object" in refused([1, 2])
    data = board_data("sniggle")
    data["game"] = "detour"
    assert "'game'" in refused(data)
