"""make live's side of the USB line protocol (host/pico/live.py,
hardware/usb-protocol.md): the record kept without gaps or duplicates
across reconnections, and the news the page is sent. The board's lines are
written here as the protocol's document gives them."""

import json
import os
import time
import tomllib

import pytest
import serial

from app.link import FIRMWARE
from hal.pixels import Pixels
from host.boardfile import read_board
from host.fuzz.pull import Board
import host.pico.live
from host.pico.live import Follow, LiveSession
from host.sim.screen import wire_colours
from rules.games import new_game
from rules.record import header

HEADER = json.dumps(header(new_game("sniggle", read_board("sniggle"), 2)))
STEPS = ['{"roll": "2,1"}', '{"roll": "5,2"}', '{"roll": "4,3"}', '{"play": "3:3>d2"}']


class Port:
    """The PC's end of the serial port: what was written to the board."""

    def __init__(self):
        self.written = []

    def write(self, data):
        self.written.append(data.decode())


def hello(steps):
    return ('~{"hello": 1, "firmware": "0.1.0", "record": 1, "game": "sniggle", "board": "sniggle", "players": 2, '
            '"options": %s, "pixels": 195, "offsets": [1, 0, 2], "budget": 450, "steps": %d, "sub": false}'
            % (json.dumps(json.loads(HEADER)["options"]), steps)).encode()


def line(n, text):
    return b'~{"n": %d, "line": %s}' % (n, text.encode())


def said(live):
    """What the page's status says now."""
    return json.loads(live.news["state"][1].split(b"data: ", 1)[1])["say"]


def following(lines):
    """A Follow that has just (re)connected, holding ``lines``, and its port."""
    follow = Follow("/dev/null")
    follow._serial = port = Port()
    follow.lines = list(lines)
    follow.hello = json.loads(hello(len(lines) - 1)[1:]) if lines else None
    return follow, port


def test_after_a_reconnection_the_record_goes_on_from_the_last_line_kept():
    follow, port = following([HEADER] + STEPS[:2])
    follow._line(hello(4))
    assert follow.connected and port.written == ["~sub 2\n"]  # the last line kept comes again first
    for n in range(2, 5):
        follow._line(line(n, ([HEADER] + STEPS)[n]))
    follow._line(line(3, STEPS[2]))  # a line sent twice (bytes left in the port from before the cable went)
    assert follow.lines == [HEADER] + STEPS


def test_a_new_game_begun_while_disconnected_starts_the_record_again():
    follow, port = following([HEADER] + STEPS)
    follow._line(hello(2))
    follow._line(line(4, '{"roll": "6,6"}'))  # not the game's line 4: it is another game
    assert follow.lines == [] and port.written[-1] == "~sub 0\n"
    other = [HEADER, '{"roll": "1,1"}', '{"roll": "6,6"}']
    for n, text in enumerate(other):
        follow._line(line(n, text))
    assert follow.lines == other


def test_the_page_is_sent_the_board_the_record_whose_turn_and_the_frame_the_board_sent():
    follow, _ = following([])
    live = LiveSession(follow)
    follow._line(hello(4))
    for n, text in enumerate([HEADER] + STEPS):
        follow._line(line(n, text))
    sent = []
    pixels = Pixels(195, sent.append)
    pixels.set(0, 255, 0, 0)
    pixels.set(194, 0, 0, 255)
    pixels.show()
    follow._line(b'~{"frame": "%s", "t": 5000}' % bytes(sent[0]).hex().encode())
    news = {kind: json.loads(event.split(b"data: ", 1)[1]) for kind, (_, event, _) in live.news.items()}
    assert news["board"]["game"] == "sniggle" and news["board"]["pixels"] == 195
    assert [step["step"] for step in news["record"]["steps"]] == [json.loads(t).popitem()[1] for t in STEPS]
    assert news["state"]["actor"] == 1 and news["state"]["phase"] == "decide"
    assert news["state"]["say"] == "Live from the board: player 2 moves. Step 4."
    colours = wire_colours(sent[0])
    assert news["frame"]["pixels"] == "".join("%02x%02x%02x" % c for c in colours)
    assert colours[0][0] > 0 and colours[194][2] > 0
    # the board went away: the page says so
    follow._lost(serial.SerialException("device reports readiness to read but returned no data (device disconnected "
                                        "or multiple access on port?)"))
    assert said(live) == ("The board went away (the USB cable was pulled or the board restarted): trying again "
                          "every 1 s.")


def test_the_board_says_the_version_the_project_has():
    """A spectator's page and a pulled record name the firmware by this number: it is the release's."""
    with open(os.path.join(os.path.dirname(__file__), "..", "pyproject.toml"), "rb") as f:
        assert FIRMWARE == tomllib.load(f)["project"]["version"]


# ---- a misbehaving board --------------------------------------------------------------

def board(hello_line, lines=(), line_answer=line):
    """A board sending ``hello_line`` and the record ``lines``."""
    def answers(request):
        words = request.split()
        if words[0] == "hello":
            return [hello_line]
        if words[0] == "sub":
            return [b'~{"sub": %s}' % words[1].encode()] + [line_answer(n, t) for n, t in enumerate(lines)
                                                           if n >= int(words[1])]
        if words[0] == "ping":
            return [b'~{"pong": 1, "steps": %d, "sub": 1}' % (len(lines) - 1)]
        return []
    return answers


def pulled(monkeypatch, tmp_path, capsys, answers, wait_s=30.0):
    """make pull from a board answering ``answers``: (exit status, what it printed on stderr)."""
    import host.pico.live

    monkeypatch.setattr(host.pico.live, "_open", lambda port: Board(answers))
    real = host.pico.live.pull
    monkeypatch.setattr(host.pico.live, "pull", lambda port, out: real(port, out, wait_s))
    code = host.pico.live.main(["--pull", "--out", str(tmp_path)])
    return code, capsys.readouterr().err


@pytest.mark.parametrize("broken, says", [
    (b'"steps": 4, ', "the board's hello has no field 'steps'"),
    (b'"steps": 4, ', "the board's hello has field 'steps' as \"x\""),
    (b'"game": "sniggle", ', "the board's hello has no field 'game'"),
])
def test_make_pull_turns_a_malformed_hello_into_one_line_and_exit_1(monkeypatch, tmp_path, capsys, broken, says):
    text = hello(4).replace(broken, b"" if "no field" in says else b'"steps": "x", ')
    started = time.monotonic()
    code, err = pulled(monkeypatch, tmp_path, capsys, board(text, [HEADER] + STEPS))
    assert code == 1 and err == "error: %s: flash the firmware again (make flash)\n" % says
    assert time.monotonic() - started < 5  # at once, not after the wait for the record


def test_make_pull_names_a_damaged_record_line_the_board_reports(monkeypatch, tmp_path, capsys):
    def damaged(n, text):
        return b'~{"n": 2, "error": "record line 2 is damaged"}' if n == 2 else line(n, text)

    code, err = pulled(monkeypatch, tmp_path, capsys, board(hello(4), [HEADER] + STEPS, damaged))
    assert code == 1 and err.startswith("error: the board's record line 2 is damaged on its flash")


def test_a_wait_for_the_record_that_times_out_names_what_the_board_sent(monkeypatch, tmp_path, capsys):
    def raw(n, text):  # as firmware before the named error sent a damaged line: not JSON
        return b'~{"n": 2, "line": {"roll": "3,5\xff\x00 garbage}' if n == 2 else line(n, text)

    code, err = pulled(monkeypatch, tmp_path, capsys, board(hello(4), [HEADER] + STEPS, raw), wait_s=1.5)
    assert code == 1 and err.startswith("error: the board did not send its record within 1.5 s: 2 of its 5 record "
                                        "lines came; the last line it sent that was not JSON: "
                                        "b'~{\"n\": 2, \"line\": {\"roll\": \"3,5\\xff\\x00 garbage}'\n")


def test_make_pull_copies_a_good_record_and_its_save(monkeypatch, tmp_path, capsys):
    code, _ = pulled(monkeypatch, tmp_path, capsys, board(hello(4), [HEADER] + STEPS))
    assert code == 0 and (tmp_path / "game-sniggle.jsonl").read_text() == "".join(t + "\n" for t in [HEADER] + STEPS)


def test_a_new_game_with_the_same_header_is_told_by_its_steps_going_back():
    follow, port = following([HEADER] + STEPS)
    follow._line(hello(1))  # the board's game has one step: not the four kept here
    assert follow.lines == [] and port.written == ["~sub 0\n"]
    follow, port = following([HEADER] + STEPS)
    follow._line(hello(4))
    follow._line(b'~{"pong": 5, "steps": 2, "sub": 1}')  # a new game begun while following
    assert follow.lines == [] and port.written[-1] == "~sub 0\n"


def test_the_last_line_of_a_lossy_stream_is_asked_for_again():
    follow, port = following([HEADER] + STEPS[:2])
    follow._line(hello(2))
    follow._line(b'~{"pong": 5, "steps": 3, "sub": 1}')  # line 3 went out and was lost: no line after it comes
    follow._line(b'~{"pong": 6, "steps": 3, "sub": 1}')
    assert port.written[-1] == "~sub 2\n"
    follow._line(line(2, STEPS[1]))
    follow._line(line(3, STEPS[2]))
    assert follow.lines == [HEADER] + STEPS[:3]


# ---- what the page says, and what the board is left with -------------------------------------

def test_a_page_opened_before_any_board_answers_is_told_at_once_where_it_is_looked_for():
    live = LiveSession(Follow("/dev/ttyACM0"))
    (kind, _, event, _), = live.updates({}, wait=0)  # the first news, at once
    assert kind == "state"
    assert said(live) == ("Looking for the board on /dev/ttyACM0 … trying again every 1 s. If it does not answer: "
                          "check the USB cable; a board without the firmware needs make flash; a terminal, make repl "
                          "or Thonny holding the port keeps the board from answering.")
    live.follow._lost(serial.SerialException(2, "could not open port /dev/ttyACM0: [Errno 2] No such file or directory"))
    assert said(live).startswith("Looking for the board on /dev/ttyACM0 (no such port: the board is not plugged in, "
                                 "or is on another port) … trying again every 1 s.")


@pytest.mark.parametrize("err, why", [
    (OSError(5, "Input/output error"), "the USB cable was pulled or the board restarted"),
    (serial.PortNotOpenError(), "the port was closed on this PC"),
    (serial.SerialTimeoutException("Write timeout"), "the board stopped reading what this PC sends"),
    (host.pico.live.Lost("it restarted"), "it restarted"),
    (ValueError("byte must be in range(0, 256)"), "the port failed in a way this program does not know"),
])
def test_a_loss_is_said_in_words_of_ours_and_the_libraries_own_go_to_stderr(capsys, err, why):
    follow, _ = following([HEADER])
    live = LiveSession(follow)
    follow._line(hello(0))
    follow._lost(err)
    follow._lost(serial.SerialException(2, "could not open port: no such file"))  # a try since does not change it
    assert said(live) == "The board went away (%s): trying again every 1 s." % why
    assert capsys.readouterr().err == ("" if why != "the port failed in a way this program does not know" else
                                       "make live: the port failed: ValueError: byte must be in range(0, 256)\n")


class Recording(Board):
    """A board on a simulated port that keeps what the PC wrote to it."""

    def __init__(self, answers, first=b""):
        super().__init__(answers)
        self.out = first  # what was on its way when the port opened
        self.written = b""

    def write(self, data):
        self.written += data
        super().write(data)


def followed(board, until):
    follow = Follow("/dev/ttyACM0", opener=lambda port: board).start()
    deadline = time.monotonic() + 5
    while not until(follow):
        assert time.monotonic() < deadline, "the board was not followed"
        time.sleep(0.01)
    follow.close()
    return follow


def test_a_line_cut_short_never_reaches_the_board_log():
    def answers(request):
        if request.startswith("sub"):  # a frame the board's own text was printed into, and a log line after it
            return [b'~{"sub": 0}', b'~{"frame": "0010player 1 wins', b'0102", "t": 47964}', b"new game"]
        return board(hello(0), [HEADER])(request)

    # the port opens while the board is in the middle of a line
    follow = followed(Recording(answers, b'0010201010", "t": 47964}\n'), lambda f: f.notes)
    assert follow.notes == ["new game"]


def test_the_board_is_told_when_the_pc_stops_following():
    port = Recording(board(hello(4), [HEADER] + STEPS))
    followed(port, lambda f: len(f.lines) == 5)
    assert port.written.endswith(b"~unsub\n")


def test_make_live_unsubscribes_when_it_stops(monkeypatch):
    import host.sim.web.server

    port = Recording(board(hello(4), [HEADER] + STEPS))

    class Server:
        url = "http://127.0.0.1:8000/"

        def follow_live(self, live):
            self.live = live

    def serve(host, web_port, again, begin):  # until Ctrl-C, once the record came
        server = Server()
        begin(server)
        while len(server.live.lines) < 5:
            time.sleep(0.01)
        return 0

    monkeypatch.setattr(host.pico.live, "_open", lambda port_name: port)
    monkeypatch.setattr(host.sim.web.server, "serve", serve)
    assert host.pico.live.main([]) == 0 and port.written.endswith(b"~unsub\n")


def test_make_live_refuses_a_web_port_given_as_the_boards(capsys):
    assert host.pico.live.main(["--port", "8933"]) == 1
    assert capsys.readouterr().err == ("error: PORT= is the board's serial port (e.g. /dev/ttyACM0); the web page's "
                                       "port is WEB_PORT=8933\n")


def test_make_pull_with_no_board_ends_in_a_few_seconds(monkeypatch, tmp_path, capsys):
    def no_port(port):
        raise serial.SerialException(2, "could not open port %s: [Errno 2] No such file or directory" % port)

    monkeypatch.setattr(host.pico.live, "_open", no_port)
    started = time.monotonic()
    assert host.pico.live.main(["--pull", "--port", "/dev/ttyACM0", "--out", str(tmp_path)]) == 1
    assert time.monotonic() - started < 6
    assert capsys.readouterr().err == (
        "error: no board on /dev/ttyACM0 (no such port: the board is not plugged in, or is on another port): check "
        "the USB cable; a board without the firmware needs make flash; a terminal, make repl or Thonny holding the "
        "port keeps the board from answering\n")
