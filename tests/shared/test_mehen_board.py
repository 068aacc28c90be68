"""The Mehen board file: a spiral generated from its parameters, and the loader
that must refuse a broken one."""

from rules.core import BoardError
from rules.mehen import MehenBoard, spiral
from support import board_data, raises


def refused(data):
    return str(raises(BoardError, MehenBoard, data))


def distance(a, b):
    return ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5


def test_the_track_runs_from_the_tail_to_the_head_with_a_pixel_and_sensor_per_square():
    board = MehenBoard(board_data("mehen"))
    n = len(board)
    assert n == 36 and board.head == 35 and board.length == 70
    assert board.kinds[0] == "tail" and board.kinds[-1] == "head"
    assert board.kinds.count("track") == n - 2
    assert list(board.ids) == [str(s + 1) for s in range(n)]
    assert sorted(board.leds) == list(range(n)) and sorted(board.sensor_of) == list(range(n))
    assert len(board.extras["sticks"]) == 3 and board.pixels == n + 3
    assert sorted(board.leds + board.extras["sticks"]) == list(range(board.pixels))
    assert board.max_players == 6


def test_the_route_goes_in_and_comes_back_over_the_same_squares():
    board = MehenBoard(board_data("mehen"))
    route = list(board.route)
    assert route[:board.head + 1] == list(range(board.head + 1))
    assert route[board.head:] == list(range(board.head, -1, -1))


def test_the_coordinates_are_the_spiral_of_the_files_parameters():
    data = board_data("mehen")
    params = data["spiral"]
    size, points = spiral(params["squares"], params["turns"], params["pitch"])
    assert data["size"] == [size, size]
    assert [(s["x"], s["y"]) for s in data["spaces"]] == points


def test_the_spiral_keeps_squares_a_pitch_apart_and_coils_inwards():
    size, points = spiral(36, 2.5, 25)
    centre = (size // 2, size // 2)
    steps = [distance(points[i], points[i + 1]) for i in range(len(points) - 1)]
    assert 23 <= min(steps) and max(steps) <= 27  # neighbours one pitch apart
    nearest = min(distance(a, b) for i, a in enumerate(points) for b in points[i + 1:])
    assert nearest >= 23  # coils do not touch
    radii = [distance(p, centre) for p in points]
    assert radii == sorted(radii, reverse=True)  # the tail outside, the head in the middle
    assert points[0][1] > centre[1]  # the tail at the bottom


def test_a_spiral_with_too_many_turns_for_its_squares_is_refused():
    assert "turns" in str(raises(BoardError, spiral, 36, 4, 25))


def test_the_first_square_must_be_the_tail_and_the_last_the_head():
    data = board_data("mehen")
    data["spaces"][5]["kind"] = "head"
    assert "'6'" in refused(data)
    data = board_data("mehen")
    data["spaces"][0]["kind"] = "track"
    assert "'1'" in refused(data) and "tail" in refused(data)


def test_the_spiral_parameters_must_match_the_spaces():
    data = board_data("mehen")
    data["spiral"]["squares"] = 40
    assert "squares" in refused(data)
    data = board_data("mehen")
    data["spiral"]["pitch"] = "25"
    assert "'pitch'" in refused(data)
    data = board_data("mehen")
    del data["spiral"]
    assert "'spiral'" in refused(data)


def test_the_sticks_need_three_pixels_and_players_a_sane_limit():
    data = board_data("mehen")
    data["extras"]["sticks"] = [36, 37]
    assert "sticks" in refused(data)
    data = board_data("mehen")
    data["max_players"] = 9
    assert "max_players" in refused(data)


def test_the_shared_loader_checks_pixels_and_sensors():
    data = board_data("mehen")
    data["spaces"][3]["led"] = 36  # a stick's pixel
    assert "'sticks'" in refused(data)
    data = board_data("mehen")
    data["spaces"][3]["sensor"] = 36
    assert "'4'" in refused(data) and "sensor" in refused(data)
    data = board_data("mehen")
    data["game"] = "detour"
    assert "'game'" in refused(data)
