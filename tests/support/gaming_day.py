"""A gaming day for the tests: the casino's clock fixed in the day shift of 2026-11-20, paytable
reports with known edges, and that day shift played through the API from opener to closer."""

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from audit.context import AuditActor
from blackjack.mappers import house_rules_for, rules_to_json
from bonus_tie.models import PaytableVersion
from casino.models import Table
from reports import services as reports
from reports.models import ShiftReport
from tests.support.api import TableActors, buy_in, close_table, ok, open_table, post, request_slip
from tests.support.rounds import ROUNDS, play_round, wager

CASINO_ZONE = ZoneInfo("America/Los_Angeles")
GAMING_DAY = dt.date(2026, 11, 20)
# 10:00 on 2026-11-20 in the casino: the day shift (06:00-14:00) of gaming day 2026-11-20.
DAY_SHIFT_MORNING = dt.datetime(2026, 11, 20, 10, 0, tzinfo=CASINO_ZONE)
SYSTEM = AuditActor(kind="system", username="test")
REPORTS = "/api/v1/reports/shifts/"


class Clock:
    """`timezone.now()` for the test: fixed until moved, so no test straddles a shift boundary."""

    def __init__(self, start: dt.datetime) -> None:
        self.now = start

    def __call__(self) -> dt.datetime:
        return self.now.astimezone(dt.UTC)

    def set(self, moment: dt.datetime) -> None:
        self.now = moment

    def advance(self, **delta: float) -> None:
        self.now += dt.timedelta(**delta)


def day_shift_clock(
    monkeypatch: pytest.MonkeyPatch, settings: Any, at: dt.datetime = DAY_SHIFT_MORNING
) -> Clock:
    """`timezone.now()` fixed at `at` (10:00 of the day shift of gaming day 2026-11-20, casino time,
    unless told), in a casino whose gaming day starts at 06:00 Los Angeles time."""
    settings.CASINO_TIME_ZONE = "America/Los_Angeles"
    settings.GAMING_DAY_STARTS = "06:00"
    fake = Clock(at)
    monkeypatch.setattr(timezone, "now", fake)
    return fake


# --- paytable reports --------------------------------------------------------------------------------

# The edges the pre-report figures were checked with (the former documented constants).
KNOWN_EDGES: Mapping[str, float] = {
    "T17": 0.20676,
    "T18": 0.26198,
    "T19": 0.25432,
    "T20": 0.2051,
    "T21": 0.44788,
    "TBJ": 0.23956,
    "LS": 0.20802,
    "RS": 0.23569,
}
KNOWN_PRIMARY_EDGE = 0.0041


def price_paytable(
    *,
    version: int,
    table: Table,
    edges: Mapping[str, float] = KNOWN_EDGES,
    primary: float = KNOWN_PRIMARY_EDGE,
) -> None:
    """Store a report on a paytable version giving these edges, for `table`'s house rules (the
    figures only: the parts of the stored report format that theoretical win reads)."""
    PaytableVersion.objects.filter(version=version).update(
        report={
            "format": 2,
            "paytable_version": version,
            "rules": rules_to_json(house_rules_for(table)),
            "house_edge": {"rows": [{"kind": kind, "house_edge": edge} for kind, edge in edges.items()]},
            "primary": {"basic_strategy_house_edge": primary},
        }
    )


# --- the day shift, played ---------------------------------------------------------------------------

OPENER = {"100000": 4, "10000": 40, "2500": 80, "500": 200}  # 1,100,000 cents
CLOSER = {"100000": 9, "50000": 1, "10000": 2, "2500": 2, "500": 1}  # 975,500 cents


@dataclass
class PlayedShift:
    main: TableActors
    side: TableActors
    requester: APIClient
    approver: APIClient
    fill_id: int


def play_the_day_shift(
    make_table: Callable[..., TableActors], supervisors: tuple[APIClient, APIClient]
) -> PlayedShift:
    """Two tables' day shift with hand-computed figures: openers, buy-ins, four rounds, fills, a
    credit and closers (the figures: tests/casino/accounting/test_shift_report.py)."""
    requester, approver = supervisors
    main = make_table("BJ-01", pit_name="Main pit")
    side = make_table("BJ-02", pit_name="High limit")
    # Theo is priced from the report of the paytable each round used: give v1 one.
    price_paytable(version=1, table=main.table)

    # Opener, signed by the dealer signed in at the terminal and the supervisor.
    ok(open_table(requester, main, OPENER), 201)
    # Buy-ins: 50,000 cash, 100,000 marker, 20,000 cash = drop 170,000 (markers 100,000).
    ok(buy_in(main, 1, 50_000), 201)
    ok(buy_in(main, 2, 100_000, method="marker", player="P-17"), 201)
    ok(buy_in(main, 3, 20_000), 201)

    ok(post(main.terminal, "/api/v1/shoes/", {"mode": "reported"}), 201)
    # R1: tie on 18: primary 10,000 pushes, T18 200 wins 45 to 1: house net -9,000.
    r1 = play_round(
        main,
        [{"seat": 2, "wagers": [wager("primary", 10_000), wager("T18", 200)]}],
        ["TS", "9H", "8C", "9D"],
        [{"seat": 2, "hand": 0, "action": "stand"}],
    )
    assert r1["settlement"]["house_net_cents"] == -9_000
    # R2: 1,000 doubled to 2,000, 21 against a dealer bust: house net -2,000.
    r2 = play_round(
        main,
        [{"seat": 1, "wagers": [wager("primary", 1_000)]}],
        ["5S", "9H", "6C", "7D"],
        [{"seat": 1, "hand": 0, "action": "double"}],
        ["TC", "TH"],
    )
    assert r2["settlement"]["house_net_cents"] == -2_000
    # R3: 17 against 19: primary 5,000, LS 1,000 and RS 500 all lose: house net +6,500.
    r3 = play_round(
        main,
        [{"seat": 3, "wagers": [wager("primary", 5_000), wager("LS", 1_000), wager("RS", 500)]}],
        ["TS", "9H", "7C", "TD"],
        [{"seat": 3, "hand": 0, "action": "stand"}],
    )
    assert r3["settlement"]["house_net_cents"] == 6_500
    # R4: opened and voided: every wager back, nothing won or lost.
    r4 = ok(post(main.terminal, ROUNDS, {"seats": [{"seat": 1, "wagers": [wager("primary", 1_000)]}]}), 201)
    ok(post(requester, f"{ROUNDS}{r4['id']}/void/", {"reason": "misdeal"}))

    # Fill #1, 200,000, requested by the terminal, approved by a supervisor.
    fill = ok(request_slip(main.terminal, "fill", {"10000": 20}), 201)
    ok(post(approver, f"/api/v1/fills/{fill['id']}/approve/"))
    # Fill #2, 50,000, approved and then voided in the same shift: nets to nothing.
    fill2 = ok(request_slip(main.terminal, "fill", {"2500": 20}), 201)
    ok(post(approver, f"/api/v1/fills/{fill2['id']}/approve/"))
    ok(post(approver, f"/api/v1/fills/{fill2['id']}/void/", {"reason": "wrong table"}))
    # Fill #3 voided while pending: nothing ever moved.
    fill3 = ok(request_slip(main.terminal, "fill", {"500": 10}), 201)
    ok(post(requester, f"/api/v1/fills/{fill3['id']}/void/", {"reason": "not needed"}))
    # Credit #1, 150,000, requested by one supervisor and approved by the other.
    credit = ok(request_slip(requester, "credit", {"50000": 3}, table=main.table.pk), 201)
    ok(post(approver, f"/api/v1/credits/{credit['id']}/approve/"))

    # Closer: 1,100,000 - 170,000 - 4,500 + 200,000 - 150,000 = 975,500 (as the ledger expects).
    ok(close_table(requester, main, CLOSER), 201)

    # The side table: 500,000 opener, a 30,000 buy-in, no rounds, a closer 500 short.
    ok(open_table(approver, side, {"100000": 5}), 201)
    ok(buy_in(side, 4, 30_000), 201)
    ok(close_table(approver, side, {"100000": 4, "10000": 6, "2500": 3, "500": 4}), 201)
    return PlayedShift(main=main, side=side, requester=requester, approver=approver, fill_id=fill["id"])


def produce() -> dict[int, ShiftReport]:
    """The day shift's reports of gaming day 2026-11-20, produced now: by table."""
    rows = reports.produce_shift_reports(
        gaming_day=GAMING_DAY, shift="day", actor=SYSTEM, now=dt.datetime.now(dt.UTC)
    )
    return {row.table_id: ShiftReport.objects.get(pk=row.pk) for row in rows}
