"""The LED frame of a controller at a moment: the colour language of
``app.colours`` applied to the game, what the sensors say, and the
animations in flight. Layers are painted bottom to top, so what asks for
the players' attention is painted last and wins."""

from app import colours as C
from hal.die import TUMBLE_MS, TUMBLE_STEP_MS
from hal.ticks import diff
from rules.core import EMPTY, LION, OVER, POPOFF, ROLL

# the spaces the rules name, lit a little warmer than plain track
SPECIAL_KINDS = ("start", "finish", "star", "wheel_star", "centre", "home", "trademark", "head", "tail", "pocket")


def _put(pixels, led, colour, level=256):
    pixels.set(led, colour[0] * level >> 8, colour[1] * level >> 8, colour[2] * level >> 8)


def paint(ctl, now):
    game = ctl.game
    board = game.board
    pixels = ctl.ports.pixels
    leds = board.leds
    pixels.fill(0, 0, 0)
    for s in range(len(leds)):
        _put(pixels, leds[s], C.SPECIAL if board.kinds[s] in SPECIAL_KINDS else C.SPACE)
    if game.name == "snuka":
        _snuka(ctl, pixels, now)
    else:
        _pieces(ctl, pixels, now)
    _dice(ctl, pixels, now)
    _die_on_offer(ctl)
    _alerts(ctl, pixels, now)
    if game.phase == OVER:
        _over(ctl, pixels, now)
    if ctl.prompt >= 0:
        # "new game?": every space blinks amber until confirmed or cancelled
        if C.blink(now, C.BLINK_MS):
            for led in leds:
                _put(pixels, led, C.AMBER, 90)


def _pieces(ctl, pixels, now):
    game = ctl.game
    leds = game.board.leds
    owners = ctl.owners
    for s in range(len(leds)):
        owner = owners[s]
        if owner == LION:
            _put(pixels, leds[s], C.LION, C.DIM)
        elif owner != EMPTY:
            _put(pixels, leds[s], C.player(game, owner), C.DIM)
    mine = C.player(game, game.turn)
    level = C.breathe(now)
    hand = ctl.in_hand()
    if ctl.offered is not None:
        _candidate(ctl, pixels, now, ctl.picked)
        return
    for _, f, _ in ctl.moves:
        _put(pixels, leds[f], C.LION if owners[f] == LION else mine, level)
    for _, f, t in ctl.moves:
        # targets of the piece in the hand, or of a stack (a piece taken from it is not sensed)
        if f == hand or (hand < 0 and ctl.expected[f] >= 2):
            _put(pixels, leds[t], C.WHITE)
    if hand >= 0:
        _put(pixels, leds[hand], mine)
    if ctl.hint and C.blink(now, C.SLOW_MS):
        for s in ctl.hint:
            _put(pixels, leds[s], C.WHITE)
    if ctl.choice or ctl.unseen:
        _candidate(ctl, pixels, now, ctl.picked)


def _candidate(ctl, pixels, now, picked):
    """The decision the picker shows now: where it leads, flashing."""
    if picked is None:
        return
    decision = picked[1]
    leds = ctl.game.board.leds
    flash = C.blink(now, C.FLASH_MS * 2)
    for d, f, t in ctl.moves:
        if d == decision:
            _put(pixels, leds[f], C.player(ctl.game, ctl.game.turn), C.breathe(now))
            if flash:
                _put(pixels, leds[t], C.WHITE)
    if decision[0] == "w" and decision[1] >= 0 and flash:
        for s in _wheel_spaces(ctl.game, decision[1]):
            _put(pixels, leds[s], C.WHITE)


def _die_on_offer(ctl):
    """Where a choice is between dice, roller 1 shows the die of the move on offer."""
    picked = ctl.picked
    if not ctl.choice or picked is None or not ctl.faces.leds:
        return
    decision = picked[1]
    if len(decision) > 2 and isinstance(decision[2], int) and 1 <= decision[2] <= 6:
        ctl.faces.show(0, decision[2], C.WHITE)
        ctl.faces.clear(1)


def _wheel_spaces(game, w):
    return game.board.wheel_cells[9 * w:9 * w + 9]


def _dice(ctl, pixels, now):
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
        if mask >= 0 and diff(now, ctl.tumble.started) < TUMBLE_MS:
            mask = (mask + now // TUMBLE_STEP_MS) & 7  # the sticks rattle
        if game.phase == ROLL and game.phase != OVER and mask < 0:
            level = C.breathe(now)
            for led in ctl.sticks:
                _put(pixels, led, colour, level >> 1)
        elif mask >= 0:
            faces.show_sticks(ctl.sticks, mask, C.WHITE, C.STICK_ROUND)
        return
    if not faces.leds:
        return
    if ctl.roll and diff(now, ctl.tumble.started) < TUMBLE_MS:
        ctl.tumble.draw(now)
    elif game.phase == ROLL:
        level = C.breathe(now) >> 1  # your turn: press the die
        for leds in faces.leds:
            for led in leds:
                _put(pixels, led, colour, level)
    elif ctl.roll:
        for r in range(min(len(ctl.roll), len(faces.leds))):
            faces.show(r, ctl.roll[r], ctl.tumble.colour)


def _alerts(ctl, pixels, now):
    """Where the board disagrees with the rules, and the events' flashes."""
    leds = ctl.game.board.leds
    extra, missing, wheels = ctl.mismatch()
    if C.blink(now, C.BLINK_MS):
        for s in missing:
            _put(pixels, leds[s], C.AMBER)
    if C.blink(now, C.BLINK_FAST_MS):
        for s in extra:
            _put(pixels, leds[s], C.RED)
        for w in wheels:
            for s in _wheel_spaces(ctl.game, w):
                _put(pixels, leds[s], C.RED)
    live = []
    for flash in ctl.flashes:
        if diff(flash[0], now) > 0:
            live.append(flash)
            if C.blink(now, C.FLASH_MS):
                _put(pixels, flash[1], flash[2])
    ctl.flashes = live


def _over(ctl, pixels, now):
    game = ctl.game
    winners = getattr(game, "winners", ()) or ((game.winner,) if game.winner >= 0 else ())
    if not winners:
        return
    colour = C.player(game, winners[(now // 1000) % len(winners)])
    level = C.breathe(now)
    for s in range(len(game.board.leds)):
        if ctl.owners is None or ctl.owners[s] == EMPTY:
            _put(pixels, game.board.leds[s], colour, level >> 1)


def _snuka(ctl, pixels, now):
    game = ctl.game
    board = game.board
    leds = board.leds
    on = game.on_now() if game.phase != OVER else ()
    level = C.breathe(now)
    for c in range(7):
        spots = board.spots[c]
        if c == 0:
            lit = min(len(spots), game.reds - game.pending.count(0))
        else:
            lit = len(spots) if game.in_play(c) else 0
        for k in range(lit):
            _put(pixels, leds[spots[k]], C.COUNTERS[c], level if c in on else C.DIM)
        if c in game.pending and C.blink(now, C.BLINK_MS):
            for s in spots[:1]:
                _put(pixels, leds[s], C.AMBER)  # put this counter back on its spot
    top = max(max(game.scores), 1)
    for p in range(game.players):
        bar = board.bars[p]
        score = game.scores[p]
        count = 0 if score <= 0 else max(1, len(bar) * score // top)
        for k in range(len(bar)):
            if k < count:
                _put(pixels, bar[k], C.player(game, p), level if p == game.turn else C.DIM)
            elif k == 0 and p == game.turn:
                _put(pixels, bar[k], C.player(game, p), level >> 2)
        if score < 0 and C.blink(now, C.BLINK_FAST_MS):
            _put(pixels, bar[0], C.RED)
    picked = ctl.picked
    if picked is None or not C.blink(now, C.FLASH_MS * 2):
        return
    decision = picked[1]
    if len(decision) > 1:
        spots = board.spots[decision[1]]
        for s in spots[:1] if decision[1] else spots:
            _put(pixels, leds[s], C.WHITE)
    else:  # miss or safe: the pockets
        for s in board.pockets:
            _put(pixels, leds[s], C.WHITE)
