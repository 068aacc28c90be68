"""The parts list a maker orders from, hardware/bom.csv, agrees with the board files
(its counts), with hardware/parts.json (the parts the checks compute with) and with
the table of hardware/bom.md."""

import csv
import json
import math
import re
from pathlib import Path

import pytest

from host.hardware.fields import read_parts

HARDWARE = Path(__file__).resolve().parent.parent / "hardware"
BOARDS = ("detour", "sniggle", "mehen", "snuka")
PARTS = read_parts()


def bom():
    with open(HARDWARE / "bom.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    return {row["mpn"]: row for row in rows}


def count(row, board):
    return int(row[board])


def board(name):
    return json.loads((HARDWARE.parent / "boards" / (name + ".json")).read_text())


def test_every_part_has_a_number_an_alternative_or_a_maker_and_a_figure():
    rows = bom()
    with open(HARDWARE / "bom.csv", newline="") as f:
        assert len(list(csv.DictReader(f))) == len(rows), "a part number is listed twice"
    for mpn, row in rows.items():
        assert row["figure the design relies on"], mpn
        assert row["alternative"] or row["manufacturer"].startswith("("), mpn
        assert any(count(row, b) for b in BOARDS), "%s is on no board" % mpn


@pytest.mark.parametrize("name", BOARDS)
def test_the_counts_follow_the_board_file(name):
    rows, data = bom(), board(name)
    chips = math.ceil(data["sensors"] / 8)
    latches = 2 * len(data.get("wheels", ()))
    reeds = data["sensors"] if PARTS["boards"][name].get("reeds") is not False else 0
    assert count(rows["WS2812B"], name) == data["pixels"]
    assert count(rows["SN74HC165N"], name) == chips
    assert count(rows["4609X-101-103LF"], name) == chips
    assert count(rows["C320C104K5R5TA"], name) == chips + 1 + latches
    assert count(rows[PARTS["reed"]["mpn"]], name) == reeds
    assert count(rows[PARTS["hall_latch"]["mpn"]], name) == latches
    assert count(rows["disc %g x %g mm N35 axial" % (3, 1.5)], name) == 2 * latches


@pytest.mark.parametrize("name", [n for n in BOARDS if PARTS["boards"][n].get("reeds") is not False])
def test_the_piece_magnet_the_check_computes_with_is_the_one_listed(name):
    magnet = PARTS["boards"][name].get("piece_magnet", PARTS["piece_magnet"])
    row = bom()["disc %g x %g mm N35 axial" % (magnet["diameter"], magnet["height"])]
    assert count(row, name) > 0


def test_the_parts_of_the_simulations_are_the_ones_listed():
    rows = bom()
    code = PARTS["code_magnet"]
    assert "disc %g x %g mm N35 axial" % (code["diameter"], code["height"]) in rows
    assert PARTS["power"]["soft_start"]["mosfet"] in rows
    assert any(PARTS["power"]["data"]["driver"] in mpn for mpn in rows)


def table_rows():
    """bom.md's table: each part's text and its counts per board (the first number of a cell, 0 for a dash)."""
    out = []
    for line in (HARDWARE / "bom.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0] not in ("part", "---"):
            out.append((cells[0], [int(re.match(r"\d+", c).group()) if c[0].isdigit() else 0 for c in cells[1:]]))
    return out


def test_bom_md_gives_the_lists_counts_for_every_part_it_names():
    rows, named = bom(), set()
    for text, counts in table_rows():
        for mpn, row in rows.items():
            if mpn in text:
                named.add(mpn)
                assert counts == [count(row, b) for b in BOARDS], "bom.md's %r against bom.csv's %s" % (text[:50], mpn)
    for must in ("WS2812B", "SN74HC165N", PARTS["reed"]["mpn"], PARTS["hall_latch"]["mpn"], "AO3401A"):
        assert must in named, "bom.md does not name %s" % must
