"""Reports are never wrong about their status: the one rule (reports.status) and every case where
a report used to say "Final" when it was not, each read in JSON, in the filing CSV and in the PDF.

- a running shift, stored nowhere: computed on request, provisional, its tables listed;
- a gaming day with shifts still to come: provisional, the figures to come null (never $0.00);
- a drop not counted, a table still open, a slip pending: provisional with that reason;
- the same shift once closed, counted and with nothing pending: final everywhere.
"""

import csv
import datetime as dt
import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from rest_framework.test import APIClient

from casino.services.provisioning import ProvisionedStaff
from reports import tasks
from reports.models import ShiftReport
from reports.status import ShiftClock, TableState, period_status, report_status
from tests.compliance.counted_drop_support import (
    count_team,
    record_count,
    second_count_agreeing,
    two_supervisors,
)
from tests.support.api import TableActors, buy_in, close_table, ok, open_table, request_slip
from tests.support.gaming_day import CASINO_ZONE, REPORTS, Clock, day_shift_clock
from tests.support.report_documents import pdf_page_texts

DAY = "2026-11-20"
AFTER_DAY_SHIFT = dt.datetime(2026, 11, 20, 14, 30, tzinfo=CASINO_ZONE)
DAY_SHIFT_RUNS = "the day shift has not ended"


# --- the rule ------------------------------------------------------------------------------------


def _clock(shift: str, *, begun: bool = True, ended: bool = True) -> ShiftClock:
    return ShiftClock(shift=shift, begun=begun, ended=ended)


def test_a_shift_is_final_only_once_it_has_ended_and_every_table_is_done() -> None:
    done = TableState(name="BJ-01", shift="day", flags=())
    idle = TableState(name="BJ-09", shift="day", flags=("idle",))

    assert report_status(shifts=[_clock("day")], tables=[done, idle]).provisional is False
    running = report_status(shifts=[_clock("day", ended=False)], tables=[done])
    assert (running.provisional, running.reasons, running.label) == (True, (DAY_SHIFT_RUNS,), "Provisional")


@pytest.mark.parametrize(
    ("flags", "reason"),
    [
        (("no_closer", "no_soft_count"), "BJ-01 day: no closer and no soft count"),
        (("no_soft_count",), "BJ-01 day: no soft count"),
        (("slips_pending",), "BJ-01 day: slips pending"),
        (("no_opener", "no_closer", "no_soft_count"), "BJ-01 day: no opener and no closer and no soft count"),
    ],
)
def test_an_ended_shift_with_a_table_not_done_is_provisional_and_says_why(
    flags: tuple[str, ...], reason: str
) -> None:
    status = report_status(
        shifts=[_clock("day")], tables=[TableState(name="BJ-01", shift="day", flags=flags)]
    )
    assert (status.provisional, status.reasons) == (True, (reason,))


def test_a_gaming_day_is_final_only_when_all_three_shifts_are() -> None:
    shifts = [_clock("grave", begun=False, ended=False), _clock("day"), _clock("swing", ended=False)]
    status = report_status(shifts=shifts, tables=[])
    assert status.reasons == ("the swing shift has not ended", "the grave shift has not begun")
    assert (
        report_status(shifts=[_clock(s) for s in ("day", "swing", "grave")], tables=[]).provisional is False
    )


def test_month_to_date_is_provisional_while_its_last_day_is() -> None:
    last_day = report_status(shifts=[_clock("grave", ended=False)], tables=[])
    assert period_status(last_day=last_day, through=DAY).reasons == (f"{DAY}: the grave shift has not ended",)
    assert period_status(last_day=report_status(shifts=[], tables=[]), through=DAY).provisional is False


# --- the reports, in JSON, CSV and PDF -------------------------------------------------------------


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Clock:
    return day_shift_clock(monkeypatch, settings)


@pytest.fixture
def supervisors(
    make_staff: Callable[[str], tuple[ProvisionedStaff, APIClient]],
) -> tuple[APIClient, APIClient]:
    return two_supervisors(make_staff)


@pytest.fixture
def team(make_staff: Callable[[str], tuple[ProvisionedStaff, APIClient]]) -> tuple[APIClient, APIClient]:
    return count_team(make_staff)


@dataclass
class ReadAs:
    """One report read three ways."""

    json: dict[str, Any]
    csv: list[list[str]]
    pdf: list[str]

    @property
    def csv_status(self) -> tuple[str, str]:
        status = dict(row[:2] for row in self.csv[:13] if len(row) >= 2)
        return status["status"], status["provisional_reasons"]


def read(client: APIClient, **query: str) -> ReadAs:
    answer = ok(client.get(REPORTS, query))
    filing = client.get(REPORTS, query, HTTP_ACCEPT="text/csv")
    pdf = client.get(REPORTS, query, HTTP_ACCEPT="application/pdf")
    assert (filing.status_code, pdf.status_code) == (200, 200)
    return ReadAs(
        json=answer,
        csv=list(csv.reader(io.StringIO(filing.content.decode()))),
        pdf=pdf_page_texts(pdf.content),
    )


def assert_provisional(report: ReadAs, reasons: list[str]) -> None:
    """Provisional in all three, with the same reasons."""
    assert (report.json["provisional"], report.json["provisional_reasons"]) == (True, reasons)
    assert report.csv_status == ("Provisional", "; ".join(reasons))
    for page in report.pdf:
        assert "PROVISIONAL" in page
    first = " ".join(report.pdf[0].split())
    assert "PROVISIONAL: " + "; ".join(reasons) in first
    assert "Every table's hold is within the expected range" not in "".join(report.pdf)


def assert_final(report: ReadAs) -> None:
    assert (report.json["provisional"], report.json["provisional_reasons"]) == (False, [])
    assert report.csv_status == ("Final", "")
    assert not any("PROVISIONAL" in page for page in report.pdf)


def counted(team: tuple[APIClient, APIClient], table: TableActors, bills: dict[str, int]) -> None:
    entered = ok(record_count(team[0], table.table, gaming_day=DAY, currency=bills), 201)
    ok(second_count_agreeing(team[1], entered["id"]), 201)


@pytest.mark.django_db
def test_a_running_shift_stored_nowhere_is_computed_on_request_and_provisional(
    make_table: Callable[..., TableActors], supervisors: tuple[APIClient, APIClient], clock: Clock
) -> None:
    table = make_table("BJ-01")
    ok(open_table(supervisors[0], table, {"100000": 10}), 201)
    ok(buy_in(table, 1, 10_000), 201)
    assert not ShiftReport.objects.exists()  # nobody stored anything: beat has not run

    report = read(supervisors[1], gaming_day=DAY, shift="day")

    assert_provisional(report, [DAY_SHIFT_RUNS, "BJ-01 day: no closer and no soft count"])
    (row,) = report.json["tables"]
    assert (row["table"]["name"], row["provisional"], row["shift_ended"]) == ("BJ-01", True, False)
    assert (row["opener_cents"], row["closer_cents"], row["win_cents"], row["hold_bp"]) == (
        1_000_000,
        None,
        None,
        None,
    )
    assert (row["estimated_drop_cents"], row["drop_basis"]) == (10_000, "estimated")
    (casino,) = report.json["casinos"]
    # No complete table: the roll-up knows nothing, and says so with nulls, not zeros.
    assert (casino["opener_cents"], casino["drop_cents"], casino["win_cents"]) == (None, None, None)
    assert not ShiftReport.objects.exists()  # read, not written


@pytest.mark.django_db
def test_beat_stores_the_running_shift_of_every_table_with_activity(
    make_table: Callable[..., TableActors], supervisors: tuple[APIClient, APIClient], clock: Clock
) -> None:
    busy, idle = make_table("BJ-01"), make_table("BJ-02")
    ok(open_table(supervisors[0], busy, {"100000": 10}), 201)

    tasks.refresh_running_shift_reports.apply().get()

    stored = ShiftReport.objects.get(table=busy.table)
    assert (stored.shift, stored.provisional) == ("day", True)
    assert not ShiftReport.objects.filter(table=idle.table).exists()


@pytest.mark.django_db
def test_a_gaming_day_with_shifts_still_to_come_is_provisional_with_its_figures_to_come_null(
    make_table: Callable[..., TableActors],
    supervisors: tuple[APIClient, APIClient],
    team: tuple[APIClient, APIClient],
    clock: Clock,
) -> None:
    table = make_table("BJ-01")
    ok(open_table(supervisors[0], table, {"100000": 10}), 201)
    ok(buy_in(table, 1, 10_000), 201)
    ok(close_table(supervisors[0], table, {"100000": 9, "10000": 9}), 201)
    clock.set(AFTER_DAY_SHIFT)  # 14:30: the day shift is final, the swing runs, the grave is to come
    counted(team, table, {"10000": 1})

    assert_final(read(supervisors[1], gaming_day=DAY, shift="day"))
    day = read(supervisors[1], gaming_day=DAY)

    assert_provisional(day, ["the swing shift has not ended", "the grave shift has not begun"])
    assert day.json["daily"]["provisional"] is True
    (daily,) = day.json["daily"]["tables"]
    assert (daily["opener_cents"], daily["closer_cents"], daily["win_cents"], daily["hold_bp"]) == (
        1_000_000,
        None,
        None,
        None,
    )
    (casino,) = day.json["daily"]["casinos"]
    assert (casino["opener_cents"], casino["closer_cents"], casino["drop_cents"]) == (None, None, None)
    # The CSV leaves what is not known blank; the PDF prints a dash: never 0.
    daily_casino = next(row for row in day.csv if row[:2] == ["casino", "daily"])
    header = next(row for row in day.csv if row[:2] == ["level", "shift"])
    assert [daily_casino[header.index(c)] for c in ("opener", "closer", "drop", "win")] == ["", "", "", ""]
    assert "None" not in daily_casino
    assert "$0.00 (estimated)" not in "".join(day.pdf)
    assert "None" not in "".join(day.pdf)


@pytest.mark.django_db
def test_a_drop_not_counted_keeps_the_shift_provisional_until_it_is(
    make_table: Callable[..., TableActors],
    supervisors: tuple[APIClient, APIClient],
    team: tuple[APIClient, APIClient],
    clock: Clock,
) -> None:
    table = make_table("BJ-01")
    ok(open_table(supervisors[0], table, {"100000": 10}), 201)
    ok(buy_in(table, 1, 10_000), 201)
    ok(close_table(supervisors[0], table, {"100000": 9, "10000": 9}), 201)
    clock.set(AFTER_DAY_SHIFT)

    assert_provisional(read(supervisors[1], gaming_day=DAY, shift="day"), ["BJ-01 day: no soft count"])

    counted(team, table, {"10000": 1})
    final = read(supervisors[1], gaming_day=DAY, shift="day")
    assert_final(final)
    assert final.json["tables"][0]["drop_basis"] == "counted"


@pytest.mark.django_db
def test_a_table_still_open_after_its_shift_keeps_the_report_provisional(
    make_table: Callable[..., TableActors], supervisors: tuple[APIClient, APIClient], clock: Clock
) -> None:
    table = make_table("BJ-01")
    ok(open_table(supervisors[0], table, {"100000": 10}), 201)
    ok(buy_in(table, 1, 10_000), 201)
    clock.set(AFTER_DAY_SHIFT)

    report = read(supervisors[1], gaming_day=DAY, shift="day")

    assert_provisional(report, ["BJ-01 day: no closer and no soft count"])
    assert report.json["tables"][0]["closer_cents"] is None


@pytest.mark.django_db
def test_a_slip_pending_keeps_a_closed_and_counted_shift_provisional(
    make_table: Callable[..., TableActors],
    supervisors: tuple[APIClient, APIClient],
    team: tuple[APIClient, APIClient],
    clock: Clock,
) -> None:
    table = make_table("BJ-01")
    ok(open_table(supervisors[0], table, {"100000": 10}), 201)
    ok(buy_in(table, 1, 10_000), 201)
    ok(request_slip(table.terminal, "fill", {"10000": 5}), 201)  # never approved
    ok(close_table(supervisors[0], table, {"100000": 9, "10000": 9}), 201)
    clock.set(AFTER_DAY_SHIFT)
    counted(team, table, {"10000": 1})

    report = read(supervisors[1], gaming_day=DAY, shift="day")

    assert_provisional(report, ["BJ-01 day: slips pending"])
    assert report.json["tables"][0]["complete"] is True  # every count is in; a slip still waits


@pytest.mark.django_db
def test_one_row_regenerated_after_the_shift_ended_does_not_hide_the_tables_not_stored(
    make_table: Callable[..., TableActors], supervisors: tuple[APIClient, APIClient], clock: Clock
) -> None:
    done, still_open = make_table("BJ-01"), make_table("BJ-02")
    ok(open_table(supervisors[0], done, {"100000": 10}), 201)
    ok(close_table(supervisors[0], done, {"100000": 10}), 201)
    ok(open_table(supervisors[0], still_open, {"100000": 5}), 201)
    clock.set(AFTER_DAY_SHIFT)
    # A late correction regenerates BJ-01 alone, before beat has stored the ended shift.
    tasks.regenerate_shift_report.apply(
        kwargs={"table_id": done.table.pk, "gaming_day": DAY, "shift": "day"}
    ).get()

    report = read(supervisors[1], gaming_day=DAY, shift="day")

    assert [t["table"]["name"] for t in report.json["tables"]] == ["BJ-01", "BJ-02"]
    assert_provisional(report, ["BJ-01 day: no soft count", "BJ-02 day: no closer and no soft count"])
