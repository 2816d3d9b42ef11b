"""A day shift played through the API, and its report checked figure by figure against values
computed by hand, and against the ledger's own balances."""

import csv
import datetime as dt
import io
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from casino.ledger import balance_cents
from casino.models import Account, AccountKind, LedgerEntry, MovementKind
from reports import services as reports
from reports.models import ShiftReport, ShiftReportLine
from tests.support.api import TableActors, buy_in, ok, open_table, post, problem
from tests.support.gaming_day import (
    CASINO_ZONE,
    GAMING_DAY,
    REPORTS,
    SYSTEM,
    Clock,
    play_the_day_shift,
    produce,
)
from tests.support.rounds import wager

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _counted_once_a_day(settings: Any) -> None:
    """These shifts' figures rest on the estimated drop: the casino counts its drop boxes once a
    day, so a shift report needs no soft count (counted drop: tests/compliance)."""
    settings.CASINO_SOFT_COUNT_PER = "day"


def lines_of(report: ShiftReport) -> dict[str, tuple[int, int, int, int]]:
    return {
        line.kind: (line.wagers, line.handle_cents, line.payouts_cents, line.theo_win_cents)
        for line in ShiftReportLine.objects.filter(report=report)
    }


def test_the_report_of_a_played_shift_matches_hand_computed_figures(
    make_table: Callable[..., TableActors], supervisors: tuple[APIClient, APIClient]
) -> None:
    played = play_the_day_shift(make_table, supervisors)

    by_table = produce()

    main = by_table[played.main.table.pk]
    assert (main.gaming_day, main.shift) == (GAMING_DAY, "day")
    assert main.opener_cents == 1_100_000
    assert main.closer_cents == 975_500
    assert main.drop_cents == 170_000
    assert main.markers_cents == 100_000
    assert main.fills_cents == 200_000
    assert main.credits_cents == 150_000
    # win = drop + credits - fills + (closer - opener) = 170,000 + 150,000 - 200,000 - 124,500
    assert main.win_cents == -4_500
    # -4,500 / 170,000 = -264.705... bp -> -265 (half to even)
    assert main.hold_bp == -265
    assert main.hold_outside_range is True
    assert (main.rounds_settled, main.rounds_voided, main.hands_dealt) == (3, 1, 3)
    assert main.handle_cents == 18_700  # 10,000 + 200 + 2,000 + 5,000 + 1,000 + 500
    assert main.payouts_cents == 23_200  # 10,000 + 9,200 + 4,000
    assert main.house_net_cents == -4_500
    assert main.win_minus_house_net_cents == 0
    assert lines_of(main) == {
        # kind: (wagers, handle, payouts, theo = handle x edge, half to even)
        "primary": (3, 17_000, 14_000, 70),  # 17,000 x 0.0041 = 69.7
        "T18": (1, 200, 9_200, 52),  # 200 x 0.26198 = 52.396
        "LS": (1, 1_000, 0, 208),  # 1,000 x 0.20802 = 208.02
        "RS": (1, 500, 0, 118),  # 500 x 0.23569 = 117.845
    }
    assert main.theo_win_cents == 70 + 52 + 208 + 118
    assert main.flags == []

    side = by_table[played.side.table.pk]
    assert (side.opener_cents, side.closer_cents, side.drop_cents) == (500_000, 469_500, 30_000)
    assert side.win_cents == -500  # 30,000 + 469,500 - 500,000
    assert side.hold_bp == -167  # -166.66... bp
    assert side.house_net_cents == 0
    assert side.win_minus_house_net_cents == -500  # the 500 the count came up short
    assert (side.rounds_settled, side.hands_dealt, side.theo_win_cents) == (0, 0, 0)


def test_the_count_based_win_equals_the_ledger(
    make_table: Callable[..., TableActors], supervisors: tuple[APIClient, APIClient]
) -> None:
    played = play_the_day_shift(make_table, supervisors)
    table = played.main.table

    report = produce()[table.pk]

    # The ledger's own view: what the drop holds, how the tray moved apart from the opener's
    # issue from the cage, and what the cage gave or took back (fills and credits).
    opener_issue = sum(
        LedgerEntry.objects.filter(
            transaction__table=table, transaction__kind=MovementKind.OPENER, account__kind=AccountKind.TRAY
        ).values_list("amount_cents", flat=True)
    )
    cage_for_table = sum(
        LedgerEntry.objects.filter(transaction__table=table, account__kind=AccountKind.CAGE)
        .exclude(transaction__kind=MovementKind.OPENER)
        .values_list("amount_cents", flat=True)
    )
    drop = balance_cents(table=table, kind=AccountKind.DROP)
    tray_change = balance_cents(table=table, kind=AccountKind.TRAY) - opener_issue
    ledger_win = drop + tray_change + cage_for_table
    assert opener_issue == report.opener_cents == 1_100_000
    assert drop == report.drop_cents
    assert cage_for_table == report.credits_cents - report.fills_cents
    assert balance_cents(table=table, kind=AccountKind.TRAY) == report.closer_cents
    assert ledger_win == report.win_cents == -4_500
    # ... and what the players' side of the ledger lost is the house's net, the same figure.
    players = balance_cents(table=table, kind=AccountKind.PATRONS) + balance_cents(
        table=table, kind=AccountKind.WAGERS
    )
    assert -players == report.house_net_cents == report.win_cents
    # The cage's balance is every table's fills, credits and issued banks, nothing else.
    cage = Account.objects.get(kind=AccountKind.CAGE, table=None)
    assert (
        sum(cage.entries.values_list("amount_cents", flat=True)) == -1_100_000 - 200_000 + 150_000 - 500_000
    )


def test_regenerating_in_place_gives_the_same_rows(
    make_table: Callable[..., TableActors], supervisors: tuple[APIClient, APIClient]
) -> None:
    play_the_day_shift(make_table, supervisors)
    first = produce()
    first_figures = {
        pk: (r.pk, r.win_cents, r.hold_bp, r.theo_win_cents, lines_of(r)) for pk, r in first.items()
    }

    second = produce()
    reports.produce_shift_reports(
        gaming_day=GAMING_DAY,
        shift="day",
        table_ids=[next(iter(first))],
        actor=SYSTEM,
        now=dt.datetime.now(dt.UTC),
    )

    assert ShiftReport.objects.count() == 2
    assert {
        pk: (r.pk, r.win_cents, r.hold_bp, r.theo_win_cents, lines_of(r)) for pk, r in second.items()
    } == (first_figures)
    assert ShiftReportLine.objects.count() == 4


def test_a_run_that_fails_half_way_leaves_the_previous_report(
    make_table: Callable[..., TableActors],
    supervisors: tuple[APIClient, APIClient],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    played = play_the_day_shift(make_table, supervisors)
    first_run = dt.datetime(2026, 11, 20, 14, 0, tzinfo=CASINO_ZONE)
    before = reports.produce_shift_reports(gaming_day=GAMING_DAY, shift="day", actor=SYSTEM, now=first_run)
    main_before = ShiftReport.objects.get(table=played.main.table)

    def crash(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("worker lost")

    with monkeypatch.context() as patched:
        patched.setattr(reports, "record_event", crash)  # after the rows are written, before commit
        with pytest.raises(RuntimeError):
            reports.produce_shift_reports(
                gaming_day=GAMING_DAY, shift="day", actor=SYSTEM, now=first_run + dt.timedelta(hours=1)
            )

    assert set(ShiftReport.objects.values_list("pk", "generated_at")) == {(r.pk, first_run) for r in before}
    assert lines_of(ShiftReport.objects.get(pk=main_before.pk)) == lines_of(main_before)
    again = reports.produce_shift_reports(
        gaming_day=GAMING_DAY, shift="day", actor=SYSTEM, now=first_run + dt.timedelta(hours=2)
    )
    assert [r.pk for r in again] == [r.pk for r in before]
    assert ShiftReport.objects.get(pk=main_before.pk).win_cents == main_before.win_cents


def test_a_void_of_a_past_shifts_fill_corrects_that_shift_and_enqueues_its_regeneration(
    make_table: Callable[..., TableActors],
    supervisors: tuple[APIClient, APIClient],
    clock: Clock,
    django_capture_on_commit_callbacks: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    played = play_the_day_shift(make_table, supervisors)
    produce()
    clock.set(dt.datetime(2026, 11, 20, 15, 30, tzinfo=CASINO_ZONE))  # the swing shift
    sent: list[tuple[str, dict[str, Any]]] = []
    from config.celery import app

    monkeypatch.setattr(app, "send_task", lambda name, kwargs: sent.append((name, kwargs)))

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        voided = ok(
            post(played.approver, f"/api/v1/fills/{played.fill_id}/void/", {"reason": "never delivered"})
        )

    assert voided["status"] == "void"
    assert voided["void"]["reason"] == "never delivered"
    assert (voided["void"]["gaming_day"], voided["void"]["shift"]) == ("2026-11-20", "swing")
    assert len(callbacks) == 1
    assert sent == [
        (
            "casino.tasks.regenerate_shift_report",
            {"table_id": played.main.table.pk, "gaming_day": "2026-11-20", "shift": "day"},
        )
    ]
    # What the regeneration then finds: the day shift without the fill.
    regenerated = reports.produce_shift_reports(
        gaming_day=GAMING_DAY,
        shift="day",
        table_ids=[played.main.table.pk],
        actor=SYSTEM,
        now=dt.datetime.now(dt.UTC),
    )[0]
    regenerated.refresh_from_db()
    assert regenerated.fills_cents == 0
    assert regenerated.win_cents == -4_500 + 200_000
    assert regenerated.win_minus_house_net_cents == 200_000  # the count had the fill's chips in it
    assert (
        ShiftReport.objects.filter(table=played.main.table, gaming_day=GAMING_DAY, shift="day").count() == 1
    )
    # The swing shift has nothing from it.
    assert not LedgerEntry.objects.filter(transaction__shift="swing").exists()


def test_a_missing_closer_leaves_win_unknown_and_flags_it(
    make_table: Callable[..., TableActors], supervisors: tuple[APIClient, APIClient]
) -> None:
    actors = make_table("BJ-09")
    ok(open_table(supervisors[0], actors, {"100000": 2}), 201)
    ok(buy_in(actors, 1, 10_000), 201)

    report = produce()[actors.table.pk]

    assert (report.opener_cents, report.closer_cents, report.win_cents, report.hold_bp) == (
        200_000,
        None,
        None,
        None,
    )
    assert report.flags == ["no_closer"]


def test_play_without_counts_is_not_idle(make_table: Callable[..., TableActors]) -> None:
    actors = make_table("BJ-11")
    ok(post(actors.terminal, "/api/v1/shoes/", {"mode": "reported"}), 201)
    ok(
        post(
            actors.terminal, "/api/v1/rounds/", {"seats": [{"seat": 1, "wagers": [wager("primary", 1_000)]}]}
        ),
        201,
    )

    report = produce()[actors.table.pk]

    assert (report.win_cents, report.handle_cents, report.flags) == (None, 0, ["no_opener", "no_closer"])


def test_an_idle_table_reports_zero_and_says_so(make_table: Callable[..., TableActors]) -> None:
    actors = make_table("BJ-10")

    report = produce()[actors.table.pk]

    assert (report.win_cents, report.hold_bp, report.drop_cents, report.flags) == (0, None, 0, ["idle"])


# --- reading the reports -------------------------------------------------------------------------


def test_staff_read_the_reports_as_json_with_pit_and_casino_rollups(
    make_table: Callable[..., TableActors],
    supervisors: tuple[APIClient, APIClient],
    make_staff: Callable[[str], tuple[Any, APIClient]],
    settings: Any,
) -> None:
    settings.CASINO_HOLD_ALERT_MIN_DROP_CENTS = 0  # this test's drops are small: each hold counts
    played = play_the_day_shift(make_table, supervisors)
    produce()
    compliance = make_staff("compliance")[1]

    body = ok(compliance.get(REPORTS, {"gaming_day": "2026-11-20", "shift": "day"}))

    assert body["gaming_day"] == "2026-11-20"
    assert body["shifts"] == ["day"]
    assert body["expected_hold_bp"] == {"low": 1_000, "high": 2_000}
    by_name = {t["table"]["name"]: t for t in body["tables"]}
    main = by_name["BJ-01"]
    assert main["table"]["id"] == played.main.table.pk
    assert main["pit"]["name"] == "Main pit"
    assert (main["win_cents"], main["hold_bp"], main["hold_percent"]) == (-4_500, -265, "-2.65")
    assert [k["kind"] for k in main["by_kind"]] == ["primary", "T18", "LS", "RS"]
    assert main["by_kind"][0] == {
        "kind": "primary",
        "wagers": 3,
        "handle_cents": 17_000,
        "payouts_cents": 14_000,
        "house_net_cents": 3_000,
        "theo_win_cents": 70,
        "unpriced_handle_cents": 0,
        "house_edge": "0.004100",
        "priced": True,
    }
    pits = {p["pit"]["name"]: p for p in body["pits"]}
    assert set(pits) == {"Main pit", "High limit"}
    assert pits["High limit"]["win_cents"] == -500
    assert pits["High limit"]["tables"] == 1
    [casino] = body["casinos"]
    assert casino["tables"] == 2
    assert casino["tables_incomplete"] == 0
    assert casino["drop_cents"] == 200_000
    assert casino["win_cents"] == -5_000
    assert casino["hold_bp"] == -250  # -5,000 / 200,000, from the sums, not an average of holds
    assert casino["opener_cents"] == 1_600_000
    assert casino["handle_cents"] == 18_700
    assert casino["theo_win_cents"] == 448
    assert casino["unpriced_handle_cents"] == 0
    assert casino["win_minus_house_net_cents"] == -500
    assert {o["table"]["name"] for o in body["hold_outliers"]} == {"BJ-01", "BJ-02"}


def test_reports_as_machine_csv(
    make_table: Callable[..., TableActors], supervisors: tuple[APIClient, APIClient]
) -> None:
    play_the_day_shift(make_table, supervisors)
    produce()

    response = supervisors[1].get(
        REPORTS, {"gaming_day": "2026-11-20", "shift": "day", "format": "csv-machine"}
    )

    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="shift-report-2026-11-20-day.machine.csv"'
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [(r["level"], r["pit"], r["table"]) for r in rows] == [
        ("table", "High limit", "BJ-02"),
        ("table", "Main pit", "BJ-01"),
        ("pit", "High limit", ""),
        ("pit", "Main pit", ""),
        ("casino", "", ""),
    ]
    main = rows[1]
    assert (main["drop_cents"], main["win_cents"], main["hold_bp"], main["hold_percent"]) == (
        "170000",
        "-4500",
        "-265",
        "-2.65",
    )
    assert (main["T18_handle_cents"], main["T18_payouts_cents"], main["TBJ_handle_cents"]) == (
        "200",
        "9200",
        "",
    )
    assert rows[-1]["win_cents"] == "-5000"


def test_reports_as_pdf(
    make_table: Callable[..., TableActors], supervisors: tuple[APIClient, APIClient]
) -> None:
    play_the_day_shift(make_table, supervisors)
    produce()

    response = supervisors[0].get(
        REPORTS, {"gaming_day": "2026-11-20", "shift": "day"}, HTTP_ACCEPT="application/pdf"
    )

    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF-")
    assert b"/Subtype /Image" in response.content  # the chart


def test_terminals_may_not_read_reports(table: TableActors) -> None:
    problem(table.terminal.get(REPORTS, {"gaming_day": "2026-11-20"}), 403, "role_not_allowed")


@pytest.mark.parametrize(
    "query",
    [
        {},
        {"gaming_day": "2026-13-40"},
        {"gaming_day": "yesterday"},
        {"gaming_day": "2026-11-20", "shift": "night"},
    ],
)
def test_bad_query_parameters_are_400_problems(query: dict[str, str], supervisor: APIClient) -> None:
    body = problem(supervisor.get(REPORTS, query, HTTP_ACCEPT="text/csv"), 400, "validation_error")
    assert body["errors"]


def test_a_whole_gaming_day_when_the_shift_is_left_out(
    make_table: Callable[..., TableActors], supervisors: tuple[APIClient, APIClient], clock: Clock
) -> None:
    play_the_day_shift(make_table, supervisors)
    produce()
    # 15:00: the swing shift is under way (read live: no table has anything in it yet, so it has
    # no rows); the grave shift has not begun.
    clock.set(dt.datetime(2026, 11, 20, 15, 0, tzinfo=CASINO_ZONE))

    running = ok(supervisors[0].get(REPORTS, {"gaming_day": "2026-11-20"}))

    assert running["shifts"] == ["day", "swing", "grave"]
    assert [(t["shift"], t["table"]["name"]) for t in running["tables"]] == [
        ("day", "BJ-02"),
        ("day", "BJ-01"),
    ]
    assert running["provisional_reasons"][:2] == [
        "the swing shift has not ended",
        "the grave shift has not begun",
    ]

    # 22:30: the swing shift has ended, nothing stored for it: computed on request, idle tables.
    clock.set(dt.datetime(2026, 11, 20, 22, 30, tzinfo=CASINO_ZONE))
    body = ok(supervisors[0].get(REPORTS, {"gaming_day": "2026-11-20"}))

    assert [(t["shift"], t["table"]["name"]) for t in body["tables"]] == [
        ("day", "BJ-02"),
        ("day", "BJ-01"),
        ("swing", "BJ-02"),
        ("swing", "BJ-01"),
    ]
    assert [c["shift"] for c in body["casinos"]] == ["day", "swing"]
    assert [t["flags"] for t in body["tables"] if t["shift"] == "swing"] == [["idle"], ["idle"]]
