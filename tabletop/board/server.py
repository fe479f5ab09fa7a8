"""The board's web server: the standard library's ThreadingHTTPServer, server-sent events.

Routes (under ``/TOKEN/`` when shared on the network, else under ``/``): the page, ``events``
(a text/event-stream that sends the board's data at once and again on every change) and
``state`` (the data as JSON). Everything else is 404; only GET and HEAD are served.
"""

from __future__ import annotations

import io
import json
import secrets
import socket
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Mapping

from tabletop.board.page import PAGE
from tabletop.board.view import board_view

__all__ = ["Board", "LOOPBACK"]

LOOPBACK = ("127.0.0.1", "localhost", "::1")
HEARTBEAT_SECONDS = 15.0  # a comment line keeps idle connections (and proxies) open


class Board:
    """A live page of the game, served while the game runs.

    :param host: the address to listen on; anything but loopback shares the board on the network,
        and then every URL carries a random token (``secrets.token_urlsafe``) and requests without
        it get 404.
    :param port: 0 for a free port.
    """

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self.host = host
        self.port = port
        self.shared = host not in LOOPBACK
        self.token = secrets.token_urlsafe(16) if self.shared else ""
        self.base = f"/{self.token}/" if self.token else "/"
        self._changed = threading.Condition()
        self._version = 0
        self._data: dict[str, Any] = board_view({}, "", 0)
        self._closed = False
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # ---- the game's side ----

    def publish(self, public: Mapping[str, Any], last: str = "") -> None:
        """Show a new public state and the last thing said (never raises: the game goes on)."""
        try:
            with self._changed:
                self._version += 1
                self._data = board_view(public, last, self._version)
                self._changed.notify_all()
        except Exception:  # noqa: BLE001 - a board problem must never stop the game
            pass

    @property
    def data(self) -> dict[str, Any]:
        with self._changed:
            return self._data

    def wait_newer(self, version: int, timeout: float) -> dict[str, Any] | None:
        """The data once its version is above ``version``; None on timeout or when closed."""
        with self._changed:
            self._changed.wait_for(lambda: self._closed or self._version > version, timeout)
            if self._closed or self._version <= version:
                return None
            return self._data

    # ---- serving ----

    def start(self) -> "Board":
        handler = type("BoardHandler", (_Handler,), {"board": self})
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        server_class = type("BoardServer", (ThreadingHTTPServer,), {"address_family": family,
                                                                    "daemon_threads": True})
        self._server = server_class((self.host, self.port), handler)
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.1},
                                        name="tabletop-board", daemon=True)
        self._thread.start()
        return self

    @property
    def url(self) -> str:
        host = _lan_address() if self.shared and self.host in ("0.0.0.0", "::", "") else self.host
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}{self.base}"

    def qr_text(self) -> str:
        """The URL as a QR code drawn in the terminal (for a phone's camera), with the URL below it."""
        import segno

        buffer = io.StringIO()
        segno.make(self.url, error="m").terminal(out=buffer, compact=True)
        return buffer.getvalue() + self.url

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._changed.notify_all()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> "Board":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _lan_address() -> str:
    """This machine's address on the home network (no packet is sent), else its hostname."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.254.254.254", 1))
            return str(probe.getsockname()[0])
    except OSError:
        return socket.gethostname()


class _Handler(BaseHTTPRequestHandler):
    board: Board
    protocol_version = "HTTP/1.1"
    server_version = "tabletop-board"
    sys_version = ""

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the game's output stays clean
        pass

    def do_HEAD(self) -> None:  # noqa: N802
        self._route(head=True)

    def do_GET(self) -> None:  # noqa: N802
        self._route(head=False)

    def _route(self, head: bool) -> None:
        parts = self.path.split("?", 1)[0].split("/")[1:]  # "/TOKEN/events" -> ["TOKEN", "events"]
        token = self.board.token
        if token:
            if not parts or not secrets.compare_digest(parts[0].encode(), token.encode()):
                parts = ["-", "(no token)"]
            elif len(parts) == 1:  # "/TOKEN": the page's relative links need "/TOKEN/"
                self.send_response(HTTPStatus.MOVED_PERMANENTLY)
                self.send_header("Location", self.board.base)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            else:
                parts = parts[1:]
        route = "/".join(parts)
        if route == "":
            self._send(HTTPStatus.OK, "text/html; charset=utf-8", PAGE.encode("utf-8"), head)
        elif route == "state":
            self._send(HTTPStatus.OK, "application/json", json.dumps(self.board.data).encode("utf-8"), head)
        elif route == "events" and not head:
            self._events()
        else:
            self._send(HTTPStatus.NOT_FOUND, "text/plain; charset=utf-8", b"not found\n", head)

    def _send(self, status: HTTPStatus, kind: str, body: bytes, head: bool) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Content-Security-Policy",
                         "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                         "connect-src 'self'; img-src 'self' data:")
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def _events(self) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "keep-alive")
        self.end_headers()
        self.close_connection = True
        data: dict[str, Any] | None = self.board.data
        try:
            while True:
                if data is not None:
                    message = f"data: {json.dumps(data, ensure_ascii=False)}\n\n"
                    version = int(data["version"])
                else:
                    message = ": still here\n\n"
                self.wfile.write(message.encode("utf-8"))
                self.wfile.flush()
                if self.board._closed:
                    return
                data = self.board.wait_newer(version, HEARTBEAT_SECONDS)
        except (BrokenPipeError, ConnectionResetError, OSError):
            return
