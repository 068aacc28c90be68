"""Every fuzz campaign of host/fuzz on a small seeded sample (make fuzz runs
them at length): hostile files and requests are refused with a message and
nothing stops, so every failure figure is 0."""

import json
import subprocess
import sys

import pytest

from host.fuzz import failures
from host.fuzz.__main__ import campaigns

pytestmark = pytest.mark.slow

SAMPLE = 100  # a campaign's default count is divided by this


@pytest.mark.parametrize("module", campaigns(), ids=lambda m: m.NAME)
def test_a_campaign_sample_finds_no_failure(module, capsys):
    line = module.run(max(1, module.CASES // SAMPLE), 7)
    assert line.startswith(module.NAME + ": ")
    assert failures(line) == [], capsys.readouterr().out


def test_a_figure_line_fails_on_any_failure_count():
    assert failures("boards: 10,000 mutated, 0 tracebacks, 0 stuck; accepted and played 2,212") == []
    assert failures("boards: 10,000 mutated, 0 tracebacks, 12 stuck") == ["12 stuck"]
    assert failures("server: 10,000 requests, 1,002 threads; p99 of /api/games 80 ms") == ["1,002 threads"]


def test_make_fuzz_names_an_unknown_campaign():
    done = subprocess.run([sys.executable, "-m", "host.fuzz", "--only", "nothing"], capture_output=True, text=True)
    assert done.returncode == 2 and "no campaign 'nothing' (known: " in done.stderr


def test_a_record_that_does_not_replay_counts_as_off_not_as_a_crash(tmp_path):
    from host.boardfile import read_board
    from host.fuzz.powercuts import replayed
    from rules.games import new_game
    from rules.record import header

    game = new_game("detour", read_board("detour"), 2)
    path = tmp_path / "game.jsonl"
    path.write_text(json.dumps(header(game)) + '\n{"roll": "9,9"}\n')  # no die shows a 9
    assert replayed(str(path)) is None
    path.write_text(json.dumps(header(game)) + "\n")
    assert replayed(str(path)) == game.save()
