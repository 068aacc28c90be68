"""One colour language for every game; the README's table describes it.

Steady light is information, blinking asks for something:
    a player's piece        the player's colour, dim
    piece that may move     the player's colour, breathing
    legal destination       white, steady
    chosen / confirmed      white, quick flashes
    chosen, button held     bright white, steady: a long press takes it
    suggested move (hint)   white, slow blink
    put a piece here        amber, blinking
    wrong (not here, not this wheel, not now)   red, fast blink
    the game is not saved (the flash refuses writes)    the first pixel, magenta, slow blink
Player red is never blinking, so red fast blink always means "wrong".
"""

# player 1..6: red, blue, green, yellow, purple, cyan
PLAYERS = ((230, 20, 20), (20, 70, 255), (20, 200, 40), (235, 170, 0), (160, 40, 230), (0, 190, 190))
LION = (255, 60, 120)  # Mehen's lions belong to no player
WHITE = (200, 200, 200)
HELD = (255, 255, 255)  # the choice while button 1 is down on it
AMBER = (255, 100, 0)
RED = (255, 0, 0)
UNSAVED = (220, 0, 220)  # magenta: no game piece or player has it
OFF = (0, 0, 0)
# Frame values go through gamma 2.2 and the brightness on their way to the
# wire: below about 28 a channel reaches the LED as 0, so the dimmest colours
# here stay above that.
SPACE = (40, 34, 28)  # an empty space, dimly lit so the board's shape shows
SPECIAL = (100, 75, 0)  # stars, start, finish, the Zone, pockets: the spaces the rules name
STICK_ROUND = (90, 45, 10)

DIM = 90  # of 256: a piece at rest
BLINK_FAST_MS = 125  # 4 Hz: wrong
BLINK_MS = 250  # 2 Hz: put a piece here
FLASH_MS = 60  # chosen
SLOW_MS = 500  # hint
BREATHE_MS = 1200


def player(game, p):
    """Player ``p``'s colour; a game whose players choose colours (Sniggle) says which."""
    chosen = getattr(game, "colour", None)
    return PLAYERS[chosen[p] if chosen else p]


def blink(now, half_period):
    """On for one half period, off for the next."""
    return (now // half_period) & 1 == 0


def breathe(now):
    """A level from 64 to 256 and back over BREATHE_MS: alive, never dark."""
    t = now % BREATHE_MS
    half = BREATHE_MS // 2
    rise = t if t < half else BREATHE_MS - t
    return 64 + 192 * rise // half
