"""Proof of strength: the computer players against each other, every game.

    python -m host.bench.strength [--games N] [--game NAME]... [--pairing A-B]... [--nodes N] [--jobs N]

For each game, N games (default 1,000) are split over three pairings: search
against random, search against greedy, greedy against random (or over the
pairings named: ``--pairing search-greedy`` plays N games of that one). The
hint the controller lights is the search player at the node count the Pico
reaches within its time budget (``make bench`` prints it): ``--nodes`` plays
it so. Seats alternate
from one game to the next; every game has its own seeds, so a run repeats
exactly. Printed: the first player's score rate (a win 1, a shared win 1/2)
with its 95% Wilson interval, and the mean number of steps a game took.
"""

import argparse
import math
import multiprocessing
import sys
import time

from host.boardfile import read_board
from rules.games import GAMES, find_game
from rules.playout import Rng
from rules.players import PLAYERS, play_out

PAIRINGS = (("search", "random"), ("search", "greedy"), ("greedy", "random"))
# the setup each game is played in: two players, and the options that give the
# players something to decide (classic Mehen is a pure race: every marble moves
# the same throw, so only the hunt, with lions to steer, tells players apart)
SETUPS = {"mehen": {"hunt": True}}
CHUNK = 25  # games per task handed to a worker
PROGRESS_S = 10  # a run takes minutes: how far it is, at most this often
Z = 1.96  # 95%


def wilson(score, n):
    """The 95% Wilson score interval (low, high) of a rate ``score / n``."""
    p = score / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return centre - half, centre + half


def make(name, seed, nodes):
    rng = Rng(seed)
    return PLAYERS[name](rng, nodes=nodes) if name == "search" else PLAYERS[name](rng)


_boards = {}


def play_games(task):
    """Games ``first .. first + count - 1`` of a pairing; returns (score of A, ties, steps)."""
    game_name, a, b, first, count, nodes = task
    cls = find_game(game_name)
    if game_name not in _boards:  # one board per worker: the players keep tables per board
        _boards[game_name] = cls(read_board(game_name), 2, SETUPS.get(game_name)).board
    score = ties = steps = 0
    for i in range(first, first + count):
        game = cls(_boards[game_name], 2, SETUPS.get(game_name))
        pa, pb = make(a, 3 * i + 1, nodes), make(b, 3 * i + 2, nodes)
        seats = (pa, pb) if i % 2 == 0 else (pb, pa)  # A moves first in every other game
        steps += play_out(game, seats, Rng(3 * i + 3))
        if game.winner >= 0:
            score += 2 if seats[game.winner] is pa else 0
        else:  # a shared win (Tiddlee Snuka): half a point each
            score += 1
            ties += 1
    return score, ties, steps  # the score in half points


def played(results, tasks, what="strength"):
    """``results`` (of play_games on ``tasks``, in order) as they come, telling
    stderr every PROGRESS_S how many games are played."""
    total = sum(task[4] for task in tasks)
    start = shown = time.time()
    done = 0
    for task, result in zip(tasks, results):
        done += task[4]
        if time.time() - shown >= PROGRESS_S:
            shown = time.time()
            print("%s: game %d of %d, %d %% done (%.0f s)" % (what, done, total, 100 * done // total, shown - start),
                  file=sys.stderr, flush=True)
        yield result


def split(total, count=len(PAIRINGS)):
    """How many games each of ``count`` pairings gets: ``total`` shared out, at least one each."""
    base = max(1, total // count)
    sizes = [base] * count
    sizes[0] += max(0, total - base * count)
    return sizes


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m host.bench.strength", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per game, over all pairings (default 1000)")
    parser.add_argument("--game", action="append", choices=GAMES, help="only this game (repeatable; default all)")
    parser.add_argument("--pairing", action="append", choices=["%s-%s" % pair for pair in PAIRINGS],
                        help="only this pairing (repeatable; default all)")
    parser.add_argument("--nodes", type=int, default=300, help="the search player's node budget (default 300)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    args = parser.parse_args(argv)
    names = args.game or list(GAMES)
    pairings = [pair for pair in PAIRINGS if not args.pairing or "%s-%s" % pair in args.pairing]
    tasks, keys = [], []
    for name in names:
        for (a, b), size in zip(pairings, split(args.games, len(pairings))):
            for first in range(0, size, CHUNK):
                tasks.append((name, a, b, first, min(CHUNK, size - first), args.nodes))
                keys.append((name, a, b))
    start = time.time()
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            results = list(played(pool.imap(play_games, tasks), tasks))
    else:
        results = list(played(map(play_games, tasks), tasks))
    totals = {}
    for key, task, (score, ties, steps) in zip(keys, tasks, results):
        t = totals.setdefault(key, [0, 0, 0, 0])
        t[0] += task[4]
        t[1] += score
        t[2] += ties
        t[3] += steps
    print("%-8s %-17s %6s %7s  %-15s %5s %6s  %s"
          % ("game", "A vs B", "games", "A score", "95% interval", "ties", "steps", "verdict"))
    for name in names:
        for a, b in pairings:
            n, score, ties, steps = totals[(name, a, b)]
            low, high = wilson(score / 2, n)
            verdict = "A stronger" if low > 0.5 else "B stronger" if high < 0.5 else "not told apart"
            print("%-8s %-17s %6d %6.1f%%  %5.1f%% - %5.1f%% %5d %6d  %s"
                  % (name, "%s vs %s" % (a, b), n, 50.0 * score / n, 100 * low, 100 * high, ties, steps // n, verdict))
    for name in names:
        if name in SETUPS:
            print("%s is played with %s" % (name, ", ".join("%s=%s" % kv for kv in sorted(SETUPS[name].items()))))
    print("search: node budget %d per decision; %d games in %.0f s on %d worker(s)"
          % (args.nodes, sum(t[0] for t in totals.values()), time.time() - start, args.jobs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
