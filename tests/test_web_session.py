"""The browser simulator's table (host/sim/web/session.py): what the panel tells
the players (the next thing to do, calmly, and a mistake only when it is
one), and the computer seats at the speed people choose. The board's clock
is stepped here (``advance``): times are the board's milliseconds."""

import json
import random
from pathlib import Path

import pytest

from host.boardfile import read_board
from host.rig import Bytes
from host.sim.web import layout
from host.sim.web.session import DEFAULT_SPEED, SPEEDS, Session, create
from rules.core import OVER, RulesError
from rules.games import new_game
from rules.record import replay

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent


def session(name, seats=("human", "human"), speed=DEFAULT_SPEED, seed=1, **kw):
    """A table with its clock standing still (``advance`` moves it); the dice
    and the computer seats from ``seed``."""
    game = new_game(name, json.loads((ROOT / "boards" / ("%s.json" % name)).read_text()), len(seats))
    settings = dict({"urandom": random.Random(seed).randbytes, "speed": speed, "running": False}, **kw)
    return Session(game, list(seats), **settings)


def run_until(s, done, limit_ms):
    """Advance the board until ``done()``; the board's milliseconds it took."""
    start = s.rig.now
    while not done() and s.rig.now - start < limit_ms:
        s.advance(100)
    return s.rig.now - start


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


# -- computer seats at the speed people choose ------------------------------------------------


@pytest.mark.parametrize("name", ["detour", "sniggle", "mehen", "snuka"])
def test_an_all_computer_game_ends_within_two_minutes_of_the_boards_time_at_the_default_speed(name):
    s = session(name, ("search", "search"))
    try:
        took = run_until(s, lambda: s.rig.game.phase == OVER, 600000)
        assert s.rig.game.phase == OVER and took < 120000, took
        assert s.rig.ctl.faults == 0
        with open(s.keeper.record_path) as f:  # the record is the board's, and replays to its game
            assert replay(f, read_board).save() == s.rig.game.save()
    finally:
        s.close()


def test_computer_seats_pause_after_each_step_as_long_as_the_speed_says():
    took = {}
    for speed in ("slow", "normal", "fast"):
        s = session("sniggle", ("greedy", "greedy"), speed)
        try:
            took[speed] = run_until(s, lambda: s.rig.snap.steps >= 12, 120000)
            assert s.rig.snap.steps == 12
        finally:
            s.close()
    assert took["slow"] > took["normal"] > took["fast"]
    assert took["slow"] >= 11 * SPEEDS["slow"] and took["fast"] < 12 * SPEEDS["normal"]  # a pause between each two


def test_step_by_step_a_computer_seat_acts_only_when_asked_one_step_at_a_time():
    s = session("detour", ("search", "random"), "step")
    try:
        s.advance(20000)
        assert s.keeper.steps == 0 and s.rig.sim.frames > 0  # the board runs; nobody plays
        for steps in (1, 2, 3, 4):
            s.act({"do": "next"})
            s.advance(5000)
            assert s.keeper.steps == steps
        assert not s.rig.snap.disagrees  # each step ends with the board as the game has it
        s.act({"do": "speed", "to": "fast"})
        s.advance(5000)
        assert s.keeper.steps > 6
    finally:
        s.close()


def test_a_computer_seat_names_its_tiddlee_snuka_shot_with_the_boards_own_button():
    s = session("snuka", ("greedy", "greedy"))
    try:
        times = []
        while len(times) < 20:
            times.append(run_until(s, lambda: s.keeper.steps > len(times), 20000))
        assert max(times) < 1000, times  # a shot told with one press, not clicked through choice by choice
    finally:
        s.close()


def test_a_speed_that_does_not_exist_is_refused_naming_the_field():
    with pytest.raises(RulesError, match="speed: one of slow, normal, fast, instant, step"):
        create("detour", 2, ["human", "search"], {}, speed="warp")
    s = session("detour")
    try:
        for wrong in ("warp", ["fast"], None):
            with pytest.raises(ValueError, match="to: the speed is one of slow, normal"):
                s.act({"do": "speed", "to": wrong})
        assert s.state()["speed"] == DEFAULT_SPEED
    finally:
        s.close()


def test_a_score_of_one_is_one_point():
    game = new_game("snuka", read_board("snuka"), 3)
    game.scores = [1, 0, 7]
    assert layout.standings(game) == ["1 point", "0 points", "7 points"]


def test_a_computer_seat_is_not_told_to_click():
    s = session("snuka", seats=("search", "human"), speed="step")
    try:
        assert s._instruction() == "Player 1 (computer) waits for Next step."
        s.speed = "normal"
        assert s._instruction() == "Player 1 (computer) is choosing\u2026"
    finally:
        s.close()
    s = session("mehen", seats=("random", "human"), speed="normal")
    try:
        assert s._instruction() == "Player 1 (computer) is throwing the sticks\u2026"
    finally:
        s.close()
