"""The magnet check (host/hardware/fields.py, make hardware): every piece closes its own reed
and nothing else, and the wheels' code magnets set their latches, with the margin
hardware/parts.json asks, on the boards as their files lay them out."""

import copy
import os

import pytest

from host import ROOT
from host.hardware import fields

PARTS = fields.read_parts()
SENSED = [name for name, spec in PARTS["boards"].items() if spec.get("reeds") is not False]


@pytest.mark.parametrize("name", SENSED)
def test_every_margin_of_the_board_is_kept(name):
    short = [(what, worst, where, round(margin, 2)) for what, worst, where, margin in fields.checks(name, PARTS)
             if margin < PARTS["margin"]]
    assert not short, "%s: under %gx: %s" % (name, PARTS["margin"], short)


def test_a_start_stack_closes_the_reed_beside_it_when_that_reed_lies_along_the_row():
    parts = copy.deepcopy(PARTS)
    del parts["boards"]["detour"]["turn_beside"]
    [(_, _, foreign, source)] = fields.Board("detour", parts).reed_checks(only=("c1",))
    assert foreign > PARTS["reed"]["pull_in_AT"][0] and source == "8 on d1", (foreign, source)


def test_a_stronger_piece_magnet_on_mehen_closes_the_neighbours_reeds():
    parts = copy.deepcopy(PARTS)
    parts["boards"]["mehen"]["piece_magnet"] = parts["piece_magnet"]  # the 6 x 3 mm magnet of the other boards
    margins = {what: margin for what, _, _, margin in fields.checks("mehen", parts)}
    assert margins["other magnets leave a reed open"] < 1


def test_the_docs_name_the_parts_the_check_computes_with():
    for doc in ("bom.md", "wheels.md"):
        with open(os.path.join(ROOT, "hardware", doc)) as f:
            text = f.read()
        for part in ("reed", "hall_latch"):
            assert PARTS[part]["mpn"] in text, "%s does not name %s" % (doc, PARTS[part]["mpn"])


def test_the_reeds_wheels_md_names_as_turned_are_the_ones_the_check_turns():
    detour = {sid: round(angle) for sid, _, _, angle in fields.reed_table("detour", PARTS)}
    assert {sid: a for sid, a in detour.items() if a != 0} == {"c1": 90, "e1": 270, "a5": 180}
    mehen = fields.Board("mehen", PARTS)
    turned = [mehen.spaces[i][0] for i in range(len(mehen.spaces))
              if abs(mehen.reed(i)[0] @ mehen._default(mehen.spaces[i][2])) < 0.99]
    assert turned == ["2", "19", "20"]
