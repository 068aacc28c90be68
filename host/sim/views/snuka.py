"""Tiddlee Snuka in the terminal: the cloth with its spots, the scores, and
each event as a sentence.

On the cloth `O` is a pocket; a spot shows its counter's letter (upper case
when that counter is on), `^` when the counter must be put back there, `.`
when it is down. Reds are alike, so the first red spots show how many are left.
"""

from host.sim import views
from rules.snuka import ANY, COLOURS, LETTERS, RED, UP

TITLE = "Tiddlee Snuka"
# the board's own buttons: a foul's kind is named first, then the counter that fouled
NAMED = "a foul is named: press the button of the counter that fouled"
PANEL = "or say what happened with the board's buttons (b red, b foul_off then b green, b miss)"


def _mark(game, c, waiting):
    if waiting:
        return "^"
    on = game.on == c or (game.on == ANY and c != RED)
    return LETTERS[c] if on else LETTERS[c].lower()


def spots(board):
    return [(board.ys[s], 3 * board.xs[s]) for s in range(len(board.ids))]


def marks(game):
    board = game.board
    cells = [" "] * len(board.ids)
    for s in board.pockets:
        cells[s] = "O"
    left = game.reds - game.pending.count(RED)  # reds on the cloth
    for n, s in enumerate(board.spots[RED]):
        cells[s] = _mark(game, RED, False) if n < left else "^" if n < game.reds else "."
    for c in range(1, 7):
        s = board.spots[c][0]
        up = game.colours[c] == UP
        cells[s] = _mark(game, c, c in game.pending) if up else "."
    return [(" %s " % cell,) for cell in cells]


def legend(game):
    """Each player's score, and who shoots."""
    lines = []
    for p in range(game.players):
        mark = "  <- to shoot" if p == game.turn and not game.over() else ""
        lines.append("  player %d: %4d%s" % (p + 1, game.scores[p], mark))
    return lines


def rulers(board):
    return None


def draw(game):
    return views.draw(game)


def _name(c):
    return COLOURS[c]


def say(game, event):
    """One event as a sentence."""
    kind = event[0]
    if kind == "potted":
        player, c, points = event[1], event[2], event[3]
        if points:
            return "player %d pots the %s: %d point%s" % (player + 1, _name(c), points, "" if points == 1 else "s")
        return "player %d pots the %s, which was not on: no score" % (player + 1, _name(c))
    if kind == "also":
        return "player %d's flick also sent the %s down: no score" % (event[1] + 1, _name(event[2]))
    if kind == "foul":
        what = {"off": "off the cloth", "onto": "onto another counter", "stuck": "where it cannot be played"}
        return "foul: player %d flips the %s %s" % (event[1] + 1, _name(event[2]), what[event[3]])
    if kind == "penalty":
        return "player %d loses %d for the %s" % (event[1] + 1, event[3], _name(event[2]))
    if kind == "score":
        return "player %d has %d" % (event[1] + 1, event[2])
    if kind == "respot":
        spots = event[2]
        return "put the %s back on %s" % (_name(event[1]), "a free red spot" if len(spots) > 1 else "its spot")
    if kind == "respotted":
        return "the %s is back on its spot" % _name(event[1])
    if kind == "removed":
        return "the %s leaves the game" % _name(event[1])
    if kind == "missed":
        return "player %d pots nothing" % (event[1] + 1)
    if kind == "safety":
        return "player %d plays safe" % (event[1] + 1)
    if kind == "nominated":
        return "player %d chooses the %s" % (event[1] + 1, _name(event[2]))
    if kind == "on":
        return "on: %s" % ", ".join(_name(c) for c in event[1])
    if kind == "turn":
        return "player %d's turn" % (event[1] + 1)
    if kind == "won":
        shared = " (shared)" if len(game.winners) > 1 else ""
        return "player %d wins with %d%s!" % (event[1] + 1, game.scores[event[1]], shared)
    return repr(event)


# -- in the browser ------------------------------------------------------------

BLURB = "Snooker with winks: the board referees and keeps the score."
LOOK = {"surface": "#123a2a", "frame": "#5a3a1e", "tiles": "spot", "room": 0, "pieces": False, "lions": False,
        "help": "Click a pocket when a counter drops into it. The board's buttons say what happened: a colour pots it "
                "(or puts it back), a foul kind then the counter's colour is a foul. Button 1: a click shows the next "
                "choice, a long press confirms it."}
MARKS = {}


def links(board, data):
    """No lines: no path runs across the cloth."""
    return [], []


def standings(game):
    return ["%d point%s" % (game.scores[n], "" if abs(game.scores[n]) == 1 else "s") for n in range(game.players)]


def pieces(game):
    """None: the board does not track where the counters lie."""
    return None
