"""The browser simulator's server (make sim) against clients that do not
behave: every request it cannot serve gets a 4xx and a message, a request
that does not arrive gets a 408, the connections are bounded, and what it
keeps (records, temp folders) survives a lost file and a SIGTERM."""

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading

import pytest

from host.fuzz.server import received
from host.sim.web.server import MAX_STREAMS, make_server

ROOT = __file__.rsplit("/tests/", 1)[0]
DETOUR = b'{"game": "detour", "players": 2}'


@contextlib.contextmanager
def serving(**settings):
    """make sim's server (``make_server(**settings)``) on a thread of this
    process, so a test can look at its sessions too."""
    server = make_server(port=0, **settings)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def server():
    with serving(timeout_s=0.5) as server:
        yield server


def connect(server):
    return socket.create_connection(server.server_address[:2], timeout=10)


def answer(conn):
    """The status code and JSON body of one answer, read to the close."""
    head, body = received(conn).split(b"\r\n\r\n", 1)
    return int(head.split()[1]), json.loads(body)


def ask(server, data):
    with connect(server) as conn:
        conn.sendall(data)
        conn.shutdown(socket.SHUT_WR)
        return answer(conn)


def post(path, body, length=None, extra=b""):
    length = len(body) if length is None else length
    return b"POST %s HTTP/1.1\r\nHost: x\r\nContent-Length: %s\r\n%s\r\n%s" % (path, str(length).encode(), extra, body)


@pytest.mark.parametrize("request_bytes, code, says", [
    (post(b"/api/sessions", DETOUR, -1), 400, "Content-Length must be a whole number"),
    (post(b"/api/sessions", DETOUR, "12abc"), 400, "Content-Length must be a whole number"),
    (post(b"/api/sessions", DETOUR, 1 << 40), 413, "larger than 1024 KB"),
    (post(b"/api/sessions", DETOUR, 100), 400, "the body ended after 32 of its 100 bytes"),
    (post(b"/api/sessions", DETOUR, extra=b"Transfer-Encoding: chunked\r\n"), 411, "Content-Length"),
    (post(b"/api/sessions", b"[" * 100000 + b"]" * 100000), 400, "nested too deep"),
    (post(b"/api/sessions", b'{"game": {}, "players": 2}'), 400, "unknown game"),
    (post(b"/api/sessions", b'{"game": "detour", "players": 2, "seats": 3}'), 400, "seats: "),
    (post(b"/api/sessions", b'{"game": "detour", "players": 2, "options": [1]}'), 400, "options: "),
    (post(b"/api/sessions", b'{"game": "detour", "players": 2, "speed": ["fast"]}'), 400, "speed: one of slow, normal"),
    (post(b"/api/replay", b"\xff\xfe{}"), 400, "line 1: not valid JSON"),
    (b"PUT /api/sessions HTTP/1.1\r\nHost: x\r\n\r\n", 405, "PUT is not served here"),
    (b"GET / HTTP/2.0\r\n\r\n", 400, "Invalid HTTP version"),
    (b"\x16\x03\x01\x00\xa5\x01\x00\r\n\r\n", 400, "Bad request"),
    (b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\n\r\n", 414, ""),
], ids=lambda value: None if isinstance(value, bytes) else str(value))
def test_a_request_it_cannot_serve_gets_a_4xx_and_a_message(server, request_bytes, code, says):
    got, body = ask(server, request_bytes)
    assert (got, says in body["error"]) == (code, True), body


def test_a_request_that_does_not_arrive_in_time_gets_a_408(server):
    for partial in (b"GET /api/ga", post(b"/api/sessions", DETOUR[:10], len(DETOUR)), b""):
        with connect(server) as conn:
            conn.sendall(partial)
            assert answer(conn) == (408, {"error": "the request did not arrive within 0.5 s"})


def events(server, key):
    """An event stream of the board ``key`` open, its answer's first bytes read."""
    conn = connect(server)
    conn.sendall(b"GET /api/sessions/%s/events HTTP/1.1\r\nHost: x\r\n\r\n" % key.encode())
    assert conn.recv(4096).startswith(b"HTTP/1.1 200")
    return conn


def test_a_new_visitor_is_served_while_idle_slow_and_streaming_connections_are_held():
    with serving(timeout_s=30) as server:
        key = ask(server, post(b"/api/sessions", DETOUR))[1]["id"]
        held = [connect(server) for _ in range(200)]  # idle: nothing sent
        for _ in range(150):  # headers that come a byte at a time, never whole
            held.append(connect(server))
            held[-1].sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Slow: a")
        held += [events(server, key) for _ in range(MAX_STREAMS + 40)]  # more streams than are kept open
        try:
            for conn in held[200:350]:
                conn.sendall(b"a")
            code, games = ask(server, b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
            assert code == 200 and games
            code, made = ask(server, post(b"/api/sessions", DETOUR))
            assert code == 200
            with connect(server) as mine:
                mine.sendall(b"GET /api/sessions/%s/events HTTP/1.1\r\nHost: x\r\n\r\n" % made["id"].encode())
                got = b""
                for _ in range(50):  # the answer's head and its first events, however the bytes are cut
                    got += mine.recv(1 << 16)
                    if b"event: state" in got:
                        break
                assert got.startswith(b"HTTP/1.1 200") and b"event: board" in got
            assert len(server.streams) <= MAX_STREAMS and threading.active_count() <= MAX_STREAMS + 20
        finally:
            for conn in held:
                conn.close()


def test_the_oldest_event_stream_ends_when_too_many_are_open(server):
    key = ask(server, post(b"/api/sessions", DETOUR))[1]["id"]
    first = events(server, key)
    rest = [events(server, key) for _ in range(MAX_STREAMS)]
    try:
        first.settimeout(5)
        assert received(first).endswith(b"\n\n")  # ended by the server, at once, whole events sent
    finally:
        for conn in [first] + rest:
            conn.close()


def test_the_record_is_downloaded_whole_when_its_file_is_gone(server):
    code, made = ask(server, post(b"/api/sessions", DETOUR))
    found = server.sessions[made["id"]]
    shutil.rmtree(found.folder)
    with connect(server) as conn:
        conn.sendall(b"GET /api/sessions/%s/record HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" % made["id"].encode())
        header = json.loads(received(conn).split(b"\r\n\r\n", 1)[1])
    assert header["game"] == "detour" and header["board"] == "detour"


def test_sigterm_stops_make_sim_and_removes_its_temp_folders(tmp_path):
    env = dict(os.environ, TMPDIR=str(tmp_path))
    proc = subprocess.Popen([sys.executable, "-m", "host.sim.web", "--port", "0"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        port = int(proc.stdout.readline().split("open http://127.0.0.1:", 1)[1].split("/")[0])
        with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
            conn.sendall(post(b"/api/sessions", DETOUR))
            conn.shutdown(socket.SHUT_WR)
            assert answer(conn)[0] == 200
        assert [name for name in os.listdir(tmp_path) if name.startswith("board-sim-")]
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(20) == 0
    finally:
        proc.kill()
    assert os.listdir(tmp_path) == []


def test_a_port_already_taken_is_said_in_one_line(server):
    port = server.server_address[1]
    done = subprocess.run([sys.executable, "-m", "host.sim.web", "--port", str(port)], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip() == ("error: cannot listen on 127.0.0.1 port %d (Address already in use); try another: "
                                   "make sim PORT=8001" % port)
