"""Property tests over random legal Detour games (CPython, hypothesis)."""

from hypothesis import given, settings
from hypothesis import strategies as st
import pytest

from rules.detour import FINISHED, Detour
from rules.playout import Rng, random_step
from rules.record import dumps, header, line, replay
from support import board_data, check_decisions, detour, detour_board
from test_random_games import check, play_checked

pytestmark = pytest.mark.slow

# every decision shape Detour knows, legal or not
ALL_DECISIONS = (
    [("m", i, v, h) for i in range(4) for v in range(1, 7) for h in range(-1, 4)]
    + [("w", w, q) for w in range(-1, 5) for q in (-1, 0, 1, 2)]
    + [("s", s) for s in range(-1, 3)]
)


def games():
    return st.tuples(
        st.integers(2, 4), st.booleans(), st.booleans(), st.booleans(), st.integers(0, 2**31)
    ).map(lambda t: (detour(t[0], half_turns=t[1], wheel_turn_optional=t[2],
                            pieces=4 if t[3] and t[0] == 2 else 2), t[4]))


@settings(max_examples=60, deadline=None)
@given(games(), st.data())
def test_random_play_keeps_every_invariant(setup, data):
    game, seed = setup
    rng = Rng(seed)
    lines = [dumps(header(game))]
    finished = set()
    for _ in range(data.draw(st.integers(0, 400), label="steps")):
        if game.over():
            break
        check(game)
        now = {p for p, s in enumerate(game.pos) if s == FINISHED}
        assert finished <= now, "a finished piece came back"
        finished = now
        if not game.is_chance():
            legal = set(game.legal())
            check_decisions(game, ALL_DECISIONS)
            step = data.draw(st.sampled_from(sorted(legal, key=repr)), label="decision")
        else:
            step = random_step(game, rng)
        lines.append(dumps(line(game, step)))
        game.play(step)
        assert Detour.load(detour_board(), game.save()).save() == game.save()
    assert replay(lines, board_data).save() == game.save()


def test_a_thousand_random_games_finish_without_error():
    winners = [0, 0, 0, 0]
    for seed in range(1000):
        players = 2 + seed % 3
        game, _ = play_checked(10_000 + seed, players, 4 if seed % 7 == 0 and players == 2 else 2)
        winners[game.winner] += 1
    assert sum(winners) == 1000
    # the seat order matters little: every seat wins some games
    assert all(winners[:2])
