"""Writing the audit trail: events in the caller's transaction, rejections durably, checkpoints.

Appending to the chain
----------------------
Every append takes one transaction-scoped advisory lock (`CHAIN_LOCK`), reads
the head (the event with the highest seq, one index probe), and inserts the
next event with `seq = head.seq + 1` and `prev_hash = head.hash`. The lock is
held until the caller's transaction ends, so appends are serialised in commit
order and the chain never forks; the unique constraints on `seq` and
`prev_hash` would refuse a fork even if the lock were bypassed. Because the
lock lives until commit, record the event as the last step of a service (after
every row lock is taken, STYLE.md §7), and keep the transaction short.

The chain needs no mutable "head" row: the application role only ever INSERTs
and SELECTs the audit tables.
"""

import datetime as dt
import json
import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.transaction import TransactionManagementError
from django.utils import timezone

from audit import selectors
from audit.chain import (
    GENESIS_HASH,
    HASHED_COLUMNS,
    JSON_COLUMNS,
    BrokenLink,
    VerifyResult,
    hash_event,
    hash_text,
    render,
    walk,
)
from audit.context import AuditActor, current_request
from audit.models import ActorKind, AuditCheckpoint, AuditEvent, AuditEventKind
from casino.models import Table

logger = logging.getLogger(__name__)
anchor_logger = logging.getLogger("audit.anchor")

# pg_advisory_xact_lock(int4, int4): a key space apart from the single-bigint locks
# the idempotency layer takes ("audi", "tcha").
CHAIN_LOCK = (0x61756469, 0x74636861)
EVENT_TYPE = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$")
SIDE_CONNECTION_LOCK_TIMEOUT = "5s"

_INSERT_COLUMNS = (*HASHED_COLUMNS, "hash")
_EVENTS = AuditEvent._meta.db_table
# Built from constants (model metadata), never from input.
_LOCK_AND_PREPARE_SQL = (
    "SELECT pg_advisory_xact_lock(%s, %s), nextval(pg_get_serial_sequence(%s, 'id')), %s::jsonb::text, "  # noqa: S608
    f'%s::jsonb::text, (SELECT "name" FROM "{Table._meta.db_table}" WHERE "id" = %s)'
)
_HEAD_SQL = f'SELECT "seq", "hash" FROM "{_EVENTS}" ORDER BY "seq" DESC LIMIT 1'  # noqa: S608
_INSERT_SQL = 'INSERT INTO "{}" ({}) VALUES ({})'.format(  # noqa: S608
    _EVENTS,
    ", ".join(f'"{name}"' for name in _INSERT_COLUMNS),
    ", ".join("%s::jsonb" if name in JSON_COLUMNS else "%s" for name in _INSERT_COLUMNS),
)


class AuditError(RuntimeError):
    """The audit trail could not be written as asked (a programming error, not bad input)."""


@dataclass(frozen=True)
class _Draft:
    """An event before it has its place in the chain."""

    kind: str
    event_type: str
    occurred_at: dt.datetime
    actor_kind: str
    terminal_id: int | None
    terminal_name: str
    user_id: int | None
    username: str
    role: str
    dealer_id: int | None
    dealer_badge: str
    table_id: int | None
    subject_type: str
    subject_id: str
    subject_label: str
    before_json: str | None
    after_json: str | None
    detail: str
    request_id: str
    idempotency_key: str
    client_address: str


# --- public interface ---------------------------------------------------------------------


def record_event(
    *,
    event_type: str,
    actor: AuditActor,
    table_id: int | None,
    subject_type: str,
    subject_id: str,
    subject_label: str,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    occurred_at: dt.datetime,
) -> AuditEvent:
    """Append an event to the chain inside the caller's transaction.

    The event commits or rolls back with the change it describes. Raises
    `TransactionManagementError` when no transaction is open. The request id,
    idempotency key and client address come from the bound request context.
    """
    connection = connections[DEFAULT_DB_ALIAS]
    if not _in_caller_transaction(connection):
        raise TransactionManagementError(
            "record_event must be called inside transaction.atomic(): the event commits with its change"
        )
    draft = _draft(
        kind=AuditEventKind.CHANGE.value,
        event_type=event_type,
        actor=actor,
        table_id=table_id,
        subject_type=subject_type,
        subject_id=subject_id,
        subject_label=subject_label,
        before=before,
        after=after,
        detail="",
        occurred_at=occurred_at,
    )
    return _append(using=DEFAULT_DB_ALIAS, draft=draft)


def record_rejection(
    *, event_type: str, actor: AuditActor | None, table_id: int | None, detail: str, occurred_at: dt.datetime
) -> None:
    """Record a refused, security-relevant request durably: it survives the request's rollback.

    Outside a transaction the event is written at once in its own transaction.
    Inside one, it is written when the surrounding `deferred_rejections()`
    scope ends (the request middleware opens one per request), by then outside
    the request's transaction; with no such scope, on a separate database
    connection that commits on its own.
    """
    draft = _draft(
        kind=AuditEventKind.REJECTION.value,
        event_type=event_type,
        actor=actor,
        table_id=table_id,
        subject_type="",
        subject_id="",
        subject_label="",
        before=None,
        after=None,
        detail=detail,
        occurred_at=occurred_at,
    )
    if not _in_caller_transaction(connections[DEFAULT_DB_ALIAS]):
        _append_durably(draft)
        return
    pending = _deferred.get()
    if pending is not None:
        pending.append(draft)
        return
    _append_on_side_connection(draft)


_deferred: ContextVar[list[_Draft] | None] = ContextVar("audit_deferred_rejections", default=None)


@contextmanager
def deferred_rejections() -> Iterator[None]:
    """Hold rejections recorded inside transactions until the scope ends, then write them.

    The request middleware wraps each request in this scope, so a rejection
    raised inside a service's transaction is written after that transaction
    has rolled back, on the same connection, and before the response leaves.
    """
    pending: list[_Draft] = []
    token = _deferred.set(pending)
    try:
        yield
    finally:
        _deferred.reset(token)
        for draft in pending:
            try:
                if _in_caller_transaction(connections[DEFAULT_DB_ALIAS]):
                    _append_on_side_connection(draft)
                else:
                    _append_durably(draft)
            except Exception:
                logger.exception("could not record rejected request %s in the audit trail", draft.event_type)


def verify_chain(*, since_checkpoint: bool = False, chunk_size: int = 10_000) -> VerifyResult:
    """Walk the chain (streamed) and say whether it is intact, or where it first breaks.

    The whole chain by default. With `since_checkpoint`, only the events after
    the latest good checkpoint, linked to its recorded hash (the checkpointed
    event itself is re-hashed too): fast every night, while a full walk now
    and then re-proves the older part.
    """
    with transaction.atomic():
        # Checkpoints first: every checkpoint read here refers to events committed
        # before it, so the chain read next (a later snapshot) contains them.
        anchors = selectors.checkpoint_anchors()
        after_seq, after_hash = 0, GENESIS_HASH
        if since_checkpoint and anchors:
            after_seq = max(anchors)
            after_hash = anchors[after_seq]
            broken = _check_anchor(seq=after_seq, anchored=after_hash)
            if broken is not None:
                return broken
        rows = selectors.stream_chain(after_seq=after_seq, chunk_size=chunk_size)
        return walk(rows, anchors=anchors, after_seq=after_seq, after_hash=after_hash)


def _check_anchor(*, seq: int, anchored: str) -> VerifyResult | None:
    """The checkpointed event a partial walk starts from: still there, unchanged, with that hash?"""
    row = selectors.chain_row(seq=seq)
    width = len(HASHED_COLUMNS)
    if row is None:
        broken = BrokenLink(
            seq=seq, id=None, reason="truncated", detail=f"event #{seq}, recorded by a checkpoint, is gone"
        )
    elif hash_text(render(row[:width])) != row[width]:
        detail = f"the content of event #{seq} (id {row[0]}) does not match its hash: it was changed"
        broken = BrokenLink(seq=seq, id=row[0], reason="hash_mismatch", detail=detail)
    elif row[width] != anchored:
        detail = f"event #{seq} (id {row[0]}) has hash {row[width]}, but a checkpoint recorded {anchored}"
        broken = BrokenLink(seq=seq, id=row[0], reason="checkpoint_mismatch", detail=detail)
    else:
        return None
    return VerifyResult(
        ok=False, events=0, head_seq=None, head_hash=GENESIS_HASH, broken=broken, started_after=seq - 1
    )


def record_checkpoint(*, since_checkpoint: bool = False, now: dt.datetime | None = None) -> AuditCheckpoint:
    """Verify the chain and record the result (the head hash, or the break) as a checkpoint."""
    result = verify_chain(since_checkpoint=since_checkpoint)
    with transaction.atomic(durable=True):
        checkpoint = AuditCheckpoint.objects.create(
            created_at=now or timezone.now(),
            ok=result.ok,
            events=result.events,
            head_seq=result.head_seq,
            head_hash=result.head_hash,
            broken_at=result.broken.as_dict() if result.broken else None,
        )
    if result.ok:
        # A line meant for an off-host log: the anchor a DB superuser cannot rewrite.
        anchor_logger.info(
            "audit chain verified: events=%d head_seq=%s head=%s checkpoint=%d",
            result.events,
            result.head_seq,
            result.head_hash,
            checkpoint.pk,
        )
    else:
        anchor_logger.error("AUDIT CHAIN BROKEN: %s", json.dumps(result.as_dict()))
    return checkpoint


# --- internals --------------------------------------------------------------------------------


def _in_caller_transaction(connection: BaseDatabaseWrapper) -> bool:
    """True inside a transaction the caller opened (a test case's own wrapper does not count)."""
    return any(not getattr(block, "_from_testcase", False) for block in connection.atomic_blocks)


def _text(value: object, limit: int | None = None) -> str:
    text = "" if value is None else str(value).replace("\x00", "\ufffd")
    return text[:limit] if limit is not None else text


def _json(value: dict[str, Any] | None, name: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise TypeError(f"{name} must be a dict or None, not {type(value).__name__}")
    return json.dumps(value, cls=DjangoJSONEncoder, allow_nan=False).replace("\\u0000", "\\ufffd")


def _draft(
    *,
    kind: str,
    event_type: str,
    actor: AuditActor | None,
    table_id: int | None,
    subject_type: str,
    subject_id: str,
    subject_label: str,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
    detail: str,
    occurred_at: dt.datetime,
) -> _Draft:
    if not EVENT_TYPE.match(event_type) or len(event_type) > 100:
        raise ValueError(
            f"event_type must be a dotted lowercase name like 'casino.round.settled': {event_type!r}"
        )
    if not isinstance(occurred_at, dt.datetime) or timezone.is_naive(occurred_at):
        raise ValueError("occurred_at must be a timezone-aware datetime")
    if actor is not None and not isinstance(actor, AuditActor):
        raise TypeError("actor must be an audit.context.AuditActor")
    request = current_request()
    return _Draft(
        kind=kind,
        event_type=event_type,
        occurred_at=occurred_at,
        actor_kind=actor.kind if actor else ActorKind.ANONYMOUS.value,
        terminal_id=_optional_int(actor.terminal_id if actor else None),
        terminal_name=_text(actor.terminal_name if actor else "", 100),
        user_id=_optional_int(actor.user_id if actor else None),
        username=_text(actor.username if actor else "", 150),
        role=_text(actor.role if actor else "", 32),
        dealer_id=_optional_int(actor.dealer_id if actor else None),
        dealer_badge=_text(actor.dealer_badge if actor else "", 32),
        table_id=_optional_int(table_id),
        subject_type=_text(subject_type, 64),
        subject_id=_text(subject_id, 100),
        subject_label=_text(subject_label),
        before_json=_json(before, "before"),
        after_json=_json(after, "after"),
        detail=_text(detail),
        request_id=_text(request.request_id, 128),
        idempotency_key=_text(request.idempotency_key, 255),
        client_address=_text(request.client_address, 64),
    )


def _optional_int(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"ids must be int or None, not {type(value).__name__}")
    return value


def _append(*, using: str, draft: _Draft) -> AuditEvent:
    """Lock the chain, link the draft to the head, hash it and insert it (caller's transaction)."""
    with connections[using].cursor() as cursor:
        cursor.execute(
            _LOCK_AND_PREPARE_SQL,
            [*CHAIN_LOCK, AuditEvent._meta.db_table, draft.before_json, draft.after_json, draft.table_id],
        )
        _, event_id, before_text, after_text, table_name = cursor.fetchone()
        # A new statement, so a new snapshot: it sees every append committed before the lock.
        cursor.execute(_HEAD_SQL)
        head = cursor.fetchone()
        seq, prev_hash = (head[0] + 1, head[1]) if head else (1, GENESIS_HASH)
        columns: dict[str, Any] = {
            "id": event_id,
            "seq": seq,
            "prev_hash": prev_hash,
            "kind": draft.kind,
            "event_type": draft.event_type,
            "occurred_at": draft.occurred_at,
            "recorded_at": timezone.now(),
            "actor_kind": draft.actor_kind,
            "terminal_id": draft.terminal_id,
            "terminal_name": draft.terminal_name,
            "user_id": draft.user_id,
            "username": draft.username,
            "role": draft.role,
            "dealer_id": draft.dealer_id,
            "dealer_badge": draft.dealer_badge,
            "table_id": draft.table_id,
            "table_name": _text(table_name, 100),
            "subject_type": draft.subject_type,
            "subject_id": draft.subject_id,
            "subject_label": draft.subject_label,
            "before": before_text,
            "after": after_text,
            "detail": draft.detail,
            "request_id": draft.request_id,
            "idempotency_key": draft.idempotency_key,
            "client_address": draft.client_address,
        }
        columns["hash"] = hash_event(columns)
        cursor.execute(_INSERT_SQL, [columns[name] for name in _INSERT_COLUMNS])
    event = AuditEvent(
        **{
            **columns,
            "before": json.loads(before_text) if before_text is not None else None,
            "after": json.loads(after_text) if after_text is not None else None,
        }
    )
    event._state.adding = False
    event._state.db = using
    return event


def _append_durably(draft: _Draft) -> None:
    with transaction.atomic(durable=True):
        _append(using=DEFAULT_DB_ALIAS, draft=draft)


_SIDE_ALIAS = "audit_side_connection"


def _append_on_side_connection(draft: _Draft) -> None:
    """Write on a second connection, in a transaction of its own, while the caller's stays open."""
    connection = connections[DEFAULT_DB_ALIAS]
    if not connection.needs_rollback and _holds_chain_lock(connection):
        raise AuditError(
            "record_rejection was called inside a transaction that already appended to the audit chain: "
            "record rejections before any record_event, or outside the transaction"
        )
    side = connection.copy(_SIDE_ALIAS)
    connections[_SIDE_ALIAS] = side
    try:
        with transaction.atomic(using=_SIDE_ALIAS, durable=True):
            with side.cursor() as cursor:
                cursor.execute("SELECT set_config('lock_timeout', %s, true)", [SIDE_CONNECTION_LOCK_TIMEOUT])
            _append(using=_SIDE_ALIAS, draft=draft)
    finally:
        side.close()
        del connections[_SIDE_ALIAS]


def _holds_chain_lock(connection: BaseDatabaseWrapper) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() "
            "AND classid = %s AND objid = %s AND objsubid = 2 AND granted)",
            list(CHAIN_LOCK),
        )
        (held,) = cursor.fetchone()
    return bool(held)
