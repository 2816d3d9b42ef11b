"""A flood of refused requests cannot fill the audit chain or slow the tables.

Requests without valid credentials are counted in the refusal tally (one statement, no chain
lock) and summarised once a minute; an authenticated caller's first refusals of a minute are
still recorded one by one, the rest of its flood summarised. The structural tests hold the
locks a flood could take and show that neither side waits for the other, and that the flood
adds no statement to a dealer's call.
"""

import datetime as dt
import secrets
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from celery.schedules import crontab
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from audit.dbroles import append_only_tables
from audit.models import AuditEvent, RefusalTally
from audit.services import (
    CHAIN_LOCK_CLASS,
    REFUSAL_SUMMARY_EVENT,
    REFUSALS_RECORDED_PER_MINUTE,
    flush_refusal_tallies,
    verify_chain,
)
from audit.tasks import BEAT_SCHEDULE, anchor_audit_chains, summarise_refusals
from kernel.keys import PREFIX_LENGTH
from tests.support.api import TableActors, client_with_token, post
from tests.support.database import as_superuser_bypassing_triggers

pytestmark = pytest.mark.django_db(transaction=True)

FLOOD = 1_000
THREADS = 4
ROUNDS = "/api/v1/rounds/"
NOW = dt.datetime(2026, 11, 20, 18, 30, 15, tzinfo=dt.UTC)
NEXT_MINUTE = NOW + dt.timedelta(minutes=1)


@pytest.fixture(autouse=True)
def clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every refusal of a test falls in the same minute."""
    monkeypatch.setattr(timezone, "now", lambda: NOW)


def bad_token() -> str:
    return f"{secrets.token_hex(PREFIX_LENGTH // 2)}.{secrets.token_urlsafe(32)}"


def flood(requests: int, *, address: str = "127.0.0.1", threads: int = THREADS) -> list[int]:
    """`requests` GETs with made-up tokens from `threads` threads; their statuses."""
    statuses: list[int] = []
    lock = threading.Lock()

    def run(count: int) -> None:
        try:
            client = APIClient(REMOTE_ADDR=address)
            for _ in range(count):
                client.credentials(HTTP_AUTHORIZATION=f"Token {bad_token()}")
                status = client.get("/api/v1/terminal/").status_code
                with lock:
                    statuses.append(status)
        finally:
            connection.close()

    shares = [requests // threads + (1 if i < requests % threads else 0) for i in range(threads)]
    workers = [threading.Thread(target=run, args=(share,)) for share in shares]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return statuses


def summaries() -> list[AuditEvent]:
    return list(AuditEvent.objects.filter(event_type=REFUSAL_SUMMARY_EVENT).order_by("id"))


def test_a_flood_of_1000_bad_tokens_becomes_one_summary_event_per_source_with_the_right_count() -> None:
    events_before = AuditEvent.objects.count()

    statuses = flood(FLOOD - 100) + flood(100, address="203.0.113.9", threads=2)

    assert statuses == [401] * FLOOD
    assert AuditEvent.objects.count() == events_before  # the flood itself wrote nothing to the trail
    assert sum(RefusalTally.objects.values_list("count", flat=True)) == FLOOD

    assert flush_refusal_tallies(now=NOW) == 0  # the minute is still running
    assert flush_refusal_tallies(now=NEXT_MINUTE) == 2

    written = summaries()
    assert [(e.kind, e.actor_kind, e.client_address, e.chain) for e in written] == [
        ("rejection", "anonymous", "127.0.0.1", "casino"),
        ("rejection", "anonymous", "203.0.113.9", "casino"),
    ]
    assert [e.after["count"] for e in written if e.after] == [FLOOD - 100, 100]
    assert {e.after["code"] for e in written if e.after} == {"authentication_failed"}
    assert all(e.after and e.after["recorded_individually"] == 0 for e in written)
    assert AuditEvent.objects.count() == events_before + 2
    assert not RefusalTally.objects.exists()
    assert flush_refusal_tallies(now=NEXT_MINUTE) == 0  # written exactly once
    assert verify_chain().ok


def test_ipv6_clients_are_counted_by_their_64_network() -> None:
    flood(3, address="2001:db8:1:2::10", threads=1)
    flood(2, address="2001:db8:1:2:ffff::1", threads=1)

    assert list(RefusalTally.objects.values_list("source", "count")) == [("address 2001:db8:1:2::/64", 5)]


def test_a_refusal_takes_no_chain_lock_so_it_never_waits_for_an_append(make_table: Any) -> None:
    actors: TableActors = make_table("BJ-FLOOD")
    with other_transaction() as other, lock_timeout("2s"):
        # Appends at the casino-wide chain and at the table are under way and do not end.
        other.execute("SELECT pg_advisory_xact_lock(%s, 0)", [CHAIN_LOCK_CLASS])
        other.execute("SELECT pg_advisory_xact_lock(%s, %s)", [CHAIN_LOCK_CLASS, actors.table.pk])
        other.execute("SELECT 1 FROM casino_table WHERE id = %s FOR UPDATE", [actors.table.pk])

        with CaptureQueriesContext(connection) as queries:
            statuses = [
                client_with_token(bad_token()).post("/api/v1/rounds/", {}, format="json").status_code
                for _ in range(20)
            ]

    assert statuses == [401] * 20
    assert RefusalTally.objects.get().count == 20
    statements = " ".join(query["sql"] for query in queries.captured_queries)
    assert "audit_chain_head" not in statements
    assert "audit_auditevent" not in statements
    assert statements.count("audit_refusaltally") == 20  # one statement per refusal


def test_a_dealers_round_takes_no_lock_a_flood_holds_and_no_extra_statement(make_table: Any) -> None:
    actors: TableActors = make_table("BJ-DEAL")
    assert post(actors.terminal, "/api/v1/shoes/", {"mode": "reported"}).status_code == 201
    one_seat = [{"seat": 1, "wagers": [{"kind": "primary", "amount_cents": 1_000}]}]

    def dealer_card_statements(round_id: int, card: str) -> list[str]:
        with CaptureQueriesContext(connection) as queries:
            response = post(actors.terminal, f"{ROUNDS}{round_id}/cards/", {"card": card})
        assert response.status_code == 200, response.json()
        return [q["sql"] for q in queries.captured_queries if q["sql"] not in ("BEGIN", "COMMIT")]

    opened = post(actors.terminal, ROUNDS, {"seats": one_seat}).json()
    quiet = dealer_card_statements(opened["id"], "9C")

    flood(50, threads=1)  # the tally row of this minute exists; now a flood request holds it
    with other_transaction() as other, lock_timeout("2s"):
        other.execute('UPDATE audit_refusaltally SET "count" = "count" + 1')
        flooded = dealer_card_statements(opened["id"], "7D")
    with threading_flood(200):  # and a flood under way while the dealer deals
        during = dealer_card_statements(opened["id"], "8C")

    assert len(quiet) == len(flooded) == len(during)
    assert not any("audit_refusaltally" in sql for sql in quiet + flooded + during)


def test_an_authenticated_caller_s_first_refusals_are_recorded_one_by_one_and_the_rest_summarised(
    make_table: Any,
) -> None:
    mine, other = make_table("BJ-MINE"), make_table("BJ-OTHER")
    post(other.terminal, "/api/v1/shoes/", {"mode": "reported"})
    theirs = post(
        other.terminal,
        ROUNDS,
        {"seats": [{"seat": 1, "wagers": [{"kind": "primary", "amount_cents": 1_000}]}]},
    ).json()
    pokes = REFUSALS_RECORDED_PER_MINUTE + 5

    statuses = [
        post(mine.terminal, f"{ROUNDS}{theirs['id']}/cards/", {"card": "5S"}).status_code
        for _ in range(pokes)
    ]

    assert statuses == [403] * pokes
    one_by_one = AuditEvent.objects.filter(event_type="security.other_table")
    assert one_by_one.count() == REFUSALS_RECORDED_PER_MINUTE
    assert {(e.terminal_name, e.chain) for e in one_by_one} == {
        (mine.provisioned.terminal.name, f"table:{mine.table.pk}")
    }

    assert flush_refusal_tallies(now=NEXT_MINUTE) == 1
    (summary,) = summaries()
    assert (summary.actor_kind, summary.terminal_name, summary.chain) == (
        "terminal",
        mine.provisioned.terminal.name,
        "casino",
    )
    assert summary.after is not None
    assert (summary.after["count"], summary.after["recorded_individually"]) == (
        pokes,
        REFUSALS_RECORDED_PER_MINUTE,
    )
    assert verify_chain().ok


def test_a_few_authenticated_refusals_need_no_summary(make_table: Any) -> None:
    actors: TableActors = make_table("BJ-FEW")
    for _ in range(3):
        assert post(actors.terminal, f"{ROUNDS}999999/void/", {"reason": "x"}).status_code == 403

    assert AuditEvent.objects.filter(event_type="security.role_not_allowed").count() == 3
    assert flush_refusal_tallies(now=NEXT_MINUTE) == 0
    assert not RefusalTally.objects.exists()


def test_an_edited_summary_is_found_by_verification() -> None:
    flood(30, threads=1)
    flush_refusal_tallies(now=NEXT_MINUTE)
    (summary,) = summaries()
    assert verify_chain().ok

    with as_superuser_bypassing_triggers() as cursor:
        cursor.execute(
            "UPDATE audit_auditevent SET after = jsonb_set(after, '{count}', '3') WHERE id = %s", [summary.pk]
        )

    result = verify_chain()
    assert not result.ok
    assert result.broken is not None
    assert (result.broken.chain, result.broken.seq) == (summary.chain, summary.seq)


def test_the_summaries_are_written_every_minute_and_before_each_anchor() -> None:
    schedule = BEAT_SCHEDULE["audit-summarise-refusals"]
    assert schedule["task"] == summarise_refusals.name == "audit.tasks.summarise_refusals"
    assert schedule["schedule"] == crontab(minute="*")

    flood(5, threads=1)
    assert summarise_refusals() == {"events": 0}  # the clock has not left the minute yet

    with pytest.MonkeyPatch.context() as later:
        later.setattr(timezone, "now", lambda: NEXT_MINUTE)
        anchored = anchor_audit_chains()
    (summary,) = summaries()
    assert summary.after is not None
    assert summary.after["count"] == 5
    assert anchored["events"] == AuditEvent.objects.count()  # the anchor covers the summary


def test_the_tally_is_an_unlogged_working_table_outside_the_append_only_guards() -> None:
    assert RefusalTally._meta.db_table not in append_only_tables()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relpersistence FROM pg_class WHERE relname = %s", [RefusalTally._meta.db_table]
        )
        assert cursor.fetchone() == ("u",)


# --- helpers ---------------------------------------------------------------------------------


@contextmanager
def other_transaction() -> Iterator[Any]:
    """A second connection with an open transaction, rolled back at the end."""
    raw = connection.get_new_connection(connection.get_connection_params())
    try:
        with raw.cursor() as cursor:
            yield cursor
        raw.rollback()
    finally:
        raw.close()


@contextmanager
def lock_timeout(value: str) -> Iterator[None]:
    """Make this connection give up on a lock after `value` instead of waiting: a wait fails the test."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config('lock_timeout', %s, false)", [value])
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT set_config('lock_timeout', '0', false)")


@contextmanager
def threading_flood(requests: int) -> Iterator[None]:
    """A flood running in the background for the duration of the block (and then finished)."""
    done: list[list[int]] = []
    worker = threading.Thread(target=lambda: done.append(flood(requests, threads=2)))
    worker.start()
    try:
        yield
    finally:
        worker.join()
    (statuses,) = done
    assert statuses == [401] * requests
