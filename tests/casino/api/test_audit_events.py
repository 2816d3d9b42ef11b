"""Every state-changing terminal endpoint writes exactly its audit event, in the same
transaction; a replay writes none; a refused request writes no change event."""

import uuid
from typing import Any

import pytest
from rest_framework.test import APIClient

from audit.models import AuditEvent
from audit.services import verify_chain
from tests.support.api import TableActors, post

pytestmark = pytest.mark.django_db

ROUNDS = "/api/v1/rounds/"


def new_events(since: int) -> list[AuditEvent]:
    """Events of every chain recorded after event id `since`, in id order."""
    return list(AuditEvent.objects.filter(id__gt=since).order_by("id"))


def last_id() -> int:
    return AuditEvent.objects.order_by("-id").values_list("id", flat=True).first() or 0


def step(client: APIClient, url: str, body: dict[str, Any] | None = None) -> tuple[Any, list[AuditEvent]]:
    before = last_id()
    response = post(client, url, body)
    return response, new_events(before)


def test_each_change_writes_one_event_naming_terminal_dealer_and_request(
    table: TableActors, supervisor: APIClient
) -> None:
    dealer = table.provisioned.dealer.badge
    _, shoe_events = step(table.terminal, "/api/v1/shoes/", {"mode": "reported"})
    opened, open_events = step(
        table.terminal,
        ROUNDS,
        {"seats": [{"seat": 1, "wagers": [{"kind": "primary", "amount_cents": 1_000}]}]},
    )
    round_id = opened.json()["id"]
    for card in ["TS", "9H", "8C"]:
        _, card_events = step(table.terminal, f"{ROUNDS}{round_id}/cards/", {"card": card})
        assert [e.event_type for e in card_events] == ["casino.round.card_dealt"]
    step(table.terminal, f"{ROUNDS}{round_id}/cards/", {"card": "8D"})
    _, action_events = step(
        table.terminal, f"{ROUNDS}{round_id}/actions/", {"seat": 1, "hand": 0, "action": "stand"}
    )
    settled, settle_events = step(table.terminal, f"{ROUNDS}{round_id}/settle/")

    assert [e.event_type for e in shoe_events] == ["casino.shoe.opened"]
    assert [e.event_type for e in open_events] == ["casino.round.opened"]
    assert [e.event_type for e in action_events] == ["casino.round.action_applied"]
    assert [e.event_type for e in settle_events] == ["casino.round.settled"]
    event = settle_events[0]
    assert (event.actor_kind, event.terminal_name, event.dealer_badge) == ("terminal", "BJ-07-T1", dealer)
    assert event.table_name == "BJ-07"
    assert event.subject_id == str(round_id)
    assert event.after is not None
    assert event.after["paid_cents"] == settled.json()["settlement"]["paid_cents"]
    assert event.idempotency_key != ""
    assert event.request_id == settled["X-Request-ID"]
    assert verify_chain().ok


def test_a_replay_writes_no_event(table: TableActors) -> None:
    key = str(uuid.uuid4())
    post(table.terminal, "/api/v1/shoes/", {"mode": "reported"}, key=key)
    before = last_id()

    replayed = post(table.terminal, "/api/v1/shoes/", {"mode": "reported"}, key=key)

    assert replayed["Idempotent-Replayed"] == "true"
    assert new_events(before) == []


def test_a_refused_request_writes_no_change_event(table: TableActors) -> None:
    post(table.terminal, "/api/v1/shoes/", {"mode": "reported"})
    before = last_id()

    refused = post(
        table.terminal, ROUNDS, {"seats": [{"seat": 1, "wagers": [{"kind": "LS", "amount_cents": 100}]}]}
    )

    assert refused.status_code == 422
    assert new_events(before) == []


def test_a_void_is_recorded_with_the_supervisor_and_reason(table: TableActors, supervisor: APIClient) -> None:
    post(table.terminal, "/api/v1/shoes/", {"mode": "reported"})
    opened = post(
        table.terminal,
        ROUNDS,
        {"seats": [{"seat": 1, "wagers": [{"kind": "primary", "amount_cents": 1_000}]}]},
    ).json()

    _, events = step(supervisor, f"{ROUNDS}{opened['id']}/void/", {"reason": "misdeal on seat 1"})

    assert [(e.event_type, e.actor_kind, e.role) for e in events] == [
        ("casino.round.voided", "user", "floor_supervisor")
    ]
    after = events[0].after
    assert after is not None
    assert after["reason"] == "misdeal on seat 1"
    assert after["returned_cents"] == 1_000


def test_security_refusals_are_recorded_even_though_the_request_rolled_back(
    make_table: Any, supervisor: APIClient
) -> None:
    mine, other = make_table("BJ-M"), make_table("BJ-O")
    post(other.terminal, "/api/v1/shoes/", {"mode": "reported"})
    theirs = post(
        other.terminal,
        ROUNDS,
        {"seats": [{"seat": 1, "wagers": [{"kind": "primary", "amount_cents": 1_000}]}]},
    ).json()
    before = last_id()

    other_table = post(mine.terminal, f"{ROUNDS}{theirs['id']}/cards/", {"card": "5S"})
    bad_pin = post(
        mine.terminal, "/api/v1/terminal/sign-in/", {"badge": mine.provisioned.dealer.badge, "pin": "wrong"}
    )
    no_role = post(mine.terminal, f"{ROUNDS}{theirs['id']}/void/", {"reason": "x"})

    assert (other_table.status_code, bad_pin.status_code, no_role.status_code) == (403, 401, 403)
    events = new_events(before)
    assert [(e.kind, e.event_type) for e in events] == [
        ("rejection", "security.other_table"),
        ("rejection", "security.bad_credentials"),
        ("rejection", "security.role_not_allowed"),
    ]
    assert all(e.terminal_name == "BJ-M-T1" for e in events)
    assert verify_chain().ok
