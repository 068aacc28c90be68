"""The pocket beams' check (host/hardware/beams.py, make hardware): the light across a pocket
holds its line high and a counter in the beam pulls it low, with the margin
hardware/parts.json asks; the parts it computes with are the ones bom.csv lists
and bom.md names, with the figures it computes; the firmware's budget for a
pocket covers what the check finds it draws."""

import copy
import csv
import json
import math
from pathlib import Path

import pytest

from hal.beams import BEAM_MA
from hal.pins import BEAMS
from host.hardware import beams
from host.hardware.fields import read_parts

HARDWARE = Path(__file__).resolve().parent.parent / "hardware"
PARTS = read_parts()
BEAM = PARTS["pocket_beam"]
# the parts of a pocket's circuit, one of each per pocket
CIRCUIT = ("emitter", "emitter_resistor", "receiver", "load", "switch")


def bom():
    with open(HARDWARE / "bom.csv", newline="") as f:
        return {row["mpn"]: row for row in csv.DictReader(f)}


def pockets():
    data = json.loads((HARDWARE.parent / "boards" / "snuka.json").read_text())
    return sum(space["kind"] == "pocket" for space in data["spaces"])


def test_every_margin_of_the_pocket_beams_is_kept():
    short = [(what, words, round(margin, 2)) for what, words, margin in beams.checks(PARTS) if margin < PARTS["margin"]]
    assert not short, "under %gx: %s" % (PARTS["margin"], short)
    assert beams.main() == 0


@pytest.mark.parametrize("change, check", [
    (lambda b: b.update(mouth_mm=2 * b["mouth_mm"]), "beam whole: the light holds the line high"),
    (lambda b: b["load"].update(ohm=b["load"]["ohm"] / 4), "beam whole: the light holds the line high"),
    (lambda b: b["emitter"].update(spread=0.2), "beam whole: the light holds the line high"),
    (lambda b: b["load"].update(ohm=b["load"]["ohm"] * 25), "beam broken: the NPN pulls the line low"),
    (lambda b: b.update(counter_mm=6), "a counter covers the beam"),
], ids=["a pocket twice as wide", "a quarter of the load", "a weak emitter", "25 times the load",
        "a counter as small as the receiver"])
def test_a_worse_pocket_or_part_falls_under_the_margin(change, check):
    parts = copy.deepcopy(PARTS)
    change(parts["pocket_beam"])
    margins = {what: margin for what, _, margin in beams.checks(parts)}
    assert margins[check] < PARTS["margin"], margins


def test_the_longest_beam_keeps_exactly_the_margin():
    longest = beams.longest_mm(PARTS)
    f = beams.figures(PARTS, longest)
    assert longest > beams.beam_mm(BEAM)
    assert math.isclose(f["light_mA"] / f["hold_mA"], PARTS["margin"], rel_tol=1e-9)


def test_the_firmware_counts_what_a_pocket_draws():
    assert BEAM_MA == math.ceil(beams.figures(PARTS)["draw_mA"])


def test_the_bom_lists_every_part_of_a_pocket_once_per_pocket_with_its_alternative():
    rows = bom()
    assert pockets() == len(BEAMS)
    for name in CIRCUIT:
        part = BEAM[name]
        row = rows[part["mpn"]]
        assert row["alternative"] == part["alternative"], name
        assert [int(row[b]) for b in ("detour", "sniggle", "mehen", "snuka")] == [0, 0, 0, pockets()], name


def test_the_bom_gives_the_figures_the_check_computes_with():
    rows, f = bom(), beams.figures(PARTS)
    led, rx, npn = BEAM["emitter"], BEAM["receiver"], BEAM["switch"]
    assert "%g mW/sr typical at %g mA" % (led["ie_mW_sr"], led["at_mA"]) in rows[led["mpn"]]["figure the design relies on"]
    assert "±%g°" % led["half_angle_deg"] in rows[led["mpn"]]["figure the design relies on"]
    assert "%g mA at least at %g mW/cm2" % (rx["ica_mA"], rx["at_mW_cm2"]) in rows[rx["mpn"]]["figure the design relies on"]
    assert "hFE %d at least" % npn["hfe_min"] in rows[npn["mpn"]]["figure the design relies on"]
    resistor = rows[BEAM["emitter_resistor"]["mpn"]]
    assert "%g ohm" % BEAM["emitter_resistor"]["ohm"] in resistor["item"]
    assert "%.0f to %.1f mA" % (f["led_min_mA"], f["led_max_mA"]) in resistor["figure the design relies on"]
    assert "%g kohm" % (BEAM["load"]["ohm"] / 1000) in rows[BEAM["load"]["mpn"]]["item"]


def test_bom_md_names_the_parts_and_quotes_the_checks_figures():
    text = " ".join((HARDWARE / "bom.md").read_text().split())  # a figure may be split over two lines
    for name in CIRCUIT:
        assert BEAM[name]["mpn"] in text, name
    f = beams.figures(PARTS)
    [light, sink, _, _] = beams.checks(PARTS)
    assert "%.3f mA where %.3f mA holds the NPN off: %.1f×" % (f["light_mA"], f["hold_mA"], light[2]) in text
    assert "%.2f mA where the pull-up gives %.3f mA: %.0f×" % (f["sink_mA"], f["pull_up_mA"], sink[2]) in text
    assert "up to %.0f mm apart" % beams.longest_mm(PARTS) in text
    assert "(%.0f mA, on a 5 V rail at its lowest)" % f["led_min_mA"] in text
    assert "%g mm apart (a %g mm mouth, each part %g mm back" % (f["length_mm"], BEAM["mouth_mm"], BEAM["setback_mm"]) in text


def test_power_md_quotes_the_currents_the_check_computes():
    text = " ".join((HARDWARE / "power.md").read_text().split())
    f = beams.figures(PARTS)
    assert "%.1f mA at USB's highest" % f["led_max_mA"] in text
    assert "%.0f mA on the rail at its lowest" % f["led_min_mA"] in text
    assert "%.3f mA through the load" % f["hold_mA"] in text
    assert "at most %.1f mA a pocket" % f["draw_mA"] in text
