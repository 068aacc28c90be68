"""Wiring diagrams: one picture per board of what goes to which Pico pin.

    python -m host.wiring            draw hardware/wiring-<board>.svg for every board in boards/

Each picture is drawn from ``hardware/pins.json`` and the board file: the
Pico with every GPIO the board uses, labelled by its role; the pixel chain
behind the 74AHCT125 (how many pixels, which come first); the 74HC165 chain
with as many chips as the board has sensors; the die buttons, the wheels'
position sensors and the pocket beams where the board has them; and the
roles of the pin map the board leaves unused; the pixels' 5 V and GND rails
with the capacitor and the soft start's values (``hardware/parts.json``),
the 74HC165's input letters with their pins, the pull-ups and the reeds. The pictures are plain SVG,
written the same way every time, so a test can tell a stale one.
"""

import argparse
import json
import os
import sys

from host import BOARDS, ROOT
from host.boardfile import read_board
from host.fields import read_parts
from hal.pins import BEAMS, PinError, load_pins
from rules.core import RulesError
from rules.games import find_game

PINS = os.path.join(ROOT, "hardware", "pins.json")
OUT = os.path.join(ROOT, "hardware")

# the Pico's header (Raspberry Pi Pico datasheet, pinout): GPIO -> physical pin
HEADER = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16, 13: 17,
          14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29, 26: 31, 27: 32, 28: 34}
ROW = 24  # px between two wires
PICO_X, PICO_W = 40, 200
PART_X = 340  # where the parts begin
CHAIN_X = PART_X + 40  # the 74HC165 chain's data wire; its buses just left of it
CHIP_W, CHIP_H, CHIP_GAP, CHIPS_PER_ROW = 130, 116, 50, 6


class Svg:
    """A picture built from lines, boxes and text, in whole pixels."""

    def __init__(self):
        self.items = []
        self.width = self.height = 0

    def _grow(self, x, y):
        self.width = max(self.width, x + 40)
        self.height = max(self.height, y + 40)

    def line(self, *points, dash=False):
        path = " ".join("%d,%d" % p for p in points)
        for x, y in points:
            self._grow(x, y)
        self.items.append('<polyline points="%s" fill="none" stroke="black"%s/>'
                          % (path, ' stroke-dasharray="4 3"' if dash else ""))

    def box(self, x, y, w, h, fill="white"):
        self._grow(x + w, y + h)
        self.items.append('<rect x="%d" y="%d" width="%d" height="%d" fill="%s" stroke="black"/>' % (x, y, w, h, fill))

    def dot(self, x, y):
        self.items.append('<circle cx="%d" cy="%d" r="3"/>' % (x, y))

    def text(self, x, y, words, anchor="start", bold=False, size=11):
        self._grow(x + (7 * len(words) if anchor == "start" else 0), y)
        words = words.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        self.items.append('<text x="%d" y="%d" font-size="%d"%s%s>%s</text>' % (
            x, y, size, "" if anchor == "start" else ' text-anchor="%s"' % anchor,
            ' font-weight="bold"' if bold else "", words))

    def render(self):
        head = ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
                'font-family="sans-serif">' % (self.width, self.height, self.width, self.height))
        return "\n".join([head, '<rect width="100%" height="100%" fill="white"/>'] + self.items + ["</svg>"]) + "\n"


def label(role, pins):
    """How every picture names a role: ``pixels (GP2)``."""
    return "%s (GP%d)" % (role, pins[role])


class Drawing:
    """The picture of one board, drawn top to bottom, one block of parts at a time."""

    def __init__(self, name, data, pins, parts):
        self.svg = Svg()
        self.pins = pins
        self.parts = parts
        self.used = []  # roles drawn, in order
        self.y = 110
        self.svg.text(PICO_X, 30, "Wiring of the %s board (%s)" % (name, data.get("title", name)), bold=True, size=16)
        self.svg.text(PICO_X, 50, "drawn by make wiring from hardware/pins.json and boards/%s.json; "
                                  "hardware/README.md says why each part is there" % name)

    def pin(self, role, to_x):
        """A wire from the Pico's pin of ``role`` to ``to_x`` on the current row; returns its y."""
        gpio = self.pins[role]
        y = self.y
        self.svg.text(PICO_X + PICO_W - 8, y + 4, "GP%d · pin %d" % (gpio, HEADER[gpio]), anchor="end")
        self.svg.line((PICO_X + PICO_W, y), (to_x, y))
        self.svg.text(PICO_X + PICO_W + 8, y - 4, label(role, self.pins), bold=True)
        self.used.append(role)
        self.y += ROW
        return y

    def gap(self, px=ROW):
        self.y += px

    def pixels(self, data):
        svg = self.svg
        y = self.pin("pixels", PART_X)
        svg.box(PART_X, y - 16, 120, 60)
        svg.text(PART_X + 60, y - 22, "74AHCT125", anchor="middle", bold=True)
        svg.text(PART_X + 4, y + 4, "1A (2)")
        svg.text(PART_X + 116, y + 4, "1Y (3)", anchor="end")
        svg.text(PART_X + 4, y + 20, "VCC (14): 5 V; GND (7)")
        svg.text(PART_X + 4, y + 36, "1OE (1): GND")
        svg.text(PART_X, y + 60, "unused 2A 3A 4A (5, 9, 12),")
        svg.text(PART_X, y + 74, "2OE 3OE 4OE (4, 10, 13): GND")
        svg.line((PART_X + 120, y), (PART_X + 150, y))
        svg.box(PART_X + 150, y - 6, 40, 12, fill="#ddd")
        svg.text(PART_X + 170, y - 10, "470 Ω", anchor="middle")
        names = pixel_names(data)
        x = PART_X + 230
        svg.line((PART_X + 190, y), (x, y))
        svg.text(x, y - 34, "%d WS2812B (5 V) in one chain, in the board file's order:" % data["pixels"])
        shown = [(x + 90 * i, i) for i in range(min(3, len(names)))] + [(x + 310, len(names) - 1)]
        for at, i in shown:
            self._pixel(at, y, i, names[i], 0 < i < 3)
        svg.text(x + 280, y + 4, "…")
        # the pixels' supply: a 5 V rail and a GND rail under the chain, the capacitor across them at its start
        five, ground, end = y + 34, y + 50, x + 370
        svg.line((x - 40, five), (end, five))
        svg.line((x - 40, ground), (end, ground))
        svg.text(end + 6, five + 4, "5 V (pixels)", bold=True)
        svg.text(end + 6, ground + 4, "GND", bold=True)
        for at, _ in shown:
            svg.line((at + 15, y + 14), (at + 15, five))
            svg.dot(at + 15, five)
            svg.line((at + 45, y + 14), (at + 45, ground))
            svg.dot(at + 45, ground)
        cap = x - 20
        svg.line((cap, five), (cap, five + 5))
        svg.line((cap - 8, five + 5), (cap + 8, five + 5))
        svg.line((cap - 8, five + 10), (cap + 8, five + 10))
        svg.line((cap, five + 10), (cap, ground))
        svg.dot(cap, five)
        svg.dot(cap, ground)
        svg.text(cap - 12, five + 12, "1000 µF", anchor="end")
        ss = self.parts["power"]["soft_start"]
        svg.text(x - 40, ground + 22, "5 V rail from VBUS through the soft start (power.md): %s, source to VBUS, "
                                      "drain to the rail; gate %s to GND, %s and %s to the source, %s to the drain"
                 % (ss["mosfet"], ohms(ss["r_gate_gnd_ohm"]), ohms(ss["r_gate_source_ohm"]),
                    farads(ss["c_gate_source_nF"]), farads(ss["c_gate_drain_nF"])))
        svg.text(x - 40, ground + 38, "each pixel: VDD (1) to 5 V, VSS (3) to GND, DIN (4) from the one before, "
                                      "DOUT (2) to the next; never from 3V3; all grounds joined")
        svg.text(x - 40, ground + 54, "; ".join(groups(names)))
        self.gap(6 * ROW)

    def _pixel(self, x, y, i, name, joined):
        svg = self.svg
        if joined:
            svg.line((x - 30, y), (x, y))
        svg.box(x, y - 16, 60, 30, fill="#f4f4f4")
        svg.text(x - 2, y + 12, "4", anchor="end", size=9)
        svg.text(x + 62, y + 12, "2", size=9)
        svg.text(x + 30, y - 2, "pixel %d" % i, anchor="middle")
        svg.text(x + 30, y + 10, name, anchor="middle", size=10)

    def buttons(self):
        for n in (1, 2):
            y = self.pin("die%d" % n, PART_X)
            self._to_ground(PART_X, y, "push button of die roller %d" % n)

    def _to_ground(self, x, y, what):
        svg = self.svg
        svg.line((x, y), (x + 14, y - 8))
        svg.line((x + 20, y), (x + 40, y))
        svg.text(x + 48, y + 4, "GND   (%s; the Pico's pull-up)" % what)

    def chain(self, data):
        """The 74HC165 chain: chip 0 at the Pico, each SER from the next chip's QH."""
        svg = self.svg
        sensors = data["sensors"]
        chips = (sensors + 7) // 8
        top = self.y
        latch = self.pin("sensor_latch", CHAIN_X - 20)
        clock = self.pin("sensor_clock", CHAIN_X - 10)
        data_y = self.pin("sensor_data", CHAIN_X)
        first = self.y + 2 * ROW  # the first row of chips, under its two buses
        buttons = data.get("buttons") or {}
        if buttons:  # a flicking game: its own buttons on the chain, the other inputs tied high
            inputs = sorted(buttons.values())
            what = ("%d × 74HC165 for %d inputs: on %d–%d the game's buttons (%s), each to GND, the rest to 3.3 V; "
                    "a 10 kΩ pull-up on every input; VCC (16) 3.3 V with 100 nF, GND (8)"
                    % (chips, sensors, inputs[0], inputs[-1], ", ".join(sorted(buttons, key=buttons.get))))
        else:
            what = ("%d × 74HC165 for %d sensors: a reed switch (%s, laid as hardware/wheels.md says) from every "
                    "input to GND, a 10 kΩ pull-up to 3.3 V; VCC (16) 3.3 V with 100 nF, GND (8)"
                    % (chips, sensors, self.parts["reed"]["mpn"]))
        svg.text(PART_X, top - 40, what)
        svg.text(PART_X, top - 24, "the pull-ups: per chip a 10 kΩ bussed network (SIP-9), pin 1 to 3.3 V, pins 2–9 "
                                   "to inputs A–H; the inputs' pins are under each chip")
        rows = (chips + CHIPS_PER_ROW - 1) // CHIPS_PER_ROW
        pitch = CHIP_H + 4 * ROW
        for r in range(rows):
            y = first + r * pitch
            left = CHAIN_X + 40
            right = left + CHIPS_PER_ROW * (CHIP_W + CHIP_GAP)
            # the SH/LD and CLK buses of this row, fed from the Pico's pins at the left
            svg.line((CHAIN_X - 20, latch if r == 0 else y - 2 * ROW - pitch), (CHAIN_X - 20, y - 2 * ROW), (right, y - 2 * ROW))
            svg.line((CHAIN_X - 10, clock if r == 0 else y - ROW - pitch), (CHAIN_X - 10, y - ROW), (right, y - ROW))
            svg.text(right + 6, y - 2 * ROW + 4, "SH/LD")
            svg.text(right + 6, y - ROW + 4, "CLK")
        for k in range(chips):
            self._chip(k, chips, sensors, first + (k // CHIPS_PER_ROW) * pitch, data_y)
        self.y = first + rows * pitch
        svg.text(PART_X, self.y - ROW, "read: SH/LD low loads every input; each rising CLK then shifts the chain "
                                       "one place towards the Pico (hardware/README.md)")

    def _chip(self, k, chips, sensors, y, data_y):
        svg = self.svg
        x = CHAIN_X + 40 + (k % CHIPS_PER_ROW) * (CHIP_W + CHIP_GAP)
        svg.box(x, y, CHIP_W, CHIP_H, fill="#f8f8ff")
        svg.text(x + CHIP_W // 2, y + 14, "chip %d" % k, anchor="middle", bold=True)
        svg.line((x + 20, y), (x + 20, y - 2 * ROW))
        svg.dot(x + 20, y - 2 * ROW)
        svg.line((x + 40, y), (x + 40, y - ROW))
        svg.dot(x + 40, y - ROW)
        svg.text(x + 4, y + 28, "1 SH/LD  2 CLK", size=10)
        svg.text(x + 4, y + 40, "15 CLK INH: GND", size=10)
        low, high = 8 * k, min(8 * k + 7, sensors - 1)
        inputs = "ABCDEFGH"[:high - low + 1]
        svg.text(x + 4, y + 54, "%s: inputs %d–%d" % ("A–" + inputs[-1] if len(inputs) > 1 else "A", low, high), size=10)
        if len(inputs) < 8:
            rest = "ABCDEFGH"[len(inputs):]
            svg.text(x + 4, y + 66, "%s: to 3.3 V" % (rest[0] + "–H" if len(rest) > 1 else "H"), size=10)
        for row, part in enumerate((INPUT_PINS[:4], INPUT_PINS[4:])):
            svg.text(x + 4, y + 80 + 12 * row, "  ".join("%s %d" % p for p in part), size=10)
        # QH (9) on the left goes towards the Pico, SER (10) on the right takes the next chip's QH
        svg.text(x + 4, y + CHIP_H - 8, "9 QH", size=10)
        svg.text(x + CHIP_W - 4, y + CHIP_H - 8, "SER 10", anchor="end", size=10)
        qh = (x, y + CHIP_H - 12)
        ser = (x + CHIP_W, y + CHIP_H - 12)
        if k == 0:
            svg.line((CHAIN_X, data_y), (CHAIN_X, qh[1]), qh)
        elif k % CHIPS_PER_ROW:
            svg.line(qh, (qh[0] - CHIP_GAP, qh[1]))
        else:  # the first chip of a row feeds the last chip of the row above
            up = y - 3 * ROW
            svg.line(qh, (x - 20, qh[1]), (x - 20, up), (ser[0] + (CHIPS_PER_ROW - 1) * (CHIP_W + CHIP_GAP) + 20, up),
                     (ser[0] + (CHIPS_PER_ROW - 1) * (CHIP_W + CHIP_GAP) + 20, qh[1] - 4 * ROW - CHIP_H),
                     (ser[0] + (CHIPS_PER_ROW - 1) * (CHIP_W + CHIP_GAP), qh[1] - 4 * ROW - CHIP_H))
        if k == chips - 1:
            svg.line(ser, (ser[0] + 20, ser[1]))
            svg.text(ser[0] + 24, ser[1] + 4, "3.3 V", bold=True)

    def wheels(self, count):
        svg = self.svg
        svg.text(PART_X, self.y, "each wheel's position: two hall latches (%s, hardware/wheels.md), output to the "
                                 "GPIO (the Pico's pull-up); a latch's VCC 3.3 V with 100 nF, GND"
                 % self.parts["hall_latch"]["mpn"])
        self.gap()
        for w in range(1, count + 1):
            for side in "ab":
                y = self.pin("wheel%d_%s" % (w, side), PART_X)
                svg.box(PART_X, y - 10, 230, 20, fill="#eef")
                svg.text(PART_X + 6, y + 4, "wheel %d, sensor %s (%s)" % (w, side, "north-east" if side == "a" else "north-west"))
            self.gap(6)

    def beams(self, data):
        svg = self.svg
        pockets = {space["sensor"]: space["id"] for space in data["spaces"] if space["kind"] == "pocket"}
        svg.text(PART_X, self.y, "each pocket: an IR break-beam pair; the receiver's open-collector output "
                                 "to the GPIO (the Pico's pull-up), its power as its datasheet says")
        self.gap()
        svg.text(PART_X, self.y, "the emitter facing it: an IR LED (TSAL4400 kind), anode from 5 V through 180 Ω, "
                                 "cathode to GND (power.md)")
        self.gap()
        for n, role in enumerate(BEAMS):
            y = self.pin(role, PART_X)
            svg.box(PART_X, y - 10, 230, 20, fill="#efe")
            svg.text(PART_X + 6, y + 4, "IR receiver of pocket %s" % pockets.get(n, "-"))

    def finish(self):
        """The Pico's box round the pins drawn, its power pins, the roles left unused."""
        svg = self.svg
        self.gap()
        unused = [label(role, self.pins) for role in self.pins if role not in self.used]
        svg.text(PICO_X, self.y, "Pico power: VBUS (pin 40) 5 V on USB, or 5 V into VSYS (pin 39) through a Schottky "
                                 "diode (power.md); 3V3 OUT (pin 36) 3.3 V for the logic; GND on pins 3, 8, 13, "
                                 "18, 23, 28, 33, 38")
        if unused:
            self.gap()
            svg.text(PICO_X, self.y, "also in pins.json, not used on this board:")
            x = PICO_X + 250
            for role in unused:  # one text each, so that every role reads as the pins show it
                svg.text(x, self.y, role)
                x += 7 * len(role) + 10
        svg.box(PICO_X, 60, PICO_W, self.y - 60 - 2 * ROW, fill="none")
        svg.text(PICO_X + 8, 80, "Raspberry Pi Pico", bold=True)
        return svg.render()


def ohms(value):
    return "%g MΩ" % (value / 1e6) if value >= 1e6 else "%g kΩ" % (value / 1e3)


def farads(nf):
    return "%g nF" % nf


# the 74HC165's inputs and their pins (TI SN74HC165 datasheet, pin functions)
INPUT_PINS = (("A", 11), ("B", 12), ("C", 13), ("D", 14), ("E", 3), ("F", 4), ("G", 5), ("H", 6))


def pixel_names(data):
    """What each pixel lights: a space's id, or an extra's name and place in it."""
    names = ["-"] * data["pixels"]
    for space in data["spaces"]:
        names[space["led"]] = space["id"]
    for name, leds in data["extras"].items():
        for i, led in enumerate(leds):
            names[led] = "%s %d" % (name, i + 1)
    return names


def _kind(name):
    if name == "-":
        return "unused"
    return name.rsplit(" ", 1)[0] if " " in name else "spaces"


def groups(names):
    """Runs of pixels: ``0–90 spaces``, ``91–97 die1``, ..."""
    out = []
    start = 0
    for i in range(1, len(names) + 1):
        if i == len(names) or _kind(names[i]) != _kind(names[start]):
            out.append("%d–%d %s" % (start, i - 1, _kind(names[start])))
            start = i
    return out


def draw(name, data, pins):
    """The SVG text of board ``name`` (parsed JSON ``data``) wired as ``pins`` says."""
    game = find_game(data["game"])(data, find_game(data["game"]).min_players)
    drawing = Drawing(name, data, pins, read_parts())
    drawing.pixels(data)
    drawing.gap()
    drawing.buttons()
    drawing.gap()
    if game.occupancy() is None:
        drawing.beams(data)
        drawing.gap()
    if game.occupancy() is not None or data.get("buttons"):
        drawing.gap()
        drawing.chain(data)
    if getattr(game, "wheels", None):
        drawing.gap()
        drawing.wheels(len(game.wheels))
    return drawing.finish()


def boards():
    return sorted(f[:-5] for f in os.listdir(BOARDS) if f.endswith(".json"))


def read_pins(path):
    """The checked pin map; a PinError names the file and the role."""
    try:
        with open(path) as f:
            return load_pins(json.load(f))
    except OSError as err:
        raise PinError("%s: cannot read it (%s)" % (os.path.relpath(path, ROOT), err.strerror))
    except ValueError as err:
        raise PinError("%s: %s" % (os.path.relpath(path, ROOT), err))


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m host.wiring", description=__doc__.splitlines()[0])
    parser.parse_args(argv)
    pictures = {}
    try:
        pins = read_pins(PINS)
        for name in boards():
            try:
                pictures[name] = draw(name, read_board(name), pins)
            except RulesError as err:
                raise RulesError("boards/%s.json: %s" % (name, err))
    except (PinError, RulesError) as err:
        print("wiring: %s; no picture changed" % err, file=sys.stderr)
        return 1
    for name, svg in pictures.items():
        path = os.path.join(OUT, "wiring-%s.svg" % name)
        with open(path, "w") as f:
            f.write(svg)
        print(os.path.relpath(path, ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
