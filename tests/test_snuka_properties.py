"""Property tests over random Tiddlee Snuka shot sequences (CPython, hypothesis),
and a whole frame refereed through the terminal game and the replay command."""

import json
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st
import pytest

from rules.record import dumps, header, line, replay
from rules.snuka import Snuka
from support import board_data, check_decisions
from test_snuka_random import Ledger, check, play_checked
from test_snuka_rules import snuka, snuka_board

pytestmark = pytest.mark.slow

ROOT = __file__.rsplit("/tests/", 1)[0]

# every input shape the board knows, legal or not
ALL_STEPS = (
    [(kind, c) for kind in ("pot", "also", "nominate", "respotted") for c in range(-1, 8)]
    + [("foul", c, k) for c in range(-1, 8) for k in range(-1, 4)]
    + [("miss",), ("safe",), ("pass",)]
)


def frames():
    return st.tuples(st.integers(1, 6), st.booleans(), st.booleans(), st.booleans(), st.booleans()).map(
        lambda t: snuka(t[0], nominate=t[1], colour_after_last_red=t[2], wrong_pot_penalty=t[3], confirm_respot=t[4]))


@settings(max_examples=50, deadline=None)
@given(frames(), st.data())
def test_random_shot_sequences_keep_the_score_and_every_counter(game, data):
    ledger = Ledger(game)
    lines = [dumps(header(game))]
    for n in range(data.draw(st.integers(0, 300), label="shots")):
        if game.over():
            break
        check(game, ledger)
        legal = set(game.legal())
        if n % 5 == 0:
            check_decisions(game, ALL_STEPS)
        step = data.draw(st.sampled_from(sorted(legal, key=repr)), label="input")
        turn, good = game.turn, game.good
        lines.append(dumps(line(game, step)))
        events = game.play(step)
        ledger.read(events)
        if not game.over():  # the turn passes exactly when a shot fails
            if step[0] == "also":
                failed = good
            else:
                failed = step[0] in ("miss", "safe", "foul") or (step[0] == "pot" and events[0][3] == 0)
            assert (("turn", game.turn) in events) == failed
            assert game.turn == ((turn + 1) % game.players if failed else turn)
        assert Snuka.load(snuka_board(), json.loads(json.dumps(game.save()))).save() == game.save()
    check(game, ledger)
    assert replay(lines, board_data).save() == game.save()


def test_scores_are_the_potted_values_less_the_penalties_over_many_frames():
    wins = [0] * 6
    for seed in range(200):
        game, _ = play_checked(10_000 + seed, 1 + seed % 6)  # checks the ledger at every step
        for p in game.winners:
            wins[p] += 1
    assert all(wins)  # every seat wins some frames


def run(*args):
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_a_whole_frame_is_refereed_by_the_sim_and_replayed(tmp_path):
    record = tmp_path / "frame.jsonl"
    sim = run("host.sim.terminal", "--game", "snuka", "--players", "3", "--seed", "2", "--record", str(record))
    assert sim.returncode == 0, sim.stderr
    assert "player 1 pots" in sim.stdout or "player 1 flips" in sim.stdout
    assert "on: red" in sim.stdout and "player 2's turn" in sim.stdout
    replayed = run("host.replay", str(record), "--json")
    assert replayed.returncode == 0, replayed.stderr
    final = json.loads(replayed.stdout)
    assert final["phase_name"] == "over" and final["game"] == "snuka" and final["reds"] == 0
    verdict = sim.stdout.splitlines()[-2]
    assert verdict.startswith("a tie" if final["winner"] < 0 else "player %d wins" % (final["winner"] + 1))
    assert "  player %d: %4d" % (1, final["scores"][0]) in sim.stdout


def test_replay_names_a_bad_shot_and_lists_the_inputs_the_board_takes(tmp_path):
    record = tmp_path / "frame.jsonl"
    head = {"record": 1, "game": "snuka", "board": "snuka", "players": 2, "options": {}}
    record.write_text("\n".join(dumps(x) for x in (head, {"play": "R"}, {"play": "K"})) + "\n")
    legal = json.loads(run("host.replay", str(record), "--legal").stdout)
    assert legal == ["@K", "+R", "+Y", "+G", "+M", "+B", "+P"]
    with record.open("a") as f:
        f.write(dumps({"play": "R"}) + "\n")  # the black is not back on its spot yet
    result = run("host.replay", str(record))
    assert result.returncode == 1 and "line 4" in result.stderr and "'R'" in result.stderr
