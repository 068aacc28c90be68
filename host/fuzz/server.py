"""The browser simulator's server (``python -m host.sim.web``) under hostile clients.

The server runs as ``make sim`` runs it, in a process of its own with a temp
folder of its own. Thrown at it: malformed and mutated requests (every one
must get an HTTP answer, never a dropped connection or a 5xx), idle and
slow connections (closed by the server in time, the threads bounded), 50
event streams open while ``/api/games`` is timed (p99 within 200 ms, no
frame sent that shows nothing new), and at the end a SIGTERM (no temp
folder left behind).
"""

import json
import os
from concurrent.futures import ThreadPoolExecutor
import random
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

from host import ROOT
from host.fuzz import mutate, report, shorten

NAME = "server"
CASES = 10000
STREAMS = 50
IDLE = 1000  # idle connections opened at once (fewer in a small sample)
BOUND = 200  # threads the server may run at most
P99_MS = 200
TIMEOUT_S = 2  # the server's --timeout: how long a request may take to arrive
WAIT_S = TIMEOUT_S + 3  # long enough for the server to answer a late request
CLIENTS = 8  # requests sent at once
STILL_S = 2  # how long the streams are watched while nothing happens

HEADER = {"record": 1, "game": "detour", "board": "detour", "players": 2, "options": {}}
BODIES = ({"game": "detour", "players": 2, "seats": ["human", "human"], "options": {}},
          {"do": "space", "n": 3}, {"do": "button", "n": 0, "down": True}, {"do": "turn", "n": 1, "by": 1},
          {"do": "brightness", "n": 50}, {"do": "goto", "n": 2}, HEADER)
PATHS = ("/", "/api/games", "/api/sessions", "/api/replay", "/api/sessions/{id}", "/api/sessions/{id}/record",
         "/api/sessions/{id}/events", "/api/sessions/nope", "/static/app.js", "/static/../server.py",
         "/static/%2e%2e/server.py", "/api/sessions/{id}/events/x", "//", "*", "/" + "a" * 70000, "/\u00e9")
METHODS = ("GET", "POST", "POST", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "G\u00e9T", "", "GET GET")


class Server:
    """``python -m host.sim.web`` on a free port, with its own temp folder."""

    def __init__(self, timeout_s=TIMEOUT_S):
        self.tmp = tempfile.TemporaryDirectory(prefix="fuzz-server-")
        env = dict(os.environ, TMPDIR=self.tmp.name)
        self.proc = subprocess.Popen([sys.executable, "-m", "host.sim.web", "--port", "0", "--timeout", str(timeout_s)], cwd=ROOT, env=env,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        url = self.proc.stdout.readline().split("open ", 1)[1].split()[0]
        self.port = int(url.rstrip("/").rsplit(":", 1)[1])
        self.most = 0
        self.watching = True
        threading.Thread(target=self._watch_threads, daemon=True).start()

    def threads(self):
        with open("/proc/%d/status" % self.proc.pid) as f:
            return int(next(line for line in f if line.startswith("Threads:")).split()[1])

    def _watch_threads(self):
        while self.watching:
            try:
                self.most = max(self.most, self.threads())
            except (OSError, StopIteration):
                return
            time.sleep(0.02)

    def connect(self, timeout=WAIT_S):
        return socket.create_connection(("127.0.0.1", self.port), timeout=timeout)

    def ask(self, data, half_close=False):
        """Send raw ``data``; the answer's status code, 0 when the connection
        was dropped without one, -1 when none came within WAIT_S."""
        with self.connect() as s:
            try:
                s.sendall(data)
                if half_close:
                    s.shutdown(socket.SHUT_WR)
                answer = b""
                while b"\r\n" not in answer:
                    chunk = s.recv(4096)
                    if not chunk:
                        break
                    answer += chunk
            except socket.timeout:
                return -1
            except OSError:
                return 0
        words = answer.split(b"\r\n", 1)[0].split()
        return int(words[1]) if len(words) > 1 and words[0].startswith(b"HTTP/") and words[1].isdigit() else 0

    def json(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else b""
        with self.connect() as s:
            s.sendall(b"%s %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s"
                      % (method.encode(), path.encode(), len(data), data))
            return json.loads(received(s).split(b"\r\n\r\n", 1)[1])

    def stop(self):
        """SIGTERM, as a service manager stops it; the temp folders it left."""
        self.watching = False
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        left = len(os.listdir(self.tmp.name))
        self.tmp.cleanup()
        return left


def received(conn):
    """Every byte that comes on the socket ``conn`` until the other end closes it."""
    data = b""
    while True:
        chunk = conn.recv(65536)
        if not chunk:
            return data
        data += chunk


def _request(rng, key):
    """A hostile request as bytes, whether to half-close after it, and what it is."""
    method = rng.choice(METHODS)
    path = rng.choice(PATHS).replace("{id}", key)
    if rng.random() < 0.4:
        body = json.dumps(mutate(rng.choice(BODIES), rng, rng.choice((1, 2, 3)))[0]).encode()
    elif rng.random() < 0.5:
        body = json.dumps(HEADER).encode() + b"\n" + bytes(rng.randrange(256) for _ in range(rng.randrange(200)))
    else:
        body = rng.choice((b"", b"{", b"[]", b"[" * 100000 + b"]" * 100000, b"\xff\xfe{}", b"null", b"{}" * 5000))
    length = rng.choice((len(body),) * 6 + (-1, "abc", "", 1 << 40, len(body) + 10, "1e3", " 5", "0x10"))
    headers = [b"Host: x"] if rng.random() < 0.9 else []
    if length != "" or rng.random() < 0.5:
        headers.append(b"Content-Length: %s" % str(length).encode())
    if rng.random() < 0.05:
        headers.append(b"Transfer-Encoding: chunked")
    if rng.random() < 0.05:
        headers.append(b"X-" + b"a" * 70000 + b": 1")
    if rng.random() < 0.03:
        headers += [b"X-%d: 1" % i for i in range(150)]
    version = rng.choice((b"HTTP/1.1",) * 8 + (b"HTTP/1.0", b"HTTP/2.0", b"", b"FOO/1"))
    line = b" ".join(part for part in (method.encode(), path.encode(), version) if part)
    data = line + b"\r\n" + b"".join(h + b"\r\n" for h in headers) + b"\r\n" + body
    if rng.random() < 0.05:
        data = bytes(b if rng.random() > 0.02 else rng.randrange(256) for b in data)
    half_close = isinstance(length, int) and length > len(body) or rng.random() < 0.2
    return data, half_close, (method, path[:40], version, length, shorten(body[:60]))


def _idle(server, count):
    """Open ``count`` connections and send nothing; how many the server has
    not closed (or answered) after WAIT_S."""
    sockets = []
    for _ in range(count):
        try:
            sockets.append(server.connect())
        except OSError:
            break
    half = [s for s in sockets[: len(sockets) // 2]]
    for s in half:
        s.sendall(b"POST /api/sessions HTTP/1.1\r\nContent-Length: 100\r\n\r\n{")  # a body that never comes
    deadline = time.monotonic() + WAIT_S
    open_ = 0
    for s in sockets:
        s.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            while s.recv(4096):
                pass
        except socket.timeout:
            open_ += 1
        except OSError:
            pass
        s.close()
    return open_


def _streams(server, key, rng):
    """50 event streams open; /api/games timed meanwhile. Returns (p50 ms,
    p99 ms, frames that showed nothing new, streams that never started)."""
    sel = selectors.DefaultSelector()
    sockets = []
    for _ in range(STREAMS):
        s = server.connect()
        s.sendall(b"GET /api/sessions/%s/events HTTP/1.1\r\nHost: x\r\n\r\n" % key.encode())
        s.setblocking(False)
        sel.register(s, selectors.EVENT_READ, [b"", None, 0])  # buffer, last frame's pixels, repeats
        sockets.append(s)
    stop = threading.Event()

    def read():
        while not stop.is_set():
            for found, _ in sel.select(0.05):
                try:
                    chunk = found.fileobj.recv(1 << 16)
                except OSError:
                    continue
                state = found.data
                state[0] += chunk
                *events, state[0] = state[0].split(b"\n\n")
                for event in events:
                    if b"event: frame" in event:
                        pixels = json.loads(event.split(b"data: ", 1)[1])
                        pixels.pop("n", None)
                        if pixels == state[1]:
                            state[2] += 1
                        state[1] = pixels

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    time.sleep(1)
    times = []
    still = time.monotonic() + STILL_S
    while len(times) < 200 or time.monotonic() < still:
        started = time.monotonic()
        server.json("GET", "/api/games")
        times.append((time.monotonic() - started) * 1000)
    stop.set()
    reader.join()
    repeats = sum(sel.get_key(s).data[2] for s in sockets)
    silent = sum(1 for s in sockets if sel.get_key(s).data[1] is None)
    for s in sockets:
        s.close()
    times.sort()
    return times[len(times) // 2], times[len(times) * 99 // 100], repeats, silent


def run(cases, seed):
    rng = random.Random(seed)
    server = Server()
    try:
        key = server.json("POST", "/api/sessions", BODIES[0])["id"]
        requests = [_request(rng, key) for _ in range(cases)]
        with ThreadPoolExecutor(CLIENTS) as pool:
            codes = list(pool.map(lambda r: server.ask(r[0], r[1]), requests))
        dropped = errors = hung = 0
        for case, code in enumerate(codes):
            what = requests[case][2]
            if code <= 0 or code >= 500:
                dropped += code == 0
                hung += code < 0
                errors += code >= 500
                report(NAME, (seed, case, code, what))
        left_open = _idle(server, min(IDLE, max(50, cases // 10)))
        key = server.json("POST", "/api/sessions", BODIES[0])["id"]
        p50, p99, repeats, silent = _streams(server, key, rng)
    finally:
        folders = server.stop()
    return ("%s: %s requests, %d dropped, %d answered 5xx, %d unanswered, %d idle or slow connections left open, "
            "%d threads over %d, %d streams without a frame, %d frames showing nothing new, %d p99 over %d ms; "
            "threads at most %d; /api/games under %d event streams p50 %.1f ms, p99 %.1f ms; %d temp folders left"
            % (NAME, format(cases, ","), dropped, errors, hung, left_open, max(0, server.most - BOUND), BOUND,
               silent, repeats, p99 > P99_MS, P99_MS, server.most, STREAMS, p50, p99, folders))
