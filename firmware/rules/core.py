"""What every game shares: phases, errors, options and the state protocol.

A game state waits for one thing at a time (its ``phase``). In a chance phase
(a roll, a pop-off) the outcome comes from outside — the hardware die, a test
script, a bot — and ``chance_outcomes()`` lists every outcome with its exact
probability. In a decision phase ``legal()`` lists what the ``actor`` may do.
Either way ``play(step)`` applies one step and returns its events.
"""

# Phases: what the game waits for next.
ROLL = 0  # chance: dice or throw sticks
DECIDE = 1  # a player's decision
WHEEL = 2  # a decision too: which wheel to turn (Detour)
POPOFF = 3  # chance: who wins the pop-off duel (Detour)
OVER = 4
PHASE_NAMES = ("roll", "decide", "wheel", "popoff", "over")
STEP_TEXT = 24  # characters: no step's notation is longer, and a number read from one stays small
# owners(): a space nobody stands on, or a piece of no player (a Mehen lion)
EMPTY = 255
LION = 254


class RulesError(ValueError):
    """Bad input to the rules: a step, a save or an option."""


class IllegalMove(RulesError):
    """A step that the game does not allow now; the state is unchanged."""


class BoardError(RulesError):
    """A board definition that cannot be played; the message names the field."""


class SaveError(RulesError):
    """A saved game that cannot be loaded; the message names the field."""


def check_options(given, defaults):
    """Merge ``given`` into ``defaults``; reject unknown names and wrong types."""
    merged = dict(defaults)
    for name in given or {}:
        if name not in defaults:
            raise RulesError("unknown option %r (known: %s)" % (name, ", ".join(sorted(defaults))))
        value = given[name]
        if type(value) is not type(defaults[name]):
            raise RulesError("option %r must be %s" % (name, type(defaults[name]).__name__))
        merged[name] = value
    return merged


def field(data, name, kind, where, error=None):
    """``data[name]`` if it is present and of ``kind``, else ``error`` (SaveError) naming it."""
    error = error or SaveError
    if not isinstance(data, dict) or name not in data:
        raise error("%s: field %r is missing" % (where, name))
    value = data[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise error("%s: field %r must be %s" % (where, name, kind.__name__))
    return value


def save_int(data, name, low, high):
    """An int field of a save, within low..high."""
    value = field(data, name, int, "save")
    if not low <= value <= high:
        raise SaveError("save: field %r is %d, outside %d..%d" % (name, value, low, high))
    return value


def save_ints(data, name, length, low, high):
    """A list-of-ints field of a save (``length`` entries unless None), each within low..high."""
    values = field(data, name, list, "save")
    if length is not None and len(values) != length:
        raise SaveError("save: field %r must have %d entries" % (name, length))
    for v in values:
        if not isinstance(v, int) or isinstance(v, bool) or not low <= v <= high:
            raise SaveError("save: field %r holds %r, outside %d..%d" % (name, v, low, high))
    return values


class Game:
    """Base of every game state. Subclasses set ``name`` and implement the
    ``_``-prefixed hooks; the public protocol lives here once."""

    name = ""
    wheels = b""  # where each of the board's turning wheels stands, in quarter turns (Detour)
    # what paints this game's own layer of lights in place of the pieces' (app.paint): the
    # module by name, so that the rules import nothing of the app; "" for a game of pieces only
    look = ""
    # how the computer players judge this game (rules.players): the module by name, imported
    # with them and never by the rules; "" for a game whose end alone counts
    tactics = ""
    # the events the board flashes (app.controller): in the player's colour on a space (the
    # event's player at index 1, its space at index 3), or the dice white (another throw)
    space_events = ()
    dice_events = ()
    special_kinds = ()  # the kinds of space the rules name, lit a little warmer than plain track

    def __init__(self, board, players, options):
        """What every game state has; a game's own ``__init__`` checks its
        arguments, calls this, then sets up its pieces."""
        self.board = board
        self.players = players
        self.options = options
        self.phase = ROLL
        self.turn = 0  # whose turn it is
        self.actor = 0  # who decides now
        self.winner = -1

    # -- what each game implements ---------------------------------------

    def _decisions(self):
        """The legal decisions in a decision phase."""
        raise NotImplementedError

    def _outcomes(self):
        """The chance outcomes in a chance phase, as (outcome, num, den)."""
        raise NotImplementedError

    def _apply(self, step):
        """Apply a step already known to be legal; return its events."""
        raise NotImplementedError

    def _parse(self, text):
        """The step ``text`` names in the current phase, or None."""
        raise NotImplementedError

    def notation(self, step):
        """``step`` in the game's notation."""
        raise NotImplementedError

    def save(self):
        """The whole state as a small JSON-friendly dict: the fields every
        game has (``_fresh`` reads them back), then the game's own."""
        data = {"game": self.name, "board": self.board.name, "players": self.players,
                "options": dict(self.options), "phase": self.phase, "turn": self.turn}
        data.update(self._save_own())
        return data

    def _save_own(self):
        """``save``: the game's own fields, ``winner`` among them: its place
        differs from game to game (Tiddlee Snuka's ``winners`` follow it),
        and a save written on CPython keeps its text."""
        raise NotImplementedError

    def copy(self):
        """An independent state to try steps on, made without ``__init__``
        (nothing to check again): every attribute written out, the immutable
        ones and the board shared, the lists a step changes copied. The
        search makes one for every state it looks at: an attribute stored
        directly costs a fraction of a ``setattr`` looked up by name."""
        other = object.__new__(type(self))
        other.board = self.board
        other.players = self.players
        other.options = self.options
        other.phase = self.phase
        other.turn = self.turn
        other.actor = self.actor
        other.winner = self.winner
        self._copy_own(other)
        return other

    def _copy_own(self, other):
        """``copy``: the game's own attributes, beyond those every game has."""
        raise NotImplementedError

    # -- the physical board: what its sensors should see ----------------------

    def occupancy(self):
        """How many pieces stand on each space (a bytearray by space index), or
        None for a game whose board does not track pieces."""
        return None

    def owners(self):
        """Whose piece stands on each space (a bytearray by space index: the
        player, LION for a piece no player owns, EMPTY), or None like
        ``occupancy``. Where several stand, the last listed shows."""
        return None

    def moves(self):
        """The decisions made by moving one piece on the board, as
        ``(decision, from_space, to_space)``: lifted at one, put down at the
        other (a piece that then leaves play is put down there first). Other
        decisions are given another way: a wheel turned, a button pressed."""
        return ()

    # -- what a decision is on the board, asked by the controller and its
    # lights of every game: a game keeps these where its decisions have no such part

    def die_of(self, decision):
        """The die ``decision`` plays, or 0: where two moves differ only in
        it, the die face shows the one on offer."""
        return 0

    def wheel_of(self, decision):
        """The wheel ``decision`` turns, or -1."""
        return -1

    def turning(self, wheel, quarters):
        """The legal decision that turns ``wheel`` by ``quarters`` (1 to 3,
        clockwise), as the wheel's encoder reads it, or None."""
        return None

    def is_pass(self, decision):
        """Whether ``decision`` declines what is offered now (a long press of
        button 1 says so)."""
        return False

    def into_pocket(self, decision):
        """Whether ``decision`` says a counter went into a pocket: a pocket's
        beam brings these to the front."""
        return False

    def button(self, b, named=-1, held=False):
        """What the game's own button ``b`` (an index of the board's
        ``button_names``) picks now, ``held`` while another button is down:
        a legal step; part of one (an int), which the next button's press
        completes, given then as ``named`` (-1: none); None where it names
        nothing legal. A game without buttons of its own is never asked."""
        return None

    @classmethod
    def _fresh(cls, board, data):
        """The start of every ``load``: a new game with the save's players and
        options, once the save is known to be this game's, on this board."""
        if field(data, "game", str, "save") != cls.name:
            raise SaveError("save: a %r game, not %r" % (data["game"], cls.name))
        players = field(data, "players", int, "save")
        options = field(data, "options", dict, "save")
        try:
            game = cls(board, players, options)
        except RulesError as err:
            raise SaveError("save: %s" % err)
        if field(data, "board", str, "save") != game.board.name:
            raise SaveError("save: made on board %r, not %r" % (data["board"], game.board.name))
        game.phase = save_int(data, "phase", ROLL, OVER)
        game.turn = save_int(data, "turn", 0, game.players - 1)
        game.winner = save_int(data, "winner", -1, game.players - 1)  # -1 also for a tie
        return game

    def _goes_on(self):
        """The end of every ``load``: reject a state that waits for a decision
        none can make (the board would wait for ever)."""
        if not self.is_chance() and self.phase != OVER and not self._decisions():
            raise SaveError("save: field 'phase' awaits a decision but none is legal")

    # -- the protocol, the same for every game -----------------------------

    def is_chance(self):
        return self.phase == ROLL or self.phase == POPOFF

    def over(self):
        return self.phase == OVER

    def legal(self):
        """Every decision the actor may take now (a tuple: ``in``, ``len``, truth)."""
        if self.is_chance() or self.phase == OVER:
            return ()
        return self._decisions()

    def chance_outcomes(self):
        """Every chance outcome now, as ``(outcome, numerator, denominator)``."""
        if not self.is_chance():
            return ()
        return self._outcomes()

    def play(self, step):
        """Apply a decision or a chance outcome; return the events it caused.

        An illegal step raises IllegalMove and leaves the state unchanged."""
        if self.phase == OVER:
            raise IllegalMove("the game is over")
        if self.is_chance():
            for outcome, _, _ in self._outcomes():
                if outcome == step:
                    return self._apply(step)
            raise IllegalMove("%s is not a possible %s outcome" % (self._name(step), PHASE_NAMES[self.phase]))
        legal = self._decisions()
        if step not in legal:
            raise IllegalMove("%s is not legal now (legal: %s)"
                              % (self._name(step), ", ".join(self.notation(d) for d in legal)))
        return self._apply(step)

    def _name(self, step):
        """The step in notation if it has one, for error messages."""
        try:
            return repr(self.notation(step))
        except (TypeError, ValueError, IndexError, KeyError):
            return repr(step)

    def play_text(self, text):
        """``play(parse(text))``: apply a step given in the game's notation."""
        return self.play(self.parse(text))

    def parse(self, text):
        """The step named by ``text`` in the current phase (not checked for legality)."""
        if len(text) > STEP_TEXT:
            raise IllegalMove("cannot read %r... (%d characters) as a step" % (text[:STEP_TEXT], len(text)))
        step = self._parse(text.strip())
        if step is None:
            raise IllegalMove("cannot read %r as a %s step" % (text, PHASE_NAMES[self.phase]))
        return step

    def describe(self):
        """A small JSON-friendly summary for screens and replays."""
        info = self.save()
        info["phase_name"] = PHASE_NAMES[self.phase]
        info["legal"] = [self.notation(d) for d in self.legal()]
        return info
