"""Load test of the dealer-terminal API: N terminals playing tie-bonus rounds against a real service.

    .venv/bin/python bench/load.py [--project-dir DIR] [--terminals 32] [--rate 100 | --flat-out]
        [--duration 30] [--warmup 5] [--shoe reported|electronic|mix] [--seats mix|N|A-B]
        [--workers W] [--threads T] [--database-url URL] [--url http://host:port] [--env K=V]
        [--arrivals poisson|fixed] [--drain S] [--timeout S] [--aggregate-limit-cents C] [--access-log]
        [--no-open-tables] [--seed N]

What it measures
----------------
Each simulated terminal is bound to its own table (provisioned by the bench) and plays complete
rounds through the HTTP API, one call at a time: it opens a round (1-7 seats, a primary wager on
each and bonus wagers within the table's limits and side limits), then does whatever the round's
`needs` asks for -- reports the next card of its own shuffled 6-deck shoe (reported shoes; the
service deals with electronic ones), takes an action from `allowed` (a rough basic strategy with
some randomness: hit, stand, double, split, surrender) or answers insurance -- and settles. When
the cut card comes out the terminal opens a new shoe. Every POST carries a fresh Idempotency-Key,
and every change of a round its `expected_seq` (opening a round has none to send). A POST whose
answer is lost (time-out, dropped connection) or whose twin is still in progress (409
`request_in_progress`) is sent again with the same Idempotency-Key, as a real terminal would; any
other refusal or server error makes the terminal reload its state (`GET /api/v1/terminal/`) and
carry on.

Open loop (`--rate R`, calls per second across all terminals): each terminal has its own
schedule of calls, Poisson (or fixed, `--arrivals fixed`) with a mean gap of N/R seconds, kept
whatever the answers; a terminal still waits for a call's answer before sending its next one, so
when the service falls behind, the terminal's calls queue up behind their scheduled times.
Latency is measured from the *scheduled* send time (no coordinated omission), so queueing shows
up in the figures. Flat out (`--flat-out` or `--rate 0`): each terminal sends its next call as
soon as the last one is answered (closed loop; latency = service time).

The client is asyncio with one raw keep-alive HTTP/1.1 connection per terminal (reconnecting
when the server closes it, as gunicorn's sync workers do after every response), standard library
only, so it costs little of the CPU it shares with the server.

It prints the achieved calls/s, latency percentiles per endpoint (open, card, action, settle,
shoe, sync, and all), errors by endpoint, status and problem code, and the CPU seconds per call
of the gunicorn processes (master and workers) and of the PostgreSQL server (postmaster and all
its children: backends, including those that exit inside the window, through the parents'
cumulative child times, plus the WAL writer and checkpointer), from /proc before and after the
measured window.

Service under test
------------------
By default the bench starts the service itself from `--project-dir` (default: the checkout this
script lives in; `--project-dir /work/baseline` measures another one): a fresh database on the
local PostgreSQL (postgres://postgres@127.0.0.1:5432/bench_load_<tag>, or `--database-url`),
`manage.py migrate` with DJANGO_SECRET_KEY set and DJANGO_DEBUG=0, tables, terminals, dealers
and staff through the project's own `provision_table` and `create_staff` commands (in one
`manage.py shell` process, reading their JSON output), then gunicorn on the project's WSGI module
(`config.wsgi` when `config/wsgi.py` exists, else `casino.wsgi`) as the project's run command
starts it: with its gunicorn settings file (`-c config/gunicorn.py`) and that file's workers and
threads when there is one, else the run command's default worker count (`--workers`,
`--threads` to change them); the access log is off unless `--access-log`. Through the API it then checks
that a paytable is approved (proposing and approving one if none is), signs a dealer in on each
terminal, opens each table for the shift and opens a shoe. At the end it stops gunicorn and drops
the database it created. With `--url` it drives a service that is already running instead; it
then provisions its tables in that service's database (`--database-url`, required) with the
`--project-dir` checkout, and leaves both running.
"""

import argparse
import asyncio
import dataclasses
import json
import math
import os
import random
import re
import runpy
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg

DEFAULT_SERVER = "postgres://postgres@127.0.0.1:5432"
API = "/api/v1"
DECKS = 6
RANKS = "A23456789TJQK"
SUITS = "SHDC"
LEFT_KINDS = ("LS", "T17", "T18", "T19")
RIGHT_KINDS = ("RS", "T20", "T21", "TBJ")
PRIMARY_STAKES = (500, 1_000, 2_500, 5_000, 10_000, 25_000)
# How many seats a round has, by default: mostly a few players, sometimes a full table.
SEAT_MIX = {1: 14, 2: 18, 3: 18, 4: 16, 5: 13, 6: 11, 7: 10}
# The opener of each table: 100 x $25 + 350 x $100 (API.md's example).
OPENER = {"total_cents": 3_750_000, "chips": {"2500": 100, "10000": 350}}
DEFAULT_PAYS = {"T17": 45, "T18": 45, "T19": 45, "T20": 25, "T21": 150, "TBJ": 350, "LS": 15, "RS": 20}
MAX_ATTEMPTS = 5  # sends of one POST whose answer is lost, before falling back to a reload
ENDPOINTS = ("open", "card", "action", "settle", "shoe", "sync")
CLK_TCK = os.sysconf("SC_CLK_TCK")


# --- the service under test -----------------------------------------------------------------------


def _fail(message: str) -> SystemExit:
    return SystemExit(f"load.py: {message}")


def wsgi_module(project: Path) -> str:
    return "config.wsgi" if (project / "config" / "wsgi.py").exists() else "casino.wsgi"


def gunicorn_config(project: Path) -> Path | None:
    """The gunicorn settings file the project's run command passes with `-c`, if it has one."""
    for candidate in ("config/gunicorn.py", "gunicorn.conf.py", "casino/gunicorn.py"):
        if (project / candidate).exists():
            return project / candidate
    return None


def web_concurrency(project: Path, env: dict[str, str]) -> tuple[int, int, str]:
    """Workers and threads as the project's run command starts gunicorn, and where that came from.

    Its settings file when it has one (evaluated with the service's environment), else the
    defaults of the run command's `--web-workers` / `--web-threads` options, else 2 x 1."""
    config = gunicorn_config(project)
    if config is not None:
        saved = dict(os.environ)
        os.environ.clear()
        os.environ.update(env)
        try:
            values = runpy.run_path(str(config))
        finally:
            os.environ.clear()
            os.environ.update(saved)
        return int(values.get("workers", 1)), int(values.get("threads", 1)), str(config.relative_to(project))
    workers, threads, source = 2, 1, "bench default"
    for path in sorted(project.glob("*/management/commands/run_service.py")):
        text = path.read_text()
        found = re.search(r"""["']--web-workers["'][^)]*?default\s*=\s*(\d+)""", text)
        if found:
            workers, source = int(found.group(1)), str(path.relative_to(project))
        found = re.search(r"""["']--(?:web-)?threads["'][^)]*?default\s*=\s*(\d+)""", text)
        if found:
            threads = int(found.group(1))
    return workers, threads, source


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))


def database_name(url: str) -> str:
    return urlsplit(url).path.lstrip("/")


def _admin_execute(url: str, sql: str) -> None:
    with psycopg.connect(with_database(url, "postgres"), autocommit=True) as conn:
        conn.execute(sql.encode())


@contextmanager
def scratch_database(url: str | None, tag: str) -> Iterator[str]:
    """The database to run against: created here (and dropped at the end) unless it already exists."""
    url = url or f"{DEFAULT_SERVER}/bench_load_{tag}"
    name = database_name(url)
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise _fail(f"unusual database name {name!r}; use letters, digits and underscores")
    with psycopg.connect(with_database(url, "postgres"), autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
    if exists:
        print(f"database {name} exists: using it and keeping it")
        yield url
        return
    _admin_execute(url, f'CREATE DATABASE "{name}"')
    try:
        yield url
    finally:
        _admin_execute(url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        print(f"dropped database {name}")


def service_env(database_url: str, work: Path, extra: list[str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE", "DJANGO_DEMO")}
    env.update(
        DATABASE_URL=database_url,
        DJANGO_SECRET_KEY=secrets.token_urlsafe(48),
        DJANGO_DEBUG="0",
        DJANGO_LOG_LEVEL="WARNING",
        CELERY_BROKER_DIR=str(work / "broker"),
        WEB_ACCESS_LOG="",  # no access log unless --access-log (the settings file reads this)
    )
    env.setdefault("PYTHONWARNINGS", "ignore:No directory at:UserWarning")  # whitenoise, no static files
    for item in extra:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise _fail(f"--env takes KEY=VALUE, not {item!r}")
        env[key] = value
    return env


def manage(project: Path, env: dict[str, str], *args: str) -> str:
    result = subprocess.run(  # noqa: S603
        [sys.executable, "manage.py", *args],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise _fail(f"manage.py {args[0]} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
    return result.stdout


PROVISION_SNIPPET = """
import io, json
from django.core.management import call_command

from django.core.management import get_commands, load_command_class

def run(*args):
    out = io.StringIO()
    call_command(*args, stdout=out)
    text = out.getvalue().strip()
    return json.loads(text[text.index("{"):])

# Checkouts whose provision_table creates no pit or casino unless asked are asked to.
_options = load_command_class(get_commands()["provision_table"], "provision_table").create_parser("", "")
PLACE = (["--casino", "Bench casino", "--create-casino", "--pit", "Bench pit", "--create-pit"]
         if any("--create-pit" in action.option_strings for action in _options._actions) else [])

made = {"tables": [run("provision_table", "--name", name, "--decks", "6", *PLACE, *EXTRA) for name in NAMES],
        "staff": {role: run("create_staff", "--username", f"{PREFIX}-{role}", "--role", role)
                  for role in ROLES}}
print("BENCH-JSON " + json.dumps(made))
"""


def provision(
    project: Path, env: dict[str, str], *, tag: str, terminals: int, extra: list[str]
) -> dict[str, Any]:
    """Tables (with terminal and dealer) and staff through the project's own management commands."""
    names = [f"LOAD-{tag}-{i + 1:03d}" for i in range(terminals)]
    code = (
        f"NAMES = {names!r}\nEXTRA = {extra!r}\nPREFIX = 'bench-{tag}'\n"
        "ROLES = ['floor_supervisor', 'pit_boss', 'compliance']\n" + PROVISION_SNIPPET
    )
    out = manage(project, env, "shell", "-c", code)
    for line in out.splitlines():
        if line.startswith("BENCH-JSON "):
            made: dict[str, Any] = json.loads(line.removeprefix("BENCH-JSON "))
            return made
    raise _fail(f"no JSON from the provisioning commands:\n{out}")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Gunicorn:
    def __init__(
        self,
        project: Path,
        env: dict[str, str],
        *,
        workers: int,
        threads: int,
        log: Path,
        access_log: Path | None,
    ) -> None:
        self.port = free_port()
        self.log = log
        config = gunicorn_config(project)
        argv = [
            sys.executable, "-m", "gunicorn", *(["-c", str(config)] if config else []), wsgi_module(project),
            "--bind", f"127.0.0.1:{self.port}", "--workers", str(workers), "--threads", str(threads),
            "--log-level", "warning",
            "--error-logfile", "-", *(["--access-logfile", str(access_log)] if access_log else []),
        ]  # fmt: skip
        # gunicorn's own log and whatever the application writes (tracebacks of 500s) go to one file.
        with open(log, "ab") as output:
            self.process = subprocess.Popen(  # noqa: S603
                argv, cwd=project, env=env, stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT
            )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise _fail(f"gunicorn exited with {self.process.returncode}:\n{self.log_tail()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock:
                    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    if sock.recv(16).startswith(b"HTTP/1."):
                        return
            except OSError:
                pass
            time.sleep(0.2)
        raise _fail(f"gunicorn did not answer within {timeout:.0f} s:\n{self.log_tail()}")

    def log_tail(self, lines: int = 30) -> str:
        if not self.log.exists():
            return ""
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])

    def tracebacks(self) -> int:
        return (
            self.log.read_text(errors="replace").count("Traceback (most recent call last)")
            if self.log.exists()
            else 0
        )

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


# --- CPU accounting from /proc ----------------------------------------------------------------------


def _proc_stat(pid: int) -> tuple[int, int] | None:
    """(ppid, utime + stime + cutime + cstime in clock ticks) of a live process."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    # fields[0] is field 3 (state): ppid is field 4, utime..cstime fields 14..17.
    return int(fields[1]), sum(int(x) for x in fields[11:15])


def tree_cpu_seconds(root: int) -> float:
    """CPU time of a process tree: every live member's own time plus its reaped children's.

    A child that exited (a PostgreSQL backend at the end of its connection, a restarted worker)
    is counted in its parent's cumulative child times once reaped, so the sum over the live tree
    covers the dead as well."""
    stats: dict[int, tuple[int, int]] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            stat = _proc_stat(int(entry.name))
            if stat is not None:
                stats[int(entry.name)] = stat
    children: dict[int, list[int]] = {}
    for pid, (ppid, _) in stats.items():
        children.setdefault(ppid, []).append(pid)
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        if pid in stats:
            total += stats[pid][1]
            todo.extend(children.get(pid, []))
    return total / CLK_TCK


def listening_pid(port: int) -> int | None:
    """The oldest process holding the listening TCP socket on `port` (gunicorn's master)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with suppress(OSError), open(table) as lines:
            next(lines)
            for line in lines:
                parts = line.split()
                if parts[3] == "0A" and int(parts[1].rsplit(":", 1)[1], 16) == port:
                    inodes.add(f"socket:[{parts[9]}]")
    holders = set()
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        with suppress(OSError):
            for fd in os.scandir(f"/proc/{entry.name}/fd"):
                with suppress(OSError):
                    if os.readlink(fd.path) in inodes:
                        holders.add(int(entry.name))
                        break
    for pid in holders:
        stat = _proc_stat(pid)
        if stat is not None and stat[0] not in holders:
            return pid
    return None


def postmaster_pid(conn: psycopg.Connection[Any]) -> int | None:
    """The PostgreSQL server's main process: the parent of this connection's backend (local servers only)."""
    row = conn.execute("SELECT pg_backend_pid()").fetchone()
    stat = _proc_stat(int(row[0])) if row else None
    if stat is None:
        return None
    cmdline = Path(f"/proc/{stat[0]}/cmdline").read_bytes().split(b"\0")[0]
    return stat[0] if cmdline.endswith(b"postgres") or b"postmaster" in cmdline else None


@dataclasses.dataclass
class Snapshot:
    at: float
    web: float | None
    postgres: float | None
    client: float
    other_commits: int


class CpuMeter:
    """Before/after readings of the web server's and PostgreSQL's process trees."""

    def __init__(self, *, web_root: int | None, database_url: str) -> None:
        self.web_root = web_root
        self.conn = psycopg.connect(database_url, autocommit=True)
        self.database = database_name(database_url)
        self.pg_root = postmaster_pid(self.conn)

    def snapshot(self) -> Snapshot:
        row = self.conn.execute(
            "SELECT coalesce(sum(xact_commit), 0) FROM pg_stat_database WHERE datname IS DISTINCT FROM %s",
            [self.database],
        ).fetchone()
        times = os.times()
        return Snapshot(
            at=time.monotonic(),
            web=tree_cpu_seconds(self.web_root) if self.web_root else None,
            postgres=tree_cpu_seconds(self.pg_root) if self.pg_root else None,
            client=times.user + times.system,
            other_commits=int(row[0]) if row else 0,
        )

    def close(self) -> None:
        self.conn.close()


# --- HTTP/1.1 client ----------------------------------------------------------------------------------


@dataclasses.dataclass
class Answer:
    status: int
    body: Any
    code: str
    replayed: bool = False
    etag: str = ""


class ConnectionLost(Exception):
    pass


class Http:
    """One persistent HTTP/1.1 connection (reopened when the server closes it)."""

    def __init__(self, url: str, token: str | None) -> None:
        parts = urlsplit(url)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80
        self.prefix = parts.path.rstrip("/")
        auth = f"Authorization: Token {token}\r\n" if token else ""
        self.head = f"Host: {parts.netloc}\r\n{auth}Accept: application/json\r\n"
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.connects = 0

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with suppress(OSError, asyncio.CancelledError):
                await self.writer.wait_closed()
        self.reader = self.writer = None

    async def request(
        self, method: str, path: str, body: Any = None, *, key: str | None = None, if_none_match: str = ""
    ) -> Answer:
        """Send one request; a POST carries `key` as its Idempotency-Key (a fresh one by default), a
        conditional GET `if_none_match`."""
        data = b"" if body is None else json.dumps(body, separators=(",", ":")).encode()
        head = f"{method} {self.prefix}{path} HTTP/1.1\r\n{self.head}"
        if if_none_match:
            head += f"If-None-Match: {if_none_match}\r\n"
        if method == "POST":
            head += f"Idempotency-Key: {key or secrets.token_hex(16)}\r\n"
            head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
        message = (head + "\r\n").encode() + data
        reused = self.writer is not None
        try:
            return await self._exchange(message)
        except ConnectionLost:
            if not reused:
                raise
        # A kept-alive connection the server had closed meanwhile: send again (same key) on a new one.
        return await self._exchange(message)

    async def _exchange(self, message: bytes) -> Answer:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
            self.connects += 1
        assert self.reader is not None  # noqa: S101
        got_status = False
        try:
            self.writer.write(message)
            await self.writer.drain()
            line = await self.reader.readline()
            if not line:
                raise ConnectionLost
            got_status = True
            status = int(line.split(None, 2)[1])
            headers: dict[str, str] = {}
            while True:
                line = await self.reader.readline()
                if line in (b"\r\n", b"\n", b""):
                    break
                name, _, value = line.decode("latin-1").partition(":")
                headers[name.strip().lower()] = value.strip()
            if status in (204, 304):
                raw = b""  # no body, whatever the headers say
            elif "content-length" in headers:
                raw = await self.reader.readexactly(int(headers["content-length"]))
            elif headers.get("transfer-encoding", "").lower() == "chunked":
                raw = await self._chunked()
            else:
                raw = await self.reader.read()
                headers["connection"] = "close"
        except (ConnectionError, asyncio.IncompleteReadError) as exc:
            await self.close()
            if got_status:
                raise
            raise ConnectionLost from exc
        except BaseException:
            await self.close()
            raise
        if headers.get("connection", "").lower() == "close":
            await self.close()
        body: Any = None
        if raw:
            try:
                body = json.loads(raw)
            except ValueError:
                body = raw[:200].decode("utf-8", "replace")
        code = body.get("code", "") if isinstance(body, dict) and status >= 400 else ""
        replayed = headers.get("idempotent-replayed") == "true"
        return Answer(status, body, str(code), replayed, headers.get("etag", ""))

    async def _chunked(self) -> bytes:
        assert self.reader is not None  # noqa: S101
        chunks: list[bytes] = []
        while True:
            size = int((await self.reader.readline()).split(b";")[0], 16)
            if size == 0:
                await self.reader.readline()
                return b"".join(chunks)
            chunks.append(await self.reader.readexactly(size))
            await self.reader.readline()


def call_sync(url: str, token: str | None, method: str, path: str, body: Any = None) -> Answer:
    async def go() -> Answer:
        http = Http(url, token)
        try:
            return await http.request(method, path, body)
        finally:
            await http.close()

    return asyncio.run(go())


# --- the terminals --------------------------------------------------------------------------------------


def new_shoe_cards(rng: random.Random) -> list[str]:
    cards = [rank + suit for rank in RANKS for suit in SUITS] * DECKS
    rng.shuffle(cards)
    return cards


def round_cards(round_: dict[str, Any]) -> int:
    return len(round_["dealer"]["cards"]) + sum(
        len(hand["cards"]) for seat in round_["seats"] for hand in seat["hands"]
    )


@dataclasses.dataclass
class Call:
    endpoint: str
    method: str
    path: str
    body: Any = None
    card: str | None = None
    expected_seq: int | None = None
    # A fresh Idempotency-Key per call; a retry after a lost answer sends the same one again.
    key: str = dataclasses.field(default_factory=lambda: secrets.token_hex(16))
    attempts: int = 1


@dataclasses.dataclass
class Terminal:
    index: int
    http: Http
    mode: str
    limits: dict[str, dict[str, int]]
    penetration: int
    seat_counts: list[int]
    rng: random.Random
    shoe_id: int | None = None
    shoe_dealt: int = 0
    cards: list[str] = dataclasses.field(default_factory=list)
    round: dict[str, Any] | None = None
    resync: bool = False
    pending: Call | None = None  # the call whose failure caused the resync
    retry: Call | None = None  # a POST whose answer was lost, to send again with the same key

    # What to send next ------------------------------------------------------------------------------

    def next_call(self) -> Call:
        if self.retry is not None:
            call, self.retry = self.retry, None
            call.attempts += 1
            return call
        if self.resync:
            return Call("sync", "GET", f"{API}/terminal/")
        if self.shoe_id is None:
            return Call("shoe", "POST", f"{API}/shoes/", {"mode": self.mode, "decks": DECKS})
        need = self.round["needs"] if self.round else None
        if need is None:
            return Call("open", "POST", f"{API}/rounds/", {"seats": self.seats()})
        assert self.round is not None  # noqa: S101
        rid, seq = self.round["id"], self.round["seq"]
        if need["kind"] == "card":
            if not self.cards:  # out of step with the service's shoe: go on with a fresh shuffle
                self.cards = new_shoe_cards(self.rng)
            card = self.cards[-1]
            return Call(
                "card",
                "POST",
                f"{API}/rounds/{rid}/cards/",
                {"card": card, "expected_seq": seq},
                card=card,
                expected_seq=seq,
            )
        if need["kind"] == "settle":
            return Call(
                "settle", "POST", f"{API}/rounds/{rid}/settle/", {"expected_seq": seq}, expected_seq=seq
            )
        body = self.insurance(need) if need["kind"] == "insurance" else self.action(need)
        body["expected_seq"] = seq
        return Call("action", "POST", f"{API}/rounds/{rid}/actions/", body, expected_seq=seq)

    def _limit(self, kind: str) -> tuple[int, int]:
        limit = self.limits.get(kind) or {}
        return int(limit.get("min_cents", 100)), int(limit.get("max_cents", 10**9))

    def seats(self) -> list[dict[str, Any]]:
        rng = self.rng
        low, high = self._limit("primary")
        stakes = [s for s in PRIMARY_STAKES if low <= s <= high] or [low]
        chosen = sorted(rng.sample(range(1, 8), rng.choice(self.seat_counts)))
        seats = []
        for seat in chosen:
            primary = rng.choice(stakes)
            wagers = [{"kind": "primary", "amount_cents": primary}]
            for side in (LEFT_KINDS, RIGHT_KINDS):
                room = primary // 2
                if rng.random() < 0.5:
                    continue
                for kind in rng.sample(side, rng.randint(1, 2)):
                    kmin, kmax = self._limit(kind)
                    if room < kmin:
                        break
                    amount = min(kmax, room, rng.choice((100, 200, 500, 1_000, 2_500)))
                    if amount < kmin:
                        continue
                    wagers.append({"kind": kind, "amount_cents": amount})
                    room -= amount
            seats.append({"seat": seat, "player": None, "wagers": wagers})
        return seats

    def insurance(self, need: dict[str, Any]) -> dict[str, Any]:
        body: dict[str, Any] = {"seat": need["seat"], "hand": 0, "action": "decline_insurance"}
        if need.get("max_cents") and self.rng.random() < 0.2:
            body.update(action="insurance", amount_cents=self.rng.randint(1, int(need["max_cents"])))
        return body

    def action(self, need: dict[str, Any]) -> dict[str, Any]:
        allowed = list(need.get("allowed") or ["stand"])
        seat, hand_no = need["seat"], need["hand"]
        hand: dict[str, Any] = {}
        assert self.round is not None  # noqa: S101
        for placed in self.round["seats"]:
            if placed["seat"] == seat and hand_no < len(placed["hands"]):
                hand = placed["hands"][hand_no]
        total, soft = int(hand.get("total", 12)), bool(hand.get("soft"))
        up = (self.round["dealer"]["cards"] or ["TS"])[0][0]
        strong = up in "789TJQKA"
        rng = self.rng
        if rng.random() < 0.05:
            choice = rng.choice(allowed)
        elif "split" in allowed and rng.random() < 0.6:
            choice = "split"
        elif "double" in allowed and not soft and total in (9, 10, 11) and rng.random() < 0.8:
            choice = "double"
        elif "surrender" in allowed and total in (15, 16) and strong and rng.random() < 0.5:
            choice = "surrender"
        elif total < 12 or (soft and total < 18) or (total < 17 and strong):
            choice = "hit"
        else:
            choice = "stand"
        if choice not in allowed:
            choice = "stand" if "stand" in allowed else allowed[0]
        return {"seat": seat, "hand": hand_no, "action": choice}

    # What the answer means ----------------------------------------------------------------------------

    def absorb(self, call: Call, answer: Answer | None) -> None:
        """Update the terminal from an answer (None: no answer, the outcome is unknown)."""
        ok = answer is not None and 200 <= answer.status < 300
        lost = answer is None or answer.code == "request_in_progress"
        if lost and call.method == "POST" and call.attempts < MAX_ATTEMPTS:
            self.retry = call  # the outcome is unknown: ask again with the same Idempotency-Key
            return
        if not ok:
            if answer is not None and answer.code == "no_open_shoe":
                self.shoe_id = None
            else:
                self.resync = True
            if answer is not None and answer.code == "card_not_in_shoe" and call.card in self.cards:
                self.cards.remove(call.card)  # out of step with the service: put that card aside
            self.pending = call
            return
        assert answer is not None  # noqa: S101
        body = answer.body
        if call.endpoint == "sync":
            self.resync = False
            self._sync(body, self.pending)
            self.pending = None
            return
        if call.endpoint == "shoe":
            self.shoe_id, self.shoe_dealt, self.round = body["id"], 0, None
            self.cards = new_shoe_cards(self.rng) if self.mode == "reported" else []
            return
        if call.endpoint == "card":
            self.cards.pop()
            self.shoe_dealt += 1
        self.round = body
        if call.endpoint == "settle":
            if self.mode == "electronic":
                self.shoe_dealt += round_cards(body)
            self._after_round()

    def _after_round(self) -> None:
        self.round = None
        if self.shoe_dealt * 100 >= DECKS * 52 * self.penetration:
            self.shoe_id = None  # the cut card came out: the service closed the shoe at the settle

    def _sync(self, body: dict[str, Any], pending: Call | None) -> None:
        shoe, round_ = body.get("shoe"), body.get("round")
        went_through = (  # a card whose answer was lost did change the round
            pending is not None
            and pending.card in self.cards
            and round_ is not None
            and round_["id"] == (self.round or {}).get("id")
            and round_["seq"] > (pending.expected_seq or 0)
        )
        if went_through and pending is not None and pending.card is not None:
            self.cards.remove(pending.card)
        if shoe is None:
            self.shoe_id, self.round = None, None
            return
        if shoe["id"] != self.shoe_id:
            self.shoe_id = shoe["id"]
            self.cards = new_shoe_cards(self.rng) if self.mode == "reported" else []
        self.shoe_dealt = DECKS * 52 - int(shoe.get("cards_remaining", DECKS * 52 - self.shoe_dealt))
        self.round = round_


# --- the run -------------------------------------------------------------------------------------------


@dataclasses.dataclass
class Stats:
    window_start: float
    window_end: float
    latencies: dict[str, list[float]] = dataclasses.field(default_factory=dict)
    service: list[float] = dataclasses.field(default_factory=list)
    errors: Counter[tuple[str, str, str]] = dataclasses.field(default_factory=Counter)
    completed_in_window: int = 0
    ok_in_window: int = 0
    settled_in_window: int = 0
    unsent: int = 0
    unanswered: int = 0
    resent: int = 0
    replayed: int = 0

    def record(self, call: Call, scheduled: float, sent: float, done: float, answer: Answer | None) -> None:
        if self.window_start <= done < self.window_end and answer is not None:
            self.completed_in_window += 1
            if answer is not None and answer.status < 400:
                self.ok_in_window += 1
                self.settled_in_window += call.endpoint == "settle"
        if not self.window_start <= scheduled < self.window_end:
            return
        self.latencies.setdefault(call.endpoint, []).append(done - scheduled)
        self.service.append(done - sent)
        self.resent += call.attempts > 1
        self.replayed += answer is not None and answer.replayed
        if answer is None:
            self.errors[(call.endpoint, "-", "no answer")] += 1
        elif answer.status >= 400:
            self.errors[(call.endpoint, str(answer.status), answer.code or "-")] += 1


class Schedule:
    def __init__(self, *, rate: float, terminals: int, poisson: bool, rng: random.Random) -> None:
        self.mean_gap = terminals / rate if rate > 0 else 0.0
        self.poisson = poisson
        self.rng = rng

    def gap(self) -> float:
        if self.poisson:
            return self.rng.expovariate(1 / self.mean_gap)
        return self.mean_gap


async def drive(
    term: Terminal, stats: Stats, schedule: Schedule, *, start: float, drain: float, timeout: float
) -> None:
    loop = asyncio.get_running_loop()
    open_loop = schedule.mean_gap > 0
    scheduled = start + term.rng.uniform(0, schedule.mean_gap) if open_loop else start
    while True:
        now = loop.time()
        if open_loop:
            if scheduled > now:
                await asyncio.sleep(scheduled - now)
        else:
            scheduled = now
        if scheduled >= stats.window_end:
            return
        if loop.time() > stats.window_end + drain:  # still behind schedule when the drain ran out
            while scheduled < stats.window_end:
                stats.unsent += scheduled >= stats.window_start
                scheduled += schedule.gap()
            return
        call = term.next_call()
        sent = loop.time()
        answer: Answer | None
        try:
            answer = await asyncio.wait_for(
                term.http.request(call.method, call.path, call.body, key=call.key), timeout
            )
        except (TimeoutError, OSError, ConnectionLost, asyncio.IncompleteReadError, ValueError):
            answer = None
            await term.http.close()
        done = loop.time()
        stats.record(call, scheduled, sent, done, answer)
        term.absorb(call, answer)
        if answer is None or answer.code == "request_in_progress":
            await asyncio.sleep(0.05)
        if open_loop:
            scheduled += schedule.gap()


async def run_load(
    terms: list[Terminal], meter: CpuMeter, args: argparse.Namespace
) -> tuple[Stats, Snapshot, Snapshot]:
    loop = asyncio.get_running_loop()
    start = loop.time() + 0.2
    stats = Stats(window_start=start + args.warmup, window_end=start + args.warmup + args.duration)
    schedule = Schedule(
        rate=0 if args.flat_out else args.rate,
        terminals=len(terms),
        poisson=args.arrivals == "poisson",
        rng=random.Random(args.seed),
    )
    readings: list[Snapshot] = []

    async def measure() -> None:
        for moment in (stats.window_start, stats.window_end):
            await asyncio.sleep(max(0.0, moment - loop.time()))
            readings.append(meter.snapshot())

    tasks = [
        asyncio.create_task(drive(term, stats, schedule, start=start, drain=args.drain, timeout=args.timeout))
        for term in terms
    ]
    await measure()
    try:
        await asyncio.wait_for(asyncio.gather(*tasks), timeout=args.drain + args.timeout + 5)
    except TimeoutError:
        stats.unanswered = sum(not task.done() for task in tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    for term in terms:
        await term.http.close()
    return stats, readings[0], readings[1]


# --- setup through the API ---------------------------------------------------------------------------


def ensure_paytable(url: str, staff: dict[str, Any], project: Path, env: dict[str, str]) -> None:
    """An approved paytable must exist for rounds to open (migration 0002 approves v1 by default)."""
    answer = call_sync(url, staff["compliance"]["token"], "GET", f"{API}/paytables/")
    if answer.status != 200:
        print(f"warning: could not list paytables ({answer.status} {answer.code}); assuming one is approved")
        return
    versions = answer.body if isinstance(answer.body, list) else answer.body.get("results", [])
    if any(v.get("status") == "approved" for v in versions):
        return
    print("no approved paytable: proposing the default one, computing its report, approving it")
    proposal = {"pays": DEFAULT_PAYS, "decks": DECKS, "h17": False, "blackjack_pays": "3:2"}
    answer = call_sync(url, staff["pit_boss"]["token"], "POST", f"{API}/paytables/", proposal)
    if answer.status != 201:
        raise _fail(f"proposing a paytable failed: {answer.status} {answer.body}")
    version = int(answer.body["version"])
    manage(
        project,
        env,
        "shell",
        "-c",
        "from audit.context import AuditActor\nfrom bonus_tie.services import compute_paytable_report\n"
        f"compute_paytable_report(version={version}, actor=AuditActor(kind='system', username='bench'))",
    )
    path = f"{API}/paytables/{version}/approve/"
    answer = call_sync(url, staff["compliance"]["token"], "POST", path, {"override_reason": ""})
    if answer.status == 422 and answer.code == "paytable_flagged":
        reason = {"override_reason": "load benchmark"}
        answer = call_sync(url, staff["compliance"]["token"], "POST", path, reason)
    if answer.status != 200:
        raise _fail(f"approving paytable v{version} failed: {answer.status} {answer.body}")


async def prepare_terminal(
    url: str, made: dict[str, Any], supervisor: str, mode: str, index: int, args: argparse.Namespace
) -> Terminal:
    http = Http(url, made["terminal_token"])

    async def post(path: str, body: Any, expected: int) -> Any:
        answer = await http.request("POST", path, body)
        if answer.status != expected:
            raise _fail(f"{made['table']}: POST {path} answered {answer.status}: {answer.body}")
        return answer.body

    await post(f"{API}/terminal/sign-in/", made["dealer"], 200)
    info = (await http.request("GET", f"{API}/terminal/")).body
    table = info["table"]
    if not args.no_open_tables:
        boss = Http(url, supervisor)
        answer = await boss.request("POST", f"{API}/tables/{table['id']}/open/", OPENER)
        await boss.close()
        if answer.status >= 300 and answer.code not in ("table_already_open", "shift_already_opened"):
            print(f"warning: opening {table['name']} for the shift: {answer.status} {answer.code}")
    shoe = await post(f"{API}/shoes/", {"mode": mode, "decks": DECKS}, 201)
    rng = random.Random(f"{args.seed}-{index}")
    term = Terminal(
        index=index,
        http=http,
        mode=mode,
        limits=table.get("limits") or {},
        penetration=int((table.get("house_rules") or {}).get("penetration_percent", 75)),
        seat_counts=args.seat_counts,
        rng=rng,
        shoe_id=shoe["id"],
        cards=new_shoe_cards(rng) if mode == "reported" else [],
    )
    return term


async def prepare(url: str, provisioned: dict[str, Any], args: argparse.Namespace) -> list[Terminal]:
    supervisor = provisioned["staff"]["floor_supervisor"]["token"]
    modes = {"reported": ["reported"], "electronic": ["electronic"], "mix": ["reported", "electronic"]}[
        args.shoe
    ]
    gate = asyncio.Semaphore(2)  # the dealers' PINs are checked with a slow hash: two at a time

    async def one(index: int, made: dict[str, Any]) -> Terminal:
        async with gate:
            return await prepare_terminal(url, made, supervisor, modes[index % len(modes)], index, args)

    terms = list(await asyncio.gather(*(one(i, m) for i, m in enumerate(provisioned["tables"]))))
    for term in terms:  # the run has its own event loop: start it with fresh connections
        await term.http.close()
        term.http.connects = 0
    return terms


# --- the report ---------------------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))]


def report(stats: Stats, before: Snapshot, after: Snapshot, args: argparse.Namespace) -> None:
    window = after.at - before.at
    calls = stats.completed_in_window
    offered = (
        "flat out (closed loop)" if args.flat_out else f"{args.rate:g} calls/s offered ({args.arrivals})"
    )
    print(f"\nmeasured window {window:.1f} s, {offered}")
    print(
        f"achieved: {calls / window:,.1f} calls/s ({calls:,} calls answered in the window, "
        f"{stats.ok_in_window:,} of them 2xx), {stats.settled_in_window / window:,.2f} rounds settled/s"
    )
    if stats.unsent or stats.unanswered:
        print(
            f"behind schedule: {stats.unsent:,} calls scheduled in the window were never sent "
            f"(drain of {args.drain:g} s over); {stats.unanswered} terminals still waiting at the end"
        )
    basis = "scheduled send time" if not args.flat_out else "send time"
    print(f"\nlatency in ms, from the {basis}:")
    print(f"  {'endpoint':<8} {'calls':>8} {'p50':>8} {'p95':>8} {'p99':>8} {'max':>8}")
    rows = [(name, stats.latencies.get(name, [])) for name in ENDPOINTS]
    rows.append(("all", [v for values in stats.latencies.values() for v in values]))
    for name, values in rows:
        if not values:
            continue
        ms = [1000 * v for v in values]
        cells = " ".join(f"{percentile(ms, q):>8.1f}" for q in (50, 95, 99))
        print(f"  {name:<8} {len(ms):>8,} {cells} {max(ms):>8.1f}")
    if stats.service and not args.flat_out:
        ms = [1000 * v for v in stats.service]
        print(
            f"  service time (send to answer), all calls: p50 {percentile(ms, 50):.1f}  "
            f"p95 {percentile(ms, 95):.1f}  p99 {percentile(ms, 99):.1f}  mean {statistics.fmean(ms):.1f}"
        )
    if stats.errors:
        print("\nerrors (calls scheduled in the window):")
        for (endpoint, status, code), count in sorted(stats.errors.items(), key=lambda item: -item[1]):
            print(f"  {status:>4} {code:<28} {endpoint:<8} {count:>7,}")
        fives = sum(n for (_, status, _), n in stats.errors.items() if status.startswith("5"))
        print(f"  total {sum(stats.errors.values()):,} ({fives:,} 5xx)")
    else:
        print("\nerrors: none")
    if stats.resent:
        print(
            f"  {stats.resent:,} calls were resends of a POST whose answer was lost (same Idempotency-Key); "
            f"{stats.replayed:,} answers were replays (Idempotent-Replayed: true)"
        )
    print("\nCPU in the window (from /proc):")
    per_call = max(calls, 1)
    for label, first, last in (
        ("web server (gunicorn master + workers)", before.web, after.web),
        ("PostgreSQL (postmaster and children)", before.postgres, after.postgres),
        ("load client (this process)", before.client, after.client),
    ):
        if first is None or last is None:
            print(f"  {label:<40} not measured (process not found on this machine)")
            continue
        used = last - first
        print(
            f"  {label:<40} {1000 * used / per_call:7.2f} ms/call  "
            f"({used:.2f} s, {100 * used / window:.0f}% of one core)"
        )
    others = after.other_commits - before.other_commits
    if others > 0:
        print(
            f"  note: other databases on the server committed {others:,} transactions in the window; "
            "the PostgreSQL figure includes their work"
        )


# --- main ---------------------------------------------------------------------------------------------


def seat_counts(text: str) -> list[int]:
    if text == "mix":
        return [n for n, weight in SEAT_MIX.items() for _ in range(weight)]
    low, _, high = text.partition("-")
    try:
        first, last = int(low), int(high or low)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seats: 'mix', N or A-B, not {text!r}") from None
    if not 1 <= first <= last <= 7:
        raise argparse.ArgumentTypeError(f"seats are 1 to 7, not {text!r}")
    return list(range(first, last + 1))


def parse_args() -> argparse.Namespace:
    here = Path(__file__).resolve().parent.parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--project-dir", type=Path, default=here, help="checkout to run (default: %(default)s)"
    )
    parser.add_argument("--terminals", type=int, default=32)
    parser.add_argument(
        "--rate", type=float, default=100.0, help="offered calls/s, all terminals; 0 = flat out"
    )
    parser.add_argument("--flat-out", action="store_true", help="closed loop: next call as soon as answered")
    parser.add_argument("--arrivals", choices=["poisson", "fixed"], default="poisson")
    parser.add_argument("--duration", type=float, default=30.0, help="measured window, seconds")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds of load before the window")
    parser.add_argument("--drain", type=float, default=10.0, help="seconds to finish calls already due")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds before a call is given up")
    parser.add_argument("--shoe", choices=["reported", "electronic", "mix"], default="reported")
    parser.add_argument("--seats", type=seat_counts, default="mix", dest="seat_counts",
                        help="seats per round: 'mix' (weighted 1-7), N, or A-B (uniform)")  # fmt: skip
    parser.add_argument(
        "--workers", type=int, default=None, help="gunicorn workers (default: the run command's)"
    )
    parser.add_argument("--threads", type=int, default=None, help="gunicorn threads per worker")
    parser.add_argument("--database-url", default=None, help=f"default: a new database on {DEFAULT_SERVER}")
    parser.add_argument("--url", default=None, help="a running service to drive instead of starting one")
    parser.add_argument("--env", action="append", default=[], metavar="KEY=VALUE",
                        help="extra environment for manage.py and gunicorn (e.g. DJANGO_CONN_MAX_AGE=60)")  # fmt: skip
    parser.add_argument("--aggregate-limit-cents", type=int, default=None, help="for every table")
    parser.add_argument("--access-log", action="store_true", help="let gunicorn write its access log")
    parser.add_argument("--no-open-tables", action="store_true", help="skip opening the tables for the shift")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.rate <= 0:
        args.flat_out = True
    if args.terminals < 1 or args.duration <= 0 or args.warmup < 0:
        parser.error("need at least one terminal and a positive duration")
    if args.url and not args.database_url:
        parser.error("--url needs --database-url (the running service's database, to provision tables in)")
    args.project_dir = args.project_dir.resolve()
    if not (args.project_dir / "manage.py").exists():
        parser.error(f"no manage.py in {args.project_dir}")
    return args


def run(args: argparse.Namespace, database_url: str, work: Path, tag: str) -> None:
    project: Path = args.project_dir
    env = service_env(database_url, work, args.env)
    print(f"project {project}, database {database_name(database_url)}, tag {tag}")
    extra = ["--aggregate-limit-cents", str(args.aggregate_limit_cents)] if args.aggregate_limit_cents else []
    server: Gunicorn | None = None
    try:
        if not args.url:
            manage(project, env, "migrate", "--noinput", "-v", "0")
        provisioned = provision(project, env, tag=tag, terminals=args.terminals, extra=extra)
        if args.url:
            url = args.url.rstrip("/")
            web_root = listening_pid(urlsplit(url).port or 80)
            print(f"driving {url} (server process {web_root or 'not found on this machine'})")
        else:
            default_workers, default_threads, source = web_concurrency(project, env)
            workers, threads = args.workers or default_workers, args.threads or default_threads
            server = Gunicorn(
                project,
                env,
                workers=workers,
                threads=threads,
                log=work / "gunicorn.log",
                access_log=work / "access.log" if args.access_log else None,
            )
            server.wait_ready()
            url, web_root = server.url, server.process.pid
            print(
                f"gunicorn {wsgi_module(project)} at {url}: {workers} workers x {threads} threads "
                f"(default from {source}), access log {'on' if args.access_log else 'off'}"
            )
        ensure_paytable(url, provisioned["staff"], project, env)
        terms = asyncio.run(prepare(url, provisioned, args))
        meter = CpuMeter(web_root=web_root, database_url=database_url)
        print(
            f"{len(terms)} terminals ({args.shoe} shoes) ready; warmup {args.warmup:g} s, "
            f"window {args.duration:g} s"
        )
        try:
            stats, before, after = asyncio.run(run_load(terms, meter, args))
        finally:
            meter.close()
        report(stats, before, after, args)
        connects = sum(t.http.connects for t in terms)
        print(f"\n{connects:,} TCP connections opened by the terminals")
    finally:
        if server is not None:
            server.stop()
            tail, tracebacks = server.log_tail(15), server.tracebacks()
            if tail.strip():
                print(f"server log: {tracebacks} tracebacks; last lines:\n{tail}")


def main() -> None:
    args = parse_args()
    tag = secrets.token_hex(3)
    work = Path(tempfile.mkdtemp(prefix="bench-load-"))
    try:
        if args.url:
            run(args, args.database_url, work, tag)
        else:
            with scratch_database(args.database_url, tag) as database_url:
                run(args, database_url, work, tag)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
