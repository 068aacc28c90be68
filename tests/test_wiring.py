"""The wiring pictures (make wiring): each committed picture is the one the pin map and the board
file draw now, and it shows every role of the pin map and the sensor chain the board needs."""

import csv
import json
import os

import pytest

from host.boardfile import read_board
from host.hardware import wiring
from host.hardware.fields import read_parts

PICTURES = os.path.join(wiring.ROOT, "hardware")


def pins():
    return wiring.read_pins(wiring.PINS)


@pytest.mark.parametrize("name", wiring.boards())
def test_the_committed_picture_is_what_the_pin_map_and_the_board_file_draw_now(name):
    with open(os.path.join(PICTURES, "wiring-%s.svg" % name)) as f:
        committed = f.read()
    assert committed == wiring.draw(name, read_board(name), pins()), \
        "hardware/wiring-%s.svg is out of date: run make wiring" % name


@pytest.mark.parametrize("name", wiring.boards())
def test_every_role_of_the_pin_map_is_in_the_picture_with_its_gpio(name):
    with open(os.path.join(PICTURES, "wiring-%s.svg" % name)) as f:
        svg = f.read()
    for role, gpio in pins().items():
        assert ">%s (GP%d)<" % (role, gpio) in svg, (name, role)


def test_a_pin_moved_in_the_pin_map_moves_in_the_picture():
    moved = dict(pins(), pixels=8)
    svg = wiring.draw("detour", read_board("detour"), moved)
    assert ">pixels (GP8)<" in svg and ">GP8 · pin 11<" in svg and ">GP2 · pin 4<" not in svg
    assert svg != wiring.draw("detour", read_board("detour"), pins())


def test_the_chain_has_a_chip_for_every_eight_sensors_and_its_far_end_tied():
    data = read_board("detour")  # 91 sensors: 12 chips, the last with inputs A-C used
    svg = wiring.draw("detour", data, pins())
    assert ">chip 11<" in svg and ">chip 12<" not in svg
    assert svg.count(">15 CLK INH: GND<") == 12
    assert ">A–C: inputs 88–90<" in svg and ">D–H: to 3.3 V<" in svg
    assert svg.count(">3.3 V<") == 12 + 1  # each network's pin 1, and the SER of the chip at the far end
    data["sensors"] = 100
    svg = wiring.draw("detour", data, pins())
    assert ">chip 12<" in svg and ">A–D: inputs 96–99<" in svg


def test_the_pixel_chain_says_how_many_pixels_and_which_come_first():
    svg = wiring.draw("detour", read_board("detour"), pins())
    assert ">105 WS2812B (5 V) in one chain, in the board file's order:<" in svg
    assert ">g13<" in svg and ">0–90 spaces; 91–97 die1; 98–104 die2<" in svg


def test_a_flicking_board_shows_its_pocket_beams_and_the_chain_of_its_buttons():
    svg = wiring.draw("snuka", read_board("snuka"), pins())
    beam = read_parts()["pocket_beam"]
    for pocket in ("TL", "TM", "TR", "BL", "BM", "BR"):
        assert ">pocket %s<" % pocket in svg
    for name in ("emitter", "receiver", "switch"):
        assert svg.count(">%s<" % beam[name]["mpn"]) == 6, name
    assert svg.count(">47 kΩ<") == 6 and svg.count(">180 Ω<") == 6
    assert "5 × 74HC165 for 39 inputs: on 27–38 the game's buttons (red, " in svg and ">chip 4<" in svg


def test_the_beams_are_drawn_with_the_parts_parts_json_names(monkeypatch):
    parts = read_parts()
    parts["pocket_beam"]["load"] = dict(parts["pocket_beam"]["load"], ohm=33000)
    monkeypatch.setattr(wiring, "read_parts", lambda: parts)
    svg = wiring.draw("snuka", read_board("snuka"), pins())
    assert svg.count(">33 kΩ<") == 6 and ">47 kΩ<" not in svg


# the parts a picture draws, by their class in the SVG, and their part numbers in bom.csv
DRAWN = {"reed": "MDSR-10-15-20", "network": "4609X-101-103LF", "ir-emitter": "TSAL4400",
         "phototransistor": "TEKT5400S", "npn": "2N3904BU", "mosfet": "AO3401A"}


@pytest.mark.parametrize("name", wiring.boards())
def test_the_picture_draws_as_many_of_each_part_as_the_bom_lists(name):
    with open(os.path.join(PICTURES, "wiring-%s.svg" % name)) as f:
        svg = f.read()
    with open(os.path.join(PICTURES, "bom.csv"), newline="") as f:
        rows = {row["mpn"]: row for row in csv.DictReader(f)}
    for part, mpn in DRAWN.items():
        assert svg.count('class="%s"' % part) == int(rows[mpn][name]), (part, mpn)


@pytest.mark.parametrize("name", wiring.boards())
def test_every_chain_input_is_drawn_with_its_letter_pin_and_what_it_carries(name):
    with open(os.path.join(PICTURES, "wiring-%s.svg" % name)) as f:
        svg = f.read()
    data = read_board(name)
    chips = (data["sensors"] + 7) // 8
    carried = {b: n for n, b in (data.get("buttons") or {}).items()} or \
        {space["sensor"]: space["id"] for space in data["spaces"]}
    for letter, number in wiring.INPUT_PINS:
        assert svg.count(">%s %d<" % (letter, number)) == chips
    for n in range(8 * chips):
        label = ">%d: %s<" % (n, carried[n]) if n in carried else ">%d: held high<" % n
        assert label in svg, (name, n)
    assert svg.count('class="button"') == len(data.get("buttons") or {})
    assert svg.count('class="reed"') + svg.count('class="button"') == len(carried)


def test_the_reeds_follow_the_board_files_sensor_numbers_and_length():
    data = read_board("detour")
    first, second = data["spaces"][0], data["spaces"][1]
    first["sensor"], second["sensor"] = second["sensor"], first["sensor"]
    data["sensors"] = 100
    svg = wiring.draw("detour", data, pins())
    assert ">%d: %s<" % (first["sensor"], first["id"]) in svg and ">%d: %s<" % (second["sensor"], second["id"]) in svg
    assert svg.count('class="reed"') == 91 and svg.count('class="network"') == 13
    assert ">99: held high<" in svg and ">103: held high<" in svg


def test_a_broken_pin_map_is_refused_naming_the_file_and_no_picture_changes(tmp_path, monkeypatch, capsys):
    broken = tmp_path / "pins.json"
    broken.write_text(json.dumps(dict(pins(), die1=2)))
    monkeypatch.setattr(wiring, "PINS", str(broken))
    monkeypatch.setattr(wiring, "OUT", str(tmp_path))
    assert wiring.main([]) == 1
    err = capsys.readouterr().err
    assert os.path.relpath(str(broken), wiring.ROOT) in err and "GP2 is given to both 'pixels' and 'die1'" in err and "no picture changed" in err
    assert os.listdir(tmp_path) == ["pins.json"]


@pytest.mark.parametrize("name", wiring.boards())
def test_the_picture_draws_the_pixels_supply_and_the_chips_input_pins(name):
    with open(os.path.join(PICTURES, "wiring-%s.svg" % name)) as f:
        svg = f.read()
    power = read_parts()["power"]["soft_start"]
    assert ">5 V (pixels)<" in svg and ">GND<" in svg and ">1000 µF<" in svg
    assert power["mosfet"] in svg and "%g nF to the source" % power["c_gate_source_nF"] in svg
    # the soft start drawn part by part: each of its resistors and capacitors with its value
    for value in (wiring.ohms(power["r_gate_gnd_ohm"]), wiring.ohms(power["r_gate_source_ohm"]),
                  wiring.farads(power["c_gate_source_nF"]), wiring.farads(power["c_gate_drain_nF"])):
        assert ">%s<" % value in svg, value
    if ">chip 0<" in svg:
        assert ">A 11  B 12  C 13  D 14<" in svg and ">E 3  F 4  G 5  H 6<" in svg
