"""The wiring pictures (make wiring): each committed picture is the one the pin map and the board
file draw now, and it shows every role of the pin map and the sensor chain the board needs."""

import json
import os

import pytest

from host import wiring
from host.boardfile import read_board
from host.fields import read_parts

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
    assert svg.count(">3.3 V<") == 1  # the SER of the chip at the far end
    data["sensors"] = 100
    svg = wiring.draw("detour", data, pins())
    assert ">chip 12<" in svg and ">A–D: inputs 96–99<" in svg


def test_the_pixel_chain_says_how_many_pixels_and_which_come_first():
    svg = wiring.draw("detour", read_board("detour"), pins())
    assert ">105 WS2812B (5 V) in one chain, in the board file's order:<" in svg
    assert ">g13<" in svg and ">0–90 spaces; 91–97 die1; 98–104 die2<" in svg


def test_a_flicking_board_shows_its_pocket_beams_and_the_chain_of_its_buttons():
    svg = wiring.draw("snuka", read_board("snuka"), pins())
    assert ">IR receiver of pocket TL<" in svg
    assert "5 × 74HC165 for 39 inputs: on 27–38 the game's buttons (red, " in svg and ">chip 4<" in svg


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
    if ">chip 0<" in svg:
        assert ">A 11  B 12  C 13  D 14<" in svg and ">E 3  F 4  G 5  H 6<" in svg
