"""Property tests over random legal Mehen games in both variants (CPython,
hypothesis), many random complete games, and the terminal game and replay
playing both variants as a user runs them."""

import json
import re
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st
import pytest

from host.sim.views import mehen as view
from rules.core import DECIDE
from rules.mehen import VALUE, Mehen
from rules.playout import Rng, random_game, random_step
from rules.record import dumps, header, line, replay
from support import board_data, check_decisions
from test_mehen_random_games import check, check_step
from test_mehen_rules import mehen, mehen_board

pytestmark = pytest.mark.slow

ROOT = __file__.rsplit("/tests/", 1)[0]
# every decision shape Mehen knows, legal or not
ALL_DECISIONS = [("m", i) for i in range(-1, 4)] + [("l", k) for k in range(-1, 8)]
# what ends the events of every step that finishes a move or a throw
ENDINGS = ("turn", "extra_throw", "won")


@st.composite
def games(draw):
    players = draw(st.integers(2, 6), label="players")
    options = {
        "hunt": draw(st.booleans(), label="hunt"),
        "lions": draw(st.integers(1, 6), label="lions"),
        "lion_start": draw(st.sampled_from(("tail", "head")), label="lion_start"),
        "lions_return": draw(st.booleans(), label="lions_return"),
        "exact_head": draw(st.booleans(), label="exact_head"),
        "exact_home": draw(st.booleans(), label="exact_home"),
        "extra_throw": draw(st.sampled_from((0, 1, 2, 3, 6)), label="extra_throw"),
        "first_player": draw(st.integers(1, players), label="first_player"),
    }
    return mehen(players, **options), draw(st.integers(0, 2**31), label="seed")


@settings(max_examples=80, deadline=None)
@given(games(), st.data())
def test_random_play_keeps_every_invariant(setup, data):
    game, seed = setup
    rng = Rng(seed)
    lines = [dumps(header(game))]
    for _ in range(data.draw(st.integers(0, 600), label="steps")):
        if game.over():
            break
        check(game)
        before = game.copy()
        if game.is_chance():
            step = random_step(game, rng)
            events = game.play(step)
            assert events[0] == ("threw", before.turn, step, VALUE[step])
            assert game.phase == DECIDE or events[-1][0] in ENDINGS
        else:
            legal = set(game.legal())
            check_decisions(game, ALL_DECISIONS)
            step = data.draw(st.sampled_from(sorted(legal)), label="decision")
            events = game.play(step)
            check_step(game, before, step, events)
            assert events[-1][0] in ENDINGS
            if not game.options["hunt"]:
                assert "eaten" not in [e[0] for e in events]
        for player in range(game.players):
            assert game.home(player) >= before.home(player), "a marble left home"
        lines.append(dumps(line(before, step)))
        assert Mehen.load(mehen_board(), json.loads(json.dumps(game.save()))).save() == game.save()
    check(game)
    assert replay(lines, board_data).save() == game.save()


def test_many_random_games_of_both_variants_finish():
    wins = [0] * 6
    for seed in range(300):
        players = 2 + seed % 5
        game = mehen(players, hunt=seed % 2 == 1)
        random_game(game, Rng(50_000 + seed))
        check(game)
        wins[game.winner] += 1
    assert sum(wins) == 300
    assert all(wins[:2])  # the seat order matters little: the first two seats both win games


def test_a_hunting_lion_sends_marbles_back_in_random_games():
    eaten = 0
    for seed in range(20):
        game = mehen(3, hunt=True)
        rng = Rng(seed)
        while not game.over():
            eaten += sum(1 for e in game.play(random_step(game, rng)) if e[0] == "eaten")
    assert eaten > 0


# -- the terminal game and the replay, as a user runs them -----------------

def run(*args):
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_both_variants_play_through_the_sim_and_replay(tmp_path):
    for options in ([], ["--option", "hunt=true"]):
        record = tmp_path / "mehen.jsonl"
        result = run("host.sim.terminal", "--game", "mehen", "--players", "3", "--seed", "2", "--record", str(record), *options)
        assert result.returncode == 0, result.stderr
        assert re.search(r"player 1 throws [FR]{3}: \d squares?", result.stdout)
        assert " wins after " in result.stdout
        assert ("lion L1" in result.stdout) == bool(options)
        replayed = run("host.replay", str(record), "--json")
        assert replayed.returncode == 0, replayed.stderr
        final = json.loads(replayed.stdout)
        assert final["game"] == "mehen" and final["phase_name"] == "over"
        assert final["options"]["hunt"] == bool(options)
        assert "player %d has every marble home" % (final["winner"] + 1) in result.stdout


def test_replay_lists_the_eight_throws_with_their_odds(tmp_path):
    record = tmp_path / "mehen.jsonl"
    run("host.sim.terminal", "--game", "mehen", "--quiet", "--record", str(record))
    record.write_text(record.read_text().splitlines()[0] + "\n")
    throws = json.loads(run("host.replay", str(record), "--legal").stdout)
    assert throws[0] == {"step": "RRR", "probability": "1/8"} and len(throws) == 8


def test_the_sim_refuses_more_players_than_the_board_has_colours_for():
    result = run("host.sim.terminal", "--game", "mehen", "--players", "7")
    assert result.returncode == 2 and "2 to 6 players" in result.stderr


def test_the_drawing_shows_every_square_and_where_each_piece_is():
    game = mehen(2, hunt=True, lions=2)
    game.marbles[0] = game.board.length - 5  # player 1's marble a on its way out
    game.lions[1] = game.board.head
    text = view.draw(game)
    labels = set(text.split("player 1")[0].split())
    assert {str(s) for s in range(2, len(game.board))} <= labels  # no square hides another
    assert " T " in text and " H " in text
    assert "player 1: a 6 out, b tail, c tail" in text and "lions: L1 tail, L2 head" in text
    assert len(text.splitlines()[0]) < 80
