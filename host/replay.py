"""Replay a game record and print the final state.

    python -m host.replay FILE            final state as JSON, exit 0
    python -m host.replay FILE --legal    the legal steps after the last line

A record with an illegal line exits 1 and names the line and why. A record
names its board (one of boards/), never a path; a file over LIMIT bytes is
not a record and is not read whole.
"""

import argparse
import json
import sys

from host.boardfile import read_board
from rules.core import RulesError
from rules.record import RecordError, replay

LIMIT = 1 << 20  # the record of a long game is well under 100 KB


def read_lines(path):
    """The lines of the record at ``path``; RecordError for one too large or not UTF-8."""
    with open(path, "rb") as f:
        data = f.read(LIMIT + 1)
    if len(data) > LIMIT:
        raise RecordError(data[:LIMIT].count(b"\n") + 1, "the file goes on past %d KB: not a game record" % (LIMIT >> 10))
    try:
        return data.decode("utf-8").split("\n")
    except UnicodeDecodeError as err:
        raise RecordError(data[:err.start].count(b"\n") + 1, "not UTF-8 text")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m host.replay", description=__doc__.splitlines()[0])
    parser.add_argument("file", help="a game record (JSON Lines)")
    parser.add_argument("--legal", action="store_true", help="print the legal steps after the last line")
    args = parser.parse_args(argv)
    try:
        game = replay(read_lines(args.file), read_board)
    except OSError as err:
        print("%s: %s" % (args.file, err.strerror), file=sys.stderr)
        return 1
    except RulesError as err:
        print("%s: %s" % (args.file, err), file=sys.stderr)
        return 1
    if args.legal:
        if game.is_chance():
            steps = [{"step": game.notation(o), "probability": "%d/%d" % (n, d)} for o, n, d in game.chance_outcomes()]
        else:
            steps = [game.notation(d) for d in game.legal()]
        print(json.dumps(steps))
    else:
        print(json.dumps(game.describe(), sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
