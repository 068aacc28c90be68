"""Tiddlee Snuka's buttons on the emulated Pico: the stock MicroPython firmware
clocks the 74HC165 chain (host/pico/vpico/parts.mjs, the datasheet's model) and a
button closed on a chain input, as boards/snuka.json wires it, picks its step.
The same presses on the simulator's board (a Rig) give the same record."""

import json

import pytest

from app.keeper import Keeper
from host.pico.vpico import VirtualPico
from host.rig import Bytes, Rig
from test_vpico import SETTLED_MS, build_dir, fresh_game, image, record, the_pico_files  # noqa: F401 (fixtures)

pytestmark = pytest.mark.pico

HOLD_MS = 80  # a quick press of a button


def input_of(game, name):
    return dict(game.board.buttons)[name]


def test_snuka_buttons_on_the_chain_pick_their_steps_on_the_pico(build_dir, tmp_path):  # noqa: F811
    game = fresh_game("snuka")
    with VirtualPico(image(build_dir, tmp_path, "snuka", game), board="snuka") as pico:
        pico.wait(SETTLED_MS - pico.now())
        at = pico.now() + 10
        # red, held for a second and a half: one pot; a foul kind and the counter that fouled;
        # that counter back on its spot; and the next player's miss
        presses = (("red", 1500), ("foul_off", HOLD_MS), ("green", HOLD_MS), ("green", HOLD_MS), ("miss", HOLD_MS))
        for name, hold in presses:
            pico.place(input_of(game, name), at=at)
            pico.lift(input_of(game, name), at=at + hold)
            at += hold + 200
        pico.wait(at + 500 - pico.now())
        ours = record(pico)
        # the simulator's board, the same presses
        (tmp_path / "rig").mkdir()
        keeper = Keeper("%s/rig/" % tmp_path)
        keeper.begin(fresh_game("snuka"))
        rig = Rig(game, Bytes([0]), keeper=keeper)
        for name, hold in presses:
            rig.button(name, hold=hold)
        theirs = (tmp_path / "rig" / "game.jsonl").read_text().splitlines()
        assert ours == theirs
        assert [json.loads(line)["play"] for line in ours[1:]] == ["R", "G!off", "@G", "miss"]
        assert pico.status()["pixel_errors"] == 0
