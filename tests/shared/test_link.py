"""The USB line protocol (app.link, hardware/usb-protocol.md) on a simulated
board: the host's side of the serial port is a byte queue and the lines the
board wrote, the controller the real one on simulated pins."""

import json

from app.device import link_maker
from app.keeper import STRIDE, Keeper
from app.link import FRAME_GAP_MS, MAX_LINE, PAGE, PAGE_BYTES, POLL_MS, PROTOCOL, QUIET_MS, READ_PAGE, Link
from hal import storage
from host.rig import CountedFile, Rig, SerialPort
from rules.games import new_game
from rules.playout import Rng
from rules.record import header
from support import board_data, done, fresh

# the tests that break a part on purpose: the controller counts the faults (tests/conftest.py)
FAULTS_EXPECTED = ("test_a_failing_port_is_logged_and_the_game_goes_on",)


class Serial(SerialPort):
    """The port as the board sees it, and as the host reads and writes it."""

    def send(self, text):
        self.waiting += text.encode() if isinstance(text, str) else text

    def answers(self):
        """The board's lines since the last call, parsed, and its other bytes."""
        lines = bytes(self.written).split(b"\n")
        self.written[:] = lines.pop()
        out = []
        for text in lines:
            assert text[:1] == b"~", text
            out.append(json.loads(text[1:]))
        return out


class Dice:
    """A seeded urandom, the same on both interpreters."""

    def __init__(self, seed):
        self.rng = Rng(seed)

    def __call__(self, n):
        return bytes(self.rng.below(256) for _ in range(n))


class Board:
    """A Detour game on a simulated board, its record kept, the link ticking with it."""

    def __init__(self):
        self.folder = fresh()
        self.keeper = Keeper(self.folder + "/", "detour")
        game = new_game("detour", board_data("detour"), 2)
        self.keeper.begin(game)
        self.rig = Rig(game, Dice(3), keeper=self.keeper)
        self.serial = Serial()
        self.link = Link(self.rig.ctl, self.serial)
        self.shown = {}  # the Pico's ms -> the wire bytes (hex) the pixels were last sent then

    def run(self, ms):
        rig = self.rig
        end = rig.now + ms
        while rig.now < end:
            rig.now += rig.STEP_MS
            rig.ctl.tick(rig.now)
            self.shown[rig.now] = bytes(rig.ctl.ports.pixels.wire).hex()
            self.link.tick(rig.now)

    def showed(self, answer):
        """Whether a frame answer is what the pixels were sent at its time."""
        return answer["frame"] == self.shown[answer["t"]]

    def ask(self, text, ms=300):
        self.serial.send(text)
        self.run(ms)
        return self.serial.answers()

    def record(self):
        with open(self.keeper.record_path) as f:
            return [json.loads(text) for text in f]

    def close(self):
        done(self.folder)


def test_hello_names_the_protocol_the_board_and_the_game():
    b = Board()
    (hello,) = b.ask("~hello\n")
    assert hello["hello"] == PROTOCOL and hello["firmware"]
    assert {k: hello[k] for k in header(b.rig.game)} == header(b.rig.game)
    assert hello["pixels"] == b.rig.ctl.ports.pixels.count and hello["steps"] == 0 and not hello["sub"]
    b.close()


def test_lines_without_the_mark_are_left_alone_and_a_request_after_them_is_answered():
    b = Board()
    # a REPL line, mpremote's return before its Ctrl-C, a bare return, bytes that are not UTF-8
    assert b.ask("print('hi')\r\n\r\x03\r\n\n\xff\xfe hello\n") == []
    (frame,) = b.ask("~frame\r\n")
    assert b.showed(frame)
    b.close()


def test_state_and_the_record_are_what_the_controller_played_and_saved():
    b = Board()
    b.rig.press(0)  # a roll: the record's first step
    (state,) = b.ask("~state\n")
    game = b.rig.game
    assert state["state"] == game.save() and state["steps"] == 1
    assert (state["phase"], state["turn"], state["actor"]) == ("decide", game.turn, game.actor)
    lines, at = [], 0
    while at <= 1:  # a page at a time: as many lines as the USB port's buffer takes
        answers = b.ask("~record %d\n" % at)
        assert answers[-1]["steps"] == 1 and answers[-1]["record"] > at
        lines += answers[:-1]
        at = answers[-1]["record"]
    assert [a["n"] for a in lines] == [0, 1] and at == 2
    assert [a["line"] for a in lines] == b.record() and lines[0]["line"] == header(game)
    b.close()


def test_a_long_record_comes_a_page_at_a_time():
    b = Board()
    game = b.rig.game
    while b.keeper.steps < 2 * PAGE:
        b.rig.act(None if game.is_chance() else game.legal()[0])
    lines = b.record()
    got = []
    at = 0
    while at < len(lines):
        b.serial.send("~record %d\n" % at)
        b.run(300)
        page = bytes(b.serial.written)
        answers = b.serial.answers()
        # a page fits in the USB port's buffer, unless it is one line longer than that
        assert 2 <= len(answers) <= PAGE + 1 and (len(answers) == 2 or len(page) <= PAGE_BYTES + 40)
        got += [a["line"] for a in answers[:-1]]
        at = answers[-1]["record"]
    assert got == lines
    last = len(lines) - 2
    again = b.ask("~record %d\n" % last)  # back to a line far into the file
    assert [a["line"] for a in again[:-1]] == lines[last:] and again[-1]["record"] == len(lines)
    again = b.ask("~record 3\n")[:-1]  # back to an earlier line
    assert again and [a["line"] for a in again] == lines[3:3 + len(again)]
    b.close()


def test_a_subscriber_gets_each_new_record_line_and_the_changed_frames_ten_a_second_at_most():
    b = Board()
    answers = b.ask("~sub 0\n")
    assert answers[0] == {"sub": 0}
    assert b.showed(answers[1])
    assert [a["line"] for a in answers if "line" in a] == b.record()
    pushed = []
    game = b.rig.game
    for _ in range(6):
        b.rig.act(None if game.is_chance() else game.legal()[0])
        b.serial.send("~ping\n")  # the host says something now and then: the subscription holds
        b.run(300)
        pushed += b.serial.answers()
    pongs = [a for a in pushed if "pong" in a]
    assert len(pongs) == 6 and pongs[-1]["steps"] == b.keeper.steps and pongs[-1]["sub"] == 1
    lines = [a for a in pushed if "line" in a]
    assert [a["n"] for a in lines] == list(range(1, b.keeper.steps + 1))
    assert [a["line"] for a in lines] == b.record()[1:]
    frames = [a for a in pushed if "frame" in a]
    assert len(frames) > 6  # the dice tumble, the pieces breathe
    assert all(b.showed(f) for f in frames)
    assert all(later["t"] - earlier["t"] >= FRAME_GAP_MS for earlier, later in zip(frames, frames[1:]))
    assert all(a["frame"] != b2["frame"] for a, b2 in zip(frames, frames[1:]))  # only a changed frame
    b.close()


class Counting(Serial):
    """A port that counts the bytes the board wrote, allocating nothing."""

    def __init__(self):
        super().__init__()
        self.count = 0

    def write(self, data, start=0, end=None):
        self.count += (len(data) if end is None else end) - start


def test_frames_go_out_to_a_subscriber_without_allocating():
    import gc

    if not hasattr(gc, "mem_alloc"):
        return  # CPython has no allocation counter; this is a MicroPython figure
    b = Board()
    b.ask("~sub 0\n")  # the record is sent: what follows is the frames, the dice tumbling
    b.link.serial = port = Counting()
    b.run(300)  # (the first frame to this port sets up what the interpreter keeps for later calls)
    port.send("~ping\n")  # the subscription kept, as a host keeps it
    b.run(100)  # (answered between two frames: parsing a request allocates)
    rig = b.rig
    sent = port.count
    allocated = 0
    for _ in range(400 // rig.STEP_MS):
        rig.now += rig.STEP_MS
        rig.ctl.tick(rig.now)  # (the controller's own figure is test_controller's)
        before = gc.mem_alloc()
        b.link.tick(rig.now)
        allocated += gc.mem_alloc() - before
    assert allocated == 0
    assert port.count - sent >= 3 * 2 * len(rig.ctl.ports.pixels.wire)  # three frames at least, in hex
    b.close()


def test_a_subscriber_catches_up_with_a_long_record_without_allocating():
    import gc

    if not hasattr(gc, "mem_alloc"):
        return  # CPython has no allocation counter; this is a MicroPython figure
    b = Board()
    game = b.rig.game
    while b.keeper.steps < 4 * PAGE:
        b.rig.act(None if game.is_chance() else game.legal()[0])
    b.link.serial = port = Counting()
    port.send("~sub 0\n")
    rig = b.rig
    for _ in range(6 * POLL_MS // rig.STEP_MS):  # the request answered, the record opened, its first pages sent
        rig.now += rig.STEP_MS
        rig.ctl.tick(rig.now)
        b.link.tick(rig.now)
    sent = port.count
    allocated = 0
    for _ in range(10 * POLL_MS // rig.STEP_MS):
        rig.now += rig.STEP_MS
        rig.ctl.tick(rig.now)
        before = gc.mem_alloc()
        b.link.tick(rig.now)
        allocated += gc.mem_alloc() - before
    assert allocated == 0
    assert port.count - sent >= 5 * 20  # record lines went out meanwhile
    b.close()


def test_the_link_answers_and_pages_on_no_tick_on_which_the_controller_sent_a_frame():
    # painting and sending a frame is the controller's longest work, a page of the
    # record the link's: on one tick together they would hold the loop past its 10 ms
    # (a piece of the link's own frame, a fraction of a ms, may go out beside it)
    b = Board()
    game = b.rig.game
    while b.keeper.steps < 2 * PAGE:
        b.rig.act(None if game.is_chance() else game.legal()[0])
    b.serial.answers()
    b.serial.send("~sub 0\n")
    rig = b.rig
    drawn = 0
    answers = []
    for k in range(1, 1500 // rig.STEP_MS):
        rig.now += rig.STEP_MS
        rig.ctl.tick(rig.now)
        if k % (200 // rig.STEP_MS) == 0:
            b.serial.send("~ping\n")  # the subscription kept
        before = len(b.serial.written)
        b.link.tick(rig.now)
        if rig.snap.drew:
            drawn += 1
            sent = bytes(b.serial.written[before:])
            assert not any(word in sent for word in (b'"n": ', b'"pong"', b'"record"', b'"sub"'))
        answers += b.serial.answers()
    assert drawn >= 10  # the pieces breathed and the frames went out meanwhile
    lines = [a["n"] for a in answers if "n" in a]
    assert lines == list(range(b.keeper.steps + 1))  # the whole record all the same
    assert [a for a in answers if "frame" in a] and len([a for a in answers if "pong" in a]) >= 6
    b.close()


def test_a_subscription_lapses_when_the_host_says_nothing():
    b = Board()
    b.ask("~sub 0\n")
    b.run(QUIET_MS + 100)
    b.serial.answers()
    b.rig.press(0)
    b.run(500)
    assert b.serial.answers() == []
    b.close()


def test_a_new_game_starts_the_subscribers_record_again_at_its_header():
    b = Board()
    b.rig.press(0)
    b.ask("~sub 2\n")
    b.rig.ctl.new_game()
    answers = b.ask("~hello\n", ms=200)  # the hello, the frame, the record opened afresh, its header
    lines = [a for a in answers if "line" in a]
    assert lines and lines[0] == {"n": 0, "line": header(b.rig.game)}
    b.close()


def test_hostile_lines_get_an_error_each_and_leave_the_game_as_it_was():
    b = Board()
    b.rig.press(0)
    before = b.rig.game.save()
    hostile = [
        "~" + "x" * (2 * MAX_LINE),  # too long
        "~{\"get\": \"frame\"",  # JSON is not a request
        "~play a1",  # there is no way to play from the host
        "~record -1", "~record 99999999999", "~sub x", "~hello there", "~",
        b"~\x00\x01\x02\xff\xfe",  # not even UTF-8
    ]
    for text in hostile:
        answers = b.ask(text + (b"\n" if isinstance(text, bytes) else "\n"))
        assert len(answers) == 1 and "error" in answers[0], (text, answers)
    assert b.ask("~" + "x" * (2 * MAX_LINE) + "\n")[0]["error"] == "a request is at most %d bytes" % MAX_LINE
    assert b.ask(b"~hel\xfflo\n")[0]["error"] == "a request is printable ASCII: byte 255 is not"
    # a flood: one answer each time the port is looked at, and the game goes on
    b.serial.send("~nonsense\n" * 50)
    b.run(POLL_MS)
    assert len(b.serial.answers()) == 1
    b.run(50 * POLL_MS)
    assert len(b.serial.answers()) == 49 and not b.serial.waiting
    assert b.rig.game.save() == before and b.keeper.steps == 1
    (state,) = b.ask("~state\n")
    assert state["state"] == before
    b.close()


class Failing(Serial):
    """A port whose every read fails, as a USB port can."""

    def read(self):
        raise OSError(5)


def test_a_failing_port_is_logged_and_the_game_goes_on():
    b = Board()
    logged = []
    b.rig.ctl.log = logged.append
    b.link = Link(b.rig.ctl, Failing())
    b.run(100)
    b.rig.press(0)
    b.run(100)
    assert logged and logged[0].startswith("fault in link: OSError(5")  # (MicroPython writes "OSError(5,)")
    assert b.keeper.steps == 1  # the roll was played
    b.close()


def test_a_damaged_record_line_is_answered_as_an_error_naming_it_never_sent_raw():
    b = Board()
    game = b.rig.game
    while b.keeper.steps < 5:
        b.rig.act(None if game.is_chance() else game.legal()[0])
    with open(b.keeper.record_path, "rb") as f:
        lines = f.read().split(b"\n")
    lines[3] = b'{"roll": "3,5\xff\x00 garbage}'  # as a failing flash left it
    with open(b.keeper.record_path, "wb") as f:
        f.write(b"\n".join(lines))
    answers = b.ask("~record 2\n")
    assert [a["n"] for a in answers[:2]] == [2, 3] and "line" in answers[0]
    assert answers[1] == {"n": 3, "error": "record line 3 is damaged (not a whole line as the record writes it): "
                                           "it is cut away when the board next starts"}
    assert b.ask("~record 4\n")[0] == {"n": 4, "line": json.loads(lines[4])}
    b.close()


def test_finding_a_line_far_into_a_long_record_reads_a_few_lines_not_the_record():
    import app.link

    b = Board()
    steps = 5000
    with open(b.keeper.record_path, "ab") as f:
        for _ in range(steps):
            f.write(b'{"roll": "3,5"}\n')  # (the lines are not replayed: only read)
    storage.save(b.keeper.save_path, json.dumps({"version": 1, "steps": steps, "state": b.rig.game.save()}))
    keeper = Keeper(b.folder + "/", "detour")
    assert keeper.resume(new_game("detour", board_data("detour"), 2))[1] == ""
    b.link.keeper = keeper  # the record the link reads
    read = [0]
    app.link.open = lambda path, mode: CountedFile(open(path, mode), read)
    try:
        answers = b.ask("~record %d\n" % (steps - 5))
    finally:
        del app.link.open
    assert answers[0]["n"] == steps - 5 and answers[-1]["record"] == answers[-2]["n"] + 1
    assert read[0] <= 2 * STRIDE * 16 + READ_PAGE, read  # of 80 KB
    b.close()


class Host:
    """The port's input as main.py's loop polls it (``select.poll``'s ipoll): ready while a byte waits."""

    def __init__(self, serial):
        self.serial = serial

    def ipoll(self, timeout):
        return (self.serial,) if self.serial.waiting else ()


def test_the_link_starts_when_a_host_first_speaks_and_answers_its_first_line():
    b = Board()
    make_link = link_maker(b.rig.ctl, Host(b.serial), lambda: b.serial)
    rig = b.rig
    for _ in range(100):  # a board played without a PC: no link, and nothing written on the port
        rig.now += rig.STEP_MS
        rig.ctl.tick(rig.now)
        assert make_link() is None
    assert not b.serial.written
    b.serial.send("~hello\n")
    assert make_link() is None  # this pass loads the link's module
    b.link = make_link()  # the next one starts it
    assert isinstance(b.link, Link)
    b.run(300)
    answers = b.serial.answers()
    assert [a["hello"] for a in answers] == [PROTOCOL]  # the host's first line was not lost
