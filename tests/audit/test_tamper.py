"""Tampering by someone who can bypass the triggers (a superuser) is found, at the right place, in any chain."""

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.db.backends.utils import CursorWrapper

from audit.chain import hash_event
from audit.models import AuditEvent
from audit.services import record_anchor, record_checkpoint, verify_chain
from tests.support.database import as_superuser_bypassing_triggers

TABLE = 7
# The casino-wide chain, a table's chain and a tournament's; another one is always there too,
# untouched.
CHAINS = ["casino", f"table:{TABLE}", f"tournament:{TABLE}"]


@pytest.fixture
def build(chain: Callable[..., list[AuditEvent]]) -> Callable[[str, int], list[AuditEvent]]:
    """`count` events in `name`'s chain, with events of the other chain before and after them."""

    def build(name: str, count: int) -> list[AuditEvent]:
        owner = name if name.startswith("tournament:") else None
        table_id = TABLE if name.startswith("table:") else None
        other = TABLE if table_id is None else None
        chain(2, table_id=other)
        events = chain(count, table_id=table_id, owner=owner)
        chain(2, table_id=other)
        return events

    return build


def _columns(name: str, seq: int) -> dict[str, Any]:
    with connection.cursor() as cursor:
        cursor.execute(
            'SELECT "before"::text, "after"::text FROM audit_auditevent WHERE chain = %s AND seq = %s',
            [name, seq],
        )
        before_text, after_text = cursor.fetchone()
    event = AuditEvent.objects.get(chain=name, seq=seq)
    columns = {field.attname: getattr(event, field.attname) for field in AuditEvent._meta.concrete_fields}
    columns.update(before=before_text, after=after_text)
    return columns


def _only_broken_chain(name: str) -> Any:
    result = verify_chain()
    assert not result.ok
    assert [chain.chain for chain in result.chains if not chain.ok] == [name]
    assert result.broken is not None
    assert result.broken.chain == name
    return result


@pytest.mark.django_db
@pytest.mark.parametrize("name", CHAINS)
@pytest.mark.parametrize(
    "change",
    [
        'after = \'{"state": "settled", "paid_cents": 999999}\'',
        "username = 'somebody else'",
        "occurred_at = occurred_at + interval '1 microsecond'",
        "table_id = 99",
        "table_name = 'BJ-99'",
        "id = 1000",
        "request_id = 'forged'",
        "before = NULL",
    ],
)
def test_a_changed_row_is_the_first_broken_link(build, name: str, change: str) -> None:
    events = build(name, 6)
    target = events[3]
    with as_superuser_bypassing_triggers() as cursor:
        cursor.execute(f"UPDATE audit_auditevent SET {change} WHERE id = %s", [target.pk])  # noqa: S608

    result = _only_broken_chain(name)

    assert result.broken.seq == target.seq == 4
    assert result.broken.reason == "hash_mismatch"
    assert result.broken.id in (target.pk, 1000)
    assert result.as_dict()["broken_at"]["seq"] == 4
    assert result.as_dict()["broken_at"]["chain"] == name
    assert result.events == 3 + 4  # three before the break, and the other chain's four


@pytest.mark.django_db
@pytest.mark.parametrize("name", CHAINS)
def test_moving_an_event_to_another_chain_breaks_both(build, name: str) -> None:
    events = build(name, 4)
    with as_superuser_bypassing_triggers() as cursor:
        cursor.execute("UPDATE audit_auditevent SET chain = 'table:99' WHERE id = %s", [events[1].pk])

    result = verify_chain()

    broken = {chain.chain: chain.broken for chain in result.chains if chain.broken is not None}
    assert broken.keys() == {name, "table:99"}
    assert (broken[name].seq, broken[name].reason) == (2, "sequence_gap")
    assert (broken["table:99"].seq, broken["table:99"].reason) == (1, "sequence_gap")


@pytest.mark.django_db
@pytest.mark.parametrize("name", CHAINS)
def test_a_changed_row_whose_hash_was_recomputed_breaks_the_next_link(build, name: str) -> None:
    events = build(name, 5)
    columns = _columns(name, 3)
    columns["after"] = '{"paid_cents": 1}'
    forged_hash = hash_event(columns)
    with as_superuser_bypassing_triggers() as cursor:
        cursor.execute(
            "UPDATE audit_auditevent SET after = %s::jsonb, hash = %s WHERE id = %s",
            [columns["after"], forged_hash, events[2].pk],
        )

    result = _only_broken_chain(name)

    assert (result.broken.seq, result.broken.id, result.broken.reason) == (
        4,
        events[3].pk,
        "prev_hash_mismatch",
    )


@pytest.mark.django_db
@pytest.mark.parametrize("name", CHAINS)
def test_a_deleted_row_is_reported_as_missing(build, name: str) -> None:
    events = build(name, 5)
    with as_superuser_bypassing_triggers() as cursor:
        cursor.execute("DELETE FROM audit_auditevent WHERE id = %s", [events[2].pk])

    result = _only_broken_chain(name)

    assert (result.broken.seq, result.broken.id, result.broken.reason) == (3, None, "sequence_gap")
    assert f"next event found is #4 (id {events[3].pk})" in result.broken.detail


def _make_room_after_2(cursor: CursorWrapper, name: str) -> None:
    # A superuser can drop the constraint that refuses a second successor of #2, too.
    cursor.execute("ALTER TABLE audit_auditevent DROP CONSTRAINT audit_event_one_successor")
    cursor.execute("UPDATE audit_auditevent SET seq = seq + 1000000 WHERE chain = %s AND seq >= 3", [name])
    cursor.execute(
        "UPDATE audit_auditevent SET seq = seq - 1000000 + 1 WHERE chain = %s AND seq > 1000000", [name]
    )


@pytest.mark.django_db
@pytest.mark.parametrize("name", CHAINS)
def test_an_inserted_row_is_the_first_broken_link(build, name: str) -> None:
    events = build(name, 5)
    with as_superuser_bypassing_triggers() as cursor:
        _make_room_after_2(cursor, name)
        cursor.execute(
            "INSERT INTO audit_auditevent (id, chain, seq, kind, event_type, occurred_at, recorded_at, actor_kind, "
            "terminal_name, username, role, dealer_badge, table_name, subject_type, subject_id, subject_label, "
            "detail, request_id, idempotency_key, client_address, prev_hash, hash, hash_format) VALUES "
            "(5000, %s, 3, 'change', 'casino.fill.approved', now(), now(), 'system', '', '', '', '', '', 'fill', "
            "'9', 'fill 9', '', '', '', '', %s, %s, 2)",
            [name, events[1].hash, "f" * 64],
        )

    result = _only_broken_chain(name)

    assert (result.broken.seq, result.broken.id, result.broken.reason) == (3, 5000, "hash_mismatch")


@pytest.mark.django_db
@pytest.mark.parametrize("name", CHAINS)
def test_a_well_forged_inserted_row_is_caught_at_the_row_it_displaced(build, name: str) -> None:
    events = build(name, 4)
    forged = _columns(name, 2) | {
        "id": 5000,
        "seq": 3,
        "prev_hash": events[1].hash,
        "subject_label": "forged",
    }
    forged["hash"] = hash_event(forged)
    with as_superuser_bypassing_triggers() as cursor:
        _make_room_after_2(cursor, name)
        names = [column for column in forged if column not in ("before", "after")]
        cursor.execute(
            f"INSERT INTO audit_auditevent ({', '.join(names)}, before, after) "  # noqa: S608
            f"VALUES ({', '.join(['%s'] * len(names))}, %s::jsonb, %s::jsonb)",
            [forged[column] for column in names] + [forged["before"], forged["after"]],
        )

    result = _only_broken_chain(name)

    # The forged event itself links and hashes correctly; the original #3, now #4, does not.
    assert (result.broken.seq, result.broken.id) == (4, events[2].pk)
    assert result.broken.reason in ("prev_hash_mismatch", "hash_mismatch")


@pytest.mark.django_db
@pytest.mark.parametrize("name", CHAINS)
@pytest.mark.parametrize("record", [record_anchor, record_checkpoint])
def test_removing_the_tail_after_an_anchor_is_found(build, name: str, record) -> None:
    build(name, 5)
    record(now=dt.datetime(2026, 11, 21, 14, 15, tzinfo=dt.UTC))
    with as_superuser_bypassing_triggers() as cursor:
        cursor.execute("DELETE FROM audit_auditevent WHERE chain = %s AND seq >= 4", [name])

    result = _only_broken_chain(name)

    assert (result.broken.seq, result.broken.id, result.broken.reason) == (4, None, "truncated")
    assert [chain.events for chain in result.chains if chain.chain == name] == [3]


@pytest.mark.django_db
def test_removing_a_whole_anchored_chain_is_found(build) -> None:
    build(f"table:{TABLE}", 3)
    record_anchor()
    with as_superuser_bypassing_triggers() as cursor:
        cursor.execute("DELETE FROM audit_auditevent WHERE chain = %s", [f"table:{TABLE}"])

    result = _only_broken_chain(f"table:{TABLE}")

    assert (result.broken.seq, result.broken.reason) == (1, "truncated")


@pytest.mark.django_db
@pytest.mark.parametrize("name", CHAINS)
def test_a_chain_rewritten_from_the_start_disagrees_with_its_anchor(build, name: str) -> None:
    build(name, 4)
    record_anchor()
    # Rewrite event #2 and re-hash everything after it: internally consistent again.
    prev_hash = AuditEvent.objects.get(chain=name, seq=1).hash
    with as_superuser_bypassing_triggers() as cursor:
        for seq in (2, 3, 4):
            columns = _columns(name, seq) | {"prev_hash": prev_hash}
            if seq == 2:
                columns["username"] = "rewritten"
            columns["hash"] = hash_event(columns)
            cursor.execute(
                "UPDATE audit_auditevent SET username = %s, prev_hash = %s, hash = %s WHERE chain = %s AND seq = %s",
                [columns["username"], prev_hash, columns["hash"], name, seq],
            )
            prev_hash = str(columns["hash"])

    result = _only_broken_chain(name)

    assert (result.broken.seq, result.broken.reason) == (4, "anchor_mismatch")


@pytest.mark.django_db
def test_an_edited_anchor_is_found() -> None:
    from tests.audit.conftest import append

    append()
    anchor = record_anchor()
    with as_superuser_bypassing_triggers() as cursor:
        cursor.execute(
            "UPDATE audit_auditanchor SET heads = jsonb_build_array(jsonb_build_array('casino', 1, %s)) WHERE id = %s",
            ["e" * 64, anchor.pk],
        )

    result = verify_chain()

    assert not result.ok
    assert result.broken is None  # the chain itself is intact, and an edited anchor is no evidence against it
    body = result.as_dict()
    assert [(problem["id"], problem["reason"]) for problem in body["anchors"]["broken"]] == [
        (anchor.pk, "anchor_altered")
    ]
    assert "broken_at" not in body


@pytest.mark.django_db
def test_a_walk_since_the_checkpoint_checks_only_newer_events_and_the_anchor(chain) -> None:
    chain(3)
    chain(2, table_id=TABLE)
    record_checkpoint()
    chain(2)  # #4, #5
    chain(1, table_id=TABLE + 1)  # a new chain

    assert verify_chain(since_checkpoint=True).as_dict()["events"] == 8
    with as_superuser_bypassing_triggers() as cursor:
        cursor.execute(
            "UPDATE audit_auditevent SET detail = 'old, already checkpointed' WHERE chain = 'casino' AND seq = 2"
        )
    partial = verify_chain(since_checkpoint=True)
    full = verify_chain()

    assert partial.ok  # by design: the older part is re-proved by the weekly full walk
    assert {chain.chain: chain.started_after for chain in partial.chains} == {
        "casino": 3,
        f"table:{TABLE}": 2,
        f"table:{TABLE + 1}": 0,
    }
    assert full.broken is not None
    assert (full.broken.chain, full.broken.seq, full.broken.reason) == ("casino", 2, "hash_mismatch")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("tamper", "seq", "reason"),
    [
        ("UPDATE audit_auditevent SET detail = 'x' WHERE chain = 'table:7' AND seq = 3", 3, "hash_mismatch"),
        ("DELETE FROM audit_auditevent WHERE chain = 'table:7' AND seq = 3", 3, "truncated"),
        ("UPDATE audit_auditevent SET detail = 'x' WHERE chain = 'table:7' AND seq = 5", 5, "hash_mismatch"),
        ("DELETE FROM audit_auditevent WHERE chain = 'table:7' AND seq = 4", 4, "sequence_gap"),
    ],
)
def test_a_walk_since_the_checkpoint_still_finds_breaks_at_and_after_it(chain, tamper, seq, reason) -> None:
    chain(3, table_id=TABLE)
    record_checkpoint()
    chain(2, table_id=TABLE)
    with as_superuser_bypassing_triggers() as cursor:
        cursor.execute(tamper)

    result = verify_chain(since_checkpoint=True)

    assert result.broken is not None
    assert (result.broken.chain, result.broken.seq, result.broken.reason) == ("table:7", seq, reason)
