"""Every refusal of the tournaments' calls: wrong roles, bad and hostile input, each API.md code;
a refused request changes nothing (no tournament, entry, ledger transaction or audit event)."""

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from audit.models import AuditEvent
from casino.models import LedgerTransaction
from tests.support.api import client_with_token, ok, post, problem
from tests.support.gaming_day import Clock
from tournaments.models import Entry, Tournament

from .conftest import TOURNAMENTS, Run, Staff, settings_body

pytestmark = pytest.mark.django_db


def _counts() -> tuple[int, int, int, int]:
    return (
        Tournament.objects.count(),
        Entry.objects.count(),
        LedgerTransaction.objects.count(),
        AuditEvent.objects.filter(event_type__startswith="tournaments.").count(),
    )


def test_only_the_director_creates_and_staff_read(staff: Staff, clock: Clock) -> None:
    for client in (staff.cashier, staff.pit_boss, staff.compliance):
        problem(post(client, TOURNAMENTS, settings_body(clock)), 403, "role_not_allowed")
    problem(APIClient().get(TOURNAMENTS), 401, "not_authenticated")
    assert Tournament.objects.count() == 0
    assert staff.pit_boss.get(TOURNAMENTS).json() == []


@pytest.mark.parametrize(
    ("changes", "fields"),
    [
        ({"prizes_bp": [5000, 3000]}, ["prizes_bp"]),
        ({"game": "poker"}, ["game"]),
        ({"buy_in_cents": 10**40, "max_entries": -1}, ["buy_in_cents", "max_entries"]),
        ({"buy_in_cents": "20.00"}, ["buy_in_cents"]),
        ({"deal": None, "start_window_s": 3.5}, ["start_window_s", "deal"]),
        ({"heats": "soon"}, ["heats"]),
        ({"registration_closes_at": "2026-11-20T09:00:00-08:00"}, ["registration_closes_at"]),
        ({"settings": {"limit_s": 60}}, ["settings.limit_s"]),
        ({"game": "make21", "max_entries": 8, "reentries": 2}, ["max_entries", "reentries", "heats"]),
        (
            {"game": "make21", "max_entries": 4, "reentries": 0, "settings": {"players": 3}},
            ["heats", "settings.players"],
        ),
        ({"owner": "me", "pool_cents": 1}, ["owner", "pool_cents"]),
    ],
)
def test_bad_settings_are_refused_with_every_field_named(
    staff: Staff, clock: Clock, changes: dict[str, Any], fields: list[str]
) -> None:
    before = _counts()
    body = problem(
        post(staff.director, TOURNAMENTS, settings_body(clock, **changes)), 422, "invalid_tournament"
    )
    assert sorted(error["field"] for error in body["errors"]) == sorted(fields)
    assert _counts() == before


@pytest.mark.parametrize("body", [[], "x", 7, None, [{"name": "x"}]])
def test_a_body_that_is_no_object_is_refused(staff: Staff, body: Any) -> None:
    response = staff.director.post(TOURNAMENTS, body, format="json", HTTP_IDEMPOTENCY_KEY=f"k-{body!r}")
    assert response.status_code in (400, 422), response.content
    assert response["Content-Type"] == "application/problem+json"
    assert Tournament.objects.count() == 0


def test_a_post_without_an_idempotency_key_is_refused(staff: Staff, clock: Clock) -> None:
    response = staff.director.post(TOURNAMENTS, settings_body(clock), format="json")
    problem(response, 400, "idempotency_key_required")
    assert Tournament.objects.count() == 0


def test_a_retried_creation_answers_the_same_once(staff: Staff, clock: Clock) -> None:
    first = post(staff.director, TOURNAMENTS, settings_body(clock), key="create-1")
    again = post(staff.director, TOURNAMENTS, settings_body(clock), key="create-1")
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()
    assert again["Idempotent-Replayed"] == "true"
    assert Tournament.objects.count() == 1


def test_filing_refusals(create: Callable[..., Run], staff: Staff) -> None:
    run = create()
    problem(
        post(staff.cashier, f"{run.url}file/", {"reference": "R", "filed_on": "2026-11-18"}),
        403,
        "role_not_allowed",
    )
    problem(
        post(staff.director, f"{run.url}file/", {"reference": "", "filed_on": "2026-11-18"}),
        400,
        "validation_error",
    )
    problem(
        post(staff.director, f"{run.url}file/", {"reference": "R", "filed_on": "yesterday"}),
        400,
        "validation_error",
    )
    problem(
        post(staff.director, f"{TOURNAMENTS}99999/file/", {"reference": "R", "filed_on": "2026-11-18"}),
        404,
        "not_found",
    )
    assert run.read()["state"] == "draft"
    run.file()
    problem(
        post(staff.director, f"{run.url}file/", {"reference": "R2", "filed_on": "2026-11-18"}),
        409,
        "tournament_state",
    )
    assert run.read()["filing"]["reference"] == "NGC-2026-118"


def test_entry_refusals_change_nothing(
    create: Callable[..., Run], patron: Callable[..., int], staff: Staff
) -> None:
    run = create(max_entries=2, reentries=0)
    run.file()
    regular = patron()
    before = _counts()
    problem(
        post(staff.director, f"{run.url}entries/", {"patron": regular, "paid_with": "cash"}),
        403,
        "role_not_allowed",
    )
    problem(run.enter(regular, "card"), 400, "validation_error")
    problem(run.enter(999_999_999), 422, "unknown_patron")
    problem(
        post(staff.cashier, f"{run.url}entries/", {"patron": 10**30, "paid_with": "cash"}),
        400,
        "validation_error",
    )
    problem(
        post(staff.cashier, f"{run.url}entries/", {"patron": True, "paid_with": "cash"}),
        400,
        "validation_error",
    )
    problem(
        post(staff.cashier, f"{TOURNAMENTS}99999/entries/", {"patron": regular, "paid_with": "cash"}),
        404,
        "not_found",
    )
    assert _counts() == before
    run.entered(regular)
    problem(run.enter(regular), 409, "reentry_limit")
    run.entered(patron())
    problem(run.enter(patron()), 409, "tournament_full")
    assert Entry.objects.filter(tournament_id=run.id).count() == 2


def test_an_excluded_patron_cannot_enter_until_reinstated(
    create: Callable[..., Run], patron: Callable[..., int], staff: Staff
) -> None:
    run = create()
    run.file()
    barred = patron()
    url = f"/api/v1/patrons/{barred}/"
    problem(post(staff.cashier, f"{url}exclude/", {"reason": "self-exclusion"}), 403, "role_not_allowed")
    problem(post(staff.compliance, f"{url}exclude/", {"reason": "  "}), 400, "validation_error")
    problem(post(staff.compliance, "/api/v1/patrons/999999999/exclude/", {"reason": "x"}), 404, "not_found")
    excluded = ok(post(staff.compliance, f"{url}exclude/", {"reason": "self-exclusion form 12"}))
    assert excluded["excluded"] is True
    problem(post(staff.compliance, f"{url}exclude/", {"reason": "again"}), 409, "patron_already_excluded")
    before = _counts()
    problem(run.enter(barred), 409, "patron_excluded")
    assert _counts() == before
    assert (
        ok(post(staff.compliance, f"{url}reinstate/", {"reason": "exclusion period over"}))["excluded"]
        is False
    )
    problem(post(staff.compliance, f"{url}reinstate/", {"reason": "again"}), 409, "patron_not_excluded")
    run.entered(barred)
    events = AuditEvent.objects.filter(event_type__in=["casino.patron.excluded", "casino.patron.reinstated"])
    assert events.count() == 2


def test_a_heat_game_is_started_by_an_entry_of_that_tournament_only(
    create: Callable[..., Run], patron: Callable[..., int], staff: Staff
) -> None:
    run, other = create(), create()
    run.file()
    other.file()
    entry = run.entered(patron())
    problem(post(staff.director, f"{run.url}games/"), 403, "entry_only")
    problem(post(entry.device, f"{other.url}games/"), 403, "other_tournament")
    problem(entry.device.get(f"{other.url}leaderboard/"), 403, "other_tournament")
    problem(post(client_with_token("not-a-token"), f"{run.url}games/"), 401, "authentication_failed")
    problem(post(entry.device, f"{run.url}games/"), 409, "heat_not_started")
    assert run.leaderboard(entry.device)[0]["entry"] == entry.number
    problem(entry.device.get(run.url), 403, "role_not_allowed")  # the detail is for staff


def test_results_and_prizes_wait_for_play_to_end(
    create: Callable[..., Run], patron: Callable[..., int], staff: Staff
) -> None:
    run = create()
    run.file()
    run.entered(patron())
    problem(post(staff.director, f"{run.url}results/"), 409, "tournament_state")
    problem(post(staff.compliance, f"{run.url}results/approve/"), 409, "results_not_proposed")
    problem(post(staff.cashier, "/api/v1/prizes/99999/pay/", {"paid_with": "cash"}), 404, "not_found")
    problem(post(staff.cashier, "/api/v1/prizes/1/pay/", {"paid_with": "gold"}), 400, "validation_error")
