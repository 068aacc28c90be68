"""The browser simulator's server (``python -m host.sim.web``) held by clients
that take what they can and give nothing back, while new visitors come.

Held at once, all on 127.0.0.1: IDLE connections that send nothing,
SLOW connections whose headers come a byte at a time and never end, and
STREAMS event streams of one board (more than the server keeps open). Each
case is then one new visitor doing what a page does: the catalogue of
games, a new board, its event stream's first news.

Figures: *refused* (a visitor's request answered other than 200), *unanswered*
(no answer within WAIT_S), *p99 over* (the 99th percentile of a visit over
P99_MS); the p99 and the server's threads at most are measures.
"""

import socket
import time

from host.fuzz import report
from host.fuzz.server import Server, received

NAME = "starve"
CASES = 200
IDLE = 200
SLOW = 150
STREAMS = 100
HELD_S = 60  # the server's --timeout here: the held connections stay held for the whole campaign
WAIT_S = 10
P99_MS = 1000
GAME = b'{"game": "detour", "players": 2, "seats": ["human", "human"], "options": {}}'


def _ask(server, data):
    """The status code of the answer to ``data`` (-1: none within WAIT_S) and its body."""
    with server.connect(WAIT_S) as s:
        try:
            s.sendall(data)
            answer = received(s)
        except socket.timeout:
            return -1, b""
    head, _, body = answer.partition(b"\r\n\r\n")
    words = head.split()
    return (int(words[1]) if len(words) > 1 and words[1].isdigit() else 0), body


def _send(s, data):
    try:
        s.sendall(data)
    except OSError:
        pass  # the server closed it: it holds no longer


def _stream(server, key):
    """An event stream of board ``key`` opened: its socket, and whether its first news came (None: no answer)."""
    s = server.connect(WAIT_S)
    s.sendall(b"GET /api/sessions/%s/events HTTP/1.1\r\nHost: x\r\n\r\n" % key)
    data = b""
    try:
        while b"event: " not in data:
            chunk = s.recv(1 << 16)
            if not chunk:
                break
            data += chunk
    except socket.timeout:
        return s, None
    except OSError:
        return s, False
    return s, data.startswith(b"HTTP/1.1 200") and b"event: " in data


def _visit(server):
    """One visitor: the failure's figure and what, or None; and how long it took."""
    started = time.monotonic()
    code, _ = _ask(server, b"GET /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    if code != 200:
        return ("unanswered" if code < 0 else "refused", "GET /api/games: %d" % code), 0
    code, body = _ask(server, b"POST /api/sessions HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s"
                      % (len(GAME), GAME))
    if code != 200:
        return ("unanswered" if code < 0 else "refused", "POST /api/sessions: %d" % code), 0
    key = body.split(b'"id": "', 1)[1].split(b'"', 1)[0]
    s, started_ok = _stream(server, key)
    s.close()
    if not started_ok:
        return ("unanswered" if started_ok is None else "refused", "its event stream"), 0
    return None, (time.monotonic() - started) * 1000


def run(cases=CASES, seed=1):
    server = Server(HELD_S)
    counts = {"refused": 0, "unanswered": 0}
    held = []
    times = []
    try:
        _, body = _ask(server, b"POST /api/sessions HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s"
                       % (len(GAME), GAME))
        key = body.split(b'"id": "', 1)[1].split(b'"', 1)[0]
        held += [server.connect() for _ in range(IDLE)]
        for _ in range(SLOW):
            held.append(server.connect())
            _send(held[-1], b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Slow: a")
        held += [_stream(server, key)[0] for _ in range(STREAMS)]
        for case in range(cases):
            for s in held[IDLE:IDLE + SLOW]:
                _send(s, b"a")  # a byte more of the headers that never end
            try:
                failure, ms = _visit(server)
            except OSError as err:
                failure, ms = ("refused", repr(err)), 0
            if failure:
                counts[failure[0]] += 1
                if sum(counts.values()) <= 5:
                    report(NAME, (seed, case) + failure)
            else:
                times.append(ms)
    finally:
        for s in held:
            s.close()
        server.stop()
    times.sort()
    p99 = times[len(times) * 99 // 100] if times else 0
    return ("%s: %s visitors beside %d idle and %d slow and %d streaming connections, %d refused, %d unanswered, "
            "%d p99 over %d ms; p99 %.0f ms, threads at most %d"
            % (NAME, format(cases, ","), IDLE, SLOW, STREAMS, counts["refused"], counts["unanswered"],
               p99 > P99_MS, P99_MS, p99, server.most))
