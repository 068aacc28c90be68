"""The HTTP side: the page, JSON for what the player does, Server-Sent Events
for what the board shows.

    GET  /                           the page (static/)
    GET  /api/games                  the games, their player counts and rule options
    POST /api/sessions               {"game", "players", "seats", "options", "sensors", "speed"} -> {"id"}
    POST /api/replay                 a game record (JSON Lines) -> {"id"} at its end
    GET  /api/sessions/ID/events     the news as it happens: board, record, state, frame
    POST /api/sessions/ID            one action: {"do": "space" | "button" | "turn" | ..., "n": ...};
                                     the computer seats' speed {"do": "speed", "to": "fast"}, {"do": "next"}
    GET  /api/sessions/ID/record     the game record so far (game.jsonl)
    GET  /api/live                   {"id", "played"} of the board followed over USB (make live; played:
                                     make vpico's emulated Pico, which the page's clicks act on), else 404

Every request that cannot be served gets a 4xx and ``{"error": "..."}``.
No client can starve the others. A connection costs no thread until its
request has arrived whole: one thread (``Gate``) reads every connection's
request as its bytes come, and one that has not arrived whole within
TIMEOUT_S of the connection opening gets a 408 and is closed (an idle
socket, headers or a body sent a byte now and then). At most MAX_PENDING
connections wait so; one more closes the oldest with a 503. A request
arrived is answered by a thread of its own, at most MAX_CONNECTIONS at once
(beyond: 503 at once), and the connection closes after it; a write stalled
TIMEOUT_S ends it too. The page's event stream sends a frame when what it
shows changes, and a comment line as a heartbeat; at most MAX_STREAMS are
open at once, and one more ends the oldest (a page that is still there
opens it again), so the streams never take the threads requests need.

``make_server(port=0)`` gives a server to run in a thread (the tests do);
``python -m host.sim.web`` runs one until Ctrl-C or SIGTERM.
"""

import io
import json
import mimetypes
import os
import selectors
import signal
import socket
import sys
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from host.sim.web import layout, session
from rules.core import RulesError

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
MAX_BODY = 1 << 20  # a record of a long game is well under 100 KB
IDLE_S = 600  # a board nobody has watched for this long is put away
MAX_SESSIONS = 20
MAX_CONNECTIONS = 100  # requests answered at once, the event streams among them
MAX_STREAMS = 60  # event streams open at once: 40 threads are always left to the other requests
MAX_PENDING = 1000  # connections whose request is still arriving
MAX_HEAD = 1 << 17  # bytes of a request line and headers read before the handler refuses them (414, 431)
TIMEOUT_S = 5


class SimServer(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 64  # a page's streams and requests arrive together

    def __init__(self, address, urandom=os.urandom, speed=session.DEFAULT_SPEED, timeout_s=TIMEOUT_S):
        self.sessions = {}
        self.options = {"urandom": urandom, "speed": speed}
        self.catalogue = json.dumps(layout.catalogue())
        self.timeout_s = timeout_s
        self.slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        self.arrived = {}  # connection -> its request's bytes, read by the gate
        self.streams = []  # the event streams open, the oldest first
        self.lock = threading.Lock()  # guards arrived, streams and sessions
        self.live = None  # the board followed over USB (host.pico.live), which every page shows
        self.gate = None  # (a port that cannot be had closes the server before its gate opens)
        super().__init__(address, Handler)
        self.gate = Gate(self)

    def process_request(self, request, client_address):
        self.gate.add(request, client_address)

    def answer(self, request, client_address, data):
        """The gate read the request ``data`` whole: answer it on a thread of its own."""
        if self.slots.acquire(blocking=False):
            with self.lock:
                self.arrived[request] = data
            request.setblocking(True)
            super().process_request(request, client_address)
            return
        _refuse(request, 503, "the server is busy (%d requests at once): try again" % MAX_CONNECTIONS)

    def open_stream(self, found):
        """A new event stream of session ``found``; the oldest one ends if MAX_STREAMS are open."""
        stream = Stream(found)
        with self.lock:
            self.streams.append(stream)
            oldest = self.streams.pop(0) if len(self.streams) > MAX_STREAMS else None
        if oldest:
            oldest.end()
        return stream

    def close_stream(self, stream):
        with self.lock:
            if stream in self.streams:
                self.streams.remove(stream)

    def close_request(self, request):
        """Read what the client is still sending (for a second at most, while
        it keeps coming) before closing: a close with bytes unread resets the
        connection, and the client may lose the answer sent just before."""
        deadline = time.monotonic() + 1
        try:
            request.settimeout(0.05)
            while time.monotonic() < deadline and request.recv(1 << 16):
                pass
        except OSError:
            pass
        super().close_request(request)

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release()

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], OSError):  # a connection closed or timed out is no fault
            super().handle_error(request, client_address)

    @property
    def url(self):
        host, port = self.server_address[:2]
        return "http://%s:%d/" % (host, port)

    def add(self, made):
        """Keep a new session; put away the ones nobody watches any more."""
        now = time.monotonic()
        with self.lock:
            for key, old in list(self.sessions.items()):
                if old is self.live:
                    continue  # the board itself stays while the server runs
                if old.listeners == 0 and (now - old.idle_since > IDLE_S or len(self.sessions) >= MAX_SESSIONS):
                    old.close()
                    del self.sessions[key]
            if len(self.sessions) >= MAX_SESSIONS:
                made.close()
                raise Refused(503, "%d boards are open and watched: close one first" % MAX_SESSIONS)
            self.sessions[made.id] = made
        return made

    def follow_live(self, live):
        """Serve ``live`` (host.pico.live.LiveSession) as the board a page opens: GET /api/live names it."""
        with self.lock:
            self.live = live
            self.sessions[live.id] = live

    def server_close(self):
        """Stop listening and put every board away, its temp folder with it."""
        super().server_close()
        if self.gate is not None:
            self.gate.close()
        with self.lock:
            for s in self.sessions.values():
                s.close()
            self.sessions.clear()


def _answer(code, message):
    """A whole error answer, for where no handler writes it."""
    body = json.dumps({"error": message}).encode()
    return (b"HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s"
            % (code, HTTPStatus(code).phrase.encode(), len(body), body))


def _refuse(conn, code, message):
    """Answer ``code`` and close, without a thread: a short answer fits in the socket's buffer."""
    try:
        conn.setblocking(False)
        conn.send(_answer(code, message))
        conn.shutdown(socket.SHUT_WR)
    except OSError:
        pass
    conn.close()


def _complete(data):
    """Whether ``data`` holds a whole request: its line, its headers and the
    body its Content-Length gives (a length that cannot be read or is over
    MAX_BODY: the handler refuses it, so the headers suffice)."""
    end = data.find(b"\r\n\r\n")
    if end < 0:
        end = data.find(b"\n\n")
        if end < 0:
            return len(data) > MAX_HEAD
    for line in data[:end].split(b"\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            value = value.strip()
            if value.isdigit() and len(value) < 10 and int(value) <= MAX_BODY:
                return len(data) >= end + 4 + int(value)
    return True


class Gate(threading.Thread):
    """Reads the requests of every connection as their bytes come, on one
    thread; a request arrived whole goes to ``server.answer``."""

    def __init__(self, server):
        super().__init__(daemon=True)
        self.server = server
        self.selector = selectors.DefaultSelector()
        self.waiting = {}  # connection -> [address, bytes so far, deadline], the oldest first
        self.new = []  # (connection, address) handed over by the server's thread
        self.lock = threading.Lock()
        self._wake, self._woken = socket.socketpair()
        self._woken.setblocking(False)
        self.selector.register(self._woken, selectors.EVENT_READ)
        self.closed = False
        self.start()

    def add(self, conn, address):
        with self.lock:
            self.new.append((conn, address))
        try:
            self._wake.send(b"x")
        except OSError:  # (the wake-up socket's buffer is full: the gate is awake already)
            pass

    def close(self):
        self.closed = True
        self.add(None, None)
        self.join(2)
        for conn in list(self.waiting):
            conn.close()
        self._wake.close()
        self._woken.close()

    def run(self):
        while not self.closed:
            now = time.monotonic()
            first = next(iter(self.waiting.values()), None)
            ready = self.selector.select(max(0.0, first[2] - now) if first else None)
            for key, _ in ready:
                if key.fileobj is self._woken:
                    self._take()
                else:
                    self._read(key.fileobj)
            self._expire(time.monotonic())

    def _take(self):
        try:
            while self._woken.recv(4096):
                pass
        except OSError:
            pass
        with self.lock:
            new, self.new = self.new, []
        deadline = time.monotonic() + self.server.timeout_s
        for conn, address in new:
            if conn is None:
                continue
            conn.setblocking(False)
            self.waiting[conn] = [address, b"", deadline]
            self.selector.register(conn, selectors.EVENT_READ)
            if len(self.waiting) > MAX_PENDING:
                self._drop(next(iter(self.waiting)), 503, "the server is busy (%d connections wait): try again"
                           % MAX_PENDING)

    def _read(self, conn):
        state = self.waiting[conn]
        try:
            chunk = conn.recv(1 << 16)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        state[1] += chunk
        if not chunk or _complete(state[1]):  # (a client that closed its side: what came is all there is)
            self._forget(conn)
            if state[1]:
                self.server.answer(conn, state[0], state[1])
            else:
                conn.close()

    def _expire(self, now):
        for conn, state in list(self.waiting.items()):
            if now < state[2]:
                break  # (the rest came later)
            self._drop(conn, 408, "the request did not arrive within %g s" % self.server.timeout_s)

    def _drop(self, conn, code, message):
        self._forget(conn)
        _refuse(conn, code, message)

    def _forget(self, conn):
        del self.waiting[conn]
        self.selector.unregister(conn)


class Stream:
    """An event stream open on ``session``: ``end()`` ends it at its next wake-up, which it brings on."""

    def __init__(self, session):
        self.session = session
        self.ended = False

    def end(self):
        self.ended = True
        with self.session.lock:
            self.session.lock.notify_all()


def make_server(host="127.0.0.1", port=0, urandom=os.urandom, speed=session.DEFAULT_SPEED, timeout_s=TIMEOUT_S):
    """A server on ``host:port`` (0: any free port); ``urandom`` is the dice's
    random source, ``speed`` the computer seats' speed in a new game where the
    page names none (``session.SPEEDS``), ``timeout_s`` how long a connection
    may take to send its request."""
    return SimServer((host, port), urandom, speed, timeout_s)


def serve(host, port, again, begin, **options):
    """Serve the page until Ctrl-C or SIGTERM, as make sim and make live do:
    ``again`` is the command to suggest when the port is taken, ``begin(server)``
    readies it and returns the line that tells where to look."""
    try:
        server = make_server(host, port, **options)
    except OSError as err:
        print("error: cannot listen on %s port %d (%s); try another: %s" % (host, port, err.strerror, again),
              file=sys.stderr)
        return 2
    print(begin(server), flush=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # stopped as a service is: tidy up as for Ctrl-C
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def _object(body):
    try:
        ask = json.loads(body or "{}")
    except RecursionError:
        raise ValueError("the JSON is nested too deep")
    if not isinstance(ask, dict):
        raise ValueError("expected a JSON object")
    return ask


class Refused(Exception):
    """A request that cannot be served: its status code and message."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


class Handler(BaseHTTPRequestHandler):
    server_version = "BoardSim/1"
    protocol_version = "HTTP/1.1"
    default_request_version = "HTTP/1.0"  # a request without a version is answered with a status line

    def setup(self):
        self.timeout = self.server.timeout_s  # each write to a client that does not read
        super().setup()
        with self.server.lock:
            self.rfile = io.BytesIO(self.server.arrived.pop(self.connection))  # the request, as the gate read it

    def log_message(self, format, *args):
        pass  # the terminal shows the address and errors, not every request

    def send_error(self, code, message=None, explain=None):
        """http.server's refusals of a request it cannot read, as JSON; the
        request line or version being unreadable is the client's fault: 400."""
        self.close_connection = True
        self._error(400 if code in (501, 505) else code, message or "bad request")

    def __getattr__(self, name):
        if name.startswith("do_"):  # a method other than GET and POST
            return lambda: self._error(405, "%s is not served here: use GET or POST" % self.command)
        raise AttributeError(name)

    # -- answers ------------------------------------------------------------------------

    def _send(self, code, body, kind="application/json", extra=()):
        data = body if isinstance(body, bytes) else body.encode()
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")  # (the gate reads each connection's one request)
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def _json(self, code, obj):
        self._send(code, json.dumps(obj))

    def _error(self, code, message):
        if code >= 400:
            self.close_connection = True  # what is left of the request is not read
        self._json(code, {"error": message})

    def _body(self):
        if "Transfer-Encoding" in self.headers:
            raise Refused(411, "send the body with a Content-Length, not a Transfer-Encoding")
        text = self.headers.get("Content-Length", "0")
        if not (text.isascii() and text.isdigit()):
            raise Refused(400, "Content-Length must be a whole number of bytes")
        length = int(text)
        if length > MAX_BODY:
            raise Refused(413, "the request is larger than %d KB" % (MAX_BODY >> 10))
        body = self.rfile.read(length)
        if len(body) < length:
            raise Refused(400, "the body ended after %d of its %d bytes" % (len(body), length))
        return body.decode("utf-8", "replace")

    def _session(self, key):
        found = self.server.sessions.get(key)
        if found is None:
            self._error(404, "no such board: it was closed, or the server restarted")
        return found

    # -- routes ---------------------------------------------------------------------------

    def do_GET(self):
        try:
            self._get()
        except OSError:
            raise
        except Exception as err:  # a fault of ours: said, not a dropped connection
            self._error(500, "the server failed: %s" % err)

    def do_POST(self):
        try:
            self._post()
        except Refused as err:
            self._error(err.code, str(err))
        except (ValueError, RulesError) as err:
            self._error(400, str(err) or "bad request")
        except OSError:
            raise
        except Exception as err:
            self._error(500, "the server failed: %s" % err)

    def _get(self):
        path = self.path.split("?")[0]
        parts = path.strip("/").split("/")
        if path == "/":
            self._static("index.html")
        elif parts[0] == "static" and len(parts) == 2:
            self._static(parts[1])
        elif path == "/api/games":
            self._send(200, self.server.catalogue)
        elif path == "/api/live":
            if self.server.live is None:
                self._error(404, "no board is followed live here (make live does)")
            else:
                # (played: make vpico's emulated board, whose page acts on it; else a board to watch)
                self._json(200, {"id": self.server.live.id, "played": getattr(self.server.live, "played", False)})
        elif parts[:2] == ["api", "sessions"] and len(parts) == 4 and parts[3] == "events":
            found = self._session(parts[2])
            if found:
                self._events(found)
        elif parts[:2] == ["api", "sessions"] and len(parts) == 4 and parts[3] == "record":
            found = self._session(parts[2])
            if found:
                name = "%s-record.jsonl" % found.rig.game.name
                self._send(200, found.record_text(), "application/x-ndjson",
                           [("Content-Disposition", 'attachment; filename="%s"' % name)])
        else:
            self._error(404, "nothing at %s" % path)

    def _post(self):
        parts = self.path.split("?")[0].strip("/").split("/")
        body = self._body()
        if parts == ["api", "sessions"]:
            ask = _object(body)
            settings = dict(self.server.options, **({"speed": ask["speed"]} if "speed" in ask else {}))
            made = session.create(ask.get("game"), ask.get("players"), ask.get("seats"), ask.get("options"),
                                  ask.get("sensors", True), **settings)
            self._json(200, {"id": self.server.add(made).id})
        elif parts == ["api", "replay"]:
            made = session.load(body, **self.server.options)
            self._json(200, {"id": self.server.add(made).id})
        elif parts[:2] == ["api", "sessions"] and len(parts) == 3:
            found = self._session(parts[2])
            if found:
                found.act(_object(body))
                self._json(200, {"ok": True})
        else:
            self._error(404, "nothing at %s" % self.path)

    def _static(self, name):
        path = os.path.join(STATIC, name)
        if name not in os.listdir(STATIC):
            self._error(404, "no file %s" % name)
            return
        kind = mimetypes.guess_type(name)[0] or "application/octet-stream"
        with open(path, "rb") as f:
            self._send(200, f.read(), kind + ("; charset=utf-8" if kind.startswith("text/") or kind.endswith("javascript") else ""))

    def _events(self, found):
        """Server-Sent Events: each kind of news as it changes, the latest only."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        seen = {}
        sent = {}  # kind -> what the event last written showed: a stream that fell behind skips a repeat
        stream = self.server.open_stream(found)
        with found.lock:
            found.listeners += 1
        try:
            while not found.closed and not stream.ended:
                news = found.updates(seen, ended=lambda: stream.ended)
                fresh = [event for kind, _, event, shows in news if sent.get(kind) != shows]
                for kind, version, _, shows in news:
                    seen[kind], sent[kind] = version, shows
                if fresh or not news:
                    self.wfile.write(b"".join(fresh) or b": still here\n\n")  # the heartbeat
                    self.wfile.flush()
        except OSError:
            pass  # the page went away
        finally:
            self.server.close_stream(stream)
            with found.lock:
                found.listeners -= 1
                found.idle_since = time.monotonic()
