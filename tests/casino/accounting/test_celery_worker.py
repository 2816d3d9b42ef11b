"""A real Celery worker (a `celery -A config.celery worker` subprocess, kombu's filesystem broker
in a temporary folder, the test database) produces the shift reports from enqueued tasks."""

import datetime as dt
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlencode

import pytest
from django.conf import settings
from django.db import connection, transaction
from kombu import Connection
from rest_framework.test import APIClient

from reports.models import ShiftReport
from reports.services import _lock_shift
from reports.tasks import produce_shift_reports, regenerate_shift_report
from tests.support.api import TableActors, buy_in, close_table, ok, open_table, post, request_slip
from tests.support.rounds import play_round, wager

pytestmark = pytest.mark.django_db(transaction=True)

WAIT_SECONDS = 90


@dataclass
class Worker:
    broker: Path
    log: Path
    process: subprocess.Popen[bytes]

    def connection(self) -> Connection:
        folder = str(self.broker / "out")
        return Connection(
            "filesystem://",
            transport_options={
                "data_folder_in": folder,
                "data_folder_out": folder,
                "processed_folder": str(self.broker / "processed"),
                "control_folder": str(self.broker / "control"),
                "store_processed": False,
            },
        )

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-5000:]


def _database_url() -> str:
    """The test database, as the worker's settings read it (a Unix-socket host goes in the query)."""
    db = connection.settings_dict
    query = urlencode({"host": db["HOST"], "port": db["PORT"]})
    return f"postgres://{quote(db['USER'])}:{quote(db['PASSWORD'] or '')}@/{quote(db['NAME'])}?{query}"


def _start_worker(tmp_path: Path, broker: Path) -> Worker:
    log = tmp_path / f"worker-{uuid.uuid4().hex[:8]}.log"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings_test",
        "DATABASE_URL": _database_url(),
        "CELERY_BROKER_URL": "filesystem://",
        "CELERY_BROKER_DIR": str(broker),
        # Run from the temporary folder: kombu's filesystem transport keeps its exchange files in
        # ./control unless told otherwise, and they do not belong in the source tree.
        "PYTHONPATH": os.pathsep.join(filter(None, [str(settings.BASE_DIR), os.environ.get("PYTHONPATH")])),
    }
    with log.open("wb") as out:
        process = subprocess.Popen(  # noqa: S603 - our own interpreter and arguments
            [
                sys.executable, "-m", "celery", "-A", "config.celery", "worker",
                "--pool=solo", "--loglevel=INFO", "--without-gossip", "--without-mingle",
                "--without-heartbeat", "-n", f"reports-test-{uuid.uuid4().hex[:8]}@%h",
            ],
            cwd=tmp_path,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
    return Worker(broker=broker, log=log, process=process)


def _stop(worker: Worker) -> None:
    if worker.process.poll() is None:
        worker.process.send_signal(signal.SIGTERM)
        try:
            worker.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.process.kill()
            worker.process.wait(timeout=10)


@pytest.fixture
def start_worker(tmp_path: Path, transactional_db: None) -> Iterator[Callable[[], Worker]]:
    """Starts workers on one broker folder; every one is stopped when the test ends."""
    broker = tmp_path / "broker"
    for sub in ("out", "processed", "control"):
        (broker / sub).mkdir(parents=True)
    started: list[Worker] = []

    def start() -> Worker:
        started.append(_start_worker(tmp_path, broker))
        return started[-1]

    try:
        yield start
    finally:
        for worker in started:
            _stop(worker)


@pytest.fixture
def worker(start_worker: Callable[[], Worker]) -> Worker:
    return start_worker()


def wait_for(condition: Callable[[], bool], worker: Worker, what: str) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        if condition():
            return
        if worker.process.poll() is not None:
            pytest.fail(f"the worker exited ({worker.process.returncode}) before {what}:\n{worker.output()}")
        time.sleep(0.2)
    pytest.fail(f"no {what} within {WAIT_SECONDS}s; worker output:\n{worker.output()}")


def test_a_worker_produces_and_regenerates_the_shift_reports(
    worker: Worker, make_table: Callable[..., TableActors], supervisors: tuple[APIClient, APIClient]
) -> None:
    requester, approver = supervisors
    actors = make_table("BJ-W1")
    ok(open_table(requester, actors, {"100000": 5}), 201)
    ok(buy_in(actors, 1, 20_000), 201)
    ok(post(actors.terminal, "/api/v1/shoes/", {"mode": "reported"}), 201)
    play_round(
        actors,
        [{"seat": 1, "wagers": [wager("primary", 5_000)]}],
        ["TS", "9H", "7C", "TD"],
        [{"seat": 1, "hand": 0, "action": "stand"}],
    )  # the player's 17 loses to 19: house net +5,000
    fill = ok(request_slip(actors.terminal, "fill", {"10000": 3}), 201)
    ok(post(approver, f"/api/v1/fills/{fill['id']}/approve/"))
    ok(
        close_table(requester, actors, {"100000": 5, "10000": 1, "2500": 2}), 201
    )  # 500,000 - 20,000 + 5,000 + 30,000

    with worker.connection() as broker:
        produce_shift_reports.apply_async(
            kwargs={"gaming_day": "2026-11-20", "shift": "day"}, connection=broker
        )

    wait_for(lambda: ShiftReport.objects.filter(table=actors.table).exists(), worker, "shift report")
    report = ShiftReport.objects.get(table=actors.table, gaming_day="2026-11-20", shift="day")
    assert (report.opener_cents, report.closer_cents, report.drop_cents) == (500_000, 515_000, 20_000)
    assert (report.fills_cents, report.credits_cents) == (30_000, 0)
    assert report.win_cents == 5_000  # 20,000 - 30,000 + 515,000 - 500,000
    assert report.house_net_cents == 5_000
    assert report.hold_bp == 2_500
    first_generated = report.generated_at

    # A regeneration of the same table and shift rewrites the same row in place.
    with worker.connection() as broker:
        regenerate_shift_report.apply_async(
            kwargs={"table_id": actors.table.pk, "gaming_day": "2026-11-20", "shift": "day"},
            connection=broker,
        )
    wait_for(
        lambda: ShiftReport.objects.get(pk=report.pk).generated_at != first_generated,
        worker,
        "regenerated report",
    )
    again = ShiftReport.objects.get(pk=report.pk)
    assert ShiftReport.objects.filter(table=actors.table).count() == 1
    assert (again.win_cents, again.hold_bp, again.theo_win_cents) == (
        report.win_cents,
        report.hold_bp,
        report.theo_win_cents,
    )
    assert "succeeded" in worker.output()


def _blocked_on_the_shift_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")  # statistics views are cached per transaction
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock' AND wait_event = 'advisory'"
        )
        (waiting,) = cursor.fetchone()
    return bool(waiting)


def test_a_worker_killed_mid_task_leaves_no_half_report_and_the_rerun_completes(
    start_worker: Callable[[], Worker], make_table: Callable[..., TableActors], supervisor: APIClient
) -> None:
    actors = make_table("BJ-W2")
    ok(open_table(supervisor, actors, {"100000": 5}), 201)
    ok(buy_in(actors, 1, 20_000), 201)
    ok(close_table(supervisor, actors, {"100000": 4, "10000": 8}), 201)
    doomed = start_worker()

    # Hold the shift's report lock, so the task stops inside its transaction; then kill -9 it.
    with transaction.atomic():
        _lock_shift(gaming_day=dt.date(2026, 11, 20), shift="day")
        with doomed.connection() as broker:
            produce_shift_reports.apply_async(
                kwargs={"gaming_day": "2026-11-20", "shift": "day"}, connection=broker
            )
        wait_for(_blocked_on_the_shift_lock, doomed, "the task waiting on the lock")
        doomed.process.send_signal(signal.SIGKILL)
        doomed.process.wait(timeout=10)
    assert not ShiftReport.objects.exists()

    # The message goes back to the queue: a broker with late acks (Redis, AMQP) redelivers it by
    # itself; kombu's filesystem transport deletes a message when it hands it out, so here the
    # test sends it again. The rerun writes the whole report.
    survivor = start_worker()
    with survivor.connection() as broker:
        produce_shift_reports.apply_async(
            kwargs={"gaming_day": "2026-11-20", "shift": "day"}, connection=broker
        )
    wait_for(lambda: ShiftReport.objects.filter(table=actors.table).exists(), survivor, "shift report")
    report = ShiftReport.objects.get(table=actors.table)
    assert (report.drop_cents, report.win_cents, report.hold_bp) == (20_000, 0, 0)
