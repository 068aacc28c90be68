"""The LED frame of a controller at a moment: the colour language of
``app.colours`` applied to what the controller's snapshot says
(``app.controller.Snapshot``: the game, what the sensors say, the
animations in flight). Layers are painted bottom to top, so what asks for
the players' attention is painted last and wins.

``paint(canvas, snap, now)`` runs for every frame, so what does not change
from one frame to the next is worked out once and kept in a ``Canvas``, the
state paint keeps of its own: where each space's pixel sits in the frame
(once per board), the board with its pieces at rest (once per step of the
game: the frame starts as a copy of it), which spaces the movable pieces and
their targets are on, the dice's faces and tumble. What the sensors say is
worked out by the controller once per input. A frame then writes only
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
from app.die import TUMBLE_STEP_MS, Faces, Tumble
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
    """What ``paint`` keeps between the frames of one controller: for the
    board of ``game``, on ``pixels``, with a die face on each of ``rollers``
    (7 pixels each)."""

    def __init__(self, game, pixels, rollers):
        board = game.board
        self.board = board
        self.frame = pixels.frame
        self.faces = Faces(pixels, rollers)
        self.dice_at = array("H", (3 * led for leds in rollers for led in leds))  # every die pixel's first byte
        self.tumble = Tumble(self.faces, C.WHITE)
        self.sticks = board.extras.get("sticks", ())
        self.at = array("H", (3 * led for led in board.leds))  # a space's pixel: its first byte in the frame
        self.wheel_cells = wheel_cells = getattr(board, "wheel_cells", ())
        self.wheel_at = tuple(tuple(self.at[s] for s in wheel_cells[9 * w:9 * w + 9])
                              for w in range(len(wheel_cells) // 9))
        self.base = base = bytearray(len(self.frame))  # the board with nothing on it
        kinds = board.kinds
        special = game.special_kinds
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
        self.look = _look(game)
        self.picked = None
        self.candidate = ()  # (from byte, to byte) of the moves of the decision picked
        self._flashed = None  # the decision picked when its flash began
        self._flash_at = 0
        self.spent = ()  # the snapshot's flashes once all of them were over
        self._missing = ()  # the snapshot's missing spaces, and their bytes
        self.missing = array("H")
        self._extra = ()  # the snapshot's wrong spaces and wrong wheels, and the bytes of both
        self._turned = ()
        self.wrong = array("H")

    def update(self, snap):
        """Make the layers again if the game has changed since the last frame."""
        game = snap.game
        if game is self.game and snap.version == self.version:
            return
        owners = snap.owners
        moves = snap.moves
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
        self.version = snap.version
        if self.look is not None:
            self.look.update(snap, self)
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

    # (The three below are called at every frame and make their arrays in
    # functions of their own: a comprehension here would turn the names it
    # uses into cells, allocated at every call.)

    def targets_of(self, snap, hand):
        """The bytes of the destinations of the piece in the hand, or with none
        in the hand (-1) those of pieces on a stack (one taken off is not sensed)."""
        if hand != self.hand:
            self.hand = hand
            self.targets = _targets(self.at, snap.moves, snap.expected, hand)
        return self.targets

    def missing_of(self, snap):
        """The bytes of the spaces where a piece is missing, made again only
        when the controller's list changes: at game over every piece may be
        missing, and ``spread`` lights them in one loop."""
        if snap.missing is not self._missing:
            self._missing = snap.missing
            self.missing = _bytes_of(self.at, snap.missing)
        return self.missing

    def wrong_of(self, snap):
        """The bytes of the spaces where a piece stands and none belongs and of
        the cells of the wheels that stand wrong, made again only when the
        controller's lists change: at game over with a board put away every
        piece and wheel may be wrong, and lighting them one by one cost 2.7 ms
        of every frame they blink in."""
        if snap.extra is not self._extra or snap.wrong_wheels is not self._turned:
            self._extra = snap.extra
            self._turned = snap.wrong_wheels
            self.wrong = _wrong_bytes(self.at, snap.extra, self.wheel_at, snap.wrong_wheels)
        return self.wrong

    def flash(self, picked, now):
        """Whether the decision ``picked`` shows in its flash now. The flash
        begins lit when a decision is picked: counted on the clock, a click
        through the choices showed only when the flash came round, up to
        2 * FLASH_MS later."""
        if picked is not self._flashed:
            self._flashed = picked
            self._flash_at = now
        return C.blink(diff(now, self._flash_at), C.FLASH_MS * 2)

    def pick(self, snap, picked):
        """The moves of the decision the picker shows: (from byte, to byte)."""
        if picked is not self.picked:
            self.picked = picked
            self.candidate = _moves_of(self.at, snap.moves, picked[1])
        return self.candidate

    def throw(self, snap):
        """The tumble of the throw the snapshot shows, begun at its first frame."""
        tumble = self.tumble
        if tumble.started != snap.thrown:
            roll = snap.roll
            tumble.start(snap.thrown, roll if isinstance(roll, tuple) else ())
            tumble.colour = C.player(snap.game, snap.thrower)
        return tumble


def _look(game):
    """The layer of a game that shows more than pieces (``Game.look`` names
    its module, imported only for that game), or None."""
    if not game.look:
        return None
    return __import__(game.look, None, None, ("Look",)).Look()


def _bytes_of(at, spaces):
    return array("H", (at[s] for s in spaces))


def _wrong_bytes(at, extra, wheel_at, wheels):
    return array("H", [at[s] for s in extra] + [i for w in wheels for i in wheel_at[w]])


def _targets(at, moves, expected, hand):
    return array("H", (at[t] for _, f, t in moves if f == hand or (hand < 0 and expected[f] >= 2)))


def _moves_of(at, moves, decision):
    return tuple((at[f], at[t]) for d, f, t in moves if d == decision)


def paint(canvas, snap, now):
    """Paint the frame of ``snap`` (the controller's snapshot) at ``now`` into ``canvas.frame``."""
    game = snap.game
    canvas.update(snap)
    f = canvas.frame
    f[:] = canvas.still
    if canvas.look is not None:
        canvas.look.paint(snap, canvas, f, now)
    else:
        _pieces(snap, canvas, f, now)
    _dice(snap, canvas, f, now)
    _die_on_offer(snap, canvas)
    _alerts(snap, canvas, f, now)
    if game.phase == OVER:
        _over(snap, canvas, f, now)
    if snap.prompt:
        # "new game?": every space blinks amber until confirmed or cancelled
        if C.blink(now, C.BLINK_MS):
            spread(f, canvas.at, b"", rgb(C.AMBER, 90))
    if snap.failing and C.blink(now, C.SLOW_MS):
        put(f, 0, C.UNSAVED)  # the flash refuses writes: the game is only in RAM (on top of everything)


def _pieces(snap, canvas, f, now):
    game = snap.game
    at = canvas.at
    mine = C.player(game, game.turn)
    level = C.breathe(now)
    hand = snap.hand
    if snap.offered is not None:
        _candidate(snap, canvas, f, now, snap.picked)
        return
    for i, colour in canvas.movable:
        f[i] = colour[0] * level >> 8
        f[i + 1] = colour[1] * level >> 8
        f[i + 2] = colour[2] * level >> 8
    # targets of the piece in the hand, or of a stack (a piece taken from it is not sensed)
    spread(f, canvas.targets_of(snap, hand), b"", rgb(C.WHITE))
    if hand >= 0:
        put(f, at[hand], mine)
    if snap.hint and C.blink(now, C.SLOW_MS):
        for s in snap.hint:
            put(f, at[s], C.WHITE)
    if snap.choice or snap.unseen:
        _candidate(snap, canvas, f, now, snap.picked)


def _candidate(snap, canvas, f, now, picked):
    """The decision the picker shows now: where it leads, flashing."""
    if picked is None:
        return
    decision = picked[1]
    flash = snap.holding or canvas.flash(picked, now)
    lit = C.HELD if snap.holding else C.WHITE
    moves = canvas.pick(snap, picked)
    if moves:
        colour = C.player(snap.game, snap.game.turn)
        level = C.breathe(now)
        for i, j in moves:
            put(f, i, colour, level)
            if flash:
                put(f, j, lit)
    w = snap.game.wheel_of(decision)
    if w >= 0 and flash:
        for i in canvas.wheel_at[w]:
            put(f, i, lit)


def _die_on_offer(snap, canvas):
    """Where a choice is between dice, roller 1 shows the die of the move on offer."""
    picked = snap.picked
    faces = canvas.faces
    if not snap.choice or picked is None or not faces.leds:
        return
    die = snap.game.die_of(picked[1])
    if die:
        faces.show(0, die, C.WHITE)
        faces.clear(1)


def _dice(snap, canvas, f, now):
    game = snap.game
    faces = canvas.faces
    colour = C.player(game, game.turn)
    duel = snap.duel
    if game.phase == POPOFF and duel is not None:
        for r in range(min(2, len(faces.leds))):
            value = snap.duel_faces[r]
            who = C.player(game, duel[r])
            if value:
                faces.show(r, value, who)
            elif C.blink(now, C.BLINK_MS):
                faces.show(r, 6, who)  # pop me
        return
    tumble = canvas.throw(snap)
    roll = snap.roll
    if canvas.sticks:
        mask = roll if isinstance(roll, int) else -1
        if mask >= 0 and tumble.rattling(now):
            mask = (mask + now // TUMBLE_STEP_MS) & 7  # the sticks rattle
        if game.phase == ROLL and game.phase != OVER and mask < 0:
            level = C.breathe(now) >> 1
            for led in canvas.sticks:
                put(f, 3 * led, colour, level)
        elif mask >= 0:
            faces.show_sticks(canvas.sticks, mask, C.WHITE, C.STICK_ROUND)
        return
    if not faces.leds:
        return
    if roll and tumble.rattling(now):
        tumble.draw(now)
    elif game.phase == ROLL:
        spread(f, canvas.dice_at, b"", rgb(colour, C.breathe(now) >> 1))  # your turn: press the die
    elif roll:
        for r in range(min(len(roll), len(faces.leds))):
            faces.show(r, roll[r], tumble.colour)


def _alerts(snap, canvas, f, now):
    """Where the board disagrees with the rules, and the events' flashes."""
    missing = snap.missing
    extra = snap.extra
    wheels = snap.wrong_wheels
    if missing and C.blink(now, C.BLINK_MS):
        spread(f, canvas.missing_of(snap), b"", rgb(C.AMBER))
    if (extra or wheels) and C.blink(now, C.BLINK_FAST_MS):
        spread(f, canvas.wrong_of(snap), b"", rgb(C.RED))
    flashes = snap.flashes
    if flashes is not canvas.spent:
        on = C.blink(now, C.FLASH_MS)
        live = False
        for flash in flashes:
            if diff(flash[0], now) > 0:
                live = True
                if on:
                    put(f, 3 * flash[1], flash[2])
        if not live:
            canvas.spent = flashes  # all over: not looked at again until the controller adds more


def _over(snap, canvas, f, now):
    game = snap.game
    winners = getattr(game, "winners", ())  # a shared win, in turn a second each (no tuple made per frame)
    if winners:
        who = winners[(now // 1000) % len(winners)]
    elif game.winner >= 0:
        who = game.winner
    else:
        return
    colour = C.player(game, who)
    glow = rgb(colour, C.breathe(now) >> 1)
    spread(f, canvas.at, snap.owners or b"", glow)  # the spaces no piece stands on (without owners: every one)
