"""Sniggle in the terminal: the board as text and each event as a sentence."""

_COLOUR = ".rbgy"  # a white space, then the safe spaces of each colour
_NAMES = ("red", "blue", "green", "yellow")


def draw(game):
    """The board as text: pieces as colour letter + number (R2), safe spaces
    as a small colour letter, empty squares by their small name (r1), the
    Zone as :, its two entries as < and >, the trademark as SNIGGLE ([R1]
    with a piece on it)."""
    board = game.board
    rows = [["   "] * board.width for _ in range(board.height)]
    for s in range(len(board.ids)):
        kind = board.kinds[s]
        if kind == "start" or kind == "home":  # an empty square: its name, small (r1)
            text = board.ids[s][1:].lower() + " "
        else:
            text = " : " if kind == "zone" else " %s " % _COLOUR[board.colour[s]]
        rows[board.ys[s]][board.xs[s]] = text
    for path, arrow in ((0, "<"), (1, ">")):
        first = board.path[path][0]
        rows[board.ys[first]][board.xs[first]] = " %s " % arrow
    tm = board.trademark
    x, y = board.xs[tm], board.ys[tm]
    rows[y][x] = "SNIGGLE"  # drawn over the two cells it covers
    if x + 1 < board.width:
        rows[y][x + 1] = ""
    for p, s in enumerate(game.pos):
        name = game.piece_name(p)
        rows[board.ys[s]][board.xs[s]] = " [%s] " % name if s == tm else name + " "
    return "\n".join("".join(r).rstrip() for r in rows)


def _piece(game, player, i):
    return game.piece_name(4 * player + i)


def say(game, event):
    """One event as a sentence."""
    name, kind = game.board.ids, event[0]
    if kind == "threw":
        dice = event[2]
        return "player %d (%s) throws %d,%d = %d for the first turn" % (
            event[1] + 1, _NAMES[game.colour[event[1]]], dice[0], dice[1], dice[0] + dice[1])
    if kind == "tie":
        return "players %s tie and throw again" % ", ".join(str(p + 1) for p in event[1])
    if kind == "first":
        return "player %d goes first" % (event[1] + 1)
    if kind == "rolled":
        return "player %d rolls %d,%d" % (event[1] + 1, event[2][0], event[2][1])
    if kind == "moved":
        return "%s moves %d: %s -> %s" % (_piece(game, event[1], event[2]), event[5], name[event[3]], name[event[4]])
    if kind == "sent_back":
        return "%s is sent back from %s to %s" % (_piece(game, event[1], event[2]), name[event[3]], name[event[4]])
    if kind == "home":
        return "%s reaches its matching square %s" % (_piece(game, event[1], event[2]), name[event[3]])
    if kind == "lost_turn":
        return "player %d cannot move: the turn is lost" % (event[1] + 1)
    if kind == "unused":
        return "player %d cannot move another piece %d" % (event[1] + 1, event[2])
    if kind == "again":
        return "a double: player %d throws again" % (event[1] + 1)
    if kind == "turn":
        return "player %d's turn (%s)" % (event[1] + 1, _NAMES[game.colour[event[1]]])
    if kind == "won":
        return "player %d (%s) wins!" % (event[1] + 1, _NAMES[game.colour[event[1]]])
    return repr(event)
