"""make live's side of the USB line protocol (host/live.py,
hardware/usb-protocol.md): the record kept without gaps or duplicates
across reconnections, and the news the page is sent. The board's lines are
written here as the protocol's document gives them."""

import json
import os
import tomllib

from app.link import FIRMWARE
from hal.pixels import Pixels
from host.boardfile import read_board
from host.live import Follow, LiveSession
from host.screen import wire_colours
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
    news = {kind: json.loads(event.split(b"data: ", 1)[1]) for kind, (_, event) in live.news.items()}
    assert news["board"]["game"] == "sniggle" and news["board"]["pixels"] == 195
    assert [step["step"] for step in news["record"]["steps"]] == [json.loads(t).popitem()[1] for t in STEPS]
    assert news["state"]["actor"] == 1 and news["state"]["phase"] == "decide"
    assert news["state"]["say"] == "Live from the board: player 2 moves. Step 4."
    colours = wire_colours(sent[0])
    assert news["frame"]["pixels"] == "".join("%02x%02x%02x" % c for c in colours)
    assert colours[0][0] > 0 and colours[194][2] > 0
    # the board went away: the page says so
    follow.connected = False
    follow.why = "the board does not answer"
    live.publish()
    assert json.loads(live.news["state"][1].split(b"data: ", 1)[1])["say"].startswith("Disconnected")


def test_the_board_says_the_version_the_project_has():
    """A spectator's page and a pulled record name the firmware by this number: it is the release's."""
    with open(os.path.join(os.path.dirname(__file__), "..", "pyproject.toml"), "rb") as f:
        assert FIRMWARE == tomllib.load(f)["project"]["version"]
