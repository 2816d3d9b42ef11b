"""The Celery tasks' bodies, the beat entry, and `manage.py shift_report`."""

import datetime as dt
import os
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest
from celery.schedules import crontab
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from rest_framework.test import APIClient

from reports import tasks
from reports.models import ShiftReport
from reports.services import last_finished_shift
from tests.support.api import TableActors, buy_in, close_table, ok, open_table
from tests.support.gaming_day import CASINO_ZONE, Clock


@pytest.mark.parametrize(
    ("moment", "expected"),
    [
        (dt.datetime(2026, 11, 20, 14, 0, 5, tzinfo=CASINO_ZONE), (dt.date(2026, 11, 20), "day")),
        (dt.datetime(2026, 11, 20, 22, 3, tzinfo=CASINO_ZONE), (dt.date(2026, 11, 20), "swing")),
        (dt.datetime(2026, 11, 21, 6, 0, tzinfo=CASINO_ZONE), (dt.date(2026, 11, 20), "grave")),
        (dt.datetime(2026, 11, 21, 5, 59, tzinfo=CASINO_ZONE), (dt.date(2026, 11, 20), "swing")),
    ],
)
def test_the_shift_that_has_just_ended(moment: dt.datetime, expected: tuple[dt.date, str]) -> None:
    assert last_finished_shift(now=moment) == expected


def test_beat_runs_at_the_end_of_each_shift_in_casino_time() -> None:
    entry = tasks.BEAT_SCHEDULE["casino-shift-reports-at-shift-end"]

    assert entry["task"] == "casino.tasks.produce_reports_for_finished_shift"
    assert entry["schedule"] == crontab(hour="6,14,22", minute=0)
    assert settings.CELERY_TIMEZONE == settings.CASINO_TIME_ZONE
    assert tasks.produce_reports_for_finished_shift.name == entry["task"]


def test_tasks_are_acknowledged_late_and_take_keyword_arguments() -> None:
    for task in (
        tasks.produce_shift_reports,
        tasks.regenerate_shift_report,
        tasks.produce_reports_for_finished_shift,
    ):
        assert task.acks_late is True
        assert task.max_retries == 5
    assert settings.CELERY_TASK_REJECT_ON_WORKER_LOST is True
    assert settings.CELERY_WORKER_PREFETCH_MULTIPLIER == 1


def _small_shift(make_table: Callable[..., TableActors], supervisor: APIClient) -> TableActors:
    actors = make_table("BJ-T1")
    ok(open_table(supervisor, actors, {"100000": 3}), 201)
    ok(buy_in(actors, 2, 40_000), 201)
    ok(close_table(supervisor, actors, {"100000": 2, "10000": 6}), 201)
    return actors


@pytest.mark.django_db
def test_the_beat_task_reports_the_shift_that_just_ended(
    make_table: Callable[..., TableActors], supervisor: APIClient, clock: Clock
) -> None:
    actors = _small_shift(make_table, supervisor)
    clock.set(dt.datetime(2026, 11, 20, 14, 0, 1, tzinfo=CASINO_ZONE))

    result: Any = tasks.produce_reports_for_finished_shift.apply().get()

    assert (result["gaming_day"], result["shift"]) == ("2026-11-20", "day")
    report = ShiftReport.objects.get(table=actors.table)
    assert (report.gaming_day, report.shift, report.drop_cents, report.win_cents) == (
        dt.date(2026, 11, 20),
        "day",
        40_000,
        0,
    )


@pytest.mark.django_db
def test_bad_task_arguments_fail_without_retrying() -> None:
    result = tasks.produce_shift_reports.apply(kwargs={"gaming_day": "2026-11-20", "shift": "night"})
    assert result.failed()
    assert tasks.regenerate_shift_report.apply(
        kwargs={"table_id": 1, "gaming_day": "nope", "shift": "day"}
    ).failed()


@pytest.mark.django_db
def test_the_command_produces_the_reports(
    make_table: Callable[..., TableActors],
    supervisor: APIClient,
    capsys: pytest.CaptureFixture[str],
    clock: Clock,
) -> None:
    actors = _small_shift(make_table, supervisor)
    clock.set(dt.datetime(2026, 11, 20, 14, 0, tzinfo=CASINO_ZONE))  # the day shift is over

    call_command("shift_report", "--gaming-day", "2026-11-20", "--shift", "day")
    call_command(
        "shift_report", "--gaming-day", "2026-11-20", "--shift", "day", "--table", str(actors.table.pk)
    )

    assert capsys.readouterr().out.splitlines() == [
        "1 shift report(s) for 2026-11-20 day; win $0.00.",
        "1 shift report(s) for 2026-11-20 day; win $0.00.",
    ]
    assert ShiftReport.objects.filter(table=actors.table).count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "--gaming-day YYYY-MM-DD and --shift day|swing|grave are both required."),
        (
            ["--gaming-day", "2026-02-30", "--shift", "day"],
            "--gaming-day '2026-02-30' is not a date (YYYY-MM-DD).",
        ),
        (["--gaming-day", "2026-11-20", "--shift", "night"], "A shift is one of day, swing, grave."),
        (["--gaming-day", "2026-11-20", "--shift", "day", "--table", "x"], "--table 'x' is not a table id."),
        (["--gaming-day", "2026-11-20", "--shift", "day", "--table", "99999"], "No table 99999."),
    ],
)
def test_the_command_refuses_bad_arguments(args: list[str], message: str) -> None:
    with pytest.raises(
        CommandError, match="^" + message.replace("(", r"\(").replace(")", r"\)").replace("|", r"\|") + "$"
    ):
        call_command("shift_report", *args)


@pytest.mark.parametrize(
    "args",
    [
        ["--gaming-day", "2026-13-01", "--shift", "day"],
        ["--gaming-day", "2026-11-20", "--shift", "night"],
        ["--bogus"],
    ],
)
def test_from_the_shell_a_bad_argument_is_one_line_and_a_non_zero_exit(args: list[str]) -> None:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings_test"}
    done = subprocess.run(  # noqa: S603 - our own manage.py
        [sys.executable, "manage.py", "shift_report", *args],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    assert done.returncode != 0
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "Traceback" not in done.stderr
