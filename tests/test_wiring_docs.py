"""The wiring documents agree with the board files and the firmware: as many
74HC165s as the firmware clocks for each board file's chain, a pull-up
network and a tied CLK INH per chip, every chain input either used or tied,
and the pocket beams' draw as the firmware leaves it out of the pixels'."""

import json
from pathlib import Path

import pytest

from hal.beams import BEAM_MA
from hal.pixels import DEFAULT_BUDGET_MA
from rules.games import new_game

ROOT = Path(__file__).resolve().parent.parent
BOARDS = ("detour", "sniggle", "mehen", "snuka")  # the BOM's columns, in order
TITLES = ("Detour", "Sniggle", "Mehen", "Tiddlee Snuka")


def table_rows(path):
    """{first cell: [other cells]} of every table row in a Markdown file."""
    rows = {}
    for line in (ROOT / path).read_text().splitlines():
        if line.strip().startswith("|") and not line.strip().startswith("| ---"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            rows[cells[0]] = cells[1:]
    return rows


def bom(part):
    """The BOM's counts of the row whose part starts with ``part``, by board."""
    row = next(cells for name, cells in table_rows("hardware/bom.md").items() if name.startswith(part))
    return dict(zip(BOARDS, row))


def chain(name):
    """(inputs, chips, inputs used) of a board file's 74HC165 chain, as the firmware reads it."""
    data = json.loads((ROOT / "boards" / ("%s.json" % name)).read_text())
    game = new_game(name, data, 2)
    board = game.board
    # a game that tracks pieces reads every space's sensor; a flicking game only its buttons
    used = len(board.ids) if game.occupancy() is not None else len(board.buttons)
    return board.sensors, (board.sensors + 7) // 8, used


@pytest.mark.parametrize("name", BOARDS)
def test_the_bom_has_a_chip_a_network_and_a_tied_clk_inh_for_every_eight_inputs(name):
    inputs, chips, used = chain(name)
    assert bom("74HC165 shift registers")[name].startswith("%d (%d inputs" % (chips, inputs))
    assert bom("10 kΩ 8-way bussed resistor networks")[name] == str(chips)
    latches = 2 * len(json.loads((ROOT / "boards" / ("%s.json" % name)).read_text()).get("wheels", ()))
    assert bom("100 nF")[name] == str(chips + 1 + latches)  # and one at the level shifter, one per hall latch
    assert bom("CLK INH (pin 15)")[name] == str(chips)
    assert bom("SER (pin 10) of the last")[name] == "1"
    assert bom("chain inputs used")[name] == str(used)
    assert bom("or, for the networks: single 10 kΩ pull-ups")[name] == str(used)
    assert bom("chain inputs unused")[name].startswith("%d (" % (8 * chips - used))


@pytest.mark.parametrize("name,title", tuple(zip(BOARDS, TITLES)))
def test_the_wiring_table_counts_the_chain_of_every_board_file(name, title):
    inputs, chips, used = chain(name)
    row = table_rows("hardware/README.md")[title]
    assert row[:2] == [str(inputs), str(chips)]


def test_the_snuka_buttons_are_where_the_wiring_table_puts_them():
    data = json.loads((ROOT / "boards" / "snuka.json").read_text())
    rows = table_rows("hardware/README.md")
    names = [cell.strip("`") for cell in rows["button"]]
    inputs = [int(cell) for cell in rows["chain input"]]
    assert dict(zip(names, inputs)) == data["buttons"]
    assert rows["chip, input"] == ["%d %s" % (n // 8, "ABCDEFGH"[n % 8]) for n in inputs]


def test_the_power_budget_counts_the_pocket_beams_as_the_firmware_does():
    row = table_rows("hardware/power.md")["Tiddlee Snuka"]
    beams = 6 * BEAM_MA
    assert row[3].startswith("%d mA (the pocket beams take %d mA" % (DEFAULT_BUDGET_MA - beams, beams))
    text = (ROOT / "hardware" / "power.md").read_text()
    assert "So %d mA a pocket, %d mA for the six" % (BEAM_MA, beams) in text
    # the emitter's resistor by Ohm's law, as the BOM lists it
    assert "(5.0 − 1.2) / 180 = 21 mA" in text and bom("180 Ω resistors")["snuka"] == "6"
