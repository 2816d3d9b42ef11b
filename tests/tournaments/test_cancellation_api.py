"""Cancellation (RULES.md §4): a director's request, a second person's approval, every buy-in and
fee refunded as it was paid, the house's added money and overlay back; the ledger back to zero."""

from collections.abc import Callable

import pytest
from django.db.models import Sum

from casino.ledger_checks import find_violations
from casino.models import AccountKind, LedgerEntry, LedgerTransaction
from tests.support.api import ok, post, problem
from tests.support.gaming_day import Clock
from tournaments.models import owner_key

from .conftest import Run, Staff, at

pytestmark = pytest.mark.django_db


def _balances(tournament_id: int) -> dict[str, int]:
    rows = LedgerEntry.objects.filter(account__owner=owner_key(tournament_id)).values("account__kind")
    return {row["account__kind"]: row["s"] for row in rows.annotate(s=Sum("amount_cents"))}


def _cage(kind: AccountKind) -> int:
    total = LedgerEntry.objects.filter(account__owner="", account__table=None, account__kind=kind)
    return int(total.aggregate(s=Sum("amount_cents"))["s"] or 0)


def test_a_squares_tournament_cancelled_after_three_entries_refunds_them_all(
    create: Callable[..., Run], patron: Callable[..., int], staff: Staff, clock: Clock
) -> None:
    run = create(
        game="squares", deal="individual", settings={"limit_s": 600}, heats=[{"starts_at": at(clock, 65)}]
    )
    assert "scores -630" in run.read()["rules"]["text"]
    run.file()
    cash_before, chips_before = _cage(AccountKind.CAGE_CASH), _cage(AccountKind.CAGE)
    for paid_with in ("cash", "chips", "cash"):
        run.entered(patron(), paid_with)
    assert _balances(run.id) == {"pool": -6000, "revenue": -1500}
    assert _cage(AccountKind.CAGE_CASH) - cash_before == 5000

    problem(post(staff.cashier, f"{run.url}cancel/", {"reason": "no players"}), 403, "role_not_allowed")
    problem(post(staff.director, f"{run.url}cancel/", {"reason": ""}), 400, "validation_error")
    problem(post(staff.compliance, f"{run.url}cancel/approve/"), 409, "cancellation_not_requested")
    ok(post(staff.director, f"{run.url}cancel/", {"reason": "too few players"}))
    problem(
        post(staff.director, f"{run.url}cancel/", {"reason": "again"}), 409, "cancellation_already_requested"
    )
    transactions = LedgerTransaction.objects.count()
    problem(post(staff.director, f"{run.url}cancel/approve/"), 403, "approver_is_requester")
    problem(post(staff.cashier, f"{run.url}cancel/approve/"), 403, "role_not_allowed")
    assert LedgerTransaction.objects.count() == transactions
    assert run.read()["state"] == "registering"

    cancelled = ok(post(staff.pit_boss, f"{run.url}cancel/approve/"))
    assert cancelled["state"] == "cancelled"
    assert cancelled["money"]["refunded_cents"] == 7500
    assert _balances(run.id) == {"pool": 0, "revenue": 0}
    assert (_cage(AccountKind.CAGE_CASH), _cage(AccountKind.CAGE)) == (cash_before, chips_before)
    assert LedgerTransaction.objects.filter(owner=owner_key(run.id), kind="refund").count() == 3
    problem(run.enter(patron()), 409, "registration_closed")
    problem(post(staff.pit_boss, f"{run.url}cancel/approve/"), 409, "tournament_state")
    assert all(row["prize_cents"] == 0 for row in run.leaderboard())
    assert find_violations() == []


def test_a_cancellation_once_running_returns_the_house_money_too(
    create: Callable[..., Run], patron: Callable[..., int], staff: Staff
) -> None:
    run = create()
    run.file()
    run.entered(patron(), "chips")
    run.advance(minutes=60)  # $20 + $50 added + $180 overlay
    assert _balances(run.id) == {"pool": -25000, "revenue": -500 + 5000 + 18000}
    ok(post(staff.director, f"{run.url}cancel/", {"reason": "kiosks down"}))
    ok(post(staff.compliance, f"{run.url}cancel/approve/"))
    assert _balances(run.id) == {"pool": 0, "revenue": 0}
    assert find_violations() == []
