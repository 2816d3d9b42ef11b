"""`GET /api/v1/patrons/{number}/ratings/` and `GET /api/v1/ratings/?gaming_day=`: compliance and
the supervisor roles read ratings; bad input is a problem+json refusal; a patron with hundreds of
rounds is read in a fixed number of queries."""

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from blackjack.models import Round, RoundSeat, Settlement, SettlementLine, Wager
from casino.models import LedgerEntry, LedgerTransaction, MovementKind
from casino.services.provisioning import ProvisionedStaff
from kernel.gaming_day import gaming_day_and_shift
from reports.ratings import get_patron_ratings
from tests.compliance.ratings_support import (
    open_reported_shoe,
    price_paytable_v1,
    push_18_with_t18,
    win_19_against_17,
)
from tests.support.api import TableActors, client_with_token, new_patron, ok, problem
from tests.support.gaming_day import Clock, day_shift_clock

pytestmark = pytest.mark.django_db

MakeStaff = Callable[[str], tuple[ProvisionedStaff, APIClient]]


@pytest.fixture(autouse=True)
def clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Clock:
    settings.CASINO_RATING_BREAK_ROUNDS = 10
    settings.CASINO_RATING_BREAK_MINUTES = 20
    return day_shift_clock(monkeypatch, settings)


@pytest.fixture
def played(table: TableActors, make_staff: MakeStaff, clock: Clock) -> dict[str, Any]:
    """Ana plays two rounds at BJ-07 on gaming day 2026-11-20; compliance reads."""
    open_reported_shoe(table)
    price_paytable_v1(table.table)
    ana = new_patron(make_staff("pit_boss")[1], "Ana Example")
    push_18_with_t18(table, ana)
    clock.advance(minutes=3)
    win_19_against_17(table, ana)
    return {"ana": ana, "table": table, "compliance": make_staff("compliance")[1]}


def test_compliance_reads_a_patrons_ratings(played: dict[str, Any]) -> None:
    body = ok(played["compliance"].get(f"/api/v1/patrons/{played['ana']}/ratings/"))

    assert body["patron"] == {"number": played["ana"], "name": "Ana Example"}
    (session,) = body["sessions"]
    assert session["table"]["name"] == "BJ-07"
    assert session["gaming_day"] == "2026-11-20"
    assert session["started_at"] == "2026-11-20T18:00:00Z"
    assert session["ended_at"] == "2026-11-20T18:03:00Z"
    assert (session["rounds"], session["hands"], session["minutes_played"]) == (2, 2, 3)
    assert session["average_bet_cents"] == (10_200 + 5_000) // 2
    assert (session["handle_cents"], session["paid_cents"]) == (15_200, 29_200)
    assert session["actual_win_cents"] == -14_000
    # primary 15000 x 0.00406 = 60.9 -> 61; T18 200 x 0.26198 = 52.396 -> 52
    assert session["theo_win_cents"] == 113
    assert [(k["kind"], k["handle_cents"], k["theo_win_cents"]) for k in session["by_kind"]] == [
        ("primary", 15_000, 61),
        ("T18", 200, 52),
    ]
    assert session["edge_gaps"] == []
    assert session["paytable_versions"] == [1]
    assert len(session["round_ids"]) == 2
    assert body["totals"]["theo_win_cents"] == 113
    assert body["totals"]["sessions"] == 1


def test_a_supervisor_reads_a_gaming_days_ratings(played: dict[str, Any], make_staff: MakeStaff) -> None:
    supervisor = make_staff("floor_supervisor")[1]

    body = ok(supervisor.get("/api/v1/ratings/?gaming_day=2026-11-20"))
    assert body["gaming_day"] == "2026-11-20"
    assert body["patrons"] == 1
    assert [s["patron"]["number"] for s in body["sessions"]] == [played["ana"]]
    assert body["totals"]["handle_cents"] == 15_200

    other_day = ok(supervisor.get("/api/v1/ratings/?gaming_day=2026-11-19"))
    assert other_day["sessions"] == []
    assert other_day["totals"]["average_bet_cents"] is None


def test_an_unknown_patron_is_404(played: dict[str, Any]) -> None:
    for number in (999_999, 2**63 - 1):
        problem(played["compliance"].get(f"/api/v1/patrons/{number}/ratings/"), 404, "not_found")


@pytest.mark.parametrize("query", ["", "?gaming_day=", "?gaming_day=2026-13-01", "?gaming_day=yesterday",
                                   "?gaming_day=20261120x", "?gaming_day=2026-11-20T10:00"])  # fmt: skip
def test_a_missing_or_malformed_gaming_day_is_400(played: dict[str, Any], query: str) -> None:
    body = problem(played["compliance"].get(f"/api/v1/ratings/{query}"), 400, "validation_error")
    assert [error["field"] for error in body["errors"]] == ["gaming_day"]


def test_terminals_cashiers_and_strangers_may_not_read_ratings(
    played: dict[str, Any], make_staff: MakeStaff
) -> None:
    ana = played["ana"]
    for client in (played["table"].terminal, make_staff("cage_cashier")[1]):
        problem(client.get(f"/api/v1/patrons/{ana}/ratings/"), 403, "role_not_allowed")
        problem(client.get("/api/v1/ratings/?gaming_day=2026-11-20"), 403, "role_not_allowed")
    assert client_with_token("not-a-token").get("/api/v1/ratings/?gaming_day=2026-11-20").status_code == 401


def test_hundreds_of_rounds_are_read_in_a_fixed_number_of_queries(
    played: dict[str, Any], django_assert_max_num_queries: Any
) -> None:
    """Ana's second round copied 300 times (seats, wagers, settlement, and its ledger transaction),
    a minute apart with a half-hour break after every 100th: four sessions (the two played rounds
    with the first 98 copies, then 100, 100 and 2)."""
    template = Round.objects.filter(seats__patron__number=played["ana"]).order_by("-pk").first()
    assert template is not None
    assert template.settled_at is not None
    settlement = Settlement.objects.get(round=template)
    payout = LedgerTransaction.objects.get(round=template, kind=MovementKind.PAYOUT)
    moment, copies = template.settled_at, []
    for number in range(300):
        moment += dt.timedelta(minutes=1 if (number + 2) % 100 else 31)
        copies.append(Round(**{**_fields(template), "opened_at": moment, "settled_at": moment + dt.timedelta(seconds=40)}))  # fmt: skip
    Round.objects.bulk_create(copies)
    _copy_rows(RoundSeat.objects.filter(round=template), copies, "round_id")
    _copy_rows(Wager.objects.filter(round=template), copies, "round_id")
    settlements = Settlement.objects.bulk_create(
        [Settlement(**{**_fields(settlement), "round_id": r.pk, "settled_at": r.settled_at}) for r in copies]
    )
    _copy_rows(SettlementLine.objects.filter(settlement=settlement), settlements, "settlement_id")
    transactions = LedgerTransaction.objects.bulk_create(
        [LedgerTransaction(**{**_fields(payout), **_stamped(r)}) for r in copies]
    )
    _copy_rows(LedgerEntry.objects.filter(transaction=payout), transactions, "transaction_id")

    # The patron, the rounds, their lines, their opening wagers, the paytables, tables and patrons.
    with django_assert_max_num_queries(7):
        ratings = get_patron_ratings(patron_number=played["ana"])
    assert ratings is not None
    assert [s.rounds for s in reversed(ratings.sessions)] == [100, 100, 100, 2]
    assert ratings.totals.rounds == 302
    assert ratings.totals.handle_cents == 10_200 + 301 * 5_000
    assert ratings.totals.actual_win_cents == -9_000 - 301 * 5_000


def _stamped(round_: Round) -> dict[str, Any]:
    """A copied round's PAYOUT transaction columns: its round and when it was settled."""
    assert round_.settled_at is not None
    gaming_day, shift = gaming_day_and_shift(round_.settled_at)
    return {"round_id": round_.pk, "created_at": round_.settled_at, "gaming_day": gaming_day, "shift": shift}


def _copy_rows(rows: Any, parents: list[Any], parent_column: str) -> None:
    """Copy each of `rows` under each of `parents` (their `parent_column` set to the parent's id)."""
    model = rows.model
    model.objects.bulk_create(
        [model(**{**_fields(row), parent_column: parent.pk}) for parent in parents for row in rows]
    )


def _fields(row: Any) -> dict[str, Any]:
    """A row's column values without its id, to copy it."""
    return {
        field.attname: getattr(row, field.attname)
        for field in row._meta.concrete_fields
        if not field.primary_key
    }
