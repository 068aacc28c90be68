"""Play a game in the terminal on a simulated board: the real controller
(firmware/app) runs against simulated ports, and the board is drawn in the
colours its pixels send. Type what a player's hands do: press the die
buttons, lift and put pieces, turn the Detour wheels (``help`` lists it).

    python -m host.sim.terminal [--game NAME] [--players N] [--option NAME=VALUE]...
                       [--seats KIND,...] [--record FILE] [--plain] [--buttons]

Without --game it asks which game, how many players, which options, who
plays each seat (a person, or a computer player acting on the board) and
whether the board has piece sensors or is played with its buttons.
Computer seats act at ``--speed``: a frame after every step, then a pause
(none when the output is not a terminal); at ``step`` they act when asked
(``next``). Colours go to a terminal only, and not with NO_COLOR set
(``--colour`` forces them).

``--auto`` watches computer players only, on the same simulated board, a
frame after every step (``--seed`` or ``--quiet`` imply it); the same seed
plays the same game:

    python -m host.sim.terminal --auto [--game NAME] [--seed N] [--players N]
                       [--seats KIND,...] [--option NAME=VALUE]...
                       [--speed SPEED] [--record FILE] [--quiet]
"""

import argparse
import json
import os
import re
import sys
import time

from host.boardfile import read_board
from host.rig import Rig, offers
from host.sim import views
from host.sim.hands import DEFAULT_SPEED, SPEEDS, Hands
from host.sim.screen import ansi, screen_colours
from host.sim.table import BOX
from host.sim.waits import waits
from rules.core import DECIDE, PHASE_NAMES, POPOFF, WHEEL, RulesError
from rules import games as registry
from rules.games import find_game, new_game
from rules.players import PLAYERS
from rules.playout import Rng
from rules.record import dumps, header

COLOUR_NAMES = ("red", "blue", "green", "yellow", "purple", "cyan")  # app.colours.PLAYERS, in words
HUMAN = "human"
SETTLE_MS = 500  # after a command: debouncing and the controller's reaction settle
BLINK_PERIOD_MS = 500  # the "put a piece here" blink; the faster "wrong" blink divides it
LEGAL_SHOWN = 10  # legal steps listed under the board; `legal` lists them all
STUCK_MS = 60000  # a computer seat's step the board has not taken by then will not be taken

HELP = """\
Commands (a space is named as in boards/<game>.json: d1, SR1, 12, ...):
  r, r1, r2     press die button 1 or 2 (r is 1): roll the dice or throw the sticks;
                in a pop-off each player presses their own button (r1: whose turn it is);
                where the board asks with a button, r1 shows the next choice
  h1, h2        hold button 1 or 2 (a long press): h1 takes the choice shown, passes a
                wheel turn where that is allowed, or else lights a suggested move (a hint);
                h2 offers a new game (h2 again starts it, r1 keeps this one)
  lift S        lift the piece standing on space S
  put S         put a piece down on space S: the one last lifted, else one from the box
                (a board of pockets: a counter drops into pocket S)
  m A B         move: lift the piece on A and put it on B (a piece on B is lifted first)
  w N+, w N-    turn wheel N (1-4) a quarter turn clockwise / anticlockwise
                (w N+2: a half turn)
  pick STEP     press button 1 until STEP (in the game's notation) is shown, then hold it
  b NAME        press the board's own button NAME (a flicking game's: red ... black, foul_off,
                foul_onto, foul_stuck, miss, safe; a foul kind, then the counter's colour);
                b red+yellow presses yellow while red is held: down in the same flick
  fix           put the pieces and wheels where the game has them (as the lights ask)
  legal         every legal step now, and how to make it on the board
  wait MS       let MS milliseconds pass (Enter alone: half a second)
  new           hold button 2 twice: a new game
  speed NAME    how fast the computer players act: %s
  next, n       at speed step: the computer players take their next step
  help          this list
  q             quit
Lights: a piece that may move breathes in its player's colour, white is where it may
go, blinking amber asks for a piece, blinking red is wrong (lift it or turn it back).
Drawing: where the game has the pieces; 1> is a piece of player 1 heading right,
1^+ more than one piece on that space; S START, F FINISH, * star, @ a wheel's star,
C the centre star.""" % ", ".join(SPEEDS)


def option(text):
    """NAME=VALUE, the value read as JSON when it is JSON (4, true, "x"), else as text."""
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError("an option is NAME=VALUE, e.g. pieces=4")
    try:
        return name, json.loads(value)
    except ValueError:
        return name, value


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="python -m host.sim.terminal", description="Play a game on a simulated board.")
    parser.add_argument("--game", choices=registry.GAMES, help="which game (without it: ask)")
    parser.add_argument("--players", type=int, help="how many players (default 2)")
    parser.add_argument("--seats", metavar="KIND,...",
                        help="who plays each seat: %s (one for all, or one per player; default human, "
                        "with --auto random)" % ", ".join([HUMAN] + sorted(PLAYERS)))
    parser.add_argument("--option", type=option, action="append", default=[], metavar="NAME=VALUE",
                        help="a rule option, e.g. pieces=4 (see boards/GAME.md)")
    parser.add_argument("--record", metavar="FILE", help="write the game record (JSON Lines) here")
    parser.add_argument("--buttons", action="store_true",
                        help="a board without piece sensors: button 1 steps through the moves, holding it makes one")
    parser.add_argument("--plain", action="store_true", help="no colours, letters only")
    parser.add_argument("--colour", "--color", action="store_true",
                        help="colours even where the output is not a terminal or NO_COLOR is set")
    parser.add_argument("--speed", choices=SPEEDS,
                        help="how fast computer players act: the pause after each step at a terminal "
                        "(default %s, with --auto normal); step: when asked" % DEFAULT_SPEED)
    parser.add_argument("--auto", action="store_true",
                        help="watch computer players play a game on the simulated board")
    parser.add_argument("--seed", type=int, help="the watched game (implies --auto) of this seed (default 1)")
    parser.add_argument("--quiet", action="store_true",
                        help="the watched game (implies --auto), printing only the final board and the result")
    args = parser.parse_args(argv)
    # the scripted run's own flags imply it, as they did before the interactive game existed
    args.auto = args.auto or args.seed is not None or args.quiet
    return args


def seat_kinds(text, players, allowed):
    """The kind of every seat from KIND or KIND,KIND,...; None if that does not read."""
    kinds = text.split(",")
    if len(kinds) == 1:
        kinds = kinds * players
    if len(kinds) != players or any(k not in allowed for k in kinds):
        return None
    return kinds


def main(argv=None, input=None, output=None, urandom=None):
    """Run the simulator; ``input`` and ``output`` default to the terminal,
    ``urandom`` (the die's random source) to os.urandom."""
    args = parse_args(argv)
    out = output or sys.stdout
    ask = asker(input or sys.stdin, out)
    tty = out.isatty()
    colour = not args.plain and (args.colour or tty and not os.environ.get("NO_COLOR"))
    try:
        if args.auto:
            return watch(args, ask, out, colour)
        setup = choose(args, ask, out)
        if not isinstance(setup, tuple):
            return setup
        game, kinds = setup
        seats = [None if k == HUMAN else PLAYERS[k](Rng(int.from_bytes(os.urandom(4), "little") + n))
                 for n, k in enumerate(kinds)]
        table = Table(game, urandom or os.urandom, seats, colour, args.record, args.speed or DEFAULT_SPEED,
                      sensors=not args.buttons)
        try:
            table.play(ask, out, clear=colour and tty, paced=tty)
        except KeyboardInterrupt:  # Ctrl-C ends the game like q
            out.write("\n")
        if args.record:
            out.write("record written to %s\n" % args.record)
        return 0
    except KeyboardInterrupt:  # in the questions before the game, or watching
        out.write("\n")
        return 0


# -- the questions before a game ---------------------------------------------------


def asker(source, out):
    """``ask(prompt)``: one line typed (None at the end of the input). At a
    terminal with line editing; a scripted input is echoed, so the output
    reads like the session it was."""
    tty = source is sys.stdin and out is sys.stdout and source.isatty()
    if tty:
        import readline  # noqa: F401 -- gives input() line editing and history

    def ask(prompt):
        if tty:
            try:
                return input(prompt)
            except EOFError:
                return None
        out.write(prompt)
        text = source.readline()
        out.write(text if text.endswith("\n") or not text else text + "\n")
        out.flush()
        return text.rstrip("\n") if text else None

    return ask


def choose(args, ask, out):
    """The game and the seats, from the flags or asked: (game, kinds), or
    the exit code when the flags are wrong (2) or the input ended (0)."""
    asking = args.game is None  # --game skips every question the flags leave open
    name = args.game or pick_game(ask, out)
    if name is None:
        return 0
    board = read_board(name)
    players = args.players or (pick_players(ask, out, find_game(name)) if asking else 2)
    if players is None:
        return 0
    try:
        game = new_game(name, board, players, dict(args.option))
    except RulesError as err:
        print("error: %s" % err, file=sys.stderr)
        return 2
    if asking and not args.option:
        game = pick_options(ask, out, name, board, players)
        if game is None:
            return 0
    if args.seats:
        kinds = seat_kinds(args.seats, players, [HUMAN] + list(PLAYERS))
        if kinds is None:
            print("error: --seats takes one of %s, or one per player (%d)"
                  % (", ".join([HUMAN] + sorted(PLAYERS)), players), file=sys.stderr)
            return 2
    else:
        kinds = pick_seats(ask, out, players) if asking else [HUMAN] * players
    if kinds is not None and asking and not args.buttons:
        args.buttons = pick_buttons(ask, out)
        if args.buttons is None:
            return 0
    return 0 if kinds is None else (game, kinds)


def pick_game(ask, out):
    offered = registry.OFFERED
    out.write("Which game?\n")
    for n, name in enumerate(offered):
        out.write("  %d  %s\n" % (n + 1, views.title(name)))
    while True:
        answer = ask("game [1]: ")
        if answer is None:
            return None
        answer = answer.strip().lower() or "1"
        if answer.isdigit() and 1 <= int(answer) <= len(offered):
            return offered[int(answer) - 1]
        if answer in offered:
            return answer
        out.write("type a number from 1 to %d\n" % len(offered))


def pick_players(ask, out, cls):
    low, high = cls.min_players, cls.max_players
    default = max(low, 2)
    while True:
        answer = ask("players (%d to %d) [%d]: " % (low, high, default))
        if answer is None:
            return None
        answer = answer.strip() or str(default)
        if answer.isdigit() and low <= int(answer) <= high:
            return int(answer)
        out.write("type a number from %d to %d\n" % (low, high))


def pick_options(ask, out, name, board, players):
    """Show the options and take changes until an empty line; the game, or None."""
    defaults = sys.modules[find_game(name).__module__].DEFAULTS
    out.write("Options (boards/%s.md says what each means):\n" % name)
    for key in defaults:
        out.write("  %s=%s\n" % (key, json.dumps(defaults[key])))
    options = {}
    while True:
        answer = ask("change one as NAME=VALUE, or Enter to play: ")
        if answer is None:
            return None
        if not answer.strip():
            return new_game(name, board, players, options)
        try:
            key, value = option(answer.strip())
            new_game(name, board, players, dict(options, **{key: value}))
            options[key] = value
        except (argparse.ArgumentTypeError, RulesError) as err:
            out.write("%s\n" % err)


def pick_seats(ask, out, players):
    allowed = [HUMAN] + sorted(PLAYERS)
    while True:
        answer = ask("who plays (%s; one for all or one per player, e.g. human,search) [human]: "
                     % ", ".join(allowed))
        if answer is None:
            return None
        kinds = seat_kinds(answer.strip().replace(" ", "") or HUMAN, players, allowed)
        if kinds:
            return kinds
        out.write("give one kind, or %d separated by commas\n" % players)


def pick_buttons(ask, out):
    """Whether the board is one without piece sensors (button mode); None at the end of the input."""
    out.write("The board: 1  piece sensors under the spaces, 2  no sensors (button 1 picks the moves)\n")
    while True:
        answer = ask("board [1]: ")
        if answer is None:
            return None
        if answer.strip() in ("", "1", "2"):
            return answer.strip() == "2"
        out.write("type 1 or 2\n")


# -- the game on the simulated board ------------------------------------------------


class Diary:
    """The controller's keeper here: it tells every applied step as the
    view's sentences (replaying it on a copy of the game for its events) and
    writes the record when asked to."""

    failing = ""  # (a keeper's: why the flash is behind the game; a file here is written or the command fails)

    def __init__(self, view, record):
        self.view = view
        self.record = record
        self.said = []
        self.steps = 0
        self.turns = 0

    def begin(self, game):
        self.shadow = game.copy()
        if self.record:
            with open(self.record, "w") as f:
                f.write(dumps(header(game)) + "\n")

    def played(self, record_line, game, last=True):
        self.steps += 1
        for event in self.shadow.play_text(list(record_line.values())[0]):
            self.turns += event[0] == "turn"
            self.said.append(self.view.say(self.shadow, event))
        if self.record:
            with open(self.record, "a") as f:
                f.write(dumps(record_line) + "\n")

    def note(self, text):
        """The controller's log."""
        self.said.append(text)


class Table(Hands):
    """A game on the simulated board, and the hands that play it: what a
    command does, the computer seats (``host.sim.hands``), and the picture."""

    def __init__(self, game, urandom, seats, colour=True, record=None, speed=DEFAULT_SPEED, sensors=True):
        self.view = views.find(game.name)
        self.diary = Diary(self.view, record)
        self.diary.begin(game)
        self.rig = Rig(game, urandom, sensors=sensors, keeper=self.diary, log=self.diary.note)
        self.sensors = sensors  # False: button mode, nothing the hands put down is read
        self.seats = seats  # per player: None for a person, else a rules.players player
        self.players = {p: seat for p, seat in enumerate(seats) if seat is not None}
        self.colour = colour
        self.speed = speed  # SPEEDS: the pause after each computer step
        self.asked = False  # at speed step: a person asked for the computers' next step
        self.pressed = False  # a computer pressed in a pop-off: a person presses back
        self.stuck = ""  # why a computer seat could not act, once that happened
        self._hands_on(game)

    @property
    def watching(self):
        """Computer players in every seat: nobody at the table plays, a viewer watches."""
        return all(seat is not None for seat in self.seats)

    @property
    def snap(self):
        return self.rig.snap

    @property
    def game(self):
        return self.rig.game

    # -- the loop -----------------------------------------------------------------

    def play(self, ask, out, clear=False, paced=False):
        """Play until q or the end of the input, or with nobody to ask (no
        person at the table, no step to wait for) until nothing more happens.
        A frame after every computer step, and with ``paced`` the speed's pause."""
        humans = not self.watching
        shown = False  # whether the last frame shows the board as it is
        while True:
            acted = self.computer_step()
            if acted or not shown:
                out.write(("\x1b[H\x1b[2J" if clear else "") + self.frame())
                out.flush()
                shown = True
                if not humans:
                    self.diary.said = []
            if acted:
                if paced:
                    time.sleep(SPEEDS[self.speed] / 1000)
                continue
            if not humans and self.speed != "step":
                return 0
            text = ask("> ")
            self.diary.said = []  # a frame tells what happened since the last command
            self.pressed = False
            while text is not None:
                redraw, message = self.command(text)
                if message:
                    out.write(message + "\n")
                if redraw is None:
                    return 0
                if redraw:
                    shown = False
                    break
                text = ask("> ")
            if text is None:
                return 0

    def command(self, text):
        """Do what one command line says: (redraw?, message); redraw is None to quit."""
        words = text.split()
        if not words:
            self.settle()
            return True, ""
        verb, rest = words[0].lower(), words[1:]
        try:
            if verb in ("q", "quit", "exit"):
                return None, ""
            if verb in ("help", "?"):
                return False, HELP
            if verb == "legal":
                return False, self.legal_text(None)
            if verb in ("r", "r1", "r2", "h1", "h2") and not rest:
                button = 1 if verb.endswith("2") else 0
                if verb[0] == "h":
                    self.rig.hold(button)
                else:
                    self.rig.press(button)
            elif verb in ("lift", "put", "m", "move") and not self.sensors:
                raise ValueError("this board has no piece sensors: r1 shows the next move, h1 makes it (or pick STEP)")
            elif verb in ("lift", "put") and len(rest) == 1:
                getattr(self, verb)(self.space(rest[0]))
            elif verb in ("m", "move") and len(rest) == 2:
                self.move(self.space(rest[0]), self.space(rest[1]))
            elif verb[0] == "w" and verb != "wait":
                self.turn(text)
            elif verb in ("b", "button") and len(rest) == 1:
                self.own_buttons(rest[0].lower().split("+"))
            elif verb == "pick" and len(rest) == 1:
                self.pick(self.game.parse(rest[0]))
            elif verb == "fix" and not rest:
                self.fix()
            elif verb == "wait" and len(rest) == 1 and rest[0].isdigit():
                self.rig.run(int(rest[0]))
                self._watch()
                return True, ""
            elif verb == "new" and not rest:
                self.rig.hold(1)
                self.rig.hold(1)
            elif verb == "speed" and len(rest) == 1:
                if rest[0] not in SPEEDS:
                    return False, "a speed is one of %s" % ", ".join(SPEEDS)
                self.speed = rest[0]
                return False, "computer players: %s" % self.speed
            elif verb in ("next", "n") and not rest:
                if self.speed != "step":
                    return False, "the computer players go by themselves at speed %s (speed step: one at a time)" \
                        % self.speed
                self.asked = True
                return True, ""
            else:
                return False, "%r: no such command (help lists them)" % text.strip()
        except (RulesError, ValueError) as err:
            return False, str(err)
        self.settle()
        return True, ""

    def settle(self):
        """Run the clock on until the inputs settled, stopping where the
        blinking lights are in their lit half, so the picture shows them."""
        self.rig.run(SETTLE_MS)
        while not 30 <= self.rig.now % BLINK_PERIOD_MS < 100:
            self.rig.run(self.rig.STEP_MS)
        self._watch()  # what stands on the table follows a new game, and the moves of button mode

    # -- what hands do on the board -------------------------------------------------

    def space(self, name):
        """The index of the space called ``name`` (any case, where that is unique)."""
        ids = self.game.board.ids
        if name in ids:
            return ids.index(name)
        found = [s for s in range(len(ids)) if ids[s].lower() == name.lower()]
        if len(found) != 1:
            raise ValueError("there is no space %r on this board" % name)
        return found[0]

    def lift(self, s):
        if not self.phys[s]:
            raise self.no_piece(s)
        self._take(s)  # one piece: off a stack, the sensor still sees the rest
        self.rig.run(100)

    def no_piece(self, s):
        """Why nothing can be lifted from the empty space ``s``: the drawing
        shows a piece there that the hands have not put down yet, or none."""
        name = self.game.board.ids[s]
        if self.snap.expected and self.snap.expected[s] and not self.snap.extra:
            return ValueError("the game has a piece on %s, the board not yet: put %s puts it there, fix puts every "
                              "piece where the game has them" % (name, name))
        return ValueError("there is no piece on %s" % name)

    def put(self, s):
        ids = self.game.board.ids
        if self.snap.expected is None:  # no pieces tracked: a counter drops into a pocket
            if self.game.board.kinds[s] != "pocket":
                raise ValueError("%s is not a pocket: %s has no pieces to put down" % (ids[s], views.title(self.game.name)))
            self.rig.beam(ids[s])
            return
        self._place(s, self.hand[-1] if self.hand else [[BOX, "", -1], -1])  # the piece lifted last, or one from the box
        self.rig.run(400)

    def move(self, a, b):
        """Lift the piece on ``a`` and put it on ``b``; a piece standing on
        ``b`` comes off first (the controller's way of landing on a piece)."""
        if self.snap.expected is None:
            raise ValueError("%s has no pieces to move: say what happened with button 1 (pick STEP)"
                             % views.title(self.game.name))
        held = [entry for entry in self.hand if entry[1] == a]  # lifted already
        if not held and not self.phys[a]:
            raise self.no_piece(a)
        if a != b and self.phys[b]:
            while self.phys[b]:
                self._take(b)  # all of it: its sensor opens
            self.rig.run(100)
        if not held:
            self.lift(a)
        entry = held[-1] if held else self.hand[-1]
        self.hand.remove(entry)
        self.hand.append(entry)  # the piece put down is the one from a
        self.put(b)

    def turn(self, text):
        match = re.fullmatch(r"w\s*(\d)\s*([+-])(2?)", text.strip(), re.IGNORECASE)
        wheels = len(self.rig.sim.positions)  # the wheels the simulated board has
        if not wheels:
            raise ValueError("%s has no wheels" % views.title(self.game.name))
        if not match:
            raise ValueError("a wheel turn reads w 1+ (a quarter clockwise), w 1- (anticlockwise), w 1+2 (half)")
        if not 1 <= int(match.group(1)) <= wheels:
            raise ValueError("there is no wheel %s (the wheels are 1 to %d)" % (match.group(1), wheels))
        quarters = (2 if match.group(3) else 1) * (1 if match.group(2) == "+" else -1)
        self.turn_wheel(int(match.group(1)) - 1, quarters)
        self.rig.run(800)

    def pick(self, decision):
        """Click button 1 until ``decision`` is shown, then hold it."""
        snap = self.snap
        offered = offers(snap)
        if decision not in offered:
            raise ValueError("button 1 does not offer %s now" % self.game.notation(decision))
        for _ in range(len(offered)):
            if snap.picked is not None and snap.picked[1] == decision:
                break
            self.rig.press(0)
        self.rig.hold(0)

    def own_buttons(self, names):
        """Press the board's own buttons ``names``, each while the ones before are held."""
        wired = [name for name, _ in self.game.board.buttons]
        if not self.rig.ports.panel or any(name not in wired for name in names):
            raise ValueError("this board has %s" % ("the buttons " + ", ".join(wired) if self.rig.ports.panel
                                                    else "no buttons of its own"))
        self.rig.button(*names)

    def fix(self):
        """Put the board as the game has it: every wheel where it stands, a
        piece wherever the game has one (also one that looks lifted to move),
        none where it has none, nothing in hand."""
        for w in self.snap.wrong_wheels:
            self.turn_wheel(w, self.game.wheels[w] - self.rig.sim.positions[w])
            self.rig.run(800)
        expected = self.snap.expected
        wrong = expected is not None and any(bool(expected[s]) != self.rig.sim.occupied(s)
                                             for s in range(len(expected)))
        self._set_up()
        if wrong:
            self.rig.run(400)  # the sensors settle

    # -- the computer seats ------------------------------------------------------------

    def computer_step(self):
        """One step of the computer seat that must act now (in a pop-off, one
        press), where it may (at speed step: once asked); whether it acted.
        The hands make it motion by motion on the board's clock; the step is
        over once the board has taken it and they put the pieces right (a
        press is, in a pop-off)."""
        if self.stuck or self.pressed or self.speed == "step" and not self.asked:
            return False
        seat = self._acting()
        if seat < 0:
            return False
        duel = self.snap.duel if self.game.phase == POPOFF else None
        if not duel:
            self.fix()  # whatever was left out of place, the next player puts right
        steps, presses = self.snap.steps, self.duel_turn
        self.asked = True  # this step (at speed step, the one asked for)
        for _ in range(STUCK_MS // Rig.STEP_MS):
            if (self.snap.steps != steps or self.duel_turn != presses) and self.tidy_for < 0 and not self._busy():
                break
            self._tick()
        else:
            self.stuck = "player %d (computer) could not make its move on the board" % (seat + 1)
        self.asked = False
        if self.snap.disagrees:
            self.rig.run(400)  # the sensors settle on the pieces put right
        while self.snap.steps != self.diary.steps:  # a throw is saved once its dice settle
            self.rig.run(Rig.STEP_MS)
        if duel and any(self.seats[p] is None for p in duel):
            self.pressed = True  # one press each in a pop-off: a person presses back
        return True

    # -- the picture ------------------------------------------------------------------

    def frame(self):
        game = self.game
        colours = screen_colours(self.rig.ports.pixels) if self.colour else None
        leds = game.board.leds
        kinds = ", ".join(seat.name if seat else "person" for seat in self.seats)
        lines = ["%s, %d players (%s)" % (views.title(game.name), game.players, kinds), ""]
        lines += views.picture(game, (lambda s, text: ansi(colours[leds[s]], text)) if colours else None)
        lines += self.extras(colours)
        lines += self.view.legend(game)
        lines.append("")
        lines += self.status()
        return "\n".join(lines) + "\n"

    def extras(self, colours):
        """The die faces, the throw sticks and the score bars, in their pixels' colours."""
        if not colours:
            return []
        extras = self.game.board.extras
        lines = []
        dice = [extras[k] for k in ("die1", "die2") if k in extras]
        if dice:
            # pips 0 1 / 2 3 4 / 5 6 on a 3 x 3 face
            rows = ((0, None, 1), (2, 3, 4), (5, None, 6))
            lines.append("  ".join("die %d   " % (n + 1) for n in range(len(dice))))
            for row in rows:
                lines.append("  ".join("".join("  " if k is None else ansi(colours[die[k]], "  ")
                                                for k in row) + "   " for die in dice))
        if "sticks" in extras:
            lines.append("sticks " + " ".join(ansi(colours[led], "    ") for led in extras["sticks"]))
        for p in range(self.game.players):
            bar = extras.get("score%d" % (p + 1))
            if bar:
                lines.append("score %d " % (p + 1) + "".join(ansi(colours[led], "  ") for led in bar))
        return lines

    def status(self):
        game, snap = self.game, self.snap
        lines = []
        lines += ["  " + said for said in self.diary.said]
        lines.append(self.guide())
        roll = snap.roll
        if roll != () and game.phase in (DECIDE, WHEEL):
            lines.append(views.roll_line(game.name, roll))
        if game.phase in (DECIDE, WHEEL) and not snap.prompt:
            lines.append(self.legal_text(LEGAL_SHOWN))
        if snap.hint:
            lines.append("hint: %s->%s" % tuple(game.board.ids[s] for s in snap.hint))
        disagree = self.disagreement()
        if disagree:
            lines.append("the board disagrees: " + disagree)
        if self.stuck:
            lines.append(self.stuck)
        typed = not self.watching or self.speed == "step"  # watching, nothing is typed but next and q
        lines.append("phase %s, draw %d mA%s" % (PHASE_NAMES[game.phase], self.rig.ports.pixels.draw_ma,
                                                  "; help lists the commands" if typed else ""))
        return lines

    def who(self, p):
        person = "" if self.seats[p] is None else ", computer"
        return "player %d (%s%s)" % (p + 1, COLOUR_NAMES[p % len(COLOUR_NAMES)], person)

    def guide(self):
        """What the board waits for (``host.sim.waits``), in words, and the command that does it."""
        game, snap = self.game, self.snap
        ids = game.board.ids
        if self.watching:
            return "Watch mode: computer players play the controller on a simulated board, a frame after each " \
                "step; %s." % ("next shows the next, q stops" if self.speed == "step" else "Ctrl-C stops it")
        what, who, detail = waits(snap, self.rig.ports)
        if what == "new_game":
            return "New game? h2 again starts one; r1 keeps this game."
        if what == "over":
            return "%s won. new starts another game, q quits." % (" and ".join(self.who(p) for p in detail) or "nobody")
        if what == "popoff":
            faces = "".join(", player %d popped %d" % (p + 1, v) for p, v in zip(detail, snap.duel_faces) if v)
            return "Pop-off%s: %s presses r1, %s presses r2; the first 6 wins." % (
                faces, self.who(detail[0]), self.who(detail[1]))
        name = self.who(who)
        shown = game.notation(snap.picked[1]) if snap.picked else "-"
        if what == "choice":
            return "%s: the board cannot tell which piece that was: button 1 shows %s; r1 shows the next, " \
                "h1 takes it (or pick STEP)." % (name, shown)
        named, panel = views.buttons_words(game.name)
        if what == "named":
            return "%s: %s (b NAME)." % (name, named)
        if what == "offered":
            panel = "; " + panel if panel and self.rig.ports.panel else ""
            return "%s: button 1 shows %s; r1 shows the next, h1 takes it (or pick STEP)%s." % (name, shown, panel)
        if what == "turning":
            return "%s: a wheel is turning: the board follows it once the wheel rests." % name
        if what == "board":
            return "%s: first put the board as the game has it (see below; fix does it)." % name
        if what == "throw":
            return "%s: %s with r." % (name, "throw the sticks" if detail else "roll the dice")
        if what == "wheel":
            can_pass = " Or h1 leaves them as they are." if detail else ""
            return "%s: a star! Turn one wheel a quarter: w 1+ (clockwise) ... w %d-.%s" % (
                name, len(game.wheels), can_pass)
        # moves that end where they began: the sensors cannot see them, button 1 offers them
        unseen = " Or h1 takes %s (r1 shows the next)." % shown if snap.unseen else ""
        if detail >= 0:
            targets = sorted({ids[t] for _, f, t in snap.moves if f == detail})
            return "%s: the piece from %s is up: put it on %s.%s" % (name, ids[detail], " or ".join(targets), unseen)
        movable = sorted({ids[f] for _, f, _ in snap.moves})
        return "%s: lift a lit piece (%s) and put it on a white space: m FROM TO.%s" % (
            name, ", ".join(movable), unseen)

    def legal_text(self, limit):
        game = self.game
        ids = game.board.ids
        where = {d: "%s->%s" % (ids[f], ids[t]) for d, f, t in self.snap.moves}
        if game.phase == WHEEL:
            where = {d: "(h1)" for d in game.legal() if d[1] < 0}  # the pass
        steps = ["%s %s" % (game.notation(d), where[d]) if d in where else game.notation(d) for d in game.legal()]
        if not steps:
            return "nothing is legal now"
        more = len(steps) - limit if limit and len(steps) > limit else 0
        shown = steps[:limit] if more else steps
        return "legal: " + ", ".join(shown) + (" ... %d more (legal lists them)" % more if more else "")

    def disagreement(self):
        snap = self.snap
        extra, missing, wheels = snap.extra, snap.missing, snap.wrong_wheels
        ids = self.game.board.ids
        parts = []
        if missing:
            parts.append("put a piece on %s" % ", ".join(ids[s] for s in missing))
        if extra:
            parts.append("lift the piece on %s (none belongs there)" % ", ".join(ids[s] for s in extra))
        for w in wheels:
            back = (self.game.wheels[w] - self.rig.sim.positions[w]) & 3
            parts.append("turn wheel %d back (w %d%s)" % (w + 1, w + 1, {1: "+", 2: "+2", 3: "-"}[back]))
        return "; ".join(parts)


# -- watching computer players ---------------------------------------------------------


def watch(args, ask, out, colour):
    """Computer players only, on the simulated board as in a game with people:
    a frame after every step, the speed's pause after each at a terminal.
    The dice and the players draw from the seed, so it repeats the game."""
    name = args.game or registry.OFFERED[0]
    seed = 1 if args.seed is None else args.seed
    try:
        game = new_game(name, read_board(name), args.players or 2, dict(args.option))
    except RulesError as err:
        print("error: %s" % err, file=sys.stderr)
        return 2
    kinds = seat_kinds(args.seats or "random", game.players, PLAYERS)
    if kinds is None:
        print("error: --seats takes one of %s, or one per player (%d)" % (", ".join(sorted(PLAYERS)), game.players),
              file=sys.stderr)
        return 2
    dice = Rng(seed)
    seats = [PLAYERS[k](Rng(seed * 10 + n + 1)) for n, k in enumerate(kinds)]
    speed = "instant" if args.quiet else args.speed or "normal"  # quiet: only the end is shown
    table = Table(game, lambda n: bytes(dice.below(256) for _ in range(n)), seats, colour, args.record, speed,
                  sensors=not args.buttons)
    out.write("%s, %d players (%s), seed %d\n" % (views.title(name), game.players, ", ".join(kinds), seed))
    if args.quiet:
        while table.computer_step():
            pass
        table.diary.said = []
        out.write(table.frame())
    else:
        tty = out.isatty()
        table.play(ask, out, clear=colour and tty, paced=tty)
    game = table.game
    if game.over():
        winners = views.winners(game)
        result = " and ".join("player %d" % (p + 1) for p in winners) + " wins" if winners else "a tie"
        out.write("%s after %d turns\n" % (result, table.diary.turns))
    if args.record:
        out.write("record written to %s\n" % args.record)
    return 1 if table.stuck else 0


if __name__ == "__main__":
    sys.exit(main())
