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
    GET  /api/live                   {"id"} of the board followed over USB (make live), else 404

Every request that cannot be served gets a 4xx and ``{"error": "..."}``.
A connection is a thread, at most MAX_CONNECTIONS at once (beyond: 503 at
once); a request must arrive whole within TIMEOUT_S of the connection
waiting for it, or it gets a 408 and the connection is closed (an idle
keep-alive, a client sending a byte now and then); a read or write stalled
that long ends the connection too. The page's event stream sends a frame
when what it shows changes, and a comment line as a heartbeat.

``make_server(port=0)`` gives a server to run in a thread (the tests do);
``python -m host.web`` runs one until Ctrl-C or SIGTERM.
"""

import json
import mimetypes
import os
import signal
import socket
import sys
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from host.web import layout, session
from rules.core import RulesError

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
MAX_BODY = 1 << 20  # a record of a long game is well under 100 KB
IDLE_S = 600  # a board nobody has watched for this long is put away
MAX_SESSIONS = 20
MAX_CONNECTIONS = 100  # 50 event streams and the requests beside them fit
TIMEOUT_S = 10


class SimServer(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 64  # a page's streams and requests arrive together

    def __init__(self, address, urandom=os.urandom, speed=session.DEFAULT_SPEED, timeout_s=TIMEOUT_S):
        self.sessions = {}
        self.options = {"urandom": urandom, "speed": speed}
        self.catalogue = json.dumps(layout.catalogue())
        self.timeout_s = timeout_s
        self.slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        self.waiting = {}  # connection -> when its request must have arrived
        self.lock = threading.Lock()  # guards waiting and sessions
        self.live = None  # the board followed over USB (host.live), which every page shows
        super().__init__(address, Handler)

    def process_request(self, request, client_address):
        if self.slots.acquire(blocking=False):
            super().process_request(request, client_address)
            return
        try:  # every thread is busy: say so at once, without one
            request.settimeout(1)
            request.sendall(_answer(503, "the server is busy (%d connections): try again" % MAX_CONNECTIONS))
        except OSError:
            pass
        request.close()

    def close_request(self, request):
        """Read what the client still sends (for a second at most) before
        closing: a close with bytes unread resets the connection, and the
        client may lose the answer sent just before."""
        deadline = time.monotonic() + 1
        try:
            while time.monotonic() < deadline:
                request.settimeout(max(0.01, deadline - time.monotonic()))
                if not request.recv(1 << 16):
                    break
        except OSError:
            pass
        super().close_request(request)

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release()

    def service_actions(self):
        """Answer 408 and close where a request is overdue (serve_forever
        calls this twice a second); the handler's read then ends."""
        now = time.monotonic()
        with self.lock:
            late = [conn for conn, deadline in self.waiting.items() if now > deadline]
            for conn in late:
                del self.waiting[conn]
        for conn in late:
            try:
                conn.sendall(_answer(408, "the request did not arrive within %g s" % self.timeout_s))
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

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
        """Serve ``live`` (host.live.LiveSession) as the board a page opens: GET /api/live names it."""
        with self.lock:
            self.live = live
            self.sessions[live.id] = live

    def server_close(self):
        """Stop listening and put every board away, its temp folder with it."""
        super().server_close()
        with self.lock:
            for s in self.sessions.values():
                s.close()
            self.sessions.clear()


def _answer(code, message):
    """A whole error answer, for where no handler writes it."""
    body = json.dumps({"error": message}).encode()
    return (b"HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s"
            % (code, HTTPStatus(code).phrase.encode(), len(body), body))


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
        self.timeout = self.server.timeout_s + 2  # each read and write; later than the 408 for a late request
        super().setup()

    def log_message(self, format, *args):
        pass  # the terminal shows the address and errors, not every request

    def handle_one_request(self):
        with self.server.lock:
            self.server.waiting[self.connection] = time.monotonic() + self.server.timeout_s
        try:
            super().handle_one_request()
        finally:
            self._arrived()

    def _arrived(self):
        """The request is read whole: no deadline while it is answered."""
        with self.server.lock:
            self.server.waiting.pop(self.connection, None)

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
        body = self.rfile.read(length)  # (a late body gets the 408 of service_actions)
        if len(body) < length:
            raise Refused(400, "the body ended after %d of its %d bytes" % (len(body), length))
        self._arrived()
        return body.decode("utf-8", "replace")

    def _session(self, key):
        found = self.server.sessions.get(key)
        if found is None:
            self._error(404, "no such board: it was closed, or the server restarted")
        return found

    # -- routes ---------------------------------------------------------------------------

    def do_GET(self):
        self._arrived()
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
                self._json(200, {"id": self.server.live.id})
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
        sent = {}  # kind -> the event last written: a stream that fell a whole animation behind skips a repeat
        with found.lock:
            found.listeners += 1
        try:
            while not found.closed:
                news = found.updates(seen)
                fresh = [event for kind, _, event in news if sent.get(kind) != event]
                for kind, version, event in news:
                    seen[kind], sent[kind] = version, event
                if fresh or not news:
                    self.wfile.write(b"".join(fresh) or b": still here\n\n")  # the heartbeat
                    self.wfile.flush()
        except OSError:
            pass  # the page went away
        finally:
            with found.lock:
                found.listeners -= 1
                found.idle_since = time.monotonic()
