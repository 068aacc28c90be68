"""The HTTP side: the page, JSON for what the player does, Server-Sent Events
for what the board shows.

    GET  /                           the page (static/)
    GET  /api/games                  the games, their player counts and rule options
    POST /api/sessions               {"game", "players", "seats", "options"} -> {"id"}
    POST /api/replay                 a game record (JSON Lines) -> {"id"} at its end
    GET  /api/sessions/ID/events     the news as it happens: board, record, state, frame
    POST /api/sessions/ID            one action: {"do": "space" | "button" | "turn" | ..., "n": ...}
    GET  /api/sessions/ID/record     the game record so far (game.jsonl)

``make_server(port=0)`` gives a server to run in a thread (the tests do);
``python -m host.web`` runs one until Ctrl-C.
"""

import json
import mimetypes
import os
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from host.web import layout, session
from rules.core import RulesError

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
MAX_BODY = 1 << 20  # a record of a long game is well under 100 KB
IDLE_S = 600  # a board nobody has watched for this long is put away
MAX_SESSIONS = 20


class SimServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address, urandom=os.urandom, pace_ms=600):
        self.sessions = {}
        self.options = {"urandom": urandom, "pace_ms": pace_ms}
        self.catalogue = layout.catalogue()
        super().__init__(address, Handler)

    @property
    def url(self):
        host, port = self.server_address[:2]
        return "http://%s:%d/" % (host, port)

    def add(self, made):
        """Keep a new session; put away the ones nobody watches any more."""
        now = time.monotonic()
        for key, old in list(self.sessions.items()):
            if old.listeners == 0 and (now - old.idle_since > IDLE_S or len(self.sessions) >= MAX_SESSIONS):
                old.close()
                del self.sessions[key]
        self.sessions[made.id] = made
        return made

    def server_close(self):
        super().server_close()
        for s in self.sessions.values():
            s.close()


def make_server(host="127.0.0.1", port=0, urandom=os.urandom, pace_ms=600):
    """A server on ``host:port`` (0: any free port); ``urandom`` is the dice's
    random source, ``pace_ms`` how long a computer seat takes per action."""
    return SimServer((host, port), urandom, pace_ms)


def _object(body):
    ask = json.loads(body or "{}")
    if not isinstance(ask, dict):
        raise ValueError("expected a JSON object")
    return ask


class Handler(BaseHTTPRequestHandler):
    server_version = "BoardSim/1"
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        pass  # the terminal shows the address and errors, not every request

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
        self._json(code, {"error": message})

    def _body(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            raise ValueError("the request is too large")
        return self.rfile.read(length).decode("utf-8", "replace")

    def _session(self, key):
        found = self.server.sessions.get(key)
        if found is None:
            self._error(404, "no such board: it was closed, or the server restarted")
        return found

    # -- routes ---------------------------------------------------------------------------

    def do_GET(self):
        path = self.path.split("?")[0]
        parts = path.strip("/").split("/")
        if path == "/":
            self._static("index.html")
        elif parts[0] == "static" and len(parts) == 2:
            self._static(parts[1])
        elif path == "/api/games":
            self._json(200, self.server.catalogue)
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

    def do_POST(self):
        parts = self.path.split("?")[0].strip("/").split("/")
        try:
            body = self._body()
            if parts == ["api", "sessions"]:
                ask = _object(body)
                made = session.create(ask.get("game"), ask.get("players"), ask.get("seats"), ask.get("options"),
                                      **self.server.options)
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
        except (ValueError, RulesError) as err:
            self._error(400, str(err) or "bad request")

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
        with found.lock:
            found.listeners += 1
        try:
            while not found.closed:
                fresh = found.updates(seen)
                chunk = "".join("event: %s\ndata: %s\n\n" % (kind, json.dumps(payload)) for kind, _, payload in fresh)
                self.wfile.write((chunk or ": still here\n\n").encode())
                self.wfile.flush()
                for kind, version, _ in fresh:
                    seen[kind] = version
        except OSError:
            pass  # the page went away
        finally:
            with found.lock:
                found.listeners -= 1
                found.idle_since = time.monotonic()
