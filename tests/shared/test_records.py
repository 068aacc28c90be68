"""Game records: written while playing, replayed to the same state, and the
first bad line named."""

import json

from rules.core import STEP_TEXT, RulesError
from rules.games import GAMES, new_game
from rules.playout import Rng, random_record, random_step
from rules.record import RecordError, dumps, line, replay
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


def test_a_step_too_long_to_be_one_is_refused_before_a_number_is_read():
    # 5,000 digits: CPython refuses to turn so many into an int with a ValueError of its own
    for name, step in (("mehen", "L" + "9" * 5000), ("detour", "3," + "5" * 5000), ("sniggle", "1:" + "6" * 5000),
                       ("snuka", "R" * 5000)):
        game = new_game(name, board_data(name), 2)
        lines = random_record(game, Rng(2), 3)
        key = list(line(game, random_step(game, Rng(1))))[0]  # what the next line must name
        err = raises(RecordError, replay, lines + [dumps({key: step})], board_data)
        assert "(%d characters) as a step" % len(step) in str(err) and len(str(err)) < 200, str(err)


def test_every_step_a_game_plays_is_written_within_the_length_a_step_is_read_in():
    for name in GAMES:
        game = new_game(name, board_data(name), 4 if name != "snuka" else 6)
        rng = Rng(9)
        longest = 0
        while not game.over():
            steps = [o for o, _, _ in game.chance_outcomes()] if game.is_chance() else game.legal()
            longest = max([longest] + [len(game.notation(s)) for s in steps])
            game.play(random_step(game, rng))
        assert 0 < longest <= STEP_TEXT, (name, longest)
