"""The run command for real (`manage.py run_service`, as `make run` starts it), on its own embedded
database in a temporary directory: a clean stop leaves no server process behind, even after a
worker was killed with SIGKILL during the run."""

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import psutil
import pytest
from django.conf import settings

from bonus_tie.engine.paytable import DEFAULT_PAYS

STARTUP_SECONDS = 300  # a fresh database: initdb, every migration, the demo data
STOP_SECONDS = 90
T = TypeVar("T")


def wait_for(what: str, check: Callable[[], T | None], *, timeout: float) -> T:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    pytest.fail(f"timed out after {timeout} s waiting for {what}")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def still_running(process: psutil.Process) -> bool:
    """Running, as opposed to gone or exited and waiting to be reaped (a zombie holds nothing)."""
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


@dataclass
class Run:
    process: subprocess.Popen[bytes]
    pgdata: Path
    port: int
    log: Path
    seen: list[psutil.Process] = field(default_factory=list)

    def healthy(self) -> bool:
        assert self.process.poll() is None, self.log.read_text()[-3000:]
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=5) as answer:
                return bool(answer.status == 200)
        except OSError:
            return False

    def postmaster(self) -> psutil.Process | None:
        pid_file = self.pgdata / "postmaster.pid"
        if not pid_file.exists():
            return None
        return psutil.Process(int(pid_file.read_text().split()[0]))

    def handles(self) -> list[int]:
        return list(json.loads((self.pgdata / ".handle_pids.json").read_text()))

    def processes(self) -> list[psutil.Process]:
        """Everything the run has started so far: web, worker, beat and their children, and the
        database server with its own processes."""
        started = psutil.Process(self.process.pid).children(recursive=True)
        postmaster = self.postmaster()
        if postmaster is not None:
            started += [postmaster, *postmaster.children(recursive=True)]
        self.seen += started
        return started

    def child(self, marker: str) -> psutil.Process:
        """The run's direct child whose command line holds `marker` (gunicorn, worker, beat)."""
        return next(
            child
            for child in psutil.Process(self.process.pid).children()
            if marker in " ".join(child.cmdline())
        )


@pytest.fixture
def run(tmp_path: Path) -> Iterator[Run]:
    port = free_port()
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")},
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEMO": "1",
        "EMBEDDED_PGDATA": str(tmp_path / "pgdata"),
        "CELERY_BROKER_DIR": str(tmp_path / "broker"),
        "WEB_ACCESS_LOG": "",
    }
    log = tmp_path / "run.log"
    with log.open("wb") as output:
        process = subprocess.Popen(  # noqa: S603 - our own interpreter and manage.py
            [sys.executable, str(settings.BASE_DIR / "manage.py"), "run_service",
             "--bind", f"127.0.0.1:{port}", "--web-workers", "1", "--web-threads", "2",
             "--beat-schedule", str(tmp_path / "celerybeat-schedule"),
             "--credentials-file", str(tmp_path / "demo-credentials.json")],
            cwd=settings.BASE_DIR, env=env, stdout=output, stderr=subprocess.STDOUT,
        )  # fmt: skip
    started = Run(process=process, pgdata=tmp_path / "pgdata", port=port, log=log)
    try:
        wait_for("the service to answer /healthz", started.healthy, timeout=STARTUP_SECONDS)
        wait_for(
            "the Celery worker's pool", lambda: len(started.child(" worker ").children()) == 2, timeout=60
        )
        yield started
    finally:  # whatever the outcome, leave nothing of this run on the machine
        leave_nothing_behind(started)


def leave_nothing_behind(run: Run) -> None:
    with contextlib.suppress(psutil.Error):
        if run.process.poll() is None:
            run.processes()
            run.process.send_signal(signal.SIGINT)
            try:
                run.process.wait(timeout=STOP_SECONDS)
            except subprocess.TimeoutExpired:
                run.process.kill()
                run.process.wait()
        for leftover in run.seen:  # the database server last: the others would start it again
            if still_running(leftover):
                leftover.kill()
        postmaster = run.postmaster()
        if postmaster is not None and still_running(postmaster):
            postmaster.kill()


def propose_a_paytable(run: Run) -> None:
    """As the demo pit boss: the proposal's report (a few seconds of work) goes to the worker."""
    credentials = json.loads((run.pgdata.parent / "demo-credentials.json").read_text())
    token = next(staff["token"] for staff in credentials["staff"] if staff["role"] == "pit_boss")
    body = {"pays": {kind.value: pays for kind, pays in DEFAULT_PAYS.items()}, "decks": 8, "h17": True}
    request = urllib.request.Request(
        f"http://127.0.0.1:{run.port}/api/v1/paytables/",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json",
                 "Idempotency-Key": str(uuid.uuid4())},
    )  # fmt: skip
    with urllib.request.urlopen(request, timeout=60) as answer:  # noqa: S310
        assert answer.status == 201


def stop_and_check(run: Run) -> None:
    """SIGINT, as Ctrl-C sends it; then nothing the run started may still run."""
    with contextlib.suppress(psutil.Error):
        run.processes()  # the latest too: a replacement worker, the database's own processes
    run.process.send_signal(signal.SIGINT)
    run.process.wait(timeout=STOP_SECONDS)

    assert "Service stopped." in run.log.read_text()
    assert [p.pid for p in run.seen if still_running(p)] == []
    assert not (run.pgdata / "postmaster.pid").exists()
    assert [
        p.pid
        for p in psutil.process_iter(["cmdline"])
        if str(run.pgdata) in " ".join(p.info["cmdline"] or [])
    ] == []


def test_a_clean_stop_after_a_web_worker_was_killed_leaves_no_process_behind(run: Run) -> None:
    web_worker = run.child("gunicorn").children()[0]
    assert web_worker.pid in run.handles()  # it served /healthz: it uses the database
    run.processes()

    web_worker.send_signal(signal.SIGKILL)
    wait_for(
        "gunicorn to start a new worker",
        lambda: [w for w in run.child("gunicorn").children() if w.pid != web_worker.pid],
        timeout=60,
    )
    wait_for("the new worker to answer", run.healthy, timeout=60)
    stop_and_check(run)


def test_a_clean_stop_after_the_celery_worker_was_killed_leaves_no_process_behind(run: Run) -> None:
    """The Celery worker killed in the middle of a task: the pool process running it goes on,
    orphaned and using the database, until the run command stops it."""
    celery_worker = run.child(" worker ")
    propose_a_paytable(run)
    wait_for(
        "a pool process to take the report and use the database",
        lambda: [p for p in celery_worker.children() if p.pid in run.handles()],
        timeout=120,
    )
    run.processes()

    celery_worker.send_signal(signal.SIGKILL)
    stop_and_check(run)


def test_a_clean_stop_after_the_web_server_was_killed_leaves_no_process_behind(run: Run) -> None:
    """The web server's master killed: its worker, which holds a database handle, is orphaned and
    exits unreaped (a zombie), and must not keep the database server up."""
    master = run.child("gunicorn")
    web_worker = master.children()[0]
    assert web_worker.pid in run.handles()
    run.processes()

    master.send_signal(signal.SIGKILL)
    wait_for("the orphaned worker to exit", lambda: not still_running(web_worker), timeout=60)
    stop_and_check(run)


def test_a_clean_stop_with_a_hung_web_server_and_a_killed_worker_leaves_no_process_behind(run: Run) -> None:
    """The web server hangs (stopped), so the worker killed under it is never reaped: a dead
    process still listed as using the database, which must not keep the database server up."""
    master = run.child("gunicorn")
    web_worker = master.children()[0]
    assert web_worker.pid in run.handles()
    run.processes()

    master.send_signal(signal.SIGSTOP)
    web_worker.send_signal(signal.SIGKILL)
    wait_for(
        "the worker to be dead and unreaped", lambda: web_worker.status() == psutil.STATUS_ZOMBIE, timeout=30
    )
    stop_and_check(run)
