"""Random complete games: the protocol stays consistent at every step.

The same seeds give the same games on CPython and MicroPython; the summary
each run returns is compared between the two interpreters."""

from rules.core import OVER
from rules.detour import FINISHED
from rules.playout import Rng, random_game
from support import REPORTS, detour, play_to_the_end

GAMES = 50


def check(game):
    """What must hold in every reachable state."""
    board = game.board
    seen = {}
    waiting = game.duel[1] if game.duel else game.loser  # shares a space until the pop-off is settled
    for p, s in enumerate(game.pos):
        if s >= 0 and board.kinds[s] != "start" and p != waiting:
            assert s not in seen, "two pieces on %s" % board.ids[s]
            seen[s] = p
            assert s == board.centre or board.mask(s, game.wheels) & (1 << game.head[p])
    assert len(game.pos) == game.players * game.per
    if game.is_chance():
        outcomes = game.chance_outcomes()
        assert outcomes and not game.legal()
        den = outcomes[0][2]
        assert all(d == den for _, _, d in outcomes) and sum(n for _, n, _ in outcomes) == den
    elif game.phase != OVER:
        assert game.legal(), "no legal step in phase %d" % game.phase
    assert (game.phase == OVER) == (game.winner >= 0)
    if game.phase == OVER:
        assert all(game.pos[p] == FINISHED for p in game.pieces_of(game.winner))


def play_checked(seed, players, pieces):
    game = detour(players, pieces=pieces)
    return game, play_to_the_end(game, seed, check, ("m", 3, 7, -1), 7)


def test_random_games_end_with_a_winner():
    wins = [0] * 4
    total = 0
    for seed in range(GAMES):
        players = 2 + seed % 3
        game, steps = play_checked(seed, players, 4 if seed % 5 == 4 and players == 2 else 2)
        wins[game.winner] += 1
        total += steps
    assert sum(wins) == GAMES
    REPORTS["random games"] = "%d games, %d steps, wins %s" % (GAMES, total, wins)


def test_random_game_helper_counts_steps():
    game = detour(2)
    steps = random_game(game, Rng(99))
    assert game.over() and steps > 10
