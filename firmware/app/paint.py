"""The LED frame of a controller at a moment: the colour language of
``app.colours`` applied to the game, what the sensors say, and the
animations in flight. Layers are painted bottom to top, so what asks for
the players' attention is painted last and wins.

``paint`` runs for every frame, so what does not change from one frame to
the next is worked out once and kept in a ``Canvas``: where each space's
pixel sits in the frame (once per board), the board with its pieces at rest
(once per step of the game: the frame starts as a copy of it), and which
spaces the movable pieces and their targets are on. What the sensors say
(``Controller.view``) is worked out once per input. A frame then writes only
the pixels that move, a few bytes at a time, and allocates nothing. Where
many pixels take one colour (every space when the game is over or a new
game is offered) one loop, ``spread``, writes them: on the Pico compiled to
machine code (``hal.viper``), elsewhere interpreted as written here.

A game that shows more than pieces has a look of its own (``Game.look``
names its module, such as ``app.snuka_look``): its ``Look`` keeps what a
step changes (``update``, at each step) and paints its layer in place of
the pieces' (``paint``, at each frame, allocating nothing), with ``put``,
``rgb`` and ``spread``."""

from array import array

from app import colours as C
from app.die import TUMBLE_STEP_MS
from hal.ticks import diff
from rules.core import EMPTY, LION, OVER, POPOFF, ROLL


def spread(frame, at, owners, rgb):
    """The colour ``rgb`` (0xRRGGBB) into ``frame`` at each byte offset
    ``at[k]`` (an array of "H") whose ``owners[k]`` is EMPTY; at every one
    when ``owners`` is empty."""
    for k in range(len(at)):
        if not owners or owners[k] == EMPTY:
            i = at[k]
            frame[i] = rgb >> 16
            frame[i + 1] = rgb >> 8 & 255
            frame[i + 2] = rgb & 255


try:
    from hal.viper import spread  # noqa: F811  the same loop, compiled for the Pico
except (ImportError, SyntaxError, ValueError):  # CPython; a port without the emitter, from source or .mpy
    pass


def rgb(colour, level=256):
    """``colour`` at ``level`` (of 256) as one number, 0xRRGGBB, as ``spread`` takes it."""
    return (colour[0] * level >> 8) << 16 | (colour[1] * level >> 8) << 8 | colour[2] * level >> 8


def put(f, i, colour, level=256):
    """``colour`` at ``level`` (of 256) into frame ``f`` at byte ``i`` (3 x the pixel)."""
    f[i] = colour[0] * level >> 8
    f[i + 1] = colour[1] * level >> 8
    f[i + 2] = colour[2] * level >> 8


class Canvas:
    """What ``paint`` keeps between the frames of one controller."""

    def __init__(self, ctl):
        board = ctl.game.board
        self.board = board
        self.frame = ctl.ports.pixels.frame
        self.at = array("H", (3 * led for led in board.leds))  # a space's pixel: its first byte in the frame
        self.wheel_cells = wheel_cells = getattr(board, "wheel_cells", ())
        self.wheel_at = tuple(tuple(self.at[s] for s in wheel_cells[9 * w:9 * w + 9])
                              for w in range(len(wheel_cells) // 9))
        self.base = base = bytearray(len(self.frame))  # the board with nothing on it
        kinds = board.kinds
        special = ctl.game.special_kinds
        for s in range(len(self.at)):
            colour = C.SPECIAL if kinds[s] in special else C.SPACE
            i = self.at[s]
            base[i] = colour[0]
            base[i + 1] = colour[1]
            base[i + 2] = colour[2]
        self.still = bytearray(self.base)  # and the pieces at rest: every frame starts as a copy of it
        self.game = None
        self.version = -1  # what the layers were made for: the game at the controller's refresh
        self._owned = b""  # the owners ``still`` shows, as they were then
        self._wheels = b""  # and the wheel positions
        self.movable = ()  # (byte, colour) of every space a piece may move from, once each
        self._seen = bytearray(len(self.at))
        self.hand = -2  # the space the targets below are of (-1: of the stacks)
        self.targets = array("H")
        self.look = _look(ctl.game)
        self.picked = None
        self.candidate = ()  # (from byte, to byte) of the moves of the decision picked
        self._flashed = None  # the decision picked when its flash began
        self._flash_at = 0

    def update(self, ctl):
        """Make the layers again if the game has changed since the last frame."""
        game = ctl.game
        if game is self.game and ctl.version == self.version:
            return
        owners = ctl.owners
        moves = ctl.moves
        at = self.at
        wheels = bytes(game.wheels)
        if game is not self.game or owners is None or owners != self._owned or wheels != self._wheels:
            still = self.still
            still[:] = self.base
            self._owned = b""
            self._wheels = wheels
            for s in self.wheel_cells:
                if not self.board.mask(s, wheels):  # a wheel position the route does not run through: dark
                    i = at[s]
                    still[i] = still[i + 1] = still[i + 2] = 0
            if owners is not None:
                for s in range(len(at)):
                    owner = owners[s]
                    if owner == LION:
                        put(still, at[s], C.LION, C.DIM)
                    elif owner != EMPTY:
                        put(still, at[s], C.player(game, owner), C.DIM)
                self._owned = bytes(owners)
        self.game = game
        self.version = ctl.version
        if self.look is not None:
            self.look.update(ctl, self)
        self.hand = -2
        self.picked = None
        mine = C.player(game, game.turn)
        seen = self._seen
        movable = []
        for _, f, _ in moves:
            if not seen[f]:
                seen[f] = 1
                movable.append((at[f], C.LION if owners is not None and owners[f] == LION else mine))
        for _, f, _ in moves:
            seen[f] = 0
        self.movable = tuple(movable)

    # (The two below are called at every frame and make their arrays in
    # functions of their own: a comprehension here would turn the names it
    # uses into cells, allocated at every call.)

    def targets_of(self, ctl, hand):
        """The bytes of the destinations of the piece in the hand, or with none
        in the hand (-1) those of pieces on a stack (one taken off is not sensed)."""
        if hand != self.hand:
            self.hand = hand
            self.targets = _targets(self.at, ctl.moves, ctl.expected, hand)
        return self.targets

    def flash(self, picked, now):
        """Whether the decision ``picked`` shows in its flash now. The flash
        begins lit when a decision is picked: counted on the clock, a click
        through the choices showed only when the flash came round, up to
        2 * FLASH_MS later."""
        if picked is not self._flashed:
            self._flashed = picked
            self._flash_at = now
        return C.blink(diff(now, self._flash_at), C.FLASH_MS * 2)

    def pick(self, ctl, picked):
        """The moves of the decision the picker shows: (from byte, to byte)."""
        if picked is not self.picked:
            self.picked = picked
            self.candidate = _moves_of(self.at, ctl.moves, picked[1])
        return self.candidate


def _look(game):
    """The layer of a game that shows more than pieces (``Game.look`` names
    its module, imported only for that game), or None."""
    if not game.look:
        return None
    return __import__(game.look, None, None, ("Look",)).Look()


def _targets(at, moves, expected, hand):
    return array("H", (at[t] for _, f, t in moves if f == hand or (hand < 0 and expected[f] >= 2)))


def _moves_of(at, moves, decision):
    return tuple((at[f], at[t]) for d, f, t in moves if d == decision)


def paint(ctl, now):
    game = ctl.game
    canvas = ctl.canvas
    if canvas is None or canvas.board is not game.board or canvas.frame is not ctl.ports.pixels.frame:
        canvas = ctl.canvas = Canvas(ctl)
    canvas.update(ctl)
    f = canvas.frame
    f[:] = canvas.still
    if canvas.look is not None:
        canvas.look.paint(ctl, canvas, f, now)
    else:
        _pieces(ctl, canvas, f, now)
    _dice(ctl, canvas, f, now)
    _die_on_offer(ctl)
    _alerts(ctl, canvas, f, now)
    if game.phase == OVER:
        _over(ctl, canvas, f, now)
    if ctl.prompt >= 0:
        # "new game?": every space blinks amber until confirmed or cancelled
        if C.blink(now, C.BLINK_MS):
            spread(f, canvas.at, b"", rgb(C.AMBER, 90))
    if ctl.keeper and ctl.keeper.failing and C.blink(now, C.SLOW_MS):
        put(f, 0, C.UNSAVED)  # the flash refuses writes: the game is only in RAM (on top of everything)


def _pieces(ctl, canvas, f, now):
    game = ctl.game
    at = canvas.at
    mine = C.player(game, game.turn)
    level = C.breathe(now)
    hand = ctl.view()[3]
    if ctl.offered is not None:
        _candidate(ctl, canvas, f, now, ctl.picked)
        return
    for i, colour in canvas.movable:
        f[i] = colour[0] * level >> 8
        f[i + 1] = colour[1] * level >> 8
        f[i + 2] = colour[2] * level >> 8
    # targets of the piece in the hand, or of a stack (a piece taken from it is not sensed)
    spread(f, canvas.targets_of(ctl, hand), b"", rgb(C.WHITE))
    if hand >= 0:
        put(f, at[hand], mine)
    if ctl.hint and C.blink(now, C.SLOW_MS):
        for s in ctl.hint:
            put(f, at[s], C.WHITE)
    if ctl.choice or ctl.unseen:
        _candidate(ctl, canvas, f, now, ctl.picked)


def _candidate(ctl, canvas, f, now, picked):
    """The decision the picker shows now: where it leads, flashing."""
    if picked is None:
        return
    decision = picked[1]
    flash = ctl.holding or canvas.flash(picked, now)
    lit = C.HELD if ctl.holding else C.WHITE
    moves = canvas.pick(ctl, picked)
    if moves:
        colour = C.player(ctl.game, ctl.game.turn)
        level = C.breathe(now)
        for i, j in moves:
            put(f, i, colour, level)
            if flash:
                put(f, j, lit)
    w = ctl.game.wheel_of(decision)
    if w >= 0 and flash:
        for i in canvas.wheel_at[w]:
            put(f, i, lit)


def _die_on_offer(ctl):
    """Where a choice is between dice, roller 1 shows the die of the move on offer."""
    picked = ctl.picked
    if not ctl.choice or picked is None or not ctl.faces.leds:
        return
    die = ctl.game.die_of(picked[1])
    if die:
        ctl.faces.show(0, die, C.WHITE)
        ctl.faces.clear(1)


def _dice(ctl, canvas, f, now):
    game = ctl.game
    faces = ctl.faces
    colour = C.player(game, game.turn)
    if game.phase == POPOFF and ctl.duel is not None:
        for r in range(min(2, len(faces.leds))):
            value = ctl.duel_faces[r]
            who = C.player(game, ctl.duel.players[r])
            if value:
                faces.show(r, value, who)
            elif C.blink(now, C.BLINK_MS):
                faces.show(r, 6, who)  # pop me
        return
    if ctl.sticks:
        mask = ctl.roll if isinstance(ctl.roll, int) else -1
        if mask >= 0 and ctl.tumble.rattling(now):
            mask = (mask + now // TUMBLE_STEP_MS) & 7  # the sticks rattle
        if game.phase == ROLL and game.phase != OVER and mask < 0:
            level = C.breathe(now) >> 1
            for led in ctl.sticks:
                put(f, 3 * led, colour, level)
        elif mask >= 0:
            faces.show_sticks(ctl.sticks, mask, C.WHITE, C.STICK_ROUND)
        return
    if not faces.leds:
        return
    if ctl.roll and ctl.tumble.rattling(now):
        ctl.tumble.draw(now)
    elif game.phase == ROLL:
        level = C.breathe(now) >> 1  # your turn: press the die
        r, g, b = colour[0] * level >> 8, colour[1] * level >> 8, colour[2] * level >> 8
        for leds in faces.leds:
            for led in leds:
                i = 3 * led
                f[i] = r
                f[i + 1] = g
                f[i + 2] = b
    elif ctl.roll:
        for r in range(min(len(ctl.roll), len(faces.leds))):
            faces.show(r, ctl.roll[r], ctl.tumble.colour)


def _alerts(ctl, canvas, f, now):
    """Where the board disagrees with the rules, and the events' flashes."""
    at = canvas.at
    extra, missing, wheels, _ = ctl.view()
    if missing and C.blink(now, C.BLINK_MS):
        for s in missing:
            put(f, at[s], C.AMBER)
    if (extra or wheels) and C.blink(now, C.BLINK_FAST_MS):
        for s in extra:
            put(f, at[s], C.RED)
        for w in wheels:
            for i in canvas.wheel_at[w]:
                put(f, i, C.RED)
    flashes = ctl.flashes
    if flashes:
        on = C.blink(now, C.FLASH_MS)
        over = False
        for flash in flashes:
            if diff(flash[0], now) > 0:
                if on:
                    put(f, 3 * flash[1], flash[2])
            else:
                over = True
        if over:
            ctl.flashes = _live(flashes, now)


def _live(flashes, now):
    """The animations not yet over. (A comprehension in ``_alerts`` itself
    would make ``now`` a cell, allocated at every call.)"""
    return [flash for flash in flashes if diff(flash[0], now) > 0]


def _over(ctl, canvas, f, now):
    game = ctl.game
    winners = getattr(game, "winners", ())  # a shared win, in turn a second each (no tuple made per frame)
    if winners:
        who = winners[(now // 1000) % len(winners)]
    elif game.winner >= 0:
        who = game.winner
    else:
        return
    colour = C.player(game, who)
    glow = rgb(colour, C.breathe(now) >> 1)
    spread(f, canvas.at, ctl.owners or b"", glow)  # the spaces no piece stands on (without owners: every one)

