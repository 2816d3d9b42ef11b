"""audit_export writes exactly one gaming day's events, as CSV or JSON lines."""

import csv
import datetime as dt
import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from audit.context import AuditActor
from audit.exports import FIELDS
from audit.selectors import gaming_day_bounds
from tests.audit.conftest import append

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _casino_clock(settings) -> None:
    settings.CASINO_TIME_ZONE = "America/Los_Angeles"
    settings.GAMING_DAY_STARTS = "06:00"


@pytest.fixture
def around_the_day() -> dict[str, int]:
    """Events either side of gaming day 2026-11-20 (06:00 PST = 14:00 UTC)."""
    moments = {
        "before": dt.datetime(2026, 11, 20, 13, 59, 59, 999999, tzinfo=dt.UTC),
        "first": dt.datetime(2026, 11, 20, 14, 0, tzinfo=dt.UTC),
        "last": dt.datetime(2026, 11, 21, 13, 59, 59, 999999, tzinfo=dt.UTC),
        "after": dt.datetime(2026, 11, 21, 14, 0, tzinfo=dt.UTC),
    }
    pat = AuditActor(kind="user", user_id=3, username="=HYPERLINK(evil)", role="pit_boss")
    return {
        name: append(occurred_at=moment, subject_label=f'{name}, with "quotes"\nand a newline', actor=pat).seq
        for name, moment in moments.items()
    }


def _export(fmt: str) -> str:
    out = io.StringIO()
    call_command("audit_export", "--gaming-day", "2026-11-20", "--format", fmt, stdout=out)
    return out.getvalue()


def test_gaming_day_bounds_follow_the_casino_clock() -> None:
    assert gaming_day_bounds(dt.date(2026, 11, 20)) == (
        dt.datetime(2026, 11, 20, 14, 0, tzinfo=dt.UTC),
        dt.datetime(2026, 11, 21, 14, 0, tzinfo=dt.UTC),
    )
    # Across the end of daylight saving time the gaming day is 25 hours long.
    start, end = gaming_day_bounds(dt.date(2026, 10, 31))
    assert end.astimezone(dt.UTC) - start.astimezone(dt.UTC) == dt.timedelta(hours=25)


def test_csv_has_exactly_that_days_events(around_the_day) -> None:
    rows = list(csv.reader(io.StringIO(_export("csv"))))

    assert rows[0] == list(FIELDS)
    records = [dict(zip(FIELDS, row, strict=True)) for row in rows[1:]]
    assert [int(record["seq"]) for record in records] == [around_the_day["first"], around_the_day["last"]]
    assert records[0]["occurred_at"] == "2026-11-20T14:00:00.000000Z"
    assert records[0]["gaming_day"] == "2026-11-20"
    assert records[0]["subject_label"] == 'first, with "quotes"\nand a newline'
    assert records[0]["username"] == "'=HYPERLINK(evil)"  # not run as a formula by a spreadsheet
    assert json.loads(records[0]["after"]) == {"paid_cents": 19200, "state": "settled"}
    assert records[0]["terminal_id"] == ""


def test_jsonl_has_exactly_that_days_events(around_the_day) -> None:
    lines = _export("jsonl").splitlines()

    records = [json.loads(line) for line in lines]
    assert [record["seq"] for record in records] == [around_the_day["first"], around_the_day["last"]]
    assert list(records[0]) == list(FIELDS)
    assert records[1]["occurred_at"] == "2026-11-21T13:59:59.999999Z"
    assert records[0]["username"] == "=HYPERLINK(evil)"  # exact
    assert records[0]["after"] == {"state": "settled", "paid_cents": 19200}
    assert records[0]["terminal_id"] is None


def test_an_empty_day_is_just_the_header() -> None:
    assert _export("csv").splitlines() == [",".join(FIELDS)]
    assert _export("jsonl") == ""


def test_output_file(tmp_path: Path, around_the_day) -> None:
    target = tmp_path / "day.jsonl"
    err = io.StringIO()

    call_command(
        "audit_export", "--gaming-day", "2026-11-20", "--format", "jsonl", "--output", str(target), stderr=err
    )

    assert len(target.read_text().splitlines()) == 2
    assert "2026-11-20" in err.getvalue()
    assert not list(tmp_path.glob(".*partial"))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--gaming-day", "20/11/2026"], "--gaming-day must be a date"),
        (["--gaming-day", "2026-11-20", "--format", "xlsx"], "--format must be one of csv, jsonl"),
        (
            ["--gaming-day", "2026-11-20", "--output", "/nonexistent-dir/x.csv"],
            "cannot write /nonexistent-dir/x.csv",
        ),
        ([], "the following arguments are required: --gaming-day"),
    ],
)
def test_bad_arguments_are_one_plain_error(args: list[str], message: str) -> None:
    with pytest.raises(CommandError, match=message):
        call_command("audit_export", *args, stdout=io.StringIO())


def test_every_chain_is_exported_in_id_order_with_its_chain_and_format(around_the_day) -> None:
    moment = dt.datetime(2026, 11, 20, 18, 0, tzinfo=dt.UTC)
    at_table = append(occurred_at=moment, table_id=12, table_name="BJ-12")
    of_casino = append(occurred_at=moment)

    records = [json.loads(line) for line in _export("jsonl").splitlines()]

    assert [(record["chain"], record["seq"], record["hash_format"]) for record in records] == [
        ("casino", around_the_day["first"], 2),
        ("casino", around_the_day["last"], 2),
        ("table:12", 1, 2),
        ("casino", of_casino.seq, 2),
    ]
    assert [record["id"] for record in records] == sorted(record["id"] for record in records)
    assert records[2]["hash"] == at_table.hash
    assert list(FIELDS[-4:]) == ["prev_hash", "hash", "chain", "hash_format"]
