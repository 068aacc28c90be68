"""Property tests over random legal Sniggle games (CPython, hypothesis), and
the move generator checked against a plain step-by-step reference search."""

import json
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st
import pytest

from rules.core import DECIDE
from rules.playout import Rng, random_step
from rules.record import dumps, header, line, replay
from rules.sniggle import Sniggle, die_of, move, piece_of, space_of
from support import board_data, check_decisions
from test_sniggle_perft import COUNTS, POSITIONS, ROLLS, position
from test_sniggle_random_games import check, play_checked
from test_sniggle_rules import sniggle, sniggle_board

pytestmark = pytest.mark.slow

BOARD = sniggle_board()
DATA = board_data("sniggle")
PATHS = [[BOARD.space(sid) for sid in path["spaces"]] for path in DATA["paths"]]
_TM = [s for s in DATA["spaces"] if s["kind"] == "trademark"][0]
TRADEMARK_CELLS = {(_TM["x"] + dx, _TM["y"]) for dx in range(_TM["width"])}


# -- the reference: every walk tried step by step, straight from the rule sheet ---------------


def beside(a, b):
    return abs(BOARD.xs[a] - BOARD.xs[b]) + abs(BOARD.ys[a] - BOARD.ys[b]) == 1


def reference_ends(game, p, die):
    """Where piece ``p`` can end a walk of exactly ``die`` steps."""
    at, kinds, xs, ys = BOARD.at, BOARD.kinds, BOARD.xs, BOARD.ys
    home = game.home_of(p)
    ends = set()

    def walk(s, lane, came, left):
        if left == 0:
            if kinds[s] != "start":  # a starting square is only left, never landed on
                ends.add(s)
            return
        kind = kinds[s]
        if kind == "start":
            ahead = at.get((xs[s], ys[s] - 1))
            if ahead is not None and kinds[ahead] in ("start", "main"):
                walk(ahead, -1, s, left - 1)
        elif kind == "main":
            for dx, dy in ((0, -1), (-1, 0), (1, 0)):  # forward, sideways; never back, never diagonal
                cell = (xs[s] + dx, ys[s] + dy)
                if dy and cell in TRADEMARK_CELLS:
                    if left >= 2:  # the trademark counts as two spaces
                        walk(BOARD.trademark, -1, s, left - 2)
                    continue
                ahead = at.get(cell)
                if ahead is not None and kinds[ahead] == "main" and ahead != came:  # not straight back
                    walk(ahead, -1, s, left - 1)
        elif kind == "trademark":
            for path in (0, 1):
                walk(PATHS[path][0], path, s, left - 1)
        elif kind == "zone":
            if beside(s, home):  # it may not go past its matching square
                walk(home, -1, s, left - 1)
            else:
                route = PATHS[lane]
                i = route.index(s)
                if i + 1 < len(route):
                    walk(route[i + 1], lane, s, left - 1)

    walk(game.pos[p], game.lane[p], -1, die)
    return ends


def reference_moves(game, pos, pieces, dice):
    """Every single move of one of ``pieces`` with one of ``dice`` that lands legally."""
    moves = set()
    for p in pieces:
        here = game.pos[p]
        game.pos[p] = pos[p]
        for die in set(dice):
            for s in reference_ends(game, p, die):
                other = pos.index(s) if s in pos else -1
                if other < 0 or (other // 4 != game.turn and BOARD.colour[s] != game.colour[other // 4] + 1):
                    moves.add(move(p % 4, die, s))
        game.pos[p] = here
    return moves


def reference_second(game, pieces, step):
    """Whether another of ``pieces`` can move the other die after ``step``."""
    p, dest = 4 * game.turn + piece_of(step), space_of(step)
    pos = list(game.pos)
    if dest in pos:
        pos[pos.index(dest)] = -1  # sent back: off the way of the second move
    pos[p] = dest
    rest = list(game.dice)
    rest.remove(die_of(step))
    return bool(reference_moves(game, pos, [q for q in pieces if q != p], rest))


def reference_legal(game):
    base = 4 * game.turn
    pieces = [p for p in range(base, base + 4) if game.pos[p] != game.home_of(p) and p != game.moved]
    moves = reference_moves(game, game.pos, pieces, game.dice)
    if game.moved >= 0 or len(game.dice) < 2 or len(pieces) < 2:
        return moves
    both = {move for move in moves if reference_second(game, pieces, move)}
    if both:
        return both
    if game.options["larger_die"] and any(die_of(m) == max(game.dice) for m in moves):
        return {m for m in moves if die_of(m) == max(game.dice)}
    return moves


def test_the_move_counts_agree_with_the_reference_search():
    for name in POSITIONS:
        found = []
        for roll in ROLLS:
            game = position(name)
            game.play(roll)
            assert set(game.legal()) == reference_legal(game), (name, roll)
            found.append(len(reference_legal(game)))
        assert tuple(found) == COUNTS[name]


# -- random games ------------------------------------------------------------------------------

# every move shape, legal or not: pieces 0-3, dice 1-6, a sample of spaces
SPACES = sorted({BOARD.space(sid) for sid in ("SR1", "c1", "e5", "f10", "TM", "Z1", "Z28", "HR1")})
ALL_MOVES = [move(i, v, s) for i in range(-1, 5) for v in range(0, 8) for s in SPACES]


def games():
    return st.tuples(
        st.integers(2, 4), st.booleans(), st.booleans(), st.permutations("RBGY"), st.integers(0, 2**31)
    ).map(lambda t: (sniggle(t[0], larger_die=t[1], blocked_double_throws_again=t[2],
                             colours="".join(t[3][:t[0]])), t[4]))


@settings(max_examples=25, deadline=None)
@given(games(), st.data())
def test_random_play_keeps_every_invariant(setup, data):
    game, seed = setup
    rng = Rng(seed)
    lines = [dumps(header(game))]
    done = set()
    for _ in range(data.draw(st.integers(0, 300), label="steps")):
        if game.over():
            break
        check(game)
        now = {p for p in range(len(game.pos)) if game.pos[p] == game.home_of(p)}
        assert done <= now, "a piece left its matching square"
        done = now
        if game.phase == DECIDE:
            legal = set(game.legal())
            assert legal == reference_legal(game)
            check_decisions(game, ALL_MOVES)
            step = data.draw(st.sampled_from(sorted(legal)), label="move")
        else:
            step = random_step(game, rng)
        pieces = game.in_play(game.turn)
        # the first of two dice: the turn goes on to the other die exactly when another piece can move it
        second = (reference_second(game, pieces, step)
                  if game.phase == DECIDE and game.moved < 0 and len(game.dice) == 2 and len(pieces) >= 2 else None)
        lines.append(dumps(line(game, step)))
        game.play(step)
        if second is not None and not game.over():
            assert (game.moved >= 0) == second
        assert Sniggle.load(BOARD, game.save()).save() == game.save()
    assert replay(lines, board_data).save() == game.save()


def test_many_random_games_finish_and_every_seat_wins_some():
    winners = [0, 0, 0, 0]
    for seed in range(300):
        game, _ = play_checked(10_000 + seed, 2 + seed % 3, larger_die=seed % 5 == 0)
        winners[game.winner] += 1
    assert sum(winners) == 300 and all(winners[:3])


def test_the_opening_throw_picks_every_player_about_as_often():
    firsts = [0, 0, 0]
    for seed in range(600):
        game = sniggle(3)
        rng = Rng(seed)
        while game.opening:
            game.play(random_step(game, rng))
        firsts[game.turn] += 1
    assert all(150 < n < 250 for n in firsts), firsts


# -- the terminal game and the replay, as a user runs them ------------------------------------


def test_the_terminal_game_plays_sniggle_and_the_record_replays(tmp_path):
    root = __file__.rsplit("/tests/", 1)[0]

    def run(*args):
        return subprocess.run([sys.executable, "-m", *args], cwd=root, capture_output=True, text=True, timeout=120)

    record = tmp_path / "game.jsonl"
    result = run("host.sim.terminal", "--game", "sniggle", "--players", "3", "--seed", "2", "--record", str(record),
                 "--option", "colours=GYR")
    assert result.returncode == 0, result.stderr
    assert "throws" in result.stdout and "goes first" in result.stdout and "SNIGGLE" in result.stdout
    replayed = run("host.replay", str(record), "--json")
    assert replayed.returncode == 0, replayed.stderr
    final = json.loads(replayed.stdout)
    assert final["phase_name"] == "over" and final["options"]["colours"] == "GYR"
    assert "player %d wins after" % (final["winner"] + 1) in result.stdout
