"""The electronic pop-o-matic as the players see it: die faces, the tumble,
the pop-off. The outcomes come from ``hal.Chance``.

A die face is 7 pixels in the classic pip layout, listed in this order:

    0 .   . 1        top-left, top-right
    2 . 3 . 4        middle-left, centre, middle-right
    5 .   . 6        bottom-left, bottom-right
"""

from hal.ticks import diff

# which of the 7 pips each value lights, as a bit mask (bit k = pip k)
FACES = (0, 0b0001000, 0b1000001, 0b1001001, 0b1100011, 0b1101011, 0b1110111)
TUMBLE_MS = 600  # long enough to read as a throw, short enough not to annoy
# a new face every 40 ms: the dice visibly rattle. Frames are drawn on the
# clock's 20 ms marks (app.controller), and the faces change on its 40 ms
# marks, not 40 ms from the press: so each face shows 40 ms (and the tick's
# delay), well under the 60 ms an animation may stand still
# (docs/budgets.md). Counted from the press, a step fell between two frame
# marks and some faces stood 20 ms longer: 60.5 ms on the emulated Pico
TUMBLE_STEP_MS = 40


def rattling(started, now):
    """Whether dice thrown at ``started`` (None: never) still tumble at ``now``."""
    return started is not None and diff(now, started) < TUMBLE_MS


class Faces:
    """Draws die faces into a ``Pixels`` frame; ``leds`` is one 7-pixel tuple per roller."""

    def __init__(self, pixels, leds):
        self.pixels = pixels
        self.leds = leds

    def show(self, roller, value, colour, dim=(0, 0, 0)):
        mask = FACES[value]
        leds = self.leds[roller]
        f = self.pixels.frame  # (written directly: this runs at every frame)
        for k in range(len(leds)):  # (enumerate() would allocate)
            c = colour if mask >> k & 1 else dim
            i = 3 * leds[k]
            f[i] = c[0]
            f[i + 1] = c[1]
            f[i + 2] = c[2]

    def show_sticks(self, leds, mask, flat, round_side):
        """The three sticks, one pixel each: ``flat`` where a flat side fell up."""
        f = self.pixels.frame
        for k in range(len(leds)):
            c = flat if mask >> k & 1 else round_side
            i = 3 * leds[k]
            f[i] = c[0]
            f[i + 1] = c[1]
            f[i + 2] = c[2]

    def clear(self, roller):
        for led in self.leds[roller]:
            self.pixels.set(led, 0, 0, 0)


class Tumble:
    """The pop animation: faces rattle for TUMBLE_MS, then the result stays.

    ``start(now, values)`` with the already drawn outcome (one value per
    roller); ``draw(now)`` paints the frame and returns True once settled."""

    def __init__(self, faces, colour):
        self.faces = faces
        self.colour = colour
        self.values = ()
        self.started = None  # (never thrown)

    def start(self, now, values):
        self.values = values
        self.started = now

    def rattling(self, now):
        """Whether the faces still rattle at ``now``."""
        return rattling(self.started, now)

    def draw(self, now):
        elapsed = diff(now, self.started)
        settled = elapsed >= TUMBLE_MS
        step = now // TUMBLE_STEP_MS
        values = self.values
        for roller in range(len(values)):
            value = values[roller]
            shown = value if settled else (value + step + 2 * roller) % 6 + 1
            self.faces.show(roller, shown, self.colour)
        return settled


class PopOff:
    """The Detour pop-off: both players pop their own roller as fast as they
    like; every press is a roll; the first 6 wins."""

    def __init__(self, chance, players):
        self.chance = chance
        self.players = players  # the player on roller 0 and on roller 1
        self.winner = -1

    def press(self, roller):
        """Roll for a press on ``roller``; the value (the duel ends at a 6)."""
        if self.winner >= 0:
            return 0
        value = self.chance.d6()
        if value == 6:
            self.winner = self.players[roller]
        return value
