"""make vpico's page without the emulator (host/pico/vpico/page.py): the Pico's
one USB port shared between the port's program (mpremote, make repl) and the
page's link, and the page's clicks done over a control socket that answers
as host/pico/vpico/main.mjs does, here a small stand-in."""

import json
import os
import socket
import threading

import pytest

from host.pico.vpico.page import PicoSession, Share
from test_live import HEADER, STEPS, following, hello, line


def share():
    ours, theirs = socket.socketpair()
    return Share(theirs, "/nonexistent/control.sock")  # (no emulator: its starts are not counted)


def test_the_page_has_its_answers_and_the_port_the_boards_own_lines():
    s = share()
    port, page = s.split(b'~{"pong": 5, "steps": 0, "sub": 1}\nplayer 1 wins\n~{"frame": "00ff')
    assert port == b"player 1 wins\n"
    assert page == b'~{"pong": 5, "steps": 0, "sub": 1}\nplayer 1 wins\n'
    assert s.page_talks()
    # the port's program sends: it has the Pico at once, and what the page held of a line goes to it
    assert s.from_port() == b'~{"frame": "00ff'
    assert not s.page_talks()
    assert s.split(b"00\n") == (b"00\n", b"")


def test_the_page_is_quiet_while_the_repl_waits_and_talks_again_once_main_py_runs():
    s = share()
    s.split(b"KeyboardInterrupt: \r\nMicroPython v1.28.0 on 2026-01-01; Raspberry Pi Pico with RP2040\r\n>")
    assert s.page_talks()  # (half a prompt)
    s.split(b">> ")  # the prompt came in two reads
    assert not s.page_talks()  # what the page sends would be typed in as Python
    s.split(b"MPY: soft reboot\r\n")
    assert s.page_talks()
    s.split(b"raw REPL; CTRL-B to exit\r\n>")
    assert not s.page_talks()


class Control:
    """A control socket that answers as host/pico/vpico/main.mjs does, keeping what it was asked."""

    def __init__(self, path):
        self.path = path
        self.asked = []
        self.refuse = False  # answer every request with an error, as a stopped emulator's would fail
        self.server = socket.socket(socket.AF_UNIX)
        self.server.bind(path)
        self.server.listen()
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return  # (closed: the test is over)
            with conn:
                ask = json.loads(conn.makefile().readline())
                self.asked.append(ask)
                answer = {"error": "refused"} if self.refuse else {"until_ms": 1200}
                conn.sendall((json.dumps(dict(answer, now_ms=1000, board_ms=1000)) + "\n").encode())


@pytest.fixture
def pico(tmp_path):
    control = Control(os.path.join(tmp_path, "control.sock"))
    follow, _ = following([])
    session = PicoSession(follow, control.path)
    follow._line(hello(len(STEPS)))
    for n, text in enumerate([HEADER] + STEPS):
        follow._line(line(n, text))
    yield session, control
    control.server.close()


def test_the_table_is_set_where_the_picos_game_has_the_pieces_once_its_record_is_read(pico):
    session, control = pico
    closed = {ask["index"] for ask in control.asked if ask["op"] == "sensor" and ask["closed"]}
    board = session.game.board
    assert closed == {board.sensor_of[s] for s, count in enumerate(session.game.occupancy()) if count}
    assert [s for s, _ in session.state()["pieces"]] == [s for s, count in enumerate(session.game.occupancy()) if count]


def test_a_click_that_makes_no_sense_says_so_and_one_the_pico_refuses_leaves_the_table_as_it_was(pico):
    session, control = pico
    for nonsense, says in [({"do": "pause"}, "cannot do 'pause'"), ({"do": "space", "n": 999}, "cannot do 'space'"),
                           ({"do": "space", "n": "1"}, "whole number"), ({"do": "turn", "n": 0, "by": 1}, "cannot do")]:
        with pytest.raises(ValueError, match=says):
            session.act(nonsense)
    start = next(s for s, _ in session.state()["pieces"])
    session.act({"do": "space", "n": start})  # lifted
    assert session.state()["hand"] and control.asked[-1] == {"op": "sensor", "index": session.game.board.sensor_of[start],
                                                              "closed": False}
    before = session.state()
    control.refuse = True
    with pytest.raises(ValueError, match="refused"):
        session.act({"do": "space", "n": start})  # put back: the Pico does not take it
    assert session.state() == before
    control.refuse = False
    session.act({"do": "button", "n": 0, "down": True})
    assert session.state()["buttons"] == [True, False]
    session.act({"do": "button", "n": 0, "down": False})
    assert control.asked[-2:] == [{"op": "status"}, {"op": "release", "role": "die1", "at_ms": 1040}]  # a click at least
