"""How the computer players (``rules.players``) judge a Detour game
(``Detour.tactics``): every piece closer to FINISH along the path as the
wheels stand is better, and the two dice play alike in either order."""

from rules.detour import FINISHED, UNPLACED
from rules.players import SCALE, unordered

_CAP = 24  # how far along a path a finish is looked for
_FINISHED = 2 * _CAP + 12  # a piece off the board beats one a step from FINISH
# the direction of a one-bit exit mask (N E S W = bits 0..3)
_DIR = {1: 0, 2: 1, 4: 2, 8: 3}
_kept = []  # the last board and what the standing precomputes for it


def _table(board):
    if _kept and _kept[0] is board:
        return _kept[1]
    finish = bytes(1 if k == "finish" else 0 for k in board.kinds)
    # Manhattan distance to the nearest FINISH: the standing of a piece whose path is closed
    near = bytes(min(abs(board.xs[s] - board.xs[f]) + abs(board.ys[s] - board.ys[f]) for f in board.finishes)
                 for s in range(len(board.ids)))
    _kept[:] = [board, (finish, near)]
    return _kept[1]


def _distance(board, finish, s, h, wheels):
    """Steps from space ``s`` leaving by ``h`` to the first FINISH along the path as
    the wheels stand, or 0 beyond _CAP (the walk of ``DetourBoard.walk``)."""
    nbr = board.nbr
    for k in range(1, _CAP + 1):
        s = nbr[4 * s + h]
        mask = board.mask(s, wheels)
        if mask != 15:
            h = _DIR[mask & ~(1 << ((h + 2) & 3))]
        if finish[s]:
            return k
    return 0


def _standing(game, player):
    """Every piece: closer to FINISH along the path as the wheels stand is
    better; a piece whose path misses FINISH counts its distance as the crow flies."""
    board = game.board
    finish, near = _table(board)
    total = 0
    base = player * game.per
    for p in range(base, base + game.per):
        s = game.pos[p]
        if s == FINISHED:
            total += _FINISHED
            continue
        if s == UNPLACED:  # placed on its START at the player's first roll
            start = (p - base) & 1
            s, heads = board.starts[start], (board.arrows[start],)
        elif s == board.centre:
            heads = (0, 1, 2, 3)  # it picks its heading
        else:
            heads = (game.head[p],)
        best = 0
        for h in heads:
            d = _distance(board, finish, s, h, game.wheels)
            if d and (not best or d < best):
                best = d
        total += 2 * _CAP - best if best else _CAP - near[s]
    return total


def rate(game, ahead):
    return [_standing(game, p) * SCALE for p in range(game.players)]


fold = unordered
