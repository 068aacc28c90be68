"""How the computer players (``rules.players``) judge a Sniggle game
(``Sniggle.tactics``): each player's steps still to go, fewer is better,
a piece resting on its own colour safe; with ``ahead``, less what the next
throw may cost (pieces sent back). The two dice play alike in either order."""

from rules.core import ROLL
from rules.players import SCALE, unordered

_kept = []  # the last board and its table of steps to go (``_table``)


def _table(board):
    """About how many steps a piece of squares ``k`` on space ``s`` still has to
    go to its matching square, at ``[s * 16 + k]``, for every space off the Zone
    paths: up the rows and across to the trademark (2 steps), then the nearer
    path to the space beside the matching square, and one step in."""
    if _kept and _kept[0] is board:
        return _kept[1]
    row = board.ys[board.trademark] + 1  # the row that steps forward onto the trademark
    columns = [x for x in range(board.width) if board.under[row] >> x & 1]
    t = bytearray(16 * len(board.ids))
    for k in range(16):
        ahead = min(board.entry[0][k], board.entry[1][k]) + 2
        for s in range(len(board.ids)):
            kind, extra, cell = board.kind[s], 0, s
            if kind == 1:  # a starting square
                extra, cell = board.start_steps[k], board.start_cell[k]
            if kind == 2:
                t[16 * s + k] = ahead
            elif kind < 2:
                side = min(abs(board.xs[cell] - c) for c in columns)
                t[16 * s + k] = min(255, extra + board.ys[cell] - row + side + 2 + ahead)
    _kept[:] = [board, t]
    return t


_reach = {}  # (space, lane, squares) of a piece -> by space: bit v - 1 set where a walk of v ends
_ONES = bytes(bin(m).count("1") for m in range(64))


def _reach_of(board, s, lane, k):
    key = (s * 3 + lane + 1) * 16 + k
    reach = _reach.get(key)
    if reach is None:
        if len(_reach) >= 16:  # a byte per space each: the pieces of the last few positions
            _reach.clear()
        reach = bytearray(len(board.ids))
        ends = board.walks(s, lane, k, (1, 2, 3, 4, 5, 6))
        for v in range(6):
            for t in ends[v]:
                reach[t] |= 1 << v
        _reach[key] = reach
    return reach


def rate(game, ahead):
    """Each player's steps still to go, fewer is better; a piece resting on
    its own colour is safe. With ``ahead``, less the steps its pieces are
    expected to lose to the next throw: a piece off its own colour that the
    next player to throw can land on goes back to its start when a die of
    the throw fits. Every player's figure in one pass (``sniggle_rate``):
    the search rates every state it makes."""
    board = game.board
    attacker = -1  # who throws next: this player again after a double, else the next one once this turn is played
    reaches = ()
    if ahead and not game.opening:
        attacker = game.turn if game.phase == ROLL or game.double else (game.turn + 1) % game.players
        reaches = _reaches(game, attacker)
    out = []
    sniggle_rate(game.pos, game.lane, game.colour, board.kind, board.colour, _table(board), board.place,
                 board.entry, board.start, reaches, attacker, out)
    return out


_attack = []  # the last attacker's (board, colour, spaces, lanes, reaches), once there is one


def _reaches(game, attacker):
    """Where each of ``attacker``'s pieces not home lands, by the die
    (``_reach_of``). Every plan of a turn's first look leaves them
    where they stand, so the last answer is kept for the next."""
    board, a, colour = game.board, 4 * attacker, game.colour[attacker]
    spaces, lanes = game.pos[a:a + 4], game.lane[a:a + 4]
    last = _attack[0] if _attack else None
    if last is not None and last[0] is board and last[1] == colour and last[2] == spaces and last[3] == lanes:
        return last[4]
    reaches = [_reach_of(board, spaces[i], lanes[i], 4 * colour + i) for i in range(4)
               if board.kind[spaces[i]] != 4]  # not home
    _attack[:] = [(board, colour, spaces, lanes, reaches)]
    return reaches


def sniggle_rate(pos, lanes, mine, kind, colour, left, place, entry, start, reaches, attacker, out):
    """Append to ``out`` the rating (``rate``) of each player, whose
    colours are ``mine``, of the pieces on ``pos`` and Zone paths ``lanes``;
    ``left`` is ``_table``, the rest the board's. A piece of any
    player but ``attacker`` off its own colour is at risk where one of
    ``reaches`` lands."""
    for player in range(len(mine)):
        c = mine[player]
        total = risk = 0
        for p in range(4 * player, 4 * player + 4):
            s, k = pos[p], 4 * c + p % 4  # its space and its squares
            if kind[s] == 3:  # on a Zone path
                lane = lanes[p]
                togo = entry[lane][k] - place[lane][s] + 1
            else:
                togo = left[16 * s + k]  # 0 on its matching square
            total -= togo
            if colour[s] == c + 1:
                total += 2  # safe
            elif player != attacker and kind[s] != 1 and kind[s] != 4:
                dice = 0  # the die values that land on it
                for reach in reaches:
                    dice |= reach[s]
                if dice:
                    n = _ONES[dice]
                    # 1 - ((6 - n) / 6) ** 2 (in 36ths): the chance that one die or both show one of n values
                    risk += (12 * n - n * n) * max(0, left[16 * start[k] + k] - togo)
        out.append(total * SCALE - risk * SCALE // 36)


try:
    from rules.viper import sniggle_rate  # noqa: F811  the same loop, compiled for the Pico
except (ImportError, SyntaxError, ValueError):  # CPython; a port without the emitter, from source or .mpy
    pass

fold = unordered
