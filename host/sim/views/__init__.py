"""How the terminal shows each game. A game's module here (named after the
game) says:

    spots(board)      where each space is drawn: (row, column) in characters
    marks(game)       what is written on each space: a tuple of lines
    legend(game)      lines under the board (where the pieces are, the scores)
    TITLE             the game's name as the simulators write it
    rulers(board)     (labels by column, labels by row) where the space names
                      follow the grid, else None
    say(game, event)  one event as a sentence
    roll_line(roll)   the throw on the status line; without it, the dice
                      ("dice 3,5")

``draw(game)`` puts them together as plain text; the terminal simulator
(``host.sim.terminal``) lays out the same spaces and paints each in its pixel's colour.

The browser simulator (``host.sim.web.layout``) asks the same module how the
page shows the game:

    BLURB             a line about the game, under its title in the chooser
    LOOK              how the page draws the board: the surface colour, a
                      frame's colour or None, the tiles ("square", "disc" or
                      "spot"), the room right of the spaces (in spaces) for
                      a mark that runs on, whether pieces stand on the board
                      (the hand and the legend speak of them), whether lions
                      do, and the help line, or None for the one about pieces
    MARKS             what is printed on a space of each kind that has a mark
    links(board, data)  (lines along the path, the wheels and their routes)
    standings(game)   one line per player: how far they are
    pieces(game)      what stands on each space, or None where the board
                      tracks no pieces
    roll_text(roll)   the throw in the panel; without it, the dice ("3 and 5")

A game kept in files of its own, outside this package, gives its view's
module with ``register``.
"""

import importlib

_ELSEWHERE = {}  # game name -> its view's module, where that is not in this package


def find(name):
    """The view module of game ``name``."""
    return importlib.import_module(_ELSEWHERE.get(name, "host.sim.views." + name))


def register(name, module=None):
    """Game ``name``'s view is ``module`` (by name); without one, it is this package's again."""
    if module:
        _ELSEWHERE[name] = module
    else:
        _ELSEWHERE.pop(name, None)


def title(name):
    """Game ``name`` as the simulators write it."""
    return find(name).TITLE


def roll_line(name, roll):
    """A throw of game ``name`` as the terminal's status line gives it."""
    own = getattr(find(name), "roll_line", None)
    return own(roll) if own else "dice " + ",".join(str(v) for v in roll)


def roll_text(name, roll):
    """A throw of game ``name`` in words, as the page's panel gives it."""
    own = getattr(find(name), "roll_text", None)
    return own(roll) if own else " and ".join(str(v) for v in roll)


def buttons_words(name):
    """What game ``name`` says of the board's own buttons: (when one has named
    part of a step, what the terminal's help for a choice adds), or empty texts."""
    view = find(name)
    return getattr(view, "NAMED", ""), getattr(view, "PANEL", "")


def picture(game, paint=None):
    """The board as lines of text. ``paint(space, text)`` may wrap the text
    of a space (in colour codes); the layout counts only the text itself."""
    view = find(game.name)
    rows = {}
    marks = view.marks(game)
    for s, (row, col) in enumerate(view.spots(game.board)):
        for k, text in enumerate(marks[s]):
            rows.setdefault(row + k, []).append((col, text, s))
    by_col, by_row = view.rulers(game.board) or ({}, {})
    width = max((len(label) for label in by_row.values()), default=0)  # of the row labels
    margin = width + 1 if by_row else 0
    lines = []
    if by_col:
        top = ""
        for col in sorted(by_col):
            top += " " * (margin + col - len(top)) + by_col[col]
        lines.append(top.rstrip())
    for row in range(min(rows), max(rows) + 1):
        line = by_row.get(row, "").rjust(width) + " " if margin else ""
        at = 0
        for col, text, s in sorted(rows.get(row, ())):
            line += " " * (col - at) + (paint(s, text) if paint else text)
            at = col + len(text)
        lines.append(line.rstrip())
    return lines


def winners(game):
    """The players who won a finished game (Tiddlee Snuka: all who tie on the top score)."""
    return getattr(game, "winners", ()) or ((game.winner,) if game.winner >= 0 else ())


def draw(game):
    """The board and its legend as plain text."""
    return "\n".join(picture(game) + find(game.name).legend(game))


def grid_rulers(board, kinds):
    """Rulers for spaces of ``kinds`` named by column letter and row number (a1, m13)."""
    by_col, by_row = {}, {}
    for s, sid in enumerate(board.ids):
        if board.kinds[s] in kinds:
            by_col[3 * board.xs[s]] = " %s " % sid[0]
            by_row[board.ys[s]] = sid[1:]
    return by_col, by_row


def track_links(board, paths):
    """Lines between the spaces next to each other along each of ``paths`` (lists of space names)."""
    links = []
    for path in paths:
        for a, b in zip(path, path[1:]):
            s, t = board.space(a), board.space(b)
            links.append([board.xs[s], board.ys[s], board.xs[t], board.ys[t]])
    return links
