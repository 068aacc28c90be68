"""Saving and loading a Detour game: round trips, and corrupt saves refused."""

import json

from rules.core import SaveError
from rules.detour import Detour
from rules.playout import Rng, random_record, random_step
from support import detour, detour_board, put, raises


def played(seed, steps):
    game = detour(3)
    random_record(game, Rng(seed), steps)
    return game


def test_save_and_load_round_trip_through_json_at_every_step():
    game = detour(2, pieces=4)
    rng = Rng(7)
    for _ in range(300):
        if game.over():
            break
        text = json.dumps(game.save())
        back = Detour.load(detour_board(), json.loads(text))
        assert back.save() == game.save()
        assert back.legal() == game.legal() and back.chance_outcomes() == game.chance_outcomes()
        game.play(random_step(game, rng))


def test_a_save_is_small():
    assert len(json.dumps(played(3, 120).save())) < 400


def test_a_copy_is_independent_of_the_original():
    game = played(5, 40)
    twin = game.copy()
    assert twin.save() == game.save()
    rng = Rng(9)
    while twin.save() == game.save():
        twin.play(random_step(twin, rng))
    assert game.save() != twin.save()
    assert Detour.load(detour_board(), game.save()).save() == game.save()


def test_corrupt_saves_are_refused_naming_the_field():
    good = played(11, 60).save()
    cases = (
        ("pos", "x", "'pos'"),
        ("pos", [5] * 6, "two pieces"),
        ("head", [9] * 6, "'head'"),
        ("phase", 17, "'phase'"),
        ("wheels", [0, 0], "'wheels'"),
        ("players", 9, "2 to 4"),
        ("game", "mehen", "'mehen' game"),
        ("board", "other", "board"),
    )
    for name, value, expected in cases:
        data = dict(good)
        data[name] = value
        assert expected in str(raises(SaveError, Detour.load, detour_board(), data)), name
    data = dict(good)
    del data["turn"]
    assert "'turn'" in str(raises(SaveError, Detour.load, detour_board(), data))
    assert "missing" in str(raises(SaveError, Detour.load, detour_board(), [1]))


def test_a_piece_heading_off_the_path_is_refused():
    game = detour()
    put(game, 0, 0, "e1", "N")
    assert "heads off the path" in str(raises(SaveError, Detour.load, detour_board(), game.save()))
