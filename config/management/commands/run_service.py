"""`make run`: migrate, load the demo once, queue the missing paytable reports (version 1's on
the first start), then run the web server, a Celery worker and Celery beat until interrupted,
and stop them (and the embedded database) cleanly."""

import argparse
import contextlib
import datetime as dt
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import psutil
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError, CommandParser
from django.db import connection, connections

from audit.management.base import PlainErrorsCommand
from casino.games import game_for
from casino.management.arguments import whole_number
from casino.models import GameKind
from config.management.commands.seed_demo import CREDENTIALS_FILE, load_demo_credentials
from kernel.gaming_day import casino_zone

# How long web, worker and beat get to finish what they are doing after SIGTERM (gunicorn's own
# graceful timeout is 20 s); then whatever is left of each is killed.
GRACE_SECONDS = 25


def _game_name(kind: str) -> str:
    try:
        return game_for(kind or GameKind.TIE_BONUS).name
    except LookupError:  # a credentials file from another version of the service
        return kind


class Command(PlainErrorsCommand):
    help = "Run the whole service: web server, Celery worker and Celery beat, until Ctrl-C or SIGTERM."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--bind", type=host_and_port, default=os.environ.get("BIND", "127.0.0.1:8000"))
        parser.add_argument(
            "--web-workers", type=whole_number(1, 64), default=None, help="default: cores + 1"
        )
        parser.add_argument(
            "--web-threads", type=whole_number(1, 64), default=None, help="default: 4 per worker"
        )
        parser.add_argument(
            "--beat-schedule",
            default=settings.CELERY_BEAT_SCHEDULE_FILENAME,
            help="Celery beat's state file.",
        )
        parser.add_argument(
            "--credentials-file",
            type=Path,
            default=CREDENTIALS_FILE,
            help="Where the demo credentials are kept.",
        )

    def execute(self, *args: Any, **options: Any) -> str | None:
        stop = StopSignals()
        try:
            stop.install()
            return super().execute(*args, stop=stop, **options)
        except KeyboardInterrupt:
            if stop.received is None:
                raise
            self.stdout.write("Stopped before the service started.")
            return None
        finally:
            # The embedded database stops at exit (`pg_ctl stop`, inheriting this mask): a second
            # signal must not cut that short and leave the server, or its postmaster.pid, behind.
            stop.block()

    def handle(self, *args: Any, stop: "StopSignals", **options: Any) -> None:
        # The first connection starts the embedded database (when used), with the signals held:
        # initdb or pg_ctl interrupted half-way would leave a server that nobody stops. A signal
        # that came meanwhile interrupts what follows.
        with stop.held():
            connection.ensure_connection()
        call_command("migrate", interactive=False, verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        call_command("seed_demo", credentials_file=options["credentials_file"])
        self._queue_paytable_reports()
        connections.close_all()  # the children open their own
        if not stop.stop_interrupting():
            raise KeyboardInterrupt
        bin_dir = os.path.dirname(sys.executable)
        commands = {
            "web": [os.path.join(bin_dir, "gunicorn"), "-c", str(settings.BASE_DIR / "config" / "gunicorn.py"),
                    "config.wsgi", "--bind", options["bind"],
                    *(["--workers", str(options["web_workers"])] if options["web_workers"] else []),
                    *(["--threads", str(options["web_threads"])] if options["web_threads"] else [])],
            "worker": [os.path.join(bin_dir, "celery"), "-A", "config.celery", "worker", "--loglevel", "INFO",
                       "--concurrency", "2"],
            "beat": [os.path.join(bin_dir, "celery"), "-A", "config.celery", "beat", "--loglevel", "INFO",
                     "--schedule", options["beat_schedule"]],
        }  # fmt: skip
        # Each child leads its own process group, so that stopping it reaches the processes it
        # started too, even those a killed or hung parent left behind; a signal sent to this
        # command's group reaches this command alone, which stops the children in order.
        children: dict[str, subprocess.Popen[bytes]] = {}
        try:
            for name, argv in commands.items():
                children[name] = subprocess.Popen(argv, cwd=settings.BASE_DIR, process_group=0)  # noqa: S603
            self._announce(options["bind"], options["credentials_file"])
            while not stop.wait(0.5):
                exited = [name for name, child in children.items() if child.poll() is not None]
                if exited:
                    self.stderr.write(
                        f"{exited[0]} exited with {children[exited[0]].returncode}; stopping the service."
                    )
                    break
        finally:
            stop.block()
            stop_children(list(children.values()))
            # The embedded database stops when this process exits, as the last one using it.
            self.stdout.write("Service stopped.")

    def _queue_paytable_reports(self) -> None:
        """Queue the missing paytable reports (version 1's on the first start) for the worker
        started below; a queue that cannot be reached is reported and does not stop the start."""
        try:
            call_command("queue_paytable_reports", stdout=self.stdout, stderr=self.stderr)
        except CommandError as exc:
            self.stderr.write(f"Paytable reports not queued: {exc}")

    def _announce(self, bind: str, credentials_file: Path) -> None:
        base = f"http://{bind}"
        credentials = load_demo_credentials(credentials_file) or {}
        lines = [
            "",
            f"Casino back office is starting at {base}",
            f"  Floor console: {base}/ (sign in with any demo login below: each role lands on its page)",
            f"  Admin site:    {base}/admin/",
            f"  API docs:      {base}/api/v1/docs/",
            f"  Health:        {base}/healthz",
            "  Demo logins, one for every role (floor console, admin site and API tokens):",
        ]
        for staff in credentials.get("staff", []):
            lines.append(
                f"    {staff['role']:<17} {staff['username']} / {staff['password']}  token {staff['token']}"
            )
        for table in credentials.get("tables", []):
            lines.append(
                f"  Table {table['table']} ({_game_name(table.get('game', ''))}): "
                f"terminal token {table['terminal_token']}  "
                f"dealer badge {table['dealer']['badge']} PIN {table['dealer']['pin']}"
            )
        lines += _tournament_lines(base, credentials.get("tournament"))
        lines.append("Press Ctrl-C to stop.\n")
        self.stdout.write("\n".join(lines))


def _tournament_lines(base: str, tournament: dict[str, Any] | None) -> list[str]:
    if not tournament:
        return []
    closes = dt.datetime.fromisoformat(tournament["registration_closes_at"]).astimezone(casino_zone())
    lines = [
        f"  Tournament {tournament['name']}: {base}/floor/tournaments/{tournament['id']}/ "
        f"(registration closes {closes:%H:%M}, casino time); its entries play at {base}/play/:"
    ]
    lines.append(
        f"    the board for a screen: {base}/board/{tournament['id']}/?key={tournament['board_key']}"
    )
    lines += [
        f"    entry {entry['entry']} (patron {entry['patron']}): {base}/play/?token={entry['token']}"
        for entry in tournament["entries"]
    ]
    return lines


class StopSignals:
    """SIGINT and SIGTERM, from a terminal, systemd or `kill`, to this command or to its process
    group, as a request to stop.

    The handler takes no lock (a lock taken in a handler deadlocks when the signal interrupts the
    main thread while it holds that lock): it records the signal, and Python's wakeup fd, a pipe,
    wakes `wait()`'s select. During the start-up it also raises KeyboardInterrupt, once, so that
    migrate or seed_demo stop where they are and roll back.
    """

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self) -> None:
        self.received: int | None = None
        self._interrupting = True
        self._wakeup_read, wakeup_write = os.pipe()
        for fd in (self._wakeup_read, wakeup_write):
            os.set_blocking(fd, False)
        self._wakeup_write = wakeup_write

    def install(self) -> None:
        signal.set_wakeup_fd(self._wakeup_write, warn_on_full_buffer=False)
        for signum in self.SIGNALS:
            signal.signal(signum, self._handle)

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.received is None:
            self.received = signum
        if self._interrupting:
            self._interrupting = False
            raise KeyboardInterrupt

    def stop_interrupting(self) -> bool:
        """From now on a signal is only recorded; False if one came already."""
        self._interrupting = False
        return self.received is None

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """The signals wait (in this thread and in the processes it starts) until the block ends;
        then one that came meanwhile interrupts, if signals interrupt at all by then."""
        interrupting, self._interrupting = self._interrupting, False
        signal.pthread_sigmask(signal.SIG_BLOCK, self.SIGNALS)
        try:
            yield
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, self.SIGNALS)
            self._interrupting = interrupting
            if self.received is not None and self._interrupting:
                self._interrupting = False
                raise KeyboardInterrupt

    def block(self) -> None:
        """Hold the signals from now on: the stop is under way."""
        self._interrupting = False
        signal.pthread_sigmask(signal.SIG_BLOCK, self.SIGNALS)

    def wait(self, timeout: float) -> bool:
        """Whether a stop was requested, waiting up to `timeout` seconds for one."""
        if self.received is None:
            select.select([self._wakeup_read], [], [], timeout)
            with contextlib.suppress(BlockingIOError):
                while os.read(self._wakeup_read, 512):
                    pass
        return self.received is not None


def stop_children(children: list[subprocess.Popen[bytes]]) -> None:
    """SIGTERM each child (a warm stop: gunicorn finishes its requests, Celery its tasks), wait for
    them, then SIGKILL whatever is left in their process groups: a child that did not stop in
    time, and workers orphaned by a parent that was killed."""
    for child in children:
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + GRACE_SECONDS
    for child in children:
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.wait(timeout=max(deadline - time.monotonic(), 0))
    groups = {child.pid for child in children}
    for group in groups:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(group, signal.SIGKILL)
    for child in children:
        child.wait()
    deadline = time.monotonic() + 10
    while _alive_in(groups) and time.monotonic() < deadline:
        time.sleep(0.05)


def _alive_in(groups: set[int]) -> list[psutil.Process]:
    """Processes of these groups that still run (an exited orphan nobody reaped is a zombie: gone)."""
    alive = []
    for process in psutil.process_iter():
        with contextlib.suppress(psutil.Error, ProcessLookupError):
            if os.getpgid(process.pid) in groups and process.status() != psutil.STATUS_ZOMBIE:
                alive.append(process)
    return alive


def host_and_port(text: str) -> str:
    """HOST:PORT as gunicorn binds it (an IPv6 host in brackets), port 1-65535."""
    host, _, port = text.rpartition(":")
    if not host or not (port.isascii() and port.isdigit()) or not 1 <= int(port) <= 65535:
        raise argparse.ArgumentTypeError(f"must be HOST:PORT, e.g. 127.0.0.1:8000, not {text!r}")
    return text
