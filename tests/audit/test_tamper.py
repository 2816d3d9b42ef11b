"""Tampering by someone who can bypass the triggers (a superuser) is found, at the right place."""

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import connection, transaction
from django.db.backends.utils import CursorWrapper

from audit.chain import hash_event
from audit.models import AuditEvent
from audit.services import record_checkpoint, verify_chain


@contextmanager
def as_superuser_bypassing_triggers() -> Iterator[CursorWrapper]:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        yield cursor


def _columns(seq: int) -> dict[str, Any]:
    with connection.cursor() as cursor:
        cursor.execute('SELECT "before"::text, "after"::text FROM audit_auditevent WHERE seq = %s', [seq])
        before_text, after_text = cursor.fetchone()
    event = AuditEvent.objects.get(seq=seq)
    columns = {field.attname: getattr(event, field.attname) for field in AuditEvent._meta.concrete_fields}
    columns.update(before=before_text, after=after_text)
    return columns


@pytest.mark.django_db
@pytest.mark.parametrize(
    "change",
    [
        'after = \'{"state": "settled", "paid_cents": 999999}\'',
        "username = 'somebody else'",
        "occurred_at = occurred_at + interval '1 microsecond'",
        "table_id = 99",
        "id = 1000",
        "request_id = 'forged'",
        "before = NULL",
    ],
)
def test_a_changed_row_is_the_first_broken_link(chain, change: str) -> None:
    events = chain(6)
    target = events[3]
    with as_superuser_bypassing_triggers() as cursor:
        cursor.execute(f"UPDATE audit_auditevent SET {change} WHERE seq = %s", [target.seq])  # noqa: S608

    result = verify_chain()

    assert not result.ok
    assert result.events == 3
    assert result.broken is not None
    assert result.broken.seq == target.seq
    assert result.broken.reason == "hash_mismatch"
    assert result.broken.id in (target.pk, 1000)
    assert result.as_dict()["broken_at"]["seq"] == 4


@pytest.mark.django_db
def test_a_changed_row_whose_hash_was_recomputed_breaks_the_next_link(chain) -> None:
    events = chain(5)
    columns = _columns(3)
    columns["after"] = '{"paid_cents": 1}'
    forged_hash = hash_event(columns)
    with as_superuser_bypassing_triggers() as cursor:
        cursor.execute(
            "UPDATE audit_auditevent SET after = %s::jsonb, hash = %s WHERE seq = 3",
            [columns["after"], forged_hash],
        )

    result = verify_chain()

    assert result.broken is not None
    assert (result.broken.seq, result.broken.id, result.broken.reason) == (
        4,
        events[3].pk,
        "prev_hash_mismatch",
    )
    assert result.events == 3


@pytest.mark.django_db
def test_a_deleted_row_is_reported_as_missing(chain) -> None:
    events = chain(5)
    with as_superuser_bypassing_triggers() as cursor:
        cursor.execute("DELETE FROM audit_auditevent WHERE seq = 3")

    result = verify_chain()

    assert result.broken is not None
    assert (result.broken.seq, result.broken.id, result.broken.reason) == (3, None, "sequence_gap")
    assert f"next event found is #4 (id {events[3].pk})" in result.broken.detail
    assert result.events == 2


@pytest.mark.django_db
def test_an_inserted_row_is_the_first_broken_link(chain) -> None:
    events = chain(5)
    with as_superuser_bypassing_triggers() as cursor:
        # Make room after #2 and slip a forged event in.
        # A superuser can drop the constraint that refuses a second successor of #2, too.
        cursor.execute("ALTER TABLE audit_auditevent DROP CONSTRAINT audit_event_one_successor")
        cursor.execute("UPDATE audit_auditevent SET seq = seq + 1000000 WHERE seq >= 3")
        cursor.execute("UPDATE audit_auditevent SET seq = seq - 1000000 + 1 WHERE seq > 1000000")
        cursor.execute(
            "INSERT INTO audit_auditevent (id, seq, kind, event_type, occurred_at, recorded_at, actor_kind, "
            "terminal_name, username, role, dealer_badge, table_name, subject_type, subject_id, subject_label, "
            "detail, request_id, idempotency_key, client_address, prev_hash, hash) VALUES "
            "(5000, 3, 'change', 'casino.fill.approved', now(), now(), 'system', '', '', '', '', '', 'fill', '9', "
            "'fill 9', '', '', '', '', %s, %s)",
            [events[1].hash, "f" * 64],
        )

    result = verify_chain()

    assert result.broken is not None
    assert (result.broken.seq, result.broken.id, result.broken.reason) == (3, 5000, "hash_mismatch")
    assert result.events == 2


@pytest.mark.django_db
def test_a_well_forged_inserted_row_is_caught_at_the_row_it_displaced(chain) -> None:
    events = chain(4)
    forged = _columns(2) | {"id": 5000, "seq": 3, "prev_hash": events[1].hash, "subject_label": "forged"}
    forged["hash"] = hash_event(forged)
    with as_superuser_bypassing_triggers() as cursor:
        # A superuser can drop the constraint that refuses a second successor of #2, too.
        cursor.execute("ALTER TABLE audit_auditevent DROP CONSTRAINT audit_event_one_successor")
        cursor.execute("UPDATE audit_auditevent SET seq = seq + 1000000 WHERE seq >= 3")
        cursor.execute("UPDATE audit_auditevent SET seq = seq - 1000000 + 1 WHERE seq > 1000000")
        names = [name for name in forged if name not in ("before", "after")]
        cursor.execute(
            f"INSERT INTO audit_auditevent ({', '.join(names)}, before, after) "  # noqa: S608
            f"VALUES ({', '.join(['%s'] * len(names))}, %s::jsonb, %s::jsonb)",
            [forged[name] for name in names] + [forged["before"], forged["after"]],
        )

    result = verify_chain()

    assert result.broken is not None
    # The forged event itself links and hashes correctly; the original #3, now #4, does not.
    assert (result.broken.seq, result.broken.id) == (4, events[2].pk)
    assert result.broken.reason in ("prev_hash_mismatch", "hash_mismatch")
    assert result.events == 3


@pytest.mark.django_db
def test_removing_the_tail_after_a_checkpoint_is_found(chain) -> None:
    chain(5)
    checkpoint = record_checkpoint(now=dt.datetime(2026, 11, 21, 14, 15, tzinfo=dt.UTC))
    assert checkpoint.ok
    assert checkpoint.head_seq == 5
    with as_superuser_bypassing_triggers() as cursor:
        cursor.execute("DELETE FROM audit_auditevent WHERE seq >= 4")

    result = verify_chain()

    assert result.broken is not None
    assert (result.broken.seq, result.broken.id, result.broken.reason) == (4, None, "truncated")
    assert result.events == 3


@pytest.mark.django_db
def test_a_chain_rewritten_from_the_start_disagrees_with_its_checkpoint(chain) -> None:
    chain(4)
    record_checkpoint()
    # Rewrite event #2 and re-hash everything after it: internally consistent again.
    prev_hash = AuditEvent.objects.get(seq=1).hash
    with as_superuser_bypassing_triggers() as cursor:
        for seq in (2, 3, 4):
            columns = _columns(seq) | {"prev_hash": prev_hash}
            if seq == 2:
                columns["username"] = "rewritten"
            columns["hash"] = hash_event(columns)
            cursor.execute(
                "UPDATE audit_auditevent SET username = %s, prev_hash = %s, hash = %s WHERE seq = %s",
                [columns["username"], prev_hash, columns["hash"], seq],
            )
            prev_hash = str(columns["hash"])

    result = verify_chain()

    assert result.broken is not None
    assert (result.broken.seq, result.broken.reason) == (4, "checkpoint_mismatch")


@pytest.mark.django_db
def test_a_walk_since_the_checkpoint_checks_only_newer_events_and_the_anchor(chain) -> None:
    chain(3)
    record_checkpoint()
    chain(2)  # #4, #5

    assert verify_chain(since_checkpoint=True).as_dict()["events"] == 5
    with as_superuser_bypassing_triggers() as cursor:
        cursor.execute("UPDATE audit_auditevent SET detail = 'old, already checkpointed' WHERE seq = 2")
    partial = verify_chain(since_checkpoint=True)
    full = verify_chain()

    assert partial.ok  # by design: the older part is re-proved by the weekly full walk
    assert partial.started_after == 3
    assert full.broken is not None
    assert (full.broken.seq, full.broken.reason) == (2, "hash_mismatch")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("tamper", "seq", "reason"),
    [
        ("UPDATE audit_auditevent SET detail = 'x' WHERE seq = 3", 3, "hash_mismatch"),
        ("DELETE FROM audit_auditevent WHERE seq = 3", 3, "truncated"),
        ("UPDATE audit_auditevent SET detail = 'x' WHERE seq = 5", 5, "hash_mismatch"),
        ("DELETE FROM audit_auditevent WHERE seq = 4", 4, "sequence_gap"),
    ],
)
def test_a_walk_since_the_checkpoint_still_finds_breaks_at_and_after_it(chain, tamper, seq, reason) -> None:
    chain(3)
    record_checkpoint()
    chain(2)
    with as_superuser_bypassing_triggers() as cursor:
        cursor.execute(tamper)

    result = verify_chain(since_checkpoint=True)

    assert result.broken is not None
    assert (result.broken.seq, result.broken.reason) == (seq, reason)
