"""Dealer sign-in lockout, terminal throttling, and sessions that end (README, Dealer sign-in and
sessions): wrong PINs lock a dealer until a supervisor unlocks them, a terminal cycling badges is
slowed down, and a session ends when it is too old or idle, when the dealer, terminal or table is
deactivated, when the PIN changes, or when the dealer signs in at another table."""

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework.test import APIClient

from audit.models import AuditEvent
from casino.models import Dealer, Table, Terminal
from casino.services.provisioning import ProvisionedStaff
from kernel.keys import hash_pin
from kernel.models import IdempotencyRecord
from tests.support.api import TableActors, post

SIGN_IN = "/api/v1/terminal/sign-in/"
SHOES = "/api/v1/shoes/"
START = dt.datetime(2026, 11, 20, 18, 0, tzinfo=dt.UTC)


class Clock:
    """`timezone.now()` for the test: fixed until moved."""

    def __init__(self, start: dt.datetime) -> None:
        self.now = start

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += dt.timedelta(**delta)


@pytest.fixture(autouse=True)
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock(START)
    monkeypatch.setattr(timezone, "now", fake)
    return fake


@pytest.fixture
def lockout(settings: Any) -> None:
    settings.CASINO_DEALER_LOCKOUT_FAILURES = 5
    settings.CASINO_DEALER_LOCKOUT_WINDOW_SECONDS = 900
    settings.CASINO_TERMINAL_SIGN_IN_FAILURES = 10
    settings.CASINO_TERMINAL_SIGN_IN_WINDOW_SECONDS = 300
    settings.CASINO_DEALER_SESSION_MAX_AGE_SECONDS = 12 * 3600
    settings.CASINO_DEALER_SESSION_IDLE_SECONDS = 30 * 60


pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("lockout")]


def sign_in(
    actors: TableActors, pin: str | None = None, *, badge: str | None = None, key: str | None = None
) -> Any:
    body = {"badge": badge or actors.provisioned.dealer.badge, "pin": pin or actors.provisioned.dealer_pin}
    return post(actors.terminal, SIGN_IN, body, key=key)


def refused(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/problem+json"
    body = dict(response.json())
    assert body["code"] == code
    return body


def events(event_type: str) -> list[AuditEvent]:
    return list(AuditEvent.objects.filter(event_type=event_type).order_by("pk"))


def signed_in_dealer(actors: TableActors) -> Dealer | None:
    return Terminal.objects.select_related("dealer").get(pk=actors.provisioned.terminal.pk).dealer


def open_shoe(actors: TableActors) -> Any:
    return post(actors.terminal, SHOES, {"mode": "reported"})


# --- lockout -------------------------------------------------------------------------------


def test_five_wrong_pins_lock_the_dealer_and_then_even_the_right_pin_is_refused(make_table: Any) -> None:
    actors: TableActors = make_table(signed_in=False)

    for _ in range(4):
        refused(sign_in(actors, "000000x"), 401, "bad_credentials")
    fifth = sign_in(actors, "000000x")
    right_pin = sign_in(actors)

    refused(fifth, 401, "dealer_locked")
    refused(right_pin, 401, "dealer_locked")
    assert right_pin["WWW-Authenticate"] == "Token"
    assert signed_in_dealer(actors) is None
    dealer = Dealer.objects.get(pk=actors.provisioned.dealer.pk)
    assert (dealer.locked_at, dealer.sign_in_failures) == (START, 5)
    assert len(events("security.bad_credentials")) == 4
    assert len(events("security.dealer_locked")) == 2  # each refusal of a locked dealer
    (locked_out,) = events("security.dealer_locked_out")
    assert (locked_out.subject_label, locked_out.table_id) == (dealer.badge, actors.table.pk)
    assert locked_out.after == {"locked": True, "failures": 5}
    assert events("casino.dealer.signed_in") == []


def test_wrong_pins_in_different_windows_do_not_add_up(make_table: Any, clock: Clock) -> None:
    actors: TableActors = make_table(signed_in=False)
    for _ in range(4):
        refused(sign_in(actors, "000000x"), 401, "bad_credentials")

    clock.advance(minutes=16)  # the 15-minute window has closed
    for _ in range(4):
        refused(sign_in(actors, "000000x"), 401, "bad_credentials")

    assert Dealer.objects.get(pk=actors.provisioned.dealer.pk).locked_at is None
    assert sign_in(actors).status_code == 200


def test_a_right_pin_starts_the_count_again(make_table: Any) -> None:
    actors: TableActors = make_table(signed_in=False)
    for _ in range(4):
        refused(sign_in(actors, "000000x"), 401, "bad_credentials")
    assert sign_in(actors).status_code == 200

    for _ in range(4):
        refused(sign_in(actors, "000000x"), 401, "bad_credentials")

    assert Dealer.objects.get(pk=actors.provisioned.dealer.pk).locked_at is None


def test_a_refused_sign_in_stores_no_answer_so_a_retry_is_a_new_attempt(make_table: Any) -> None:
    actors: TableActors = make_table(signed_in=False)

    first = sign_in(actors, "000000x", key="retry-1")
    again = sign_in(actors, "000000x", key="retry-1")

    refused(first, 401, "bad_credentials")
    refused(again, 401, "bad_credentials")
    assert "Idempotent-Replayed" not in again
    assert Dealer.objects.get(pk=actors.provisioned.dealer.pk).sign_in_failures == 2
    assert not IdempotencyRecord.objects.filter(key="retry-1").exists()


def lock(actors: TableActors) -> None:
    for _ in range(5):
        sign_in(actors, "000000x")
    assert Dealer.objects.get(pk=actors.provisioned.dealer.pk).locked_at is not None


def test_a_supervisor_unlocks_the_dealer(
    make_table: Any, make_staff: Callable[[str], tuple[ProvisionedStaff, APIClient]]
) -> None:
    actors: TableActors = make_table(signed_in=False)
    lock(actors)
    staff, supervisor = make_staff("floor_supervisor")
    url = f"/api/v1/dealers/{actors.provisioned.dealer.pk}/unlock/"

    response = post(supervisor, url)

    assert response.status_code == 200, response.content
    assert response.json() == {
        "id": actors.provisioned.dealer.pk,
        "badge": actors.provisioned.dealer.badge,
        "name": actors.provisioned.dealer.name,
        "locked": False,
    }
    dealer = Dealer.objects.get(pk=actors.provisioned.dealer.pk)
    assert (dealer.locked_at, dealer.sign_in_failures) == (None, 0)
    (unlocked,) = events("casino.dealer.unlocked")
    assert (unlocked.username, unlocked.role, unlocked.subject_label) == (
        staff.user.get_username(),
        "floor_supervisor",
        dealer.badge,
    )
    assert sign_in(actors).status_code == 200
    refused(post(supervisor, url), 409, "dealer_not_locked")


def test_only_a_floor_supervisor_pit_boss_or_admin_unlocks(
    make_table: Any, make_staff: Callable[[str], tuple[ProvisionedStaff, APIClient]]
) -> None:
    actors: TableActors = make_table(signed_in=False)
    lock(actors)
    url = f"/api/v1/dealers/{actors.provisioned.dealer.pk}/unlock/"

    refused(post(make_staff("compliance")[1], url), 403, "role_not_allowed")
    refused(post(actors.terminal, url), 403, "role_not_allowed")
    refused(post(make_staff("pit_boss")[1], "/api/v1/dealers/999999/unlock/"), 404, "not_found")

    assert Dealer.objects.get(pk=actors.provisioned.dealer.pk).locked_at is not None
    assert events("casino.dealer.unlocked") == []
    assert post(make_staff("pit_boss")[1], url).status_code == 200


def test_the_unlock_endpoint_is_in_the_schema(
    make_staff: Callable[[str], tuple[ProvisionedStaff, APIClient]],
) -> None:
    _, staff = make_staff("compliance")
    schema = staff.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()

    operation = schema["paths"]["/api/v1/dealers/{dealer_id}/unlock/"]["post"]

    assert operation["operationId"] == "dealer_unlock"
    assert {"200", "403", "404", "409"} <= set(operation["responses"])


# --- one terminal cycling badges ----------------------------------------------------------------


def test_a_terminal_cycling_badges_is_throttled_without_checking_pins(make_table: Any, clock: Clock) -> None:
    actors: TableActors = make_table(signed_in=False)
    for number in range(10):
        refused(sign_in(actors, "123456", badge=f"GUESS{number}"), 401, "bad_credentials")

    response = sign_in(actors)  # the right badge and PIN: refused all the same

    body = refused(response, 429, "too_many_sign_in_attempts")
    assert response["Retry-After"] == "300"
    assert "300 seconds" in body["detail"]
    assert signed_in_dealer(actors) is None
    assert len(events("security.bad_credentials")) == 10  # the throttled attempt is not one
    (throttled,) = events("security.terminal_throttled")
    assert (throttled.table_id, throttled.after) == (actors.table.pk, {"failures": 10})
    assert Terminal.objects.get(pk=actors.provisioned.terminal.pk).sign_in_failures == 10

    clock.advance(seconds=299)
    assert sign_in(actors)["Retry-After"] == "1"
    clock.advance(seconds=1)
    assert sign_in(actors).status_code == 200


def test_throttling_one_terminal_leaves_the_others_alone(make_table: Any) -> None:
    attacked: TableActors = make_table("BJ-01", signed_in=False)
    other: TableActors = make_table("BJ-02", signed_in=False)
    for number in range(10):
        sign_in(attacked, "123456", badge=f"GUESS{number}")

    refused(sign_in(attacked), 429, "too_many_sign_in_attempts")
    assert sign_in(other).status_code == 200


# --- sessions -------------------------------------------------------------------------------


def test_a_session_ends_after_thirty_idle_minutes(table: TableActors, clock: Clock) -> None:
    clock.advance(minutes=29)
    assert open_shoe(table).status_code == 201  # a change: the idle clock starts again

    clock.advance(minutes=29)
    assert table.terminal.get("/api/v1/terminal/").json()["dealer"] is not None
    clock.advance(minutes=2)  # 31 minutes since the last change; polling does not count

    refused(open_shoe(table), 403, "dealer_not_signed_in")
    assert table.terminal.get("/api/v1/terminal/").json()["dealer"] is None


def test_a_busy_session_still_ends_after_twelve_hours(table: TableActors, clock: Clock) -> None:
    for _ in range(12 * 3 - 1):
        clock.advance(minutes=20)
        assert open_shoe(table).status_code == 201

    clock.advance(minutes=20)  # 12 hours since sign-in

    refused(open_shoe(table), 403, "dealer_not_signed_in")
    assert sign_in(table).status_code == 200
    assert open_shoe(table).status_code == 201


def test_the_idle_clock_moves_at_most_once_a_minute(table: TableActors, clock: Clock) -> None:
    terminal = table.provisioned.terminal
    clock.advance(seconds=30)
    open_shoe(table)
    assert Terminal.objects.get(pk=terminal.pk).dealer_seen_at == START

    clock.advance(seconds=30)
    open_shoe(table)

    assert Terminal.objects.get(pk=terminal.pk).dealer_seen_at == START + dt.timedelta(minutes=1)


def test_an_expired_session_is_not_revived_by_a_change(table: TableActors, clock: Clock) -> None:
    clock.advance(minutes=31)
    refused(open_shoe(table), 403, "dealer_not_signed_in")

    assert Terminal.objects.get(pk=table.provisioned.terminal.pk).dealer_seen_at == START
    refused(open_shoe(table), 403, "dealer_not_signed_in")


def _deactivate_dealer(actors: TableActors) -> None:
    dealer = Dealer.objects.get(pk=actors.provisioned.dealer.pk)
    dealer.is_active = False
    dealer.save()


def _change_pin(actors: TableActors) -> None:
    dealer = Dealer.objects.get(pk=actors.provisioned.dealer.pk)
    dealer.pin_hash = hash_pin("246810")
    dealer.save(update_fields=["pin_hash"])


def _deactivate_table(actors: TableActors) -> None:
    table = Table.objects.get(pk=actors.table.pk)
    table.is_active = False
    table.save()


@pytest.mark.parametrize("change", [_deactivate_dealer, _change_pin, _deactivate_table])
def test_deactivation_or_a_new_pin_ends_the_session_for_good(
    table: TableActors, change: Callable[[TableActors], None]
) -> None:
    change(table)  # as the admin site saves it

    assert signed_in_dealer(table) is None
    refused(open_shoe(table), 403, "dealer_not_signed_in")
    # Undoing the change does not bring the session back.
    Dealer.objects.filter(pk=table.provisioned.dealer.pk).update(is_active=True)
    Table.objects.filter(pk=table.table.pk).update(is_active=True)
    refused(open_shoe(table), 403, "dealer_not_signed_in")


def test_deactivating_the_terminal_ends_its_session(table: TableActors) -> None:
    terminal = Terminal.objects.get(pk=table.provisioned.terminal.pk)
    terminal.is_active = False
    terminal.save()

    refused(open_shoe(table), 401, "authentication_failed")
    Terminal.objects.filter(pk=terminal.pk).update(is_active=True)
    refused(open_shoe(table), 403, "dealer_not_signed_in")


def test_a_dealer_signing_in_at_another_table_ends_the_first_session(make_table: Any) -> None:
    first: TableActors = make_table("BJ-01")
    second: TableActors = make_table("BJ-02", signed_in=False)

    response = sign_in(second, badge=first.provisioned.dealer.badge, pin=first.provisioned.dealer_pin)

    assert response.status_code == 200, response.content
    assert signed_in_dealer(second) == first.provisioned.dealer
    assert signed_in_dealer(first) is None
    refused(open_shoe(first), 403, "dealer_not_signed_in")
    assert open_shoe(second).status_code == 201
    (ended,) = events("casino.dealer.signed_out")
    assert (ended.table_id, ended.subject_label, ended.after) == (
        first.table.pk,
        first.provisioned.dealer.badge,
        {"dealer": None, "reason": "signed_in_elsewhere"},
    )


def test_the_database_refuses_one_dealer_at_two_terminals(make_table: Any) -> None:
    first: TableActors = make_table("BJ-01")
    second: TableActors = make_table("BJ-02", signed_in=False)

    with pytest.raises(IntegrityError), transaction.atomic():
        Terminal.objects.filter(pk=second.provisioned.terminal.pk).update(dealer=first.provisioned.dealer)
