"""Load and check a board definition (parsed JSON) into flat tables.

Every board file has a game, a grid size, the total pixel and sensor counts,
named groups of extra pixels (die faces, sticks, ...) and a list of spaces,
each with an id, a kind, grid coordinates, a NeoPixel index and a sensor index.
``sensors`` counts the inputs of the 74HC165 chain; a game with buttons of
its own on the chain (Tiddlee Snuka) may give each its input in ``buttons``.
What a game needs beyond that it checks itself; the die rollers it names.

The counts stay within what the Pico holds and drives: at most 256 pixels
(7.7 ms on the wire at 30 us a pixel, inside a 10 ms loop; the start-up
error frame clears 256), 256 sensors (32 chained 74HC165s), 254 spaces
(a space number is a byte, 255 meaning none) and a grid of 255 by 255
(coordinates are bytes).
"""

from rules.core import EMPTY, BoardError, field

MAX_PIXELS = 256
MAX_SENSORS = 256
MAX_SIZE = 255
FACE = 7  # pixels of a die face: the classic pip layout


def cell(x, y):
    """Grid cell (x, y) as a key of ``Board.at``: an int, as tuples as keys
    cost a Pico about 1 ms a space (their hashes collide, and each compare
    walks them)."""
    return x << 8 | y


def _need(data, name, kind, where):
    return field(data, name, kind, where, BoardError)


def _count(data, name, low, high):
    value = _need(data, name, int, "board")
    if not low <= value <= high:
        raise BoardError("board: field %r is %d, outside %d..%d" % (name, value, low, high))
    return value


# the fields of a space, in the order ``_fields`` returns them
SPACE_FIELDS = (("id", str), ("kind", str), ("x", int), ("y", int), ("led", int), ("sensor", int))


def _fields(space, n):
    """The id, kind, x, y, led and sensor of space number ``n``, each of its
    type. The message naming the space is made only for a field that fails:
    made for every space, it cost a Pico a third of a Sniggle board's load."""
    try:
        sid, kind, x, y, led, sensor = (space["id"], space["kind"], space["x"], space["y"], space["led"],
                                        space["sensor"])
        if type(sid) is str and type(kind) is str and type(x) is int and type(y) is int and type(led) is int \
                and type(sensor) is int:
            return sid, kind, x, y, led, sensor
    except (KeyError, TypeError):
        pass
    where = "space %r" % _need(space, "id", str, "space #%d" % n)
    return tuple(_need(space, name, kind, where) for name, kind in SPACE_FIELDS)


def _claim(value, what, limit, used, where):
    """Check one pixel or sensor index: in range and not used twice."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < limit:
        raise BoardError("%s: %s %r must be a whole number from 0 to %d" % (where, what, value, limit - 1))
    if value in used:
        raise BoardError("%s: %s %d is already used by %s" % (where, what, value, used[value]))
    used[value] = where
    return value


class Names:
    """The ids of the spaces as a read-only sequence of str, kept in one
    string: in a tuple, MicroPython spends 32 bytes on each short string.
    (``for`` and ``in`` walk it by ``__getitem__``, on both interpreters.)"""

    def __init__(self, names):
        self._text = "".join(names)
        ends = [0]
        for name in names:
            ends.append(ends[-1] + len(name))
        self._ends = tuple(ends)

    def __len__(self):
        return len(self._ends) - 1

    def __getitem__(self, i):
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError("no space %r" % i)
        return self._text[self._ends[i]:self._ends[i + 1]]

    def index(self, name):
        """Where ``name`` is, found by the string's own search: a walk of the
        sequence makes a string per id, and a Pico's allocator is slow."""
        text, ends = self._text, self._ends
        at = text.find(name) if name else -1
        while at >= 0:
            lo, hi = 0, len(ends) - 1
            while lo < hi:  # the first id starting at or after ``at``
                mid = (lo + hi) // 2
                if ends[mid] < at:
                    lo = mid + 1
                else:
                    hi = mid
            if ends[lo] == at and lo + 1 < len(ends) and ends[lo + 1] == at + len(name):
                return lo
            at = text.find(name, at + 1)
        raise ValueError("no space %r" % (name,))

    def __contains__(self, name):
        try:
            self.index(name)
        except ValueError:
            return False
        return True


class Board:
    """Flat, read-only tables of one board; space ``i`` is index ``i`` in each."""

    def __init__(self, data, game, kinds, dice=0, buttons=()):
        if not isinstance(data, dict):
            raise BoardError("board: the file must hold a JSON object")
        if _need(data, "game", str, "board") != game:
            raise BoardError("board: field 'game' is %r, expected %r" % (data["game"], game))
        self.game = game
        self.name = _need(data, "name", str, "board")
        size = _need(data, "size", list, "board")
        if len(size) != 2 or not all(type(n) is int and 0 < n <= MAX_SIZE for n in size):
            raise BoardError("board: field 'size' must be [width, height], each from 1 to %d" % MAX_SIZE)
        self.width, self.height = size
        self.pixels = _count(data, "pixels", 1, MAX_PIXELS)
        self.sensors = _count(data, "sensors", 0, MAX_SENSORS)
        used_leds = {}
        used_sensors = {}
        ids, kind_of, xs, ys, leds, sensor_of = [], [], [], [], [], []
        named = set()
        at = {}
        spaces = _need(data, "spaces", list, "board")
        if not 0 < len(spaces) < EMPTY:
            raise BoardError("board: field 'spaces' lists %d spaces; a board has 1 to %d" % (len(spaces), EMPTY - 1))
        for n in range(len(spaces)):
            sid, kind, x, y, led, sensor = _fields(spaces[n], n)
            where = "space %r" % sid
            if sid in named:
                raise BoardError("%s: the id is used twice" % where)
            if kind not in kinds:
                raise BoardError("%s: kind %r is not one of %s" % (where, kind, ", ".join(kinds)))
            kind = kinds[kinds.index(kind)]  # the game's own string: on MicroPython a copy costs RAM per space
            if not (0 <= x < self.width and 0 <= y < self.height):
                raise BoardError("%s: (%d, %d) lies outside the %dx%d grid" % (where, x, y, self.width, self.height))
            key = cell(x, y)
            if key in at:
                raise BoardError("%s: (%d, %d) is already space %r" % (where, x, y, ids[at[key]]))
            _claim(led, "led", self.pixels, used_leds, where)
            _claim(sensor, "sensor", self.sensors, used_sensors, where)
            named.add(sid)
            at[key] = n
            ids.append(sid)
            kind_of.append(kind)
            xs.append(x)
            ys.append(y)
            leds.append(led)
            sensor_of.append(sensor)
        self.ids = Names(ids)
        self.kinds = tuple(kind_of)
        self.xs = bytes(xs)
        self.ys = bytes(ys)
        self.leds = tuple(leds)
        self.sensor_of = tuple(sensor_of)
        self.extras = {}
        for name, block in _need(data, "extras", dict, "board").items():
            where = "extras %r" % name
            if not isinstance(block, list):
                raise BoardError("%s: must be a list of pixel indexes" % where)
            for led in block:
                _claim(led, "led", self.pixels, used_leds, where)
            self.extras[name] = tuple(block)
        for n in range(1, dice + 1):
            if len(self.extras.get("die%d" % n, ())) != FACE:
                raise BoardError("extras 'die%d': the game's die roller %d needs a face of %d pixels" % (n, n, FACE))
        self.button_names = buttons  # the game's buttons, by which it knows them
        # (name, chain input) of every button the file wires, in the order of ``buttons``
        self.buttons = ()
        if "buttons" in data:
            wired = _need(data, "buttons", dict, "board")
            for name in wired:
                if name not in buttons:
                    raise BoardError("buttons %r: not a button of %s (known: %s)"
                                     % (name, game, ", ".join(buttons) or "none"))
            self.buttons = tuple((name, _claim(wired[name], "input", self.sensors, used_sensors, "buttons %r" % name))
                                 for name in buttons if name in wired)

    def space(self, sid, where=None):
        """Index of the space named ``sid``; ``where`` names the field giving it."""
        try:
            return self.ids.index(sid)
        except ValueError:
            raise BoardError("%s: no space %r" % (where or "board %r" % self.name, sid))

    @property
    def at(self):
        """``{(x, y): space}``, made anew at each use: kept, it cost a
        Sniggle board 4.7 KB of MicroPython's heap."""
        return {(self.xs[s], self.ys[s]): s for s in range(len(self.ids))}

    @property
    def at_cell(self):
        """``at`` keyed by ``cell(x, y)``, for the loaders: on a Pico it is
        made in a tenth of the time."""
        return {cell(self.xs[s], self.ys[s]): s for s in range(len(self.ids))}

    def __len__(self):
        return len(self.ids)
