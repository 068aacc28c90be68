"""What a Tiddlee Snuka board shows (``Snuka.look``): no piece moves under
the board's control, so this layer takes the place of the pieces' in
``app.paint``. The spots of the counters that are on breathe in the
counter's colour, the others glow dim; a counter to put back blinks amber on
its spot; each player's score bar is lit as far as the score goes against
the leader's, the shooter's breathing, and blinks red while the score is
below 0. A panel button that names nothing now blinks red where it points; a
foul kind named waits for the counter, every one in play flashing; the
choice on button 1 flashes the spots of its counter (a miss or a safety:
the pockets)."""

from array import array

from app import colours as C
from app.paint import put, rgb, spread
from hal.ticks import diff
from rules.core import OVER

# the counters: red, yellow, green, mauve, blue, pink, black (black shown as dim white)
COUNTERS = ((230, 0, 0), (235, 170, 0), (20, 200, 40), (170, 60, 200), (20, 70, 255), (255, 90, 150), (120, 120, 120))


class Look:
    """What a step changes, kept for the frames until the next one: each
    frame then only spreads the lit spots and bars, breathing or at their
    step's dim colour (worked out once per step: the frame's own work held
    Tiddlee Snuka's click answer past its 16 ms on the emulated Pico)."""

    def __init__(self):
        self.lit = ()  # (the bytes of spots or of a bar, its colour, 0xRRGGBB when dim or -1 when it breathes)
        self.back = ()  # the bytes of the first spot of each counter to put back
        self.start = -1  # the first byte of the shooter's bar when none of it is lit
        self.below = ()  # the first bytes of the bars of the players below 0

    def update(self, snap, canvas):
        game = snap.game
        board = game.board
        at = canvas.at
        on = game.on_now() if game.phase != OVER else ()
        lit = []
        back = []
        for c in range(7):
            where = board.spots[c]
            if c == 0:
                n = min(len(where), game.reds - game.pending.count(0))
            else:
                n = len(where) if game.in_play(c) else 0
            if n:
                lit.append(_layer(array("H", (at[where[k]] for k in range(n))), COUNTERS[c], c in on))
            if where and c in game.pending:
                back.append(at[where[0]])
        top = max(max(game.scores), 1)
        self.start = -1
        below = []
        for p in range(game.players):
            bar, score = board.bars[p], game.scores[p]
            count = 0 if score <= 0 else max(1, len(bar) * score // top)
            if count:
                lit.append(_layer(array("H", (3 * bar[k] for k in range(min(count, len(bar))))), C.player(game, p),
                                  p == game.turn))
            elif bar and p == game.turn:
                self.start = 3 * bar[0]
            if score < 0:
                below.append(3 * bar[0])
        self.lit = tuple(lit)
        self.back = tuple(back)
        self.below = tuple(below)

    def paint(self, snap, canvas, f, now):
        game = snap.game
        board = game.board
        at = canvas.at
        level = C.breathe(now)
        for spots, colour, dim in self.lit:
            spread(f, spots, b"", rgb(colour, level) if dim < 0 else dim)
        if self.back and C.blink(now, C.BLINK_MS):
            for i in self.back:
                put(f, i, C.AMBER)  # put this counter back on its spot
        if self.start >= 0:
            put(f, self.start, C.player(game, game.turn), level >> 2)
        if self.below and C.blink(now, C.BLINK_FAST_MS):
            for i in self.below:
                put(f, i, C.RED)
        refused = snap.refused
        if refused is not None and diff(refused[0], now) > 0 and C.blink(now, C.BLINK_FAST_MS):
            # a panel button that names nothing legal now: what it names blinks red
            b = refused[1]
            for s in board.spots[b] if b < len(board.spots) else board.pockets:
                put(f, at[s], C.RED)
        if snap.named >= 0:  # a foul kind named: which counter? every one in play flashes, lit when named
            if C.blink(diff(now, snap.named_at), C.FLASH_MS * 2):
                for c in range(len(board.spots)):
                    if game.in_play(c):
                        put(f, at[board.spots[c][0]], C.WHITE)
            return
        picked = snap.picked
        if picked is None or not (snap.holding or canvas.flash(picked, now)):
            return
        decision = picked[1]
        lit = C.HELD if snap.holding else C.WHITE
        if len(decision) > 1:
            spots = board.spots[decision[1]]
            for k in range(min(1, len(spots)) if decision[1] else len(spots)):
                put(f, at[spots[k]], lit)
        else:  # miss or safe: the pockets
            for s in board.pockets:
                put(f, at[s], lit)


def _layer(spots, colour, breathes):
    return spots, colour, -1 if breathes else rgb(colour, C.DIM)
