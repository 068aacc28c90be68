"""Read a board definition from ``boards/`` by name."""

import json
import os

from host import BOARDS
from rules.core import BoardError

_ELSEWHERE = {}  # board name -> its file, where that is not in boards/


def register(name, path=None):
    """Board ``name`` is read from ``path`` (a game kept in files of its own
    keeps its board beside them); without a path, from boards/ again."""
    if path:
        _ELSEWHERE[name] = path
    else:
        _ELSEWHERE.pop(name, None)


def read_board(name):
    """The parsed JSON of board ``name``; a BoardError says what is wrong.
    A name is never a path: it comes from a record, a page or a command line."""
    if not isinstance(name, str) or not name.isidentifier():
        raise BoardError("there is no board %r in boards/" % (name,))
    path = _ELSEWHERE.get(name) or os.path.join(BOARDS, name + ".json")
    try:
        with open(path) as f:
            return json.load(f)
    except OSError as err:
        raise BoardError("board %r: cannot read %s (%s)" % (name, path, err.strerror))
    except ValueError as err:
        raise BoardError("board %r: %s is not valid JSON (%s)" % (name, path, err))
