"""make pull against boards that misbehave on the USB line protocol.

Each case is a board on a simulated serial port holding a real record of a
random game, which answers the protocol (hardware/usb-protocol.md) one way
wrong: a hello mutated (fields missing, of the wrong kind, hostile values),
a record line damaged (named as an error by this firmware, sent raw and
broken by earlier firmware), a lossy line (any answer dropped, the last one
too), a line cut short, or answers in the wrong order. ``make pull``
(``host.pico.live.main``) runs against it with a short wait.

Figures: *tracebacks* (an exception escaped, or more than one line said),
*silent* (a failure said nothing, or a wait that timed out did not name what
the board sent), *wrong* (exit 0 with a record that is not the board's, or a
board that answers well in the end not pulled).
"""

import contextlib
import io
import json
import os
import random
import tempfile
import time

import host.pico.live
from host.boardfile import read_board
from host.fuzz import mutate, report, shorten
from host.fuzz.saves import SETUPS
from rules.games import find_game
from rules.playout import Rng, random_record

NAME = "pull"
CASES = 300
WAIT_S = 2 * host.pico.live.STALL_S  # the pull's wait for the record: long enough to ask again for a line lost
FIGURES = ("tracebacks", "silent", "wrong")
SHOWN = 5


class Board:
    """The board's end of the port, answering as ``answers(request)`` says (lines of bytes)."""

    def __init__(self, answers):
        self.answers = answers
        self.out = b""

    def write(self, data):
        for request in data.decode().split("\n"):
            if request.startswith("~"):
                self.out += b"".join(text + b"\n" for text in self.answers(request[1:]))

    def read(self, n):
        data, self.out = self.out[:n], self.out[n:]
        if not data:
            time.sleep(0.002)
        return data

    def close(self):
        pass


def hello(head, steps):
    return dict(head, hello=1, firmware="0.1.0", pixels=105, offsets=[1, 0, 2], budget=450, steps=steps, sub=False)


def board(lines, rng, how):
    """``answers(request)`` of a board holding the record ``lines`` that misbehaves as ``how`` says."""
    head = json.loads(lines[0])
    said = hello(head, len(lines) - 1)
    if how == "hello":
        said = mutate(said, rng, rng.choice((1, 2)))[0]
    bad = rng.randrange(len(lines))
    dropped = set()

    def line(n):
        if n == bad and how == "named":
            return b'~{"n": %d, "error": "record line %d is damaged"}' % (n, n)
        text = b'~{"n": %d, "line": %s}' % (n, lines[n].encode())
        if n == bad and how == "raw":
            text = text[:-12] + bytes(rng.randrange(256) for _ in range(8)).replace(b"\n", b"") + b"}"
        if how == "cut" and n == bad and n not in dropped:
            dropped.add(n)
            return text[:rng.randrange(1, len(text))]
        return text

    def answers(request):
        words = request.split()
        if words[0] == "hello":
            out = [b"~" + json.dumps(said).encode()]
        elif words[0] == "sub":
            out = [b'~{"sub": %s}' % words[1].encode()] + [line(n) for n in range(int(words[1]), len(lines))]
            if how == "order":
                rng.shuffle(out)
        elif words[0] == "ping":
            out = [b'~{"pong": 1, "steps": %d, "sub": 1}' % (len(lines) - 1)]
        else:
            out = []
        if how == "lossy":
            out = [text for text in out if rng.random() > 0.3]
        return out
    return answers


def one(lines, rng, how, out):
    err = io.StringIO()
    host.pico.live._open = lambda port: Board(board(lines, rng, how))
    host.pico.live.pull = lambda port, folder: real(port, folder, WAIT_S)
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            code = host.pico.live.main(["--pull", "--out", out])
    except BaseException as error:
        return "tracebacks", "%s: %s" % (type(error).__name__, shorten(str(error)))
    said = err.getvalue()
    if code != 0:
        if said.count("\n") != 1 or not said.startswith("error: "):
            return ("silent" if not said.strip() else "tracebacks"), said[:300]
        if "did not send its record" in said and "sent" not in said.split(":", 2)[-1]:
            return "silent", said[:300]
        if how in ("lossy", "cut", "order"):
            return "wrong", "a board that answers well in the end not pulled: " + said[:300]
        return None
    name = "game-%s.jsonl" % json.loads(lines[0])["board"]
    with open(os.path.join(out, name)) as f:
        if f.read() != "".join(text + "\n" for text in lines):
            return "wrong", "pulled another record"
    return None


real = host.pico.live.pull


def run(cases=CASES, seed=1):
    rng = random.Random(seed)
    steps = Rng(seed)
    records = [random_record(find_game(n)(read_board(n), p, o), steps, 30) for n, p, o in SETUPS]
    counts = dict.fromkeys(FIGURES, 0)
    saved = host.pico.live._open, host.pico.live.pull, host.pico.live.PING_S
    host.pico.live.PING_S = 0.1  # pings (and what they bring back) ten times as often: the cases end sooner
    try:
        with tempfile.TemporaryDirectory(prefix="fuzz-pull-") as out:
            for case in range(cases):
                how = ("hello", "named", "raw", "lossy", "cut", "order")[case % 6]
                failure = one(records[case % len(records)], rng, how, out)
                if failure:
                    counts[failure[0]] += 1
                    if sum(counts.values()) <= SHOWN:
                        report(NAME, (seed, case, how) + failure)
    finally:
        host.pico.live._open, host.pico.live.pull, host.pico.live.PING_S = saved
    return "%s: %s boards, %s" % (NAME, format(cases, ","), ", ".join("%d %s" % (counts[k], k) for k in FIGURES))
