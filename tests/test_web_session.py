"""What the browser simulator's panel tells the players (host/web/session.py):
the next thing to do, calmly, and a mistake only when it is one."""

import json
from pathlib import Path

import pytest

from hal.simulated import Bytes
from host.web import layout
from host.web.session import Session, create
from rules.games import new_game

ROOT = Path(__file__).resolve().parent.parent


def session(name, **kw):
    game = new_game(name, json.loads((ROOT / "boards" / ("%s.json" % name)).read_text()), 2)
    return Session(game, ["human", "human"], **kw)


def test_a_wheel_still_turning_is_not_called_a_mistake():
    s = session("detour")
    try:
        s.rig.sim.turn(0, 1)
        s.rig.run(50)  # the turn has not settled yet
        assert s._instruction() == "A wheel is turning: the board follows it once the wheel rests."
        s.rig.run(1500)  # settled, and no star gave the right to turn it
        assert s._instruction() == "The board differs from the game: turn wheel 1 back."
    finally:
        s.close()


def test_pieces_brought_into_play_are_asked_for_by_name():
    s = session("detour")
    try:
        assert s._instruction() == "Player 1: press a die button to roll."
        s.rig.press(0)
        s.rig.run(1000)
        assert s._instruction().startswith("Put the pieces on their START: ")
    finally:
        s.close()


def test_a_board_without_sensors_is_played_with_button_1():
    s = session("detour", sensors=False, urandom=Bytes([0, 2]))  # dice 1 and 3
    try:
        with s.lock:  # the session's clock waits while the test presses
            d1 = s._game.board.space("d1")
            with pytest.raises(ValueError, match="no piece sensors: button 1 shows the next move"):
                s.click_space(d1)
            s.rig.press(0)
            s.rig.run(1000)
            s._watch()
            assert s._instruction() == "Player 1: click button 1 for the next choice, hold it to confirm this one."
            assert s.state()["picked"] == "a1: piece 1a moves 1: d1 -> e1"  # the first legal move, on button 1
            s.rig.press(0)
            assert s.state()["picked"] == "a3: piece 1a moves 3: d1 -> g1"
            s.rig.hold(0)
            s._watch()
            assert s.lines[-1] == '{"play": "a3"}' and s.state()["hand"] == []
            # nobody lifted anything: the pieces stand where the game has them, piece 1a on g1 now
            shown = s.state()["pieces"]
            assert shown == [[n, stack] for n, stack in enumerate(layout.pieces(s.rig.game)) if stack]
            assert [s._game.board.ids[n] for n, _ in shown] == ["a4", "g1"]
    finally:
        s.close()


def test_tiddlee_snuka_without_sensors_shows_only_the_die_buttons():
    s = create("snuka", 2, None, None, sensors=False)
    try:
        board = json.loads(s.news["board"][1].decode().split("data: ", 1)[1])
        assert board["buttons"] == [] and board["sensors"] is False
        with pytest.raises(ValueError, match="cannot do 'panel'"):
            s.act({"do": "panel", "n": 0, "down": True})
    finally:
        s.close()


def test_the_sensors_setting_must_be_true_or_false():
    with pytest.raises(Exception, match="sensors: true for a board with piece sensors"):
        create("detour", 2, None, None, sensors="no")


def test_each_lit_space_says_what_its_light_asks_for():
    s = session("detour", urandom=Bytes([0, 2]))  # dice 1 and 3
    try:
        with s.lock:
            ids = s._game.board.ids
            s.rig.press(0)
            s.rig.run(1000)
            assert [[ids[n], meaning] for n, meaning in s.state()["lights"]] == [
                ["d1", "put a piece here (amber, blinking)"], ["a4", "put a piece here (amber, blinking)"]]
            s.rig.put("d1")
            s.rig.put("a4")
            s.rig.lift("d1")
            s.rig.put("c1")  # behind the piece: no move leads there
            lights = {ids[n]: meaning for n, meaning in s.state()["lights"]}
            assert lights == {"d1": "the lifted piece came from here", "a4": "a piece that may move (breathing)",
                              "c1": "wrong: no piece belongs here (red, fast blink)",
                              "e1": "the lifted piece may go here (white)", "g1": "the lifted piece may go here (white)"}
    finally:
        s.close()
