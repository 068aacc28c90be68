"""The pocket beams' check (Tiddlee Snuka): does the light across a pocket's mouth hold
its receiver's line high, and does a counter in the beam pull the line low?

The circuit and its figures are ``pocket_beam`` in ``hardware/parts.json``: the
IR LED from the pixels' 5 V through its resistor, the phototransistor facing it
with its collector load from 3.3 V, and the NPN transistor whose base is that
collector and whose open collector is the GPIO's line, held high by the Pico's
pull-up. While the beam is whole the phototransistor takes all of its load's
current and the NPN is off: the line is high. While a counter breaks it the
load drives the NPN's base and the NPN pulls the line low.

``python -m host.hardware.beams`` (``make hardware``) prints each check's figures and
margin; the tests want every margin at least ``margin`` (1.5).
"""

import math
import sys

from host.hardware.fields import read_parts


def relative(angle_deg, half_angle_deg):
    """A lens's relative intensity (or sensitivity) ``angle_deg`` off its axis, taken as
    cos^n with n such that it is one half at the datasheet's half angle."""
    n = math.log(0.5) / math.log(math.cos(math.radians(half_angle_deg)))
    return math.cos(math.radians(angle_deg)) ** n


def beam_mm(beam):
    return beam["mouth_mm"] + 2 * beam["setback_mm"]


def figures(parts, length_mm=None):
    """Every figure of the check, by name (currents in mA, irradiance in mW/cm2, lengths
    in mm); ``length_mm`` replaces the emitter-to-receiver distance of parts.json."""
    beam, power = parts["pocket_beam"], parts["power"]
    led, rx, npn, pico = beam["emitter"], beam["receiver"], beam["switch"], beam["pico"]
    ohm, load = beam["emitter_resistor"]["ohm"], beam["load"]["ohm"]
    f = {"length_mm": length_mm or beam_mm(beam)}
    # the 5 V rail at its lowest: the port's least, less the drop over the cable and the
    # soft start's MOSFET at the port's full current
    f["rail_V"] = beam["usb_V"][0] - power["limits"]["peak_A"] * (power["cable_ohm"] + power["soft_start"]["rds_on_ohm"])
    f["led_min_mA"] = (f["rail_V"] - led["vf_V"][1]) / ohm * 1e3
    f["led_max_mA"] = (beam["usb_V"][1] - led["vf_V"][0]) / ohm * 1e3
    f["ie_mW_sr"] = led["ie_mW_sr"] * led["spread"] * f["led_min_mA"] / led["at_mA"]
    tilt = beam["misalignment_deg"]
    f["ee_mW_cm2"] = (f["ie_mW_sr"] * relative(tilt, led["half_angle_deg"]) / (f["length_mm"] / 10) ** 2
                      * relative(tilt, rx["half_angle_deg"]))
    f["light_mA"] = rx["ica_mA"] * (f["ee_mW_cm2"] / rx["at_mW_cm2"]) ** rx["slope"]
    # beam whole: the phototransistor takes the whole of its load's current, its collector
    # stays near 0 V and the NPN is off
    f["hold_mA"] = pico["logic_V"] / load * 1e3
    # beam broken: the load's current, less the phototransistor's dark current, is the NPN's
    # base current; it must sink the strongest pull-up
    f["base_mA"] = (pico["logic_V"] - npn["vbe_sat_V"]) / load * 1e3 - rx["dark_nA"] * 1e-6
    f["sink_mA"] = npn["hfe_min"] * f["base_mA"]
    f["pull_up_mA"] = pico["logic_V"] / pico["pull_up_ohm"][0] * 1e3
    # what a pocket takes at most: its emitter, and its receiver's load and pull-up
    f["draw_mA"] = f["led_max_mA"] + f["hold_mA"] + f["pull_up_mA"]
    return f


def checks(parts):
    """(what, figures in words, margin) of every check."""
    beam = parts["pocket_beam"]
    pico, npn = beam["pico"], beam["switch"]
    f = figures(parts)
    covered = max(beam["emitter"]["lens_mm"], beam["receiver"]["face_mm"])
    return [
        ("beam whole: the light holds the line high",
         "%.0f mA in the emitter, %.2f mW/sr, %.4f mW/cm2 at %g mm: %.3f mA where %.3f mA holds the NPN off"
         % (f["led_min_mA"], f["ie_mW_sr"], f["ee_mW_cm2"], f["length_mm"], f["light_mA"], f["hold_mA"]),
         f["light_mA"] / f["hold_mA"]),
        ("beam broken: the NPN pulls the line low",
         "%.3f mA into its base, %.2f mA it can sink, where the pull-up gives %.3f mA"
         % (f["base_mA"], f["sink_mA"], f["pull_up_mA"]),
         f["sink_mA"] / f["pull_up_mA"]),
        ("beam broken: the line's low is under VIL",
         "VCE(sat) %.1f V at most, VIL %.1f V" % (npn["vce_sat_V"], pico["vil_V"]),
         pico["vil_V"] / npn["vce_sat_V"]),
        ("a counter covers the beam",
         "%g mm counter, %g mm the larger of the lens and the receiver" % (beam["counter_mm"], covered),
         beam["counter_mm"] / covered),
    ]


def longest_mm(parts):
    """The emitter-to-receiver distance at which the light's margin falls to ``margin``."""
    f = figures(parts)
    slope = parts["pocket_beam"]["receiver"]["slope"]
    return f["length_mm"] * (f["light_mA"] / f["hold_mA"] / parts["margin"]) ** (1 / (2 * slope))


def main():
    parts = read_parts()
    beam = parts["pocket_beam"]
    f = figures(parts)
    print("Pocket beams: %s through %d ohm from 5 V into %s with %d kOhm from 3.3 V and a %s, %g mm apart:"
          % (beam["emitter"]["mpn"], beam["emitter_resistor"]["ohm"], beam["receiver"]["mpn"],
             beam["load"]["ohm"] / 1000, beam["switch"]["mpn"], f["length_mm"]))
    bad = 0
    for what, words, margin in checks(parts):
        short = margin < parts["margin"]
        bad += short
        print("  %-45s %5.1fx  %s%s" % (what, margin, words, "   UNDER %gx" % parts["margin"] if short else ""))
    print("  the light keeps %gx up to %.0f mm apart; a pocket draws at most %.1f mA"
          % (parts["margin"], longest_mm(parts), f["draw_mA"]))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
