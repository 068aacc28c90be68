"""Game records: written while playing, replayed to the same state, and the
first bad line named."""

import json

from rules.core import RulesError
from rules.playout import Rng, random_record
from rules.record import RecordError, dumps, replay
from support import board_data, detour, raises


def recorded(seed, steps=200, players=2):
    game = detour(players)
    return game, random_record(game, Rng(seed), steps)


def test_a_record_replays_to_the_same_state():
    for seed in (1, 2, 3):
        game, lines = recorded(seed, 400, players=seed + 1)
        assert replay(lines, board_data).save() == game.save()


def test_record_lines_name_the_kind_of_step():
    _, lines = recorded(4, 6)
    head = json.loads(lines[0])
    assert head["game"] == "detour" and head["board"] == "detour" and head["players"] == 2
    assert list(json.loads(lines[1])) == ["roll"]
    assert list(json.loads(lines[2])) == ["play"]


def test_the_first_illegal_line_is_named():
    _, lines = recorded(5, 30)
    bad = lines[:10] + [dumps({"play": "z9"})] + lines[10:]
    if list(json.loads(lines[10]))[0] != "play":
        bad[10] = dumps({"play": "a9"})
    err = raises(RecordError, replay, bad, board_data)
    assert err.line == 11 and "line 11" in str(err)


def test_a_step_of_the_wrong_kind_is_named():
    _, lines = recorded(6, 4)
    bad = lines[:1] + [dumps({"play": "a3"})]
    assert "expected {'roll'" in str(raises(RecordError, replay, bad, board_data))


def test_broken_headers_and_lines_are_refused():
    assert "line 1" in str(raises(RecordError, replay, ["not json"], board_data))
    assert "version" in str(raises(RecordError, replay, ['{"game": "detour"}'], board_data))
    head = dumps({"record": 1, "game": "chess", "board": "detour", "players": 2, "options": {}})
    assert "unknown game" in str(raises(RecordError, replay, [head], board_data))
    assert "empty" in str(raises(RecordError, replay, [], board_data))
    assert isinstance(raises(RecordError, replay, [head], board_data), RulesError)


def test_a_header_field_of_the_wrong_kind_is_named():
    good = {"record": 1, "game": "detour", "board": "detour", "players": 2, "options": {}}
    for name, value in (("game", ["detour"]), ("board", None), ("board", {}), ("players", "2"), ("options", 3)):
        head = dict(good)
        head[name] = value
        err = raises(RecordError, replay, [dumps(head)], board_data)
        assert str(err).startswith("line 1: field %r must be " % name)


def test_a_hostile_line_is_refused_and_repeated_only_in_part():
    nested = "[" * 5000 + "]" * 5000
    assert str(raises(RecordError, replay, [nested], board_data)).startswith("line 1: ")
    head = dumps({"record": 1, "game": "detour", "board": "detour", "players": 2, "options": {}})
    err = raises(RecordError, replay, [head, '{"play": "%s"}' % ("x" * 100000)], board_data)
    assert str(err).startswith("line 2: ") and len(str(err)) < 200
