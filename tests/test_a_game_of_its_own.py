"""A game written outside the firmware and the simulators, in files of its
own (``tests/plugin_dash``: Dash, two pieces each racing along a line), is
registered and then played to its end by the same controller on the
simulated board, in the terminal simulator and in the browser's session and
server, with no other file knowing it."""

import io
import json
import os
import random
import re
import time

import plugin_dash
import pytest
from app.keeper import Keeper
from host.boardfile import read_board
from host.rig import Bytes, Rig
from host.sim.terminal import Table, main
from host.sim.web import layout
from host.sim.web.session import Session, create
from rules import games
from rules.core import OVER
from rules.playout import Rng
from rules.record import replay
from test_web_server import ask, post, serving

pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True)
def dash():
    """Dash known to the registry, the board files and the views for one test, and forgotten after it."""
    plugin_dash.register()
    try:
        yield
    finally:
        plugin_dash.register(False)


def new_dash(players=2, options=None):
    return games.new_game("dash", read_board("dash"), players, options)


def test_it_is_offered_beside_the_firmwares_games_and_gone_once_forgotten():
    assert games.OFFERED[-1] == "dash" and "dash" in games.GAMES
    assert type(new_dash()).__module__ == "plugin_dash.game"
    plugin_dash.register(False)
    assert "dash" not in games.GAMES + games.OFFERED
    plugin_dash.register()


def test_the_controller_plays_it_to_the_end_on_the_simulated_board(tmp_path):
    game = new_dash(3)
    keeper = Keeper(str(tmp_path) + os.sep)
    keeper.begin(game, ())
    rng = Rng(5)
    rig = Rig(game, Bytes([rng.below(256) for _ in range(512)]), keeper=keeper)
    for _ in range(2000):
        if rig.game.over():
            break
        legal = rig.game.legal()
        rig.act(legal[rng.below(len(legal))] if legal else None)
    assert rig.game.phase == OVER and rig.game.home(rig.game.winner) == 2
    assert not rig.snap.disagrees and rig.ctl.faults == 0
    with open(keeper.record_path) as f:  # the board's record replays to its game
        assert replay(f, read_board).save() == rig.game.save()


# -- the terminal ----------------------------------------------------------------------


def test_a_person_plays_it_to_the_end_in_the_terminal():
    t = Table(new_dash(), Bytes(random.Random(2).randbytes(256)), [None, None])
    said = []
    for _ in range(1000):
        frame = t.frame()
        said.append(frame)
        if t.game.over():
            break
        move = re.search(r"legal: ([ab]) (\S+)->([^,\s]+)", frame)
        if "roll the dice with r" in frame:
            command = "r"
        elif "first put the board as the game has it" in frame:
            command = "fix"  # a piece sent back goes onto START
        elif "cannot tell which piece that was" in frame:
            command = "pick " + move.group(1)  # both pieces from START to the same space look alike
        else:
            command = "m %s %s" % move.group(2, 3)
        assert t.command(command) == (True, ""), (command, frame)
    assert t.game.over() and "has both pieces on FINISH and wins!" in said[-1]
    assert re.search(r"player 1 rolls \d", said[1]) and "dice " in said[1]
    assert any("is sent back from" in text for text in said)


def test_the_chooser_offers_it_and_a_watched_game_ends():
    text = io.StringIO()
    assert main([], input=io.StringIO("5\n\n\n\n\nr\nq\n"), output=text, urandom=Bytes((3,))) == 0
    text = text.getvalue()
    assert "  5  Dash" in text and "exact_finish=false" in text and "Dash, 2 players (person, person)" in text
    assert "player 1 rolls 4" in text and "legal: a S->4" in text
    watched = io.StringIO()
    assert main(["--game", "dash", "--seed", "4", "--quiet", "--plain", "--players", "3"], output=watched) == 0
    assert re.search(r"player \d wins after \d+ turns", watched.getvalue())


# -- the browser -----------------------------------------------------------------------


def click_through(s, meaning):
    """Click the first space the panel's lights give ``meaning``; whether there was one."""
    for space, said in s.state()["lights"]:
        if said.startswith(meaning):
            s.act({"do": "space", "n": space})
            s.advance(600)
            return True
    return False


def test_a_person_plays_it_to_the_end_against_a_computer_in_the_browsers_session():
    game = new_dash()
    s = Session(game, ["human", "random"], urandom=random.Random(3).randbytes, speed="fast", running=False)
    try:
        for _ in range(3000):
            state = s.state()
            if state["phase"] == "over":
                break
            say = state["say"]
            if say.startswith("Player 1: press a die button"):
                s.act({"do": "button", "n": 0, "down": True})
                s.advance(100)
                s.act({"do": "button", "n": 0, "down": False})
            elif say.startswith("Player 1: lift a glowing piece"):
                assert click_through(s, "a piece that may move")
                assert click_through(s, "the lifted piece may go here")
            elif "differs" in say or say.startswith("Put the pieces"):
                while s.hand or click_through(s, "put a piece here") or click_through(s, "wrong"):
                    if s.hand and not click_through(s, "put a piece here"):
                        s.act({"do": "put_away"})
            s.advance(600)
        state = s.state()
        assert state["phase"] == "over" and state["winners"] and s.rig.ctl.faults == 0
        assert state["standings"][state["winners"][0]] == "2 of 2 on FINISH"
        story = [said for step in s.story for said in step["says"]]
        assert any("dashes" in said for said in story) and "wins!" in story[-1]
    finally:
        s.close()


def test_the_server_offers_it_and_computers_play_it_to_the_end():
    with serving(urandom=random.Random(4).randbytes) as server:
        code, catalogue = ask(server, b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
        dash = next(g for g in catalogue["games"] if g["name"] == "dash")
        assert code == 200 and dash["display"] == "Dash" and dash["min_players"] == 2
        assert dash["options"] == [{"name": "exact_finish", "default": False,
                                    "note": "FINISH needs the exact roll; off: a roll past it ends there"}]
        body = json.dumps({"game": "dash", "players": 2, "seats": ["random", "random"], "speed": "instant"})
        code, made = ask(server, post(b"/api/sessions", body.encode()))
        assert code == 200, made
        s = server.sessions[made["id"]]
        deadline = time.monotonic() + 60
        while s.rig.game.phase != OVER and time.monotonic() < deadline:
            time.sleep(0.05)
        assert s.rig.game.phase == OVER and s.rig.ctl.faults == 0
        assert layout.board_layout(s.rig.game)["look"]["tiles"] == "square"
        assert layout.roll_text(s.rig.game, (5,)) == "5"
        with open(s.keeper.record_path) as f:
            assert replay(f, read_board).save() == s.rig.game.save()


def test_a_session_made_as_the_page_asks_takes_its_options():
    s = create("dash", 2, ["human", "human"], {"exact_finish": True}, running=False)
    try:
        assert s.rig.game.options == {"exact_finish": True}
    finally:
        s.close()
