"""The computer players' strength, on seeded games (CPython only: it takes
seconds). The full proof with intervals is ``make strength``."""

import pytest

from host.bench.strength import SETUPS, main, play_games, wilson
from rules.games import GAMES

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("name", GAMES)
def test_search_beats_random(name):
    score, _, _ = play_games((name, "search", "random", 0, 50, 100))  # half points over 50 games
    assert score >= 75, "%s: search scored %.0f%% against random" % (name, score)
    assert wilson(score / 2, 50)[0] > 0.5


def test_search_beats_greedy_in_the_mehen_hunt():
    assert SETUPS["mehen"] == {"hunt": True}
    score, _, _ = play_games(("mehen", "search", "greedy", 0, 30, 100))
    assert score >= 45, "search scored %.0f%% against greedy" % (100 * score / 60)


def test_wilson_interval():
    low, high = wilson(50, 100)
    assert round(low, 3) == 0.404 and round(high, 3) == 0.596
    low, high = wilson(10, 10)
    assert high == pytest.approx(1.0) and round(low, 3) == 0.722


def test_strength_prints_every_pairing_with_its_interval(capsys):
    assert main(["--games", "6", "--game", "snuka", "--jobs", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:3] == ["game", "A", "vs"]
    rows = [line for line in lines if line.startswith("snuka ")]
    assert [" ".join(r.split()[1:4]) for r in rows] == ["search vs random", "search vs greedy", "greedy vs random"]
    assert all(r.split()[4] == "2" and "%" in r for r in rows)


def test_strength_plays_only_the_pairing_named_with_every_game(capsys):
    assert main(["--games", "4", "--game", "snuka", "--pairing", "search-greedy", "--nodes", "20", "--jobs", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = [line for line in lines if line.startswith("snuka ")]
    assert [" ".join(r.split()[1:5]) for r in rows] == ["search vs greedy 4"]
    assert "node budget 20" in lines[-1]
