"""How the terminal shows each game. A game's module here (named after the
game) says:

    spots(board)      where each space is drawn: (row, column) in characters
    marks(game)       what is written on each space: a tuple of lines
    legend(game)      lines under the board (where the pieces are, the scores)
    rulers(board)     (labels by column, labels by row) where the space names
                      follow the grid, else None
    say(game, event)  one event as a sentence

``draw(game)`` puts them together as plain text; the terminal simulator
(``host.sim.terminal``) lays out the same spaces and paints each in its pixel's colour.
"""

import importlib

TITLES = {"detour": "Detour", "sniggle": "Sniggle", "mehen": "Mehen", "snuka": "Tiddlee Snuka"}


def find(name):
    """The view module of game ``name``."""
    return importlib.import_module("host.sim.views." + name)


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
