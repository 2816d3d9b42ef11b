"""The real web server for the edge tests: gunicorn with `config/gunicorn.py`, on the test database.

The server binds port 0 and the fixture reads the port it got from gunicorn's log, so parallel
runs never collide; it is ready when `/healthz` answers 200, polled until a deadline. It is
stopped when the session ends, whatever happened.
"""

import http.client
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, urlencode

import pytest
from django.conf import settings
from django.db import connection

START_SECONDS = 60
LISTENING = re.compile(r"Listening at: http://127\.0\.0\.1:(\d+)")


@dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage
    body: bytes
    closed: bool = field(default=False)  # the server closed the connection after answering


@dataclass
class EdgeServer:
    process: subprocess.Popen[bytes]
    log: Path
    port: int = 0

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def log_size(self) -> int:
        return self.log.stat().st_size

    def output_since(self, offset: int) -> str:
        with self.log.open("rb") as log:
            log.seek(offset)
            return log.read().decode(errors="replace")

    def send(self, raw: bytes) -> Answer:
        """Send `raw` as it is over a new connection and read the one answer."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=10) as sock:
            sock.sendall(raw)
            response = http.client.HTTPResponse(sock)
            response.begin()
            body = response.read()
            try:
                closed = sock.recv(1) == b""
            except ConnectionResetError:
                closed = True
            return Answer(status=response.status, headers=response.headers, body=body, closed=closed)

    def get(self, path: str, *, headers: dict[str, str] | None = None) -> Answer:
        fields = {"Host": "127.0.0.1", "Connection": "close", **(headers or {})}
        lines = [f"GET {path} HTTP/1.1", *(f"{name}: {value}" for name, value in fields.items())]
        return self.send(("\r\n".join(lines) + "\r\n\r\n").encode())

    def wait_for_output(self, condition: Callable[[str], bool], *, since: int, what: str) -> str:
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            text = self.output_since(since)
            if condition(text):
                return text
            if self.process.poll() is not None:
                pytest.fail(
                    f"gunicorn exited ({self.process.returncode}) before {what}:\n{self.output()[-5000:]}"
                )
            time.sleep(0.05)
        pytest.fail(f"no {what} within {START_SECONDS} s; gunicorn's log:\n{self.output()[-5000:]}")


def _database_url() -> str:
    """The test database as the server's settings read it (a Unix-socket host goes in the query)."""
    db = connection.settings_dict
    query = urlencode({"host": db["HOST"], "port": db["PORT"]})
    return f"postgres://{quote(db['USER'])}:{quote(db['PASSWORD'] or '')}@/{quote(db['NAME'])}?{query}"


def _start(work: Path) -> EdgeServer:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.edge.settings",
        "DATABASE_URL": _database_url(),
        "DJANGO_CONN_MAX_AGE": "0",  # no idle connection left to hold up the test database's reset
        "CELERY_BROKER_DIR": str(work / "broker"),
        "WEB_CONCURRENCY": "1",
        "WEB_THREADS": "2",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(settings.BASE_DIR), os.environ.get("PYTHONPATH")])),
    }
    log = work / "gunicorn.log"
    argv = [
        sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.py", "config.wsgi",
        "--bind", "127.0.0.1:0", "--no-control-socket",
    ]  # fmt: skip
    with log.open("wb") as out:
        process = subprocess.Popen(  # noqa: S603 - our own interpreter and arguments
            argv,
            cwd=settings.BASE_DIR,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    return EdgeServer(process=process, log=log)


def _wait_ready(server: EdgeServer) -> None:
    logged = server.wait_for_output(
        lambda text: bool(LISTENING.search(text)), since=0, what="listening socket"
    )
    listening = LISTENING.search(logged)
    assert listening is not None
    server.port = int(listening.group(1))
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            pytest.fail(f"gunicorn exited ({server.process.returncode}):\n{server.output()[-5000:]}")
        try:
            if server.get("/healthz").status == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    pytest.fail(f"/healthz did not answer 200 within {START_SECONDS} s:\n{server.output()[-5000:]}")


def _stop(server: EdgeServer) -> None:
    if server.process.poll() is None:
        server.process.send_signal(signal.SIGTERM)
        try:
            server.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait(timeout=10)


@pytest.fixture(scope="session")
def edge_server(django_db_setup: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[EdgeServer]:
    server = _start(tmp_path_factory.mktemp("edge"))
    try:
        _wait_ready(server)
        yield server
    finally:
        _stop(server)
