"""Game records: JSON Lines, a header then one line per step.

    {"record": 1, "game": "detour", "board": "detour", "players": 2, "options": {...}}
    {"roll": "3,5"}
    {"play": "a5"}
    {"popoff": "P2"}

Every step is written in the game's own notation; the key says what kind of
step the line must be, so a record that drifts out of step is caught at once.
"""

import json

from rules.core import DECIDE, POPOFF, ROLL, WHEEL, RulesError
from rules.games import new_game

VERSION = 1
_KEYS = {ROLL: "roll", POPOFF: "popoff", DECIDE: "play", WHEEL: "play"}
_HEADER = (("game", str), ("board", str), ("players", int), ("options", dict))
SHOWN = 120  # the most of a hostile line a message repeats


class RecordError(RulesError):
    """A record line that cannot be read or applied; ``line`` counts from 1."""

    def __init__(self, line, message):
        if len(message) > SHOWN:
            message = message[:SHOWN] + "..."
        super().__init__("line %d: %s" % (line, message))
        self.line = line


def header(game):
    return {"record": VERSION, "game": game.name, "board": game.board.name,
            "players": game.players, "options": game.options}


def line(game, step):
    """The record line for ``step`` played from ``game``'s current phase."""
    return {_KEYS[game.phase]: game.notation(step)}


def dumps(obj):
    return json.dumps(obj)


def _object(text, number):
    try:
        obj = json.loads(text)
    except (ValueError, RuntimeError):  # RuntimeError: nested too deep
        raise RecordError(number, "not valid JSON")
    if not isinstance(obj, dict):
        raise RecordError(number, "expected a JSON object")
    return obj


def start(text, boards):
    """The fresh game a header line describes; ``boards(name)`` gives board data."""
    head = _object(text, 1)
    if head.get("record") != VERSION:
        raise RecordError(1, "not a version-%d game record header" % VERSION)
    for name, kind in _HEADER:
        value = head.get(name)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise RecordError(1, "field %r must be %s" % (name, kind.__name__))
    try:
        return new_game(head["game"], boards(head["board"]), head["players"], head["options"])
    except (RulesError, OSError) as err:
        raise RecordError(1, str(err))


def apply(game, text, number):
    """Apply one step line to ``game``; return its events."""
    obj = _object(text, number)
    if game.over():
        raise RecordError(number, "the game is already over")
    key = _KEYS[game.phase]
    if len(obj) != 1 or key not in obj or not isinstance(obj[key], str):
        raise RecordError(number, "expected {%r: \"...\"}, found %s" % (key, text.strip()))
    try:
        return game.play_text(obj[key])
    except RulesError as err:
        raise RecordError(number, str(err))


def replay(lines, boards):
    """Play a whole record (an iterable of lines); return the final game."""
    game = None
    number = 0
    for text in lines:
        number += 1
        if not text.strip():
            continue
        if game is None:
            game = start(text, boards)
        else:
            apply(game, text, number)
    if game is None:
        raise RecordError(1, "the record is empty")
    return game
