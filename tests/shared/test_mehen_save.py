"""Saving, loading and recording Mehen: round trips, and corrupt saves refused."""

import json

from rules.core import DECIDE, SaveError
from rules.mehen import Mehen
from rules.playout import Rng, random_record
from rules.record import replay
from support import board_data, raises
from test_mehen_rules import TWO, mehen, mehen_board, put


def played(steps, seed=3, players=3, **options):
    game = mehen(players, **options)
    return game, random_record(game, Rng(seed), steps)


def load(data):
    return Mehen.load(mehen_board(), json.loads(json.dumps(data)))


def refused(data):
    return str(raises(SaveError, load, data))


def test_a_save_loads_back_to_the_same_game_in_both_variants():
    for options in ({}, {"hunt": True, "lions": 2, "lions_return": True}):
        for steps in (0, 1, 57, 400):
            game, _ = played(steps, **options)
            again = load(game.save())
            assert again.save() == game.save()
            assert again.legal() == game.legal() and again.chance_outcomes() == game.chance_outcomes()


def test_a_copy_is_independent():
    game = mehen(hunt=True)
    other = game.copy()
    other.play(TWO)
    other.play_text("L1")
    assert game.lions == [0, 0, 0] and game.phase != DECIDE and other.lions[0] == 2


def test_records_of_both_variants_replay_to_the_same_state():
    for options in ({}, {"hunt": True}):
        game, lines = played(3000, seed=8, players=2, **options)
        assert game.over()
        first = json.loads(lines[1])
        assert list(first) == ["roll"] and len(first["roll"]) == 3  # the sticks, e.g. "FRF"
        assert replay(lines, board_data).save() == game.save()


def test_corrupt_saves_are_refused_naming_the_field():
    game, _ = played(40)
    good = game.save()
    for name, value, expected in (
        ("marbles", [0] * 8, "'marbles'"),
        ("marbles", [0] * 8 + [71], "'marbles'"),
        ("marbles", [0] * 8 + [True], "'marbles'"),
        ("lions", [1], "'lions'"),
        ("turn", 3, "'turn'"),
        ("sticks", 8, "'sticks'"),
        ("phase", 2, "'phase'"),
        ("winner", 0, "winner"),
        ("options", {"lions": 0}, "'lions'"),
        ("players", 7, "players"),
        ("board", "detour", "board"),
        ("game", "detour", "'mehen'"),
    ):
        bad = dict(good)
        bad[name] = value
        assert expected in refused(bad), (name, refused(bad))
    bad = dict(good)
    del bad["marbles"]
    assert "'marbles'" in refused(bad)


def test_a_save_no_game_could_reach_is_refused():
    game = mehen()
    data = game.save()
    data["sticks"] = 3  # a throw waiting while the phase asks for a throw
    assert "'sticks'" in refused(data)
    game = mehen(exact_home=True)
    end = game.board.length
    put(game, 0, [end - 1, end, end])
    data = game.save()
    data["phase"], data["sticks"] = DECIDE, TWO  # no marble can move 2
    assert "'phase' awaits a decision but none is legal" in refused(data)
    data = mehen().save()
    data["marbles"] = [70, 70, 70, 0, 0, 0]  # all home, yet nobody has won
    assert "winner" in refused(data)
    data = mehen(hunt=True, lions_return=True).save()
    data["lions"] = [70, 0, 0]  # a returning lion never stays home
    assert "'lions'" in refused(data)
