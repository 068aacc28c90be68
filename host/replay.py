"""Replay a game record: each step in words, then the board as it ends.

    python -m host.replay FILE            every step and what it did, by the board's
                                          space names, then the board and who is next
    python -m host.replay FILE --json     the final state as JSON
    python -m host.replay FILE --legal    the legal steps after the last line (JSON)

A record with an illegal line exits 1 and names the line and why (the steps
before it are told). A record names its board (one of boards/), never a
path; a file over LIMIT bytes is not a record and is not read whole.
"""

import argparse
import json
import sys

from host.boardfile import read_board
from host.sim import views
from rules.core import PHASE_NAMES, RulesError
from rules.record import RecordError, apply, replay, start

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


def tell(lines, out):
    """Replay ``lines``, writing each step and what it did; the final game.
    RecordError names the first line that is wrong, after the steps before it."""
    game = None
    view = None
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        if game is None:
            game = start(text, read_board)
            view = views.find(game.name)
            options = ", ".join("%s=%s" % (k, json.dumps(v)) for k, v in sorted(game.options.items()))
            out.write("%s, %d players, board %s; %s\n" % (views.title(game.name), game.players, game.board.name,
                                                          options or "no options"))
            continue
        events = apply(game, text, number)
        step = list(json.loads(text).values())[0]
        says = [view.say(game, e) for e in events if e[0] != "turn"]
        out.write("%5d  %-8s %s\n" % (number, step, "; ".join(says)))
    if game is None:
        raise RecordError(1, "the record is empty")
    out.write("\n" + views.draw(game) + "\n")
    if game.over():
        winners = views.winners(game)
        who = " and ".join("player %d" % (p + 1) for p in winners)
        out.write("over: %s\n" % (who + " won" if winners else "a tie"))
    else:
        out.write("next: player %d, %s\n" % (game.actor + 1, PHASE_NAMES[game.phase]))
    return game


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m host.replay", description=__doc__.splitlines()[0])
    parser.add_argument("file", help="a game record (JSON Lines)")
    parser.add_argument("--json", action="store_true", help="print the final state as JSON instead")
    parser.add_argument("--legal", action="store_true", help="print the legal steps after the last line")
    args = parser.parse_args(argv)
    try:
        lines = read_lines(args.file)
    except OSError as err:
        print("%s: %s" % (args.file, err.strerror), file=sys.stderr)
        return 1
    except RulesError as err:
        print("%s: %s" % (args.file, err), file=sys.stderr)
        return 1
    try:
        game = replay(lines, read_board) if args.json or args.legal else tell(lines, sys.stdout)
    except RulesError as err:
        print("%s: %s" % (args.file, err), file=sys.stderr)
        return 1
    if args.legal:
        if game.is_chance():
            steps = [{"step": game.notation(o), "probability": "%d/%d" % (n, d)} for o, n, d in game.chance_outcomes()]
        else:
            steps = [game.notation(d) for d in game.legal()]
        print(json.dumps(steps))
    elif args.json:
        print(json.dumps(game.describe(), sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
