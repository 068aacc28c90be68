"""The magnet check (host/fields.py, make hardware): every piece closes its own reed
and nothing else, and the wheels' code magnets set their latches, with the margin
hardware/parts.json asks, on the boards as their files lay them out."""

import copy
import os

import pytest

from host import ROOT
from host import fields

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
    rows = {sid: foreign for sid, _, foreign, _ in fields.Board("detour", parts).reed_checks()}
    assert rows["c1"] > PARTS["reed"]["pull_in_AT"][0], "eight pieces on d1 stay under the reed of c1 beside it"


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
