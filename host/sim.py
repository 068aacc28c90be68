"""Play a game in the terminal between computer players, driven by the real
rules core, printing the board after every turn.

    python -m host.sim [--game NAME] [--seed N] [--players N] [--seats KIND,...]
                       [--option NAME=VALUE]... [--record FILE]
"""

import argparse
import json
import sys

from host.boardfile import read_board
from rules.core import RulesError
from rules.games import GAMES, new_game
from rules.players import PLAYERS
from rules.playout import Rng, sample
from rules.record import dumps, header, line


def option(text):
    """NAME=VALUE, the value read as JSON when it is JSON (4, true, "x"), else as text."""
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError("an option is NAME=VALUE, e.g. pieces=4")
    try:
        return name, json.loads(value)
    except ValueError:
        return name, value


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m host.sim", description="A game between random players.")
    parser.add_argument("--game", default="detour", choices=GAMES, help="which game (default detour)")
    parser.add_argument("--seed", type=int, default=1, help="repeat a game by its seed (default 1)")
    parser.add_argument("--players", type=int, default=2, help="how many players (default 2)")
    parser.add_argument("--seats", default="random", metavar="KIND,...",
                        help="who plays each seat: %s (one for all, or one per player)" % ", ".join(sorted(PLAYERS)))
    parser.add_argument("--option", type=option, action="append", default=[], metavar="NAME=VALUE",
                        help="a rule option, e.g. pieces=4 (see boards/GAME.md)")
    parser.add_argument("--record", metavar="FILE", help="write the game record (JSON Lines) here")
    parser.add_argument("--quiet", action="store_true", help="print only the final board and the result")
    args = parser.parse_args(argv)
    view = __import__("host.views." + args.game, None, None, ("draw", "say"))
    try:
        game = new_game(args.game, read_board(args.game), args.players, dict(args.option))
    except RulesError as err:
        print("error: %s" % err, file=sys.stderr)
        return 2
    kinds = args.seats.split(",")
    if len(kinds) == 1:
        kinds = kinds * game.players
    if len(kinds) != game.players or any(k not in PLAYERS for k in kinds):
        print("error: --seats takes one of %s, or one per player (%d)" % (", ".join(sorted(PLAYERS)), game.players),
              file=sys.stderr)
        return 2
    rng = Rng(args.seed)
    seats = [PLAYERS[k](Rng(args.seed * 10 + n + 1)) for n, k in enumerate(kinds)]
    out = open(args.record, "w") if args.record else None
    if out:
        out.write(dumps(header(game)) + "\n")
    print("%s, %d players (%s), seed %d" % (args.game.capitalize(), args.players, ", ".join(kinds), args.seed))
    turns = 0
    while not game.over():
        step = sample(game.chance_outcomes(), rng) if game.is_chance() else seats[game.actor].choose(game)
        if out:
            out.write(dumps(line(game, step)) + "\n")
        for event in game.play(step):
            if event[0] == "turn":
                turns += 1
                if not args.quiet:
                    print(view.draw(game))
            if not args.quiet:
                print("  " + view.say(game, event))
    print(view.draw(game))
    result = "a tie" if game.winner < 0 else "player %d wins" % (game.winner + 1)
    print("%s after %d turns" % (result, turns))
    if out:
        out.close()
        print("record written to %s" % args.record)
    return 0


if __name__ == "__main__":
    sys.exit(main())
