"""What the browser simulator's panel tells the players (host/web/session.py):
the next thing to do, calmly, and a mistake only when it is one."""

import json
from pathlib import Path

from host.web.session import Session
from rules.games import new_game

ROOT = Path(__file__).resolve().parent.parent


def session(name):
    game = new_game(name, json.loads((ROOT / "boards" / ("%s.json" % name)).read_text()), 2)
    return Session(game, ["human", "human"])


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
