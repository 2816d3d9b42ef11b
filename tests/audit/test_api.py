"""GET /api/v1/audit/events/ and /verify/: compliance only, filters, pagination, problem+json."""

import base64
import datetime as dt
from typing import Any

import pytest
from django.db import connection, transaction
from rest_framework.test import APIClient

from audit.chain import anchor_digest
from audit.context import AuditActor
from audit.models import AuditEvent
from audit.services import record_anchor
from tests.audit.conftest import append
from tests.support.factories import Keyed

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.audit.urls")]

EVENTS = "/api/v1/audit/events/"
VERIFY = "/api/v1/audit/verify/"
PAT = AuditActor(kind="user", user_id=11, username="pat", role="pit_boss")
T1 = AuditActor(kind="terminal", terminal_id=21, terminal_name="T-BJ-01", dealer_id=4, dealer_badge="D4")


def _get(client: APIClient, who: Keyed | None, url: str, **params: str | int) -> Any:
    if who is None:
        return client.get(url, params)
    return client.get(url, params, HTTP_AUTHORIZATION=who.header)


@pytest.fixture
def five_events(table) -> list[AuditEvent]:
    """Three events at `table`, one of no table, one at another table: three chains."""
    base = dt.datetime(2026, 11, 20, 14, 0, tzinfo=dt.UTC)
    at_table = {"table_id": table.pk, "table_name": table.name}
    return [
        append(event_type="casino.round.opened", actor=T1, occurred_at=base, **at_table),
        append(
            event_type="casino.round.settled", actor=T1, occurred_at=base + dt.timedelta(hours=1), **at_table
        ),
        append(
            event_type="casino.fill.approved", actor=PAT, occurred_at=base + dt.timedelta(hours=2), **at_table
        ),
        append(event_type="bonus_tie.paytable.approved", actor=PAT, occurred_at=base + dt.timedelta(hours=3)),
        append(
            event_type="casino.round.voided",
            actor=PAT,
            table_id=table.pk + 1,
            table_name="BJ-other",
            occurred_at=base + dt.timedelta(hours=4),
        ),
    ]


def _numbers(response: Any, five_events: list[AuditEvent]) -> list[int]:
    """The events of a response as their numbers (1 to 5) in `five_events`."""
    ids = [event.pk for event in five_events]
    return [ids.index(event["id"]) + 1 for event in response.json()["results"]]


def test_compliance_reads_events_of_every_chain_oldest_first(
    api_client, compliance, five_events, table
) -> None:
    response = _get(api_client, compliance, EVENTS)

    assert response.status_code == 200
    body = response.json()
    assert _numbers(response, five_events) == [1, 2, 3, 4, 5]
    assert [(event["chain"], event["seq"]) for event in body["results"]] == [
        (f"table:{table.pk}", 1),
        (f"table:{table.pk}", 2),
        (f"table:{table.pk}", 3),
        ("casino", 1),
        (f"table:{table.pk + 1}", 1),
    ]
    first = body["results"][0]
    assert first["event_type"] == "casino.round.opened"
    assert first["actor"] == {
        "kind": "terminal",
        "terminal_id": 21,
        "terminal_name": "T-BJ-01",
        "user_id": None,
        "username": "",
        "role": "",
        "dealer_id": 4,
        "dealer_badge": "D4",
    }
    assert (first["table"], first["table_name"]) == (table.pk, table.name)
    assert first["subject"] == {"type": "round", "id": "1", "label": "round 1"}
    assert first["after"] == {"state": "settled", "paid_cents": 19200}
    assert first["hash"] == five_events[0].hash
    assert first["prev_hash"] == "0" * 64
    assert response["X-Request-ID"]


@pytest.mark.parametrize(
    ("params", "numbers"),
    [
        ({"since": "2026-11-20T16:00:00Z"}, [3, 4, 5]),
        ({"until": "2026-11-20T16:00:00Z"}, [1, 2]),
        ({"since": "2026-11-20T07:00:00-08:00", "until": "2026-11-20T09:00:00-08:00"}, [2, 3]),
        ({"since": "2026-11-20T15:00:00 00:00"}, [2, 3, 4, 5]),  # a `+` that arrived as a space
        ({"actor": "pat"}, [3, 4, 5]),
        ({"actor": "T-BJ-01"}, [1, 2]),
        ({"actor": "nobody"}, []),
        ({"event_type": "casino.round.settled"}, [2]),
        ({"event_type": "casino.round.*"}, [1, 2, 5]),
        ({"event_type": "casino.*"}, [1, 2, 3, 5]),
        ({"event_type": "casino.round"}, []),
        ({"event_type": "casino.round.*", "actor": "pat"}, [5]),
    ],
)
def test_filters(api_client, compliance, five_events, params, numbers) -> None:
    response = _get(api_client, compliance, EVENTS, **params)

    assert response.status_code == 200, response.json()
    assert _numbers(response, five_events) == numbers


def test_table_and_chain_filters(api_client, compliance, five_events, table) -> None:
    by_table = _get(api_client, compliance, EVENTS, table=table.pk)
    by_chain = _get(api_client, compliance, EVENTS, chain="casino")
    bad_chain = _get(api_client, compliance, EVENTS, chain="table:0")

    assert _numbers(by_table, five_events) == [1, 2, 3]
    assert _numbers(by_chain, five_events) == [4]
    assert bad_chain.status_code == 400
    assert [error["field"] for error in bad_chain.json()["errors"]] == ["chain"]


def test_pagination_is_stable_while_events_keep_arriving(api_client, compliance, five_events) -> None:
    first = _get(api_client, compliance, EVENTS, page_size=2).json()
    sixth = append(event_type="casino.round.opened")  # arrives between pages
    second = api_client.get(first["next"], HTTP_AUTHORIZATION=compliance.header).json()
    third = api_client.get(second["next"], HTTP_AUTHORIZATION=compliance.header).json()
    ids = [event.pk for event in [*five_events, sixth]]

    assert [event["id"] for event in first["results"]] == ids[0:2]
    assert [event["id"] for event in second["results"]] == ids[2:4]
    assert [event["id"] for event in third["results"]] == ids[4:6]
    assert third["next"] is None
    back = api_client.get(third["previous"], HTTP_AUTHORIZATION=compliance.header).json()
    assert [event["id"] for event in back["results"]] == ids[2:4]


@pytest.mark.parametrize(
    ("params", "code", "field"),
    [
        ({"since": "yesterday"}, "invalid_filter", "since"),
        ({"since": "2026-11-20T06:00:00"}, "invalid_filter", "since"),
        ({"until": "2026-13-45T06:00:00Z"}, "invalid_filter", "until"),
        ({"since": "0001-01-01T00:00:00+05:00"}, "invalid_filter", "since"),
        ({"since": "2026-11-21T00:00:00Z", "until": "2026-11-20T00:00:00Z"}, "invalid_filter", "until"),
        ({"table": "BJ-01"}, "invalid_filter", "table"),
        ({"table": "0"}, "invalid_filter", "table"),
        ({"table": str(2**70)}, "invalid_filter", "table"),
        ({"event_type": "Round Settled"}, "invalid_filter", "event_type"),
        ({"event_type": "casino.*.settled"}, "invalid_filter", "event_type"),
        ({"actor": "x" * 151}, "invalid_filter", "actor"),
        ({"page_size": "0"}, "invalid_filter", "page_size"),
        ({"page_size": "lots"}, "invalid_filter", "page_size"),
        ({"cursor": "not-a-cursor"}, "invalid_cursor", "cursor"),
        ({"cursor": base64.b64encode(b"p=abc").decode()}, "invalid_cursor", "cursor"),
        ({"cursor": base64.b64encode(b"p=99999999999999999999999").decode()}, "invalid_cursor", "cursor"),
    ],
)
def test_bad_filters_are_400_problems(api_client, compliance, five_events, params, code, field) -> None:
    response = _get(api_client, compliance, EVENTS, **params)

    assert response.status_code == 400
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["code"] == code
    assert body["status"] == 400
    assert [error["field"] for error in body["errors"]] == [field]


@pytest.mark.parametrize("url", [EVENTS, VERIFY])
def test_other_roles_and_terminals_get_403_and_the_refusal_is_recorded(
    api_client, pit_boss, terminal, url
) -> None:
    by_role = _get(api_client, pit_boss, url)
    by_terminal = _get(api_client, terminal, url)

    for response in (by_role, by_terminal):
        assert response.status_code == 403
        assert response["Content-Type"] == "application/problem+json"
        assert response.json()["code"] == "permission_denied"
    refusals = AuditEvent.objects.filter(event_type="security.permission_denied").order_by("id")
    assert [
        (event.kind, event.actor_kind, event.role, event.terminal_name, event.chain, event.table_name)
        for event in refusals
    ] == [
        ("rejection", "user", "pit_boss", "", "casino", ""),
        (
            "rejection",
            "terminal",
            "",
            terminal.terminal.name,
            f"table:{terminal.terminal.table_id}",
            terminal.terminal.table.name,
        ),
    ]
    assert refusals[0].request_id == by_role["X-Request-ID"]


@pytest.mark.parametrize("url", [EVENTS, VERIFY])
def test_without_a_token_it_is_401(api_client, url) -> None:
    response = _get(api_client, None, url)

    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


def test_verify_reports_every_chain_intact(api_client, compliance, five_events, table) -> None:
    record_anchor()

    response = _get(api_client, compliance, VERIFY)

    assert response.status_code == 200
    heads = [
        ("casino", 1, five_events[3].hash),
        (f"table:{table.pk}", 3, five_events[2].hash),
        (f"table:{table.pk + 1}", 1, five_events[4].hash),
    ]
    assert response.json() == {
        "ok": True,
        "events": 5,
        "head": anchor_digest(heads),
        "chains": [
            {"chain": chain, "ok": True, "events": seq, "head_seq": seq, "head": head}
            for chain, seq, head in sorted(heads)
        ],
        "anchors": {"checked": 1, "broken": []},
    }


def test_verify_reports_the_first_broken_link(api_client, compliance, five_events, table) -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute("UPDATE audit_auditevent SET username = 'mallory' WHERE id = %s", [five_events[2].pk])

    response = _get(api_client, compliance, VERIFY)

    assert response.status_code == 200
    body = response.json()
    assert body["ok"] is False
    assert body["events_checked"] == 2 + 1 + 1  # two before the break, and the two other chains
    assert body["broken_at"]["chain"] == f"table:{table.pk}"
    assert body["broken_at"]["seq"] == 3
    assert body["broken_at"]["id"] == five_events[2].pk
    assert body["broken_at"]["reason"] == "hash_mismatch"
    assert {chain["chain"]: chain["ok"] for chain in body["chains"]} == {
        "casino": True,
        f"table:{table.pk}": False,
        f"table:{table.pk + 1}": True,
    }


def test_writes_are_not_allowed(api_client, compliance) -> None:
    response = api_client.post(EVENTS, {}, format="json", HTTP_AUTHORIZATION=compliance.header)

    assert response.status_code == 405
    assert response["Content-Type"] == "application/problem+json"
