"""The magnet check of every board: does each piece close its own reed, and nothing else?

The parts and their figures come from ``hardware/parts.json``, the space
positions from ``boards/<game>.json``; magpylib computes the fields. A reed
feels the magnetic potential between its ends: the field along its glass,
integrated over its length, in ampere-turns (AT) like the datasheet's pull-in.
A hall latch feels the field across its marked face (upright).

``python -m host.hardware.fields`` (``make hardware``) prints a table per board: each
check's worst case, where it is, and its margin; the tests want every margin
at least ``margin`` (1.5).
"""

import json
import math
import os
import sys

import magpylib
import numpy as np

from host import ROOT
from host.boardfile import read_board

PARTS = os.path.join(ROOT, "hardware", "parts.json")
MM = 1e-3
MU0 = 4e-7 * math.pi
REED_POINTS = 41  # samples along a reed's glass for the integral
NEAR_MM = 150  # magnets farther from a sensor are left out (a stack of 24 gives less than 0.1 AT there)
STEP_MM = 0.05  # the radial table's step


def read_parts(path=PARTS):
    with open(path) as f:
        return json.load(f)


class Profile:
    """The field of an upright disc magnet in the plane of a sensor, ``dz`` mm below its centre.

    The field is symmetric about the magnet's axis, so magpylib computes it once
    along a radius and the table gives it at any point of that plane."""

    def __init__(self, part, dz):
        magnet = magpylib.magnet.Cylinder(polarization=(0, 0, part["br_mT"] * 1e-3),
                                          dimension=(part["diameter"] * MM, part["height"] * MM))
        self.r = np.arange(0, NEAR_MM + 1, STEP_MM)
        h = magpylib.getH(magnet, np.column_stack([self.r, 0 * self.r, 0 * self.r - dz]) * MM)
        self.hr, self.hz = h[:, 0], h[:, 2]

    def h(self, dx, dy):
        """H (A/m) at offsets ``dx``, ``dy`` (mm, arrays) from the magnet's axis."""
        r = np.hypot(dx, dy)
        hr = np.interp(r, self.r, self.hr, right=0.0)
        safe = np.where(r > 0, r, 1.0)
        return hr * dx / safe, hr * dy / safe, np.interp(r, self.r, self.hz, right=0.0)


def placements(radius):
    """Where a piece may stand on its space: the centre and eight points ``radius`` off it."""
    return np.array([(0.0, 0.0)] + [(radius * math.cos(k * math.pi / 4), radius * math.sin(k * math.pi / 4))
                                    for k in range(8)])


def _bearing(star, radius, degrees):
    """The point ``radius`` mm from ``star`` at a compass bearing (north is up the board, -y)."""
    a = math.radians(degrees)
    return star + radius * np.array([math.sin(a), -math.cos(a)])


class Board:
    """One board's sensors and magnets in millimetres, and its checks."""

    def __init__(self, name, parts):
        self.name, self.parts = name, parts
        self.spec = parts["boards"][name]
        data = read_board(name)
        unit = self.spec["unit_mm"]
        self.spaces = [(s["id"], s["kind"], np.array([s["x"], s["y"]], dtype=float) * unit) for s in data["spaces"]]
        self.centre = np.array(data["size"], dtype=float) * unit / 2
        self.stacks = [self.spec["stacks"].get(kind, 1) for _, kind, _ in self.spaces]
        self.wheels = [self._spot(w["star"]) for w in data.get("wheels", ())]
        self.piece = self.spec.get("piece_magnet", parts["piece_magnet"])
        self.top_face = self.spec.get("top_face", parts["stack"]["top_face"])
        piece, reed, code = self.piece, parts["reed"], parts["code_magnet"]
        piece_z = self.top_face + piece["above_top_face"] + piece["height"] / 2
        code_z = code["bottom"] + code["height"] / 2
        self.piece_reed = Profile(piece, piece_z - reed["height"])
        self.piece_latch = Profile(piece, piece_z - parts["hall_latch"]["height"])
        self.code_reed = Profile(code, code_z - reed["height"])
        self.code_latch = Profile(code, code_z - parts["hall_latch"]["height"])

    def _spot(self, sid):
        return next(at for s, _, at in self.spaces if s == sid)

    # -- where the reeds lie ----------------------------------------------------

    def reed(self, i):
        """Reed ``i``'s direction (a unit vector) and its centre (mm), ``reed_offset`` along it from
        the space's centre. It lies along the board's x axis (``x``) or along the spiral's track
        (``track``); within 1.5 pitches of a stack of ``turn_beside`` pieces or more it lies across
        the line to that stack, where the stack's field along it cancels."""
        _, _, at = self.spaces[i]
        along = self._default(at)
        big = self.spec.get("turn_beside")
        if big:
            near = [(np.hypot(*(o - at)), o) for j, (_, _, o) in enumerate(self.spaces)
                    if j != i and self.stacks[j] >= big]
            if near:
                d, o = min(near, key=lambda t: t[0])
                if d <= 1.5 * self.spec["pitch_mm"]:
                    line = (o - at) / d
                    along = np.array([-line[1], line[0]])
        return along, at + along * self.spec["reed_offset"]

    def _default(self, at):
        if self.spec["reed_along"] == "x":
            return np.array([1.0, 0.0])
        out = (at - self.centre) / np.hypot(*(at - self.centre))
        return np.array([-out[1], out[0]])

    def _reed_at(self, profile, along, centre, sources):
        """AT across a reed of one magnet at each of ``sources`` (an (n, 2) array of points, mm)."""
        length = self.parts["reed"]["length"]
        t = np.linspace(-length / 2, length / 2, REED_POINTS)
        px = centre[0] + t * along[0] - sources[:, :1]
        py = centre[1] + t * along[1] - sources[:, 1:]
        hx, hy, _ = profile.h(px, py)
        return np.trapezoid(hx * along[0] + hy * along[1], dx=length / (REED_POINTS - 1) * MM, axis=1)

    # -- the checks -------------------------------------------------------------

    def reed_checks(self, only=None):
        """Per reed (of the spaces ``only`` names, or all): (space, the least AT of its own piece,
        the most AT of every other magnet together, the largest share's source)."""
        rows = []
        spots = placements(self.parts["placement_mm"])
        for i, (sid, _, at) in enumerate(self.spaces):
            if only is not None and sid not in only:
                continue
            along, centre = self.reed(i)
            own = np.abs(self._reed_at(self.piece_reed, along, centre, at + spots)).min()
            others = [j for j, (_, _, o) in enumerate(self.spaces) if j != i and np.hypot(*(o - at)) <= NEAR_MM]
            where = np.concatenate([self.spaces[j][2] + spots for j in others])
            each = np.abs(self._reed_at(self.piece_reed, along, centre, where)).reshape(len(others), -1).max(axis=1)
            each = each * [self.stacks[j] for j in others]
            foreign = float(each.sum())
            shares = [(each[k], "%d on %s" % (self.stacks[j], self.spaces[j][0])) for k, j in enumerate(others)]
            code = self._code_at_reed(along, centre)
            foreign += code
            shares.append((code, "code magnets"))
            rows.append((sid, own, foreign, max(shares)[1]))
        return rows

    def _code_at_reed(self, along, centre):
        """The most AT the wheels' four code magnets give a reed together, anywhere in a turn (every 2 degrees)."""
        worst = 0.0
        for star in self.wheels:
            if np.hypot(*(centre - star)) > NEAR_MM:
                continue
            total = 0.0
            for k in range(4):  # NE, SE, SW, NW at position 0; the north two south pole down
                sign = 1 if k in (0, 3) else -1
                spots = np.array([_bearing(star, self.parts["wheel"]["radius"], 45 + 90 * k + turn)
                                  for turn in range(0, 360, 2)])
                total = total + sign * self._reed_at(self.code_reed, along, centre, spots)
            worst = max(worst, float(np.abs(total).max()))
        return worst

    def latch_checks(self):
        """Per latch: (name, the least field of the code magnets at a click across the detent (mT),
        the most field of the pieces together (mT), the largest share's source)."""
        rows = []
        radius = self.parts["wheel"]["radius"]
        slip = math.degrees(self.parts["detent_mm"] / radius)
        spots = placements(self.parts["placement_mm"])
        for w, star in enumerate(self.wheels):
            for name, bearing in (("a", 45), ("b", 315)):
                latch = _bearing(star, radius, bearing)
                code = min(abs(self._code_bz(star, latch, 90 * click + err))
                           for click in range(4) for err in (-slip, 0, slip))
                pieces, shares = 0.0, []
                for j, (sid, _, at) in enumerate(self.spaces):
                    if np.hypot(*(at - latch)) > NEAR_MM:
                        continue
                    _, _, hz = self.piece_latch.h(latch[0] - (at + spots)[:, 0], latch[1] - (at + spots)[:, 1])
                    share = float(np.abs(hz).max()) * MU0 * 1e3 * self.stacks[j]
                    pieces += share
                    shares.append((share, "%d on %s" % (self.stacks[j], sid)))
                rows.append(("wheel %d %s" % (w + 1, name), code, pieces, max(shares)[1]))
        return rows

    def _code_bz(self, star, latch, turn):
        total = 0.0
        for k in range(4):
            sign = 1 if k in (0, 3) else -1
            spot = _bearing(star, self.parts["wheel"]["radius"], 45 + 90 * k + turn)
            total += sign * float(self.code_latch.h(np.array(latch[0] - spot[0]), np.array(latch[1] - spot[1]))[2])
        return total * MU0 * 1e3


def checks(name, parts):
    """Board ``name``'s checks: (what, worst case, where, margin), the margin being how many times over its limit.

    A reed closes when its own piece's AT, less every other magnet's, passes the
    reed's largest pull-in; it stays open while the other magnets together stay
    under its smallest. A latch is set by its code magnet when the field, less
    the pieces', passes the latch's largest operate point (at every click, across
    the detent's play); the pieces stay under its smallest."""
    board = Board(name, parts)
    low, high = parts["reed"]["pull_in_AT"]
    reeds = board.reed_checks()
    out = []
    if reeds:
        sid, own, foreign, _ = min(reeds, key=lambda r: r[1] - r[2])
        out.append(("own piece closes its reed", "%.1f AT (%.1f less %.1f) vs pull-in <= %g AT" % (own - foreign, own, foreign, high),
                    sid, (own - foreign) / high))
        sid, _, foreign, source = max(reeds, key=lambda r: r[2])
        out.append(("other magnets leave a reed open", "%.1f AT vs pull-in >= %g AT" % (foreign, low),
                    "%s (most from %s)" % (sid, source), low / foreign))
    latches = board.latch_checks()
    if latches:
        low, high = parts["hall_latch"]["bop_mT"]
        name_, code, pieces, _ = min(latches, key=lambda r: r[1] - r[2])
        out.append(("code magnet sets its latch", "%.1f mT vs BOP <= %g mT" % (code - pieces, high), name_, (code - pieces) / high))
        name_, _, pieces, source = max(latches, key=lambda r: r[2])
        out.append(("pieces leave a latch alone", "%.2f mT vs BOP >= %g mT" % (pieces, low),
                    "%s (most from %s)" % (name_, source), low / pieces))
    return out


def reed_table(name, parts):
    """Where each reed of board ``name`` lies: (space, centre x, y in mm, direction in degrees from the board's x axis)."""
    board = Board(name, parts)
    rows = []
    for i, (sid, _, _) in enumerate(board.spaces):
        along, centre = board.reed(i)
        rows.append((sid, centre[0], centre[1], math.degrees(math.atan2(along[1], along[0])) % 360))
    return rows


def main(argv=None):
    """``[--reeds] [BOARD ...]``: the checks of the boards named (all by default), or with
    ``--reeds`` where each of their reeds lies."""
    argv = sys.argv[1:] if argv is None else argv
    parts = read_parts()
    names = [a for a in argv if a != "--reeds"] or list(parts["boards"])
    if "--reeds" in argv:
        for name in names:
            if parts["boards"][name].get("reeds") is not False:
                print("%s: space, reed centre x y (mm from the board's top left), direction (degrees clockwise from east)"
                      % name)
                for sid, x, y, angle in reed_table(name, parts):
                    print("  %-6s %7.1f %7.1f %5.0f" % (sid, x, y, angle))
        return 0
    bad = 0
    for name in names:
        spec = parts["boards"][name]
        print("%s: %s" % (name, spec["stacks_source"]))
        if spec.get("reeds") is False:
            print("  no magnets sensed\n")
            continue
        for what, worst, where, margin in checks(name, parts):
            flag = "" if margin >= parts["margin"] else "   UNDER %gx" % parts["margin"]
            bad += margin < parts["margin"]
            print("  %-32s %-44s at %-36s %5.2fx%s" % (what, worst, where, margin, flag))
        print()
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
