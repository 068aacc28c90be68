"""The board's start-up on the Pico: configuration, ports, the game.

``start()`` reads ``/config.json`` (as host/pico/build.py writes it)::

    {"board": "detour", "pins": "hardware/pins.json", "input": "sensors",
     "players": 2, "options": {}, "led_ma": 450}

("input": "sensors" reads the pieces through the 74HC165 chain, or on a
flicking game's board (Tiddlee Snuka) the pocket beams; "buttons" plays
without them; "led_ma" is the LEDs' current budget, hardware/power.md: the
pixels', less what the pocket beams' IR emitters draw where they are read;
a field left out takes the value shown, but the board), then the board file
``/boards/<board>.json`` and the pin map, builds the hal ports on the
Pico's pins and resumes the saved game (or starts a new one). A
configuration error is a ``ConfigError`` naming the file and the field;
``halt`` shows it. ``app.device`` unloads this module once the game runs, so
its code leaves the RAM to the game.
"""

import json
import os
import time

from app.watch import log
from hal.pins import BEAMS, USABLE, load_pins
from hal.pixels import DEFAULT_BUDGET_MA, budget_range
from hal.storage import exists
from rules.core import BoardError, field

CONFIG = "config.json"
PIN_MAP = "hardware/pins.json"  # the pin map when the config cannot be read
DEFAULTS = (("pins", PIN_MAP), ("input", "sensors"), ("players", 2), ("options", {}), ("led_ma", DEFAULT_BUDGET_MA))
FIELDS = ("board",) + tuple(name for name, _ in DEFAULTS)
INPUTS = ("sensors", "buttons")
NAME_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789_-"  # a board's name, as boards/ holds it
SENSOR_ROLES = ("sensor_latch", "sensor_clock", "sensor_data")
DICE_AHEAD = 8  # random bytes drawn ahead of a throw (hal.Chance): a throw of two dice takes two, rarely more
BLINK_MS = 500  # the error signal: the first pixel red for 0.5 s, off for 0.5 s
REPEAT_BLINKS = 10  # the error message again every 10 blinks, for a console opened later
RESTART = "Fix it, then restart the board: make flash, or Ctrl-C and Ctrl-D in make repl."


class ConfigError(ValueError):
    """A file the board cannot start with; the message names the file and the field."""


def read_json(name, missing="make flash puts it on the Pico", root="/"):
    """The parsed JSON file ``name`` (as the Pico's filesystem at ``root`` holds it)."""
    try:
        f = open(root + name)
    except (OSError, ValueError):  # (CPython refuses a name holding a NUL byte with a ValueError)
        raise ConfigError("%s: the file is missing (%s)" % (name, missing))
    try:
        with f:
            return json.loads(f.read())  # (json.load reads a file a character at a time: on a Pico, 100 ms a board)
    except (ValueError, RuntimeError):  # (RuntimeError: nested deeper than the parser goes)
        raise ConfigError("%s: not valid JSON" % name)


def _boards(root="/"):
    try:
        return ", ".join(sorted(name[:-5] for name in os.listdir(root + "boards") if name.endswith(".json")))
    except OSError:
        return "none"


def read_config(root="/"):
    """/config.json as a dict with every field, checked."""
    data = read_json(CONFIG, root=root)
    if not isinstance(data, dict):
        raise ConfigError('config.json: must be a JSON object such as {"board": "detour"}')
    for name in data:
        if name not in FIELDS:
            raise ConfigError("config.json: unknown field %r (known: %s)" % (name, ", ".join(FIELDS)))
    config = dict(DEFAULTS)
    config.update(data)
    where = "config.json"
    if "board" not in config:
        raise ConfigError("config.json: field 'board' is missing; the boards on this Pico: %s" % _boards(root))
    board = field(config, "board", str, where, ConfigError)
    if not board or any(c not in NAME_CHARS for c in board):
        raise ConfigError("config.json: field 'board' is %r; the boards on this Pico: %s" % (board, _boards(root)))
    pins = field(config, "pins", str, where, ConfigError)
    if not pins.endswith(".json") or "\0" in pins:
        raise ConfigError('config.json: field \'pins\' is %r; name the pin map\'s file, such as "%s"' % (pins, PIN_MAP))
    if field(config, "input", str, where, ConfigError) not in INPUTS:
        raise ConfigError('config.json: field \'input\' is %r; use "sensors" or "buttons" (no piece sensors)'
                          % config["input"])
    field(config, "players", int, where, ConfigError)
    field(config, "options", dict, where, ConfigError)
    field(config, "led_ma", int, where, ConfigError)
    return config


def read_pins(config, root="/"):
    """The pin map the config names, checked."""
    name = config["pins"]
    data = read_json(name, "config.json's field 'pins' names it; make flash puts hardware/pins.json on the Pico", root)
    try:
        return load_pins(data)
    except ValueError as err:
        raise ConfigError("%s: %s" % (name, err))


def check_inputs(game, pins, config):
    """Refuse a pin map without the pins config.json's input reads on this
    game's board: the 74HC165 chain for the pieces, or a flicking game's
    pocket beams (it tracks no pieces)."""
    if config["input"] != "sensors":
        return
    name = config["pins"]
    if game.occupancy() is None:
        missing = [role for role in BEAMS if role not in pins]
        if missing:
            raise ConfigError("%s: roles %s are missing: config.json's input \"sensors\" reads the pocket beams "
                              "of board %r on them (or set input to \"buttons\")"
                              % (name, ", ".join(repr(r) for r in missing), config["board"]))
        return
    for role in SENSOR_ROLES:
        if role not in pins:
            raise ConfigError("%s: role %r is missing: config.json's input \"sensors\" reads the 74HC165 "
                              "chain on it (or set input to \"buttons\")" % (name, role))


def new_game(config, root="/"):
    """A new game on the board the config names, which its pixels' budget suits."""
    from rules.games import new_game as make

    name = "boards/%s.json" % config["board"]
    data = read_json(name, "config.json's field 'board' names it; the boards on this Pico: %s" % _boards(root), root)
    try:
        game = make(field(data, "game", str, "board", BoardError), data, config["players"], config["options"])
    except BoardError as err:
        raise ConfigError("%s: %s" % (name, err))
    except ValueError as err:  # the players or options do not suit the game (the rules say "option 'x'")
        raise ConfigError("config.json: field %r: %s" % ("options" if "option" in str(err) else "players", err))
    low, high = budget_range(game.board.pixels)
    beams = _beams_ma(game, config)
    if not low + beams <= config["led_ma"] <= high:
        raise ConfigError("config.json: field 'led_ma' is %d; the %d pixels of board %r%s take %d to %d mA "
                          "(hardware/power.md)" % (config["led_ma"], game.board.pixels, config["board"],
                                                   " and its pocket beams (%d mA)" % beams if beams else "",
                                                   low + beams, high))
    return game


def _beams_ma(game, config):
    """What the pocket beams draw of the LEDs' budget, if they are read."""
    if config["input"] != "sensors" or game.occupancy() is not None:
        return 0
    from hal.beams import BEAM_MA  # (only then: a module less to load on the other boards)

    return BEAM_MA * len(BEAMS)


def wheel_count(game, pins, name):
    """How many wheels are read by encoders: all of the game's, or none when
    the pin map ``name`` has no wheel pins (wheel turns are then picked with
    the buttons)."""
    count = len(getattr(game, "wheels", ()))
    if not count or "wheel1_a" not in pins:
        return 0
    for w in range(2, count + 1):
        if "wheel%d_a" % w not in pins:
            raise ConfigError("%s: role 'wheel%d_a' is missing: the board has %d wheels (leave out every wheel "
                              "role to pick wheel turns with the buttons)" % (name, w, count))
    return count


def ports(game, pins, config, wheels):
    """The hal ports on the Pico's pins."""
    from machine import Pin, SoftSPI

    from hal import Chance, Ports
    from hal.buttons import Button, ChainButtons
    from hal.pixels import Pixels
    from hal.sensors import SPI_HZ, Sensors, SpiShiftIn
    from hal.strip_micropython import Transmitter

    board = game.board
    buttons = tuple(Button(Pin(pins[role], Pin.IN, Pin.PULL_UP), clock=time.ticks_us) for role in ("die1", "die2"))
    sensors = None
    beams = None
    panel = None
    flicking = game.occupancy() is None
    # the chain: the piece sensors, or on a flicking game's board the buttons its
    # file wires there (with no chain in the pin map, button 1 picks every step)
    chain = None
    if config["input"] == "sensors" and (not flicking or board.buttons and all(r in pins for r in SENSOR_ROLES)):
        latch = Pin(pins["sensor_latch"], Pin.OUT, value=1)
        spi = SoftSPI(baudrate=SPI_HZ, polarity=1, phase=0, sck=Pin(pins["sensor_clock"], Pin.OUT),
                      mosi=latch, miso=Pin(pins["sensor_data"], Pin.IN))
        chain = SpiShiftIn(latch, spi, (board.sensors + 7) // 8)
    if config["input"] == "sensors" and flicking:
        # a flicking game tracks no pieces: a counter dropping into a pocket breaks
        # its beam for a few ms, too short for the loop, so an interrupt latches it
        from hal.beams import Beams

        beams = Beams(tuple(Pin(pins[role], Pin.IN, Pin.PULL_UP) for role in BEAMS))
        if chain:
            panel = ChainButtons(chain.read, tuple(n for _, n in board.buttons))
    elif chain:
        sensors = Sensors(chain.read, board.sensors)
    encoders = None
    if wheels:
        from hal.wheels import Wheels

        encoders = Wheels(tuple(_encoder(Pin(pins["wheel%d_a" % w], Pin.IN, Pin.PULL_UP),
                                         Pin(pins["wheel%d_b" % w], Pin.IN, Pin.PULL_UP))
                                for w in range(1, wheels + 1)), wheels)
    transmit = Transmitter(pins["pixels"], 3 * board.pixels)
    pixels = Pixels(board.pixels, transmit, budget_ma=config["led_ma"] - _beams_ma(game, config))
    return Ports(pixels, buttons, Chance(os.urandom, DICE_AHEAD), sensors, encoders, beams, panel)


def _encoder(a, b):
    return lambda: a.value() << 1 | b.value()


def start(config, refuse=""):
    """The controller on the saved game (or a new one: when the save cannot
    be resumed, or ``refuse`` says why not), ready to tick."""
    from app.watch import forget_restarts

    pins = read_pins(config)
    fresh = new_game(config)
    # loaded after the board file is read: its text and what json makes of it take some 70 KB on
    # Sniggle's board for a moment, the heap's lowest point of a whole game with these beside them
    from app.controller import Controller
    from app.keeper import BAD, Keeper

    check_inputs(fresh, pins, config)
    wheels = wheel_count(fresh, pins, config["pins"])
    hardware = ports(fresh, pins, config, wheels)
    keeper = Keeper("/", config["board"], forget_restarts, log)
    game, note = keeper.resume(fresh, refuse)
    if note and (game is not None or exists(keeper.record_path) or exists(keeper.save_path + BAD)):
        log(note)  # (on a Pico that never played there is simply nothing to resume)
    if game is None:
        keeper.begin(fresh)
        game = fresh
    inputs = "piece sensors" if hardware.sensors else "pocket beams" if hardware.beams else "moves picked with the buttons"
    print("%s, %d players, %s%s: %s" % (
        config["board"], game.players, inputs,
        ", wheel encoders" if wheels else "",
        "a new game" if game is fresh else "the saved game resumed after %d steps" % keeper.steps))
    differs = settings_differ(game, fresh)
    if differs:
        print(differs)
    return Controller(game, hardware, keeper, log, settings=(fresh.players, fresh.options))


def settings_differ(game, fresh):
    """What a saved game's players and options have that config.json's do
    not, and which wins; "" when they agree. The saved game goes on as it
    was saved (a game is not changed in the middle), and the next new game
    takes config.json's."""
    parts = []
    if game.players != fresh.players:
        parts.append("%d players, config.json %d" % (game.players, fresh.players))
    for name in sorted(game.options):
        if game.options[name] != fresh.options.get(name):
            parts.append("option %s=%s, config.json %s" % (name, json.dumps(game.options[name]),
                                                            json.dumps(fresh.options.get(name))))
    if not parts:
        return ""
    return ("the saved game differs from config.json (%s): it goes on as it was saved; a new game (hold button 2) "
            "takes config.json's settings" % "; ".join(parts))


def _pixel_pin(name):
    """The pixel data pin as far as the pin map can be read, or None."""
    try:
        gpio = read_json(name)["pixels"]
    except (ValueError, KeyError, TypeError):
        return None
    return gpio if type(gpio) is int and gpio in USABLE else None


def halt(message, gpio):
    """Report ``message`` and blink the first pixel red until Ctrl-C or a restart."""
    log(message)
    print(RESTART)
    pixels = None
    if gpio is not None:
        from hal.pixels import Pixels
        from hal.strip_micropython import Transmitter
        from rules.board import MAX_PIXELS

        pixels = Pixels(MAX_PIXELS, Transmitter(gpio, 3 * MAX_PIXELS))  # every pixel a board may have
    blinks = 0
    while True:
        if pixels:
            pixels.set(0, 0 if blinks & 1 else 255, 0, 0)
            pixels.show()
        time.sleep_ms(BLINK_MS)
        blinks += 1
        if blinks % REPEAT_BLINKS == 0:
            print(message)


def pixel_gpio():
    """The pixel data pin of the pin map the config names (or the usual one), or None."""
    try:
        name = read_config()["pins"]
    except ConfigError:
        name = PIN_MAP
    return _pixel_pin(name)
