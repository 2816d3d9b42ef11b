"""Races with real concurrent transactions (each thread its own connection): entries at once never
exceed `max_entries`, and cashiers paying one prize at once pay it once."""

from collections.abc import Callable

import pytest

from casino.ledger_checks import find_violations
from casino.models import LedgerTransaction
from tests.support.api import ok, post
from tests.support.races import race
from tournaments.models import Entry, Prize, owner_key

from .conftest import Run, Staff

pytestmark = pytest.mark.django_db(transaction=True)


def test_simultaneous_entries_never_exceed_the_maximum(
    create: Callable[..., Run], patron: Callable[..., int], staff: Staff
) -> None:
    run = create(max_entries=3, reentries=0)
    run.file()
    patrons = [patron() for _ in range(8)]

    responses = race(lambda i: run.enter(patrons[i]))

    statuses = sorted(response.status_code for response in responses)
    assert statuses == [201] * 3 + [409] * 5
    assert {r.json()["code"] for r in responses if r.status_code == 409} == {"tournament_full"}
    assert Entry.objects.filter(tournament_id=run.id).count() == 3
    assert sorted(Entry.objects.filter(tournament_id=run.id).values_list("number", flat=True)) == [1, 2, 3]
    assert LedgerTransaction.objects.filter(owner=owner_key(run.id), kind="entry").count() == 3
    assert find_violations() == []


def test_cashiers_paying_one_prize_at_once_pay_it_once(
    create: Callable[..., Run], patron: Callable[..., int], staff: Staff
) -> None:
    run = create(max_entries=2, reentries=0)
    run.file()
    run.entered(patron())
    run.advance(minutes=60)
    run.advance(minutes=5)
    run.advance(minutes=30)  # nobody played: both heats closed, play done
    assert run.read()["state"] == "playing_done"
    ok(post(staff.director, f"{run.url}results/"), 201)
    ok(post(staff.compliance, f"{run.url}results/approve/"))
    (prize,) = Prize.objects.filter(tournament_id=run.id)
    cashiers = [staff.make("cage_cashier")[1] for _ in range(8)]

    responses = race(lambda i: post(cashiers[i], f"/api/v1/prizes/{prize.pk}/pay/", {"paid_with": "cash"}))

    statuses = sorted(response.status_code for response in responses)
    assert statuses == [200] + [409] * 7
    assert {r.json()["code"] for r in responses if r.status_code == 409} == {"prize_already_paid"}
    assert LedgerTransaction.objects.filter(owner=owner_key(run.id), kind="prize").count() == 1
    assert run.read()["money"]["prizes_paid_cents"] == 25000
    assert find_violations() == []


def test_a_retried_payment_gets_the_same_answer(
    create: Callable[..., Run], patron: Callable[..., int], staff: Staff, settings: object
) -> None:
    run = create(max_entries=2, reentries=0)
    run.file()
    unidentified = patron()
    run.entered(unidentified)
    for minutes in (60, 5, 30):
        run.advance(minutes=minutes)
    ok(post(staff.director, f"{run.url}results/"), 201)
    ok(post(staff.pit_boss, f"{run.url}results/approve/"))
    (prize,) = Prize.objects.filter(tournament_id=run.id)
    url = f"/api/v1/prizes/{prize.pk}/pay/"
    settings.CASINO_PRIZE_REPORTING_THRESHOLD_CENTS = 25000  # type: ignore[attr-defined]
    refused = post(staff.cashier, url, {"paid_with": "cash"})
    assert refused.status_code == 409
    assert refused.json()["code"] == "identification_required"
    ok(
        post(
            staff.cashier,
            f"/api/v1/patrons/{unidentified}/identify/",
            {
                "last_name": "Ruiz",
                "first_name": "Ana",
                "identification_type": "passport",
                "identification_reference": "Z9",
            },
        )
    )
    first = post(staff.cashier, url, {"paid_with": "chips"}, key="pay-1")
    again = post(staff.cashier, url, {"paid_with": "chips"}, key="pay-1")
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    assert again["Idempotent-Replayed"] == "true"
    assert LedgerTransaction.objects.filter(owner=owner_key(run.id), kind="prize").count() == 1
    assert run.read()["state"] == "paid"
