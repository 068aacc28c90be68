"""Saving and loading a Sniggle game: round trips, and corrupt saves refused."""

import json

from rules.core import DECIDE, SaveError
from rules.playout import Rng, random_record, random_step
from rules.sniggle import Sniggle
from support import raises
from test_sniggle_rules import put, sniggle, sniggle_board, started


def played(seed, steps, players=3):
    game = sniggle(players)
    random_record(game, Rng(seed), steps)
    return game


def load(data):
    return Sniggle.load(sniggle_board(), data)


def test_save_and_load_round_trip_through_json_at_every_step():
    game = sniggle(4, colours="YBRG", larger_die=True)
    rng = Rng(7)
    for _ in range(300):
        if game.over():
            break
        back = load(json.loads(json.dumps(game.save())))
        assert back.save() == game.save()
        assert back.legal() == game.legal() and back.chance_outcomes() == game.chance_outcomes()
        game.play(random_step(game, rng))


def test_a_save_is_small():
    assert len(json.dumps(played(3, 150, 4).save())) < 450


def test_a_copy_is_independent_of_the_original():
    game = played(5, 60)
    twin = game.copy()
    assert twin.save() == game.save() and twin.legal() == game.legal()
    rng = Rng(9)
    while twin.save() == game.save():
        twin.play(random_step(twin, rng))
    assert game.save() != twin.save()
    assert load(game.save()).save() == game.save()


def test_corrupt_saves_are_refused_naming_the_field():
    good = played(11, 80).save()
    start = sniggle_board().space("SR1")
    cases = (
        ("pos", "x", "'pos'"),
        ("pos", [5] * 12, "both on space"),
        ("pos", [start] + good["pos"][1:4] + [start + 1] + good["pos"][5:], "'pos'"),
        ("lane", [1] * 12, "'lane'"),
        ("phase", 17, "'phase'"),
        ("phase", 2, "'phase'"),
        ("dice", [7], "'dice'"),
        ("throws", [1], "'throws'"),
        ("players", 9, "2 to 4"),
        ("options", {"colours": "RR"}, "colours"),
        ("game", "mehen", "'mehen' game"),
        ("board", "other", "board"),
        ("winner", 1, "winner"),
    )
    for name, value, expected in cases:
        data = dict(good)
        data[name] = value
        assert expected in str(raises(SaveError, load, data)), name
    data = dict(good)
    del data["turn"]
    assert "'turn'" in str(raises(SaveError, load, data))
    assert "missing" in str(raises(SaveError, load, [1]))


def test_a_state_no_game_reaches_is_refused():
    game = started()
    game.play((1, 2))
    data = game.save()
    data["dice"] = []  # a decision with no dice
    assert "phase" in str(raises(SaveError, load, data))
    game = started()
    put(game, "R1", "Z10", 0)  # the left path passes beside HR1 at Z4, long before Z10
    assert "'lane'" in str(raises(SaveError, load, game.save()))
    game = started()
    game.throws = [7]  # throws for the first turn after it was settled
    assert "phase" in str(raises(SaveError, load, game.save()))


def test_a_saved_decision_with_no_legal_move_is_refused():
    game = started()
    game.play((1, 2))
    assert game.phase == DECIDE
    data = game.save()
    data["pos"] = list(data["pos"])
    board = sniggle_board()
    for i, sid in enumerate(("HR1", "Z28", "HR3", "HR4")):  # R2 beside HR2 needs a 1
        data["pos"][i] = board.space(sid)
    data["lane"] = [-1, 1] + [-1] * 6
    data["dice"] = [4, 5]
    assert "none is legal" in str(raises(SaveError, load, data))
