"""Wiring diagrams: one picture per board of what goes to which Pico pin.

    python -m host.hardware.wiring   draw hardware/wiring-<board>.svg for every board in boards/

Each picture is drawn from ``hardware/pins.json``, the board file and
``hardware/parts.json``: the Pico with every GPIO the board uses, labelled by
its role; the pixel chain behind the 74AHCT125 (how many pixels, which come
first), its 5 V and GND rails with the capacitor, and the soft start part by
part; the 74HC165 chain with as many chips as the board has sensors, and under
each chip its pull-up network and every input with its letter and pin and the
reed or button on it; the die buttons, the wheels' position sensors and each
pocket's beam part by part where the board has them; and the roles of the pin
map the board leaves unused. The pictures are plain SVG, written the same way
every time, so a test can tell a stale one; each part's rectangle names its
kind (``class``), so a test can count them.
"""

import argparse
import json
import os
import sys

from host import BOARDS, ROOT
from host.boardfile import read_board
from host.hardware.beams import beam_mm
from host.hardware.fields import read_parts
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
CHIP_W, CHIP_H, CHIP_GAP, CHIPS_PER_ROW = 150, 116, 40, 6
INPUT_ROW = 13  # px between two inputs drawn under a chip
NETWORK_H = 9 * INPUT_ROW  # the network's nine pins, one a row
UNDER = 20 + NETWORK_H  # the network and the inputs under each chip


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

    def box(self, x, y, w, h, fill="white", part=None):
        """A rectangle; ``part`` names the kind of part it draws (its class), which the tests count."""
        self._grow(x + w, y + h)
        self.items.append('<rect x="%d" y="%d" width="%d" height="%d" fill="%s" stroke="black"%s/>'
                          % (x, y, w, h, fill, ' class="%s"' % part if part else ""))

    def dot(self, x, y):
        self.items.append('<circle cx="%d" cy="%d" r="3"/>' % (x, y))

    def resistor(self, x, y, x2, value):
        """A resistor in a wire from ``x`` to ``x2`` on row ``y``, its value above it."""
        mid = (x + x2) // 2
        self.line((x, y), (mid - 15, y))
        self.box(mid - 15, y - 5, 30, 10, fill="#ddd", part="resistor")
        self.line((mid + 15, y), (x2, y))
        self.text(mid, y - 8, value, anchor="middle", size=9)

    def upright_resistor(self, x, y, y2, value):
        """A resistor in a wire from ``y`` down to ``y2`` at ``x``, its value beside it."""
        mid = (y + y2) // 2
        self.line((x, y), (x, mid - 12))
        self.box(x - 5, mid - 12, 10, 24, fill="#ddd", part="resistor")
        self.line((x, mid + 12), (x, y2))
        self.text(x + 9, mid + 4, value, size=9)

    def capacitor(self, x, y, x2, value):
        """A capacitor in a wire from ``x`` to ``x2`` on row ``y``, its value above it."""
        mid = (x + x2) // 2
        self.line((x, y), (mid - 3, y))
        self.line((mid - 3, y - 7), (mid - 3, y + 7))
        self.line((mid + 3, y - 7), (mid + 3, y + 7))
        self.line((mid + 3, y), (x2, y))
        self.text(mid, y - 10, value, anchor="middle", size=9)

    def ground(self, x, y, down=False):
        """GND's mark at the end of a wire: pointing right, or down."""
        for i, half in enumerate((6, 4, 2)):
            if down:
                self.line((x - half, y + 3 * i), (x + half, y + 3 * i))
            else:
                self.line((x + 3 * i, y - half), (x + 3 * i, y + half))

    def reed(self, x, y):
        """A reed switch from ``x`` to ``x`` + 24 on row ``y``: two blades in a glass."""
        self.box(x + 2, y - 4, 20, 8, fill="none", part="reed")
        self.line((x, y), (x + 13, y))
        self.line((x + 11, y - 2), (x + 24, y - 2), (x + 24, y))

    def button(self, x, y):
        """A push button from ``x`` to ``x`` + 24 on row ``y``: its contacts open, the key above them."""
        self.line((x, y), (x + 6, y))
        self.line((x + 18, y), (x + 24, y))
        self.box(x + 5, y - 6, 14, 3, fill="black", part="button")

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
        svg.line((x - 30, ground), (end, ground))
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
        svg.text(cap - 8, ground + 14, "1000 µF")
        bottom = self._soft_start(x - 40, five, ground + 70)
        ss = self.parts["power"]["soft_start"]
        svg.text(x - 40, bottom + 24, "5 V rail from VBUS through the soft start (power.md): %s, source to VBUS, "
                                      "drain to the rail; gate %s to GND, %s and %s to the source, %s to the drain"
                 % (ss["mosfet"], ohms(ss["r_gate_gnd_ohm"]), ohms(ss["r_gate_source_ohm"]),
                    farads(ss["c_gate_source_nF"]), farads(ss["c_gate_drain_nF"])))
        svg.text(x - 40, bottom + 40, "each pixel: VDD (1) to 5 V, VSS (3) to GND, DIN (4) from the one before, "
                                      "DOUT (2) to the next; never from 3V3; all grounds joined")
        svg.text(x - 40, bottom + 56, "; ".join(groups(names)))
        self.y = bottom + 56 + ROW

    def _soft_start(self, drain, rail, y):
        """The soft start between VBUS and the pixels' rail, part by part: the P-channel MOSFET on
        row ``y`` with its drain wire at ``drain`` up to the rail at ``rail``, its gate below with
        the resistors and capacitors of parts.json. Returns the lowest y drawn."""
        svg = self.svg
        ss = self.parts["power"]["soft_start"]
        source, gate = drain - 180, drain - 60
        svg.text(source, y - 20, "soft start (power.md)", size=10)
        svg.text(source - 4, y + 4, "VBUS", anchor="end", bold=True)
        svg.line((source, y), (drain - 110, y))
        svg.box(drain - 110, y - 12, 100, 24, fill="#eef", part="mosfet")
        svg.text(drain - 106, y + 4, "S", size=9)
        svg.text(drain - 60, y + 4, ss["mosfet"], anchor="middle", size=10)
        svg.text(drain - 14, y + 4, "D", anchor="end", size=9)
        svg.text(drain - 56, y + 22, "G", size=9)
        svg.line((drain - 10, y), (drain + 30, y))
        svg.line((drain, y), (drain, rail))
        svg.dot(drain, y)
        svg.dot(drain, rail)
        svg.line((gate, y + 12), (gate, y + 60))
        svg.dot(gate, y + 36)
        svg.dot(gate, y + 60)
        # gate to source: the resistor above, the capacitor below it
        svg.dot(source, y)
        svg.line((source, y), (source, y + 60))
        svg.dot(source, y + 36)
        svg.resistor(source, y + 36, gate, ohms(ss["r_gate_source_ohm"]))
        svg.capacitor(source, y + 60, gate, farads(ss["c_gate_source_nF"]))
        # gate to drain
        svg.capacitor(gate, y + 36, drain + 30, farads(ss["c_gate_drain_nF"]))
        svg.line((drain + 30, y + 36), (drain + 30, y))
        # gate to GND
        svg.upright_resistor(gate, y + 60, y + 110, ohms(ss["r_gate_gnd_ohm"]))
        svg.ground(gate, y + 110, down=True)
        return y + 116

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
        """The 74HC165 chain: chip 0 at the Pico, each SER from the next chip's QH; under each
        chip its pull-up network and every input with what it carries."""
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
            carried = {n: ("button", name) for name, n in buttons.items()}
            what = ("%d × 74HC165 for %d inputs: on %d–%d the game's buttons (%s), each to GND, the rest to 3.3 V; "
                    "a 10 kΩ pull-up on every input; VCC (16) 3.3 V with 100 nF, GND (8)"
                    % (chips, sensors, inputs[0], inputs[-1], ", ".join(sorted(buttons, key=buttons.get))))
        else:
            carried = {space["sensor"]: ("reed", space["id"]) for space in data["spaces"]}
            what = ("%d × 74HC165 for %d sensors: a reed switch (%s, laid as hardware/wheels.md says) from every "
                    "input to GND, a 10 kΩ pull-up to 3.3 V; VCC (16) 3.3 V with 100 nF, GND (8)"
                    % (chips, sensors, self.parts["reed"]["mpn"]))
        svg.text(PART_X, top - 40, what)
        svg.text(PART_X, top - 24, "the pull-ups: per chip a 10 kΩ bussed network (SIP-9), pin 1 to 3.3 V, pins 2–9 to "
                                   "inputs A–H; under each chip its network and every input: letter, pin, what it carries")
        rows = (chips + CHIPS_PER_ROW - 1) // CHIPS_PER_ROW
        pitch = CHIP_H + UNDER + 4 * ROW
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
            y = first + (k // CHIPS_PER_ROW) * pitch
            self._chip(k, chips, sensors, y, data_y, pitch)
            self._inputs(k, sensors, y + CHIP_H + 20, carried)
        self.y = first + rows * pitch
        svg.text(PART_X, self.y - ROW, "read: SH/LD low loads every input; each rising CLK then shifts the chain "
                                       "one place towards the Pico (hardware/README.md)")

    def _chip(self, k, chips, sensors, y, data_y, pitch):
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
        else:  # the first chip of a row feeds the last chip of the row above, round the gap between the rows
            up = y - 3 * ROW
            far = ser[0] + (CHIPS_PER_ROW - 1) * (CHIP_W + CHIP_GAP)
            svg.line(qh, (x - 20, qh[1]), (x - 20, up), (far + 20, up), (far + 20, qh[1] - pitch), (far, qh[1] - pitch))
        if k == chips - 1:
            svg.line(ser, (ser[0] + 20, ser[1]))
            svg.text(ser[0] + 24, ser[1] + 4, "3.3 V", bold=True)

    def _inputs(self, k, sensors, top, carried):
        """Under chip ``k``: its network, pin 1 to 3.3 V and pins 2-9 to inputs A-H, and on each
        input's wire its letter and pin and what it carries: a reed or a button to GND (with the
        sensor number and the space or button), or nothing, held high by the network."""
        svg = self.svg
        x = CHAIN_X + 40 + (k % CHIPS_PER_ROW) * (CHIP_W + CHIP_GAP)
        svg.text(x, top - 6, "network: 10 kΩ × 8, SIP-9", size=9)
        svg.box(x, top, 22, NETWORK_H, fill="#eee", part="network")
        for pin in range(1, 10):
            y = top + INPUT_ROW * pin - 5
            svg.text(x + 11, y + 3, str(pin), anchor="middle", size=9)
            if pin == 1:
                svg.line((x + 22, y), (x + 50, y))
                svg.text(x + 54, y + 3, "3.3 V", bold=True, size=9)
                continue
            n = 8 * k + pin - 2
            letter, number = INPUT_PINS[pin - 2]
            svg.text(x + 26, y - 2, "%s %d" % (letter, number), size=9)
            kind, name = carried.get(n, (None, None)) if n < sensors else (None, None)
            if kind is None:
                svg.line((x + 22, y), (x + 58, y))
                svg.text(x + 62, y + 3, "%d: held high" % n, size=9)
                continue
            svg.line((x + 22, y), (x + 58, y))
            if kind == "reed":
                svg.reed(x + 58, y)
            else:
                svg.button(x + 58, y)
            svg.line((x + 82, y), (x + 88, y))
            svg.ground(x + 88, y)
            svg.text(x + 100, y + 3, "%d: %s" % (n, name), size=9)

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
        """Each pocket's beam, part by part: the NPN whose collector is the GPIO's line, the
        phototransistor and its load at the NPN's base, and the IR LED facing it."""
        svg = self.svg
        beam = self.parts["pocket_beam"]
        led, rx, npn = beam["emitter"]["mpn"], beam["receiver"]["mpn"], beam["switch"]["mpn"]
        pockets = {space["sensor"]: space["id"] for space in data["spaces"] if space["kind"] == "pocket"}
        svg.text(PART_X, self.y, "each pocket: a %s IR LED across its mouth, %g mm from a %s phototransistor that "
                                 "holds a %s off while the beam is whole; the %s's open collector is the GPIO's line"
                 % (led, beam_mm(beam), rx, npn, npn))
        self.gap()
        svg.text(PART_X, self.y, "with the Pico's pull-up: high while the beam is whole, low while a counter breaks it "
                                 "(hardware/README.md, Pocket beams; the margins: make hardware)")
        self.gap()
        for n, role in enumerate(BEAMS):
            y = self.pin(role, PART_X)
            x = PART_X
            # the NPN: collector from the GPIO, emitter to GND, base below
            svg.box(x, y - 10, 100, 30, fill="#efe", part="npn")
            svg.text(x + 4, y + 4, "C", size=9)
            svg.text(x + 50, y + 4, npn, anchor="middle", size=10)
            svg.text(x + 96, y + 4, "E", anchor="end", size=9)
            svg.text(x + 18, y + 17, "B", size=9)
            svg.line((x + 100, y), (x + 112, y))
            svg.ground(x + 112, y)
            svg.text(x + 130, y + 4, "pocket %s" % pockets.get(n, "-"), bold=True)
            # the base: the phototransistor's collector and its load from 3.3 V
            node = y + 44
            svg.line((x + 14, y + 20), (x + 14, node))
            svg.dot(x + 14, node)
            svg.resistor(x + 14, node, x + 100, ohms(beam["load"]["ohm"]))
            svg.text(x + 104, node + 4, "3.3 V", bold=True, size=10)
            svg.line((x + 14, node), (x + 14, node + 12))
            svg.box(x, node + 12, 120, 22, fill="#efe", part="phototransistor")
            svg.text(x + 4, node + 27, "C", size=9)
            svg.text(x + 60, node + 27, rx, anchor="middle", size=10)
            svg.text(x + 116, node + 27, "E", anchor="end", size=9)
            svg.line((x + 120, node + 23), (x + 132, node + 23))
            svg.ground(x + 132, node + 23)
            # the emitter facing it across the mouth, from the pixels' 5 V
            lit = node + 23
            svg.text(x + 160, lit - 16, "facing it, %g mm across the mouth:" % beam_mm(beam), size=10)
            svg.text(x + 160, lit + 4, "5 V", bold=True, size=10)
            svg.resistor(x + 184, lit, x + 250, ohms(beam["emitter_resistor"]["ohm"]))
            svg.box(x + 250, lit - 11, 110, 22, fill="#fee", part="ir-emitter")
            svg.text(x + 254, lit + 4, "A", size=9)
            svg.text(x + 305, lit + 4, led, anchor="middle", size=10)
            svg.text(x + 356, lit + 4, "K", anchor="end", size=9)
            svg.line((x + 360, lit), (x + 372, lit))
            svg.ground(x + 372, lit)
            self.gap(4 * ROW)

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
    if value >= 1e6:
        return "%g MΩ" % (value / 1e6)
    return "%g kΩ" % (value / 1e3) if value >= 1e3 else "%g Ω" % value


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
    parser = argparse.ArgumentParser(prog="python -m host.hardware.wiring", description=__doc__.splitlines()[0])
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
