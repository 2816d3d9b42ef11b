"""record_event appends to its chain in the caller's transaction, in two statements;
record_rejection survives its rollback."""

import datetime as dt
import decimal
from collections.abc import Callable

import pytest
from django.db import connection, transaction
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from audit.chain import GENESIS_HASH, hash_event
from audit.context import AuditActor, bind_request
from audit.models import AuditEvent
from audit.services import AuditError, deferred_rejections, record_event, record_rejection, verify_chain
from tests.audit.conftest import MOMENT, SYSTEM, append

TERMINAL_ACTOR = AuditActor(
    kind="terminal", terminal_id=7, terminal_name="T-BJ-07", dealer_id=3, dealer_badge="D3"
)


class Boom(Exception):
    pass


def _then_fail(work: Callable[[], object]) -> None:
    """Run `work` in a transaction that then rolls back."""
    with transaction.atomic():
        work()
        raise Boom


def _stored_hash_matches(event: AuditEvent) -> bool:
    with connection.cursor() as cursor:
        cursor.execute('SELECT "before"::text, "after"::text FROM audit_auditevent WHERE id = %s', [event.pk])
        before_text, after_text = cursor.fetchone()
    stored = AuditEvent.objects.get(pk=event.pk)
    columns = {field.attname: getattr(stored, field.attname) for field in AuditEvent._meta.concrete_fields}
    columns.update(before=before_text, after=after_text)
    return hash_event(columns) == stored.hash


@pytest.mark.django_db
def test_events_link_into_their_tables_chain_in_order(table) -> None:
    with bind_request(request_id="req-1", client_address="10.0.0.5", idempotency_key="key-1"):
        first = append(actor=TERMINAL_ACTOR, table_id=table.pk, table_name=table.name)
    second = append(table_id=table.pk, table_name=table.name)

    assert (first.chain, first.seq, second.chain, second.seq) == (
        f"table:{table.pk}",
        1,
        f"table:{table.pk}",
        2,
    )
    assert first.prev_hash == GENESIS_HASH
    assert second.prev_hash == first.hash
    assert (first.hash_format, second.hash_format) == (2, 2)
    assert _stored_hash_matches(first)
    assert _stored_hash_matches(second)
    stored = AuditEvent.objects.get(pk=first.pk)
    assert (stored.request_id, stored.client_address, stored.idempotency_key) == (
        "req-1",
        "10.0.0.5",
        "key-1",
    )
    assert (stored.terminal_name, stored.dealer_badge, stored.actor_kind) == ("T-BJ-07", "D3", "terminal")
    assert (stored.table_id, stored.table_name) == (table.pk, table.name)
    assert stored.after == {"state": "settled", "paid_cents": 19200}
    assert AuditEvent.objects.get(pk=second.pk).request_id == ""


@pytest.mark.django_db
def test_each_table_has_its_own_chain_and_the_rest_goes_to_the_casino_wide_chain() -> None:
    events = [
        append(table_id=1, table_name="BJ-01"),
        append(),
        append(table_id=2, table_name="BJ-02"),
        append(table_id=1, table_name="BJ-01"),
        append(),
    ]

    assert [(event.chain, event.seq) for event in events] == [
        ("table:1", 1),
        ("casino", 1),
        ("table:2", 1),
        ("table:1", 2),
        ("casino", 2),
    ]
    assert [event.prev_hash for event in events[:3]] == [GENESIS_HASH] * 3  # each chain starts at the genesis
    assert events[3].prev_hash == events[0].hash
    assert events[4].prev_hash == events[1].hash
    assert all(_stored_hash_matches(event) for event in events)
    assert [chain.chain for chain in verify_chain().chains] == ["casino", "table:1", "table:2"]


@pytest.mark.django_db
def test_an_append_is_two_statements() -> None:
    append(table_id=3, table_name="BJ-03")  # not the chain's first event

    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        record_event(
            event_type="casino.round.settled",
            actor=SYSTEM,
            table_id=3,
            table_name="BJ-03",
            subject_type="round",
            subject_id="2",
            subject_label="round 2",
            after={"paid_cents": 100},
            occurred_at=MOMENT,
        )

    statements = [query["sql"] for query in queries.captured_queries]
    assert len(statements) == 2
    assert "audit_chain_head(" in statements[0]
    assert "nextval(" in statements[0]
    assert statements[1].startswith('INSERT INTO "audit_auditevent"')


@pytest.mark.django_db
def test_outside_a_transaction_it_raises_and_writes_nothing() -> None:
    with pytest.raises(TransactionManagementError, match=r"inside transaction\.atomic"):
        record_event(
            event_type="casino.round.settled",
            actor=SYSTEM,
            table_id=None,
            table_name="",
            subject_type="round",
            subject_id="1",
            subject_label="round 1",
            occurred_at=MOMENT,
        )

    assert not AuditEvent.objects.exists()


@pytest.mark.django_db
def test_rollback_of_the_callers_transaction_leaves_no_event() -> None:
    append()

    with pytest.raises(Boom):
        _then_fail(lambda: append(subject_id="2"))

    assert list(AuditEvent.objects.values_list("seq", flat=True)) == [1]
    third = append(subject_id="3")
    assert third.seq == 2
    assert verify_chain().ok


@pytest.mark.django_db
def test_values_are_stored_as_json_and_still_verify() -> None:
    event = append(
        before={
            "limit": decimal.Decimal("12.50"),
            "at": dt.datetime(2026, 1, 1, tzinfo=dt.UTC),
            "ratio": 0.1,
        },
        after={"nested": {"z": 1, "a": [1.0, 2, None, "é"]}, "big": 10**20, "nul": "a\x00b"},
    )

    stored = AuditEvent.objects.get(pk=event.pk)
    assert stored.before == {"limit": "12.50", "at": "2026-01-01T00:00:00Z", "ratio": 0.1}
    assert stored.after == {"nested": {"z": 1, "a": [1.0, 2, None, "é"]}, "big": 10**20, "nul": "a\ufffdb"}
    assert event.after == stored.after
    assert verify_chain().ok


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("overrides", "error"),
    [
        ({"event_type": "Round Settled"}, ValueError),
        ({"event_type": "casino"}, ValueError),
        ({"occurred_at": dt.datetime(2026, 11, 20, 18, 0)}, ValueError),  # noqa: DTZ001 (naive on purpose)
        ({"before": ["not", "a", "dict"]}, TypeError),
        ({"table_id": "3"}, TypeError),
        ({"after": {"nan": float("nan")}}, ValueError),
    ],
)
def test_invalid_arguments_are_refused_and_nothing_is_written(overrides, error) -> None:
    with pytest.raises(error):
        append(**overrides)

    assert not AuditEvent.objects.exists()


def test_actor_kind_is_checked() -> None:
    with pytest.raises(ValueError, match="kind"):
        AuditActor(kind="robot")


@pytest.mark.django_db
def test_rejection_outside_a_transaction_is_written_at_once(table) -> None:
    with bind_request(request_id="req-9", client_address="10.1.1.1"):
        record_rejection(
            event_type="casino.auth.bad_credentials",
            actor=None,
            table_id=table.pk,
            table_name=table.name,
            detail="bad PIN",
            occurred_at=MOMENT,
        )

    event = AuditEvent.objects.get()
    assert (event.kind, event.actor_kind, event.detail, event.request_id) == (
        "rejection",
        "anonymous",
        "bad PIN",
        "req-9",
    )
    assert event.table_name == table.name


@pytest.mark.django_db
def test_rejection_inside_a_request_scope_survives_the_rollback() -> None:
    def append_then_refuse() -> None:
        append(subject_id="rolled back")
        record_rejection(
            event_type="casino.table.wrong_terminal",
            actor=TERMINAL_ACTOR,
            table_id=None,
            table_name="",
            detail="terminal acted on another table",
            occurred_at=MOMENT,
        )

    with deferred_rejections():
        with pytest.raises(Boom):
            _then_fail(append_then_refuse)
        assert not AuditEvent.objects.exists()  # written when the scope ends

    event = AuditEvent.objects.get()
    assert (event.seq, event.kind, event.event_type) == (1, "rejection", "casino.table.wrong_terminal")
    assert verify_chain().ok


@pytest.mark.django_db(transaction=True)
def test_rejection_without_a_scope_commits_on_its_own_connection_and_survives_the_rollback() -> None:
    def refuse() -> None:
        record_rejection(
            event_type="casino.staff.role_denied",
            actor=AuditActor(kind="user", user_id=5, username="pat", role="pit_boss"),
            table_id=None,
            table_name="",
            detail="pit boss may not approve paytables",
            occurred_at=MOMENT,
        )

    with pytest.raises(Boom):
        _then_fail(refuse)

    event = AuditEvent.objects.get()
    assert (event.kind, event.username, event.role) == ("rejection", "pat", "pit_boss")
    assert verify_chain().ok


@pytest.mark.django_db(transaction=True)
def test_rejection_after_an_append_to_the_same_chain_is_refused_not_deadlocked() -> None:
    def append_then_refuse() -> None:
        append()
        record_rejection(
            event_type="casino.x.denied",
            actor=None,
            table_id=None,
            table_name="",
            detail="",
            occurred_at=MOMENT,
        )

    with pytest.raises(AuditError, match="already appended"):
        _then_fail(append_then_refuse)

    assert not AuditEvent.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_rejection_after_an_append_to_another_chain_is_written_on_its_own_connection() -> None:
    def append_then_refuse() -> None:
        append(table_id=4, table_name="BJ-04")
        record_rejection(
            event_type="casino.x.denied",
            actor=None,
            table_id=None,
            table_name="",
            detail="",
            occurred_at=MOMENT,
        )

    with pytest.raises(Boom):
        _then_fail(append_then_refuse)

    assert list(AuditEvent.objects.values_list("chain", "kind")) == [("casino", "rejection")]
