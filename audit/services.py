"""Writing the audit trail: events in the caller's transaction, rejections durably, anchors, checkpoints.

Appending to a chain
--------------------
Each table has its own chain (`table:17`), and so has each tournament
(`tournament:3`, named by the caller's `chain_owner`: this app imports none of
the owners' apps); events that belong to neither (paytables, staff and admin
events, refusals without a table) go to the casino-wide chain (`casino`).
Appends at different tables never wait for each other.

An append is two statements. The first calls `audit_chain_head` (a plpgsql
function, migration 0003), which takes the chain's transaction-scoped advisory
lock and only then reads the chain's head; being VOLATILE, the function runs
its query on a fresh snapshot, taken after the lock was granted, so it sees
every append committed before. (A head read by the statement that waited for
the lock would use that statement's older snapshot and could fork the chain.)
The same statement takes the event's id from the sequence and has PostgreSQL
render `before`/`after` as `jsonb::text`, so what is hashed is what is stored.
The second statement is the INSERT, with `seq = head.seq + 1` and
`prev_hash = head.hash`.

The lock is held until the caller's transaction ends, so a chain's appends are
serialised in commit order; the unique constraints on (chain, seq) and (chain,
prev_hash) would refuse a fork even if the lock were bypassed. Record the event
as the last step of a service (after every row lock is taken, STYLE.md §7): a
table's own row lock already serialises its writes, so its chain lock adds no
waiting. A transaction that appends to two chains takes their locks in the
order it appends, so keep to one chain per transaction where you can.

The chains need no mutable "head" row: the application role only ever INSERTs
and SELECTs the audit tables.

Anchors and checkpoints
-----------------------
`record_anchor` (Celery beat, every few minutes) hashes the heads of all
chains together, stores that anchor and logs it to the `audit.anchor` logger,
which is shipped off the host. `verify_chain` walks every chain, and holds each
against every anchor: a chain that was cut short, or rewritten with fresh
hashes, no longer holds its anchored heads. `record_checkpoint` (nightly and
weekly) records a verification and, when everything is intact, the anchor of
the heads it verified, from which the next `since_checkpoint` walk starts.
"""

import dataclasses
import datetime as dt
import functools
import ipaddress
import itertools
import json
import logging
import re
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.transaction import TransactionManagementError
from django.utils import timezone

from audit import selectors
from audit.chain import (
    CASINO_CHAIN,
    FORMAT_VERSION,
    GENESIS_HASH,
    HASHED_COLUMNS,
    JSON_COLUMNS,
    AnchorProblem,
    ChainResult,
    VerifyResult,
    anchor_digest,
    chain_for,
    check_anchored,
    hash_event,
    walk,
)
from audit.context import AuditActor, current_request
from audit.models import ActorKind, AuditAnchor, AuditCheckpoint, AuditEvent, AuditEventKind, RefusalTally

logger = logging.getLogger(__name__)
anchor_logger = logging.getLogger("audit.anchor")

# pg_advisory_xact_lock(int4, int4): the chains' key space ("audi", then 0 for the casino-wide
# chain, the table id for a table's and minus the tournament id for a tournament's), apart from the single-bigint locks of the idempotency
# layer and the other apps' pairs.
CHAIN_LOCK_CLASS = 0x61756469
_MAX_INT4 = 0x7FFFFFFF
EVENT_TYPE = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$")
SIDE_CONNECTION_LOCK_TIMEOUT = "5s"

_INSERT_COLUMNS = (*HASHED_COLUMNS, "hash", "hash_format")
_EVENTS = AuditEvent._meta.db_table
# Built from constants (model metadata), never from input. The function runs first (FROM), so
# within a chain ids are drawn in chain order too.
_LOCK_HEAD_AND_PREPARE_SQL = (
    f"SELECT head.head_seq, head.head_hash, nextval(pg_get_serial_sequence('{_EVENTS}', 'id')), "  # noqa: S608
    "%s::jsonb::text, %s::jsonb::text FROM audit_chain_head(%s, %s, %s) AS head"
)
_INSERT_SQL = 'INSERT INTO "{}" ({}) VALUES ({})'.format(  # noqa: S608
    _EVENTS,
    ", ".join(f'"{name}"' for name in _INSERT_COLUMNS),
    ", ".join("%s::jsonb" if name in JSON_COLUMNS else "%s" for name in _INSERT_COLUMNS),
)


class AuditError(RuntimeError):
    """The audit trail could not be written as asked (a programming error, not bad input)."""


@dataclasses.dataclass(frozen=True)
class _Draft:
    """An event before it has its place in its chain."""

    chain: str
    lock_key: int
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
    table_name: str
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
    table_name: str,
    subject_type: str,
    subject_id: str,
    subject_label: str,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    occurred_at: dt.datetime,
    chain_owner: str | None = None,
) -> AuditEvent:
    """Append an event to its chain (its owner's, its table's, or the casino-wide one) inside the
    caller's transaction, in two statements.

    `chain_owner` names an owner with a chain of its own (`"tournament:3"`, the owner's key as
    its app writes it): the event joins that chain whatever its table.

    The event commits or rolls back with the change it describes. Raises
    `TransactionManagementError` when no transaction is open. The request id,
    idempotency key and client address come from the bound request context.
    `table_name` is the table's name as the caller has it ("" for no table).
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
        table_name=table_name,
        subject_type=subject_type,
        subject_id=subject_id,
        subject_label=subject_label,
        before=before,
        after=after,
        detail="",
        occurred_at=occurred_at,
        chain_owner=chain_owner,
    )
    return _append(using=DEFAULT_DB_ALIAS, draft=draft)


def record_rejection(
    *,
    event_type: str,
    actor: AuditActor | None,
    table_id: int | None,
    table_name: str,
    detail: str,
    occurred_at: dt.datetime,
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
        table_name=table_name,
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
        pending.append(functools.partial(_write_rejection, draft))
        return
    _append_on_side_connection(draft)


# What refused requests still have to write once the request's transactions are over.
_deferred: ContextVar[list[Callable[[], None]] | None] = ContextVar("audit_deferred_rejections", default=None)


@contextmanager
def deferred_rejections() -> Iterator[None]:
    """Hold rejections recorded inside transactions until the scope ends, then write them.

    The request middleware wraps each request in this scope, so a rejection
    raised inside a service's transaction is written after that transaction
    has rolled back, on the same connection, and before the response leaves.
    """
    pending: list[Callable[[], None]] = []
    token = _deferred.set(pending)
    try:
        yield
    finally:
        _deferred.reset(token)
        for write in pending:
            try:
                write()
            except Exception:
                logger.exception("could not record a refused request in the audit trail")


def _write_rejection(draft: _Draft) -> None:
    if _in_caller_transaction(connections[DEFAULT_DB_ALIAS]):
        _append_on_side_connection(draft)
    else:
        _append_durably(draft)


# --- refused requests, counted ----------------------------------------------------------------
#
# A refused request (401, 403) is counted in the refusal tally, one row per source, code and
# minute, by one statement that takes no chain lock. A caller that did not authenticate is only
# counted: a flood of bad tokens costs one row update each and never waits for, nor holds up, an
# append. An authenticated caller's first few refusals of a minute are also recorded as events
# of their own (the caller is known, and compliance wants each of them); the rest of a flood is
# only counted. `flush_refusal_tallies` (Celery beat, every minute) turns the minutes that have
# ended into one summary event per source and code, carrying the count, in the casino-wide chain.

REFUSALS_RECORDED_PER_MINUTE = 10  # per authenticated caller and code, each as an event of its own
REFUSAL_SUMMARY_EVENT = "security.refusal_summary"
_IPV6_SOURCE_PREFIX = 64  # an IPv6 client is counted by its /64 network: one subscriber's block


@dataclasses.dataclass(frozen=True)
class Refusal:
    """A refused request: its problem code, who asked (None: no valid credentials) and what."""

    code: str
    actor: AuditActor | None
    table_id: int | None
    table_name: str
    detail: str  # "METHOD /path: reason"
    occurred_at: dt.datetime


def record_refusal(refusal: Refusal) -> None:
    """Count a refused request, and record it as an event of its own when its caller authenticated
    and has had fewer than `REFUSALS_RECORDED_PER_MINUTE` refusals of that code this minute.

    Survives the request's rollback like `record_rejection`: inside a transaction it is done
    when the request's `deferred_rejections()` scope ends."""
    if not _in_caller_transaction(connections[DEFAULT_DB_ALIAS]):
        _count_refusal(refusal)
        return
    pending = _deferred.get()
    if pending is not None:
        pending.append(functools.partial(_count_refusal, refusal))
        return
    _append_on_side_connection(_refusal_draft(refusal))  # no request scope: recorded as it is


def flush_refusal_tallies(*, now: dt.datetime | None = None) -> int:
    """Write one summary event per source, code and minute for the refusals counted in minutes
    that have ended and not recorded individually, and empty those tally rows, in one transaction.
    Returns the number of events written. Concurrent flushes share the rows out (SKIP LOCKED)."""
    before = _minute_of(now or timezone.now())
    written = 0
    with transaction.atomic(durable=True):
        with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
            cursor.execute(_FLUSH_TALLIES_SQL, [before])
            rows = sorted(cursor.fetchall())
        for minute, source, code, count, recorded, first_at, last_at, actor, sample in rows:
            if count <= recorded:
                continue
            actor_values = _json_value(actor) if actor is not None else None
            draft = _draft(
                kind=AuditEventKind.REJECTION.value,
                event_type=REFUSAL_SUMMARY_EVENT,
                actor=AuditActor(**actor_values) if actor_values else None,
                table_id=None,
                table_name="",
                subject_type="refusals",
                subject_id=f"{source} {code}"[:100],
                subject_label=f"{code} from {source}, {minute:%Y-%m-%d %H:%M} UTC",
                before=None,
                after={
                    "code": code,
                    "source": source,
                    "minute": minute.isoformat(),
                    "count": count,
                    "recorded_individually": recorded,
                    "first_at": first_at.isoformat(),
                    "last_at": last_at.isoformat(),
                    "first_request": sample,
                },
                detail=(
                    f"{count} refused requests ({code}) from {source} in the minute from "
                    f"{minute:%Y-%m-%d %H:%M} UTC, {recorded} of them recorded as events of their own"
                ),
                occurred_at=last_at,
            )
            address = source.removeprefix("address ") if source.startswith("address ") else ""
            draft = dataclasses.replace(draft, request_id="", idempotency_key="", client_address=address)
            _append(using=DEFAULT_DB_ALIAS, draft=draft)
            written += 1
    return written


_TALLY = RefusalTally._meta.db_table
# Built from constants (model metadata), never from input.
_COUNT_REFUSAL_SQL = (
    f'INSERT INTO "{_TALLY}" AS "t" ("minute", "source", "code", "count", "individually_recorded", '  # noqa: S608
    '"first_at", "last_at", "actor", "sample") VALUES (%s, %s, %s, 1, %s, %s, %s, %s::jsonb, %s) '
    'ON CONFLICT ("minute", "source", "code") DO UPDATE SET "count" = "t"."count" + 1, '
    '"individually_recorded" = "t"."individually_recorded" + CASE WHEN EXCLUDED."individually_recorded" = 1 '
    'AND "t"."individually_recorded" = "t"."count" AND "t"."count" < %s THEN 1 ELSE 0 END, '
    '"last_at" = GREATEST("t"."last_at", EXCLUDED."last_at") '
    'RETURNING "individually_recorded" = "count"'
)
_FLUSH_TALLIES_SQL = (
    f'DELETE FROM "{_TALLY}" WHERE "id" IN (SELECT "id" FROM "{_TALLY}" WHERE "minute" < %s '  # noqa: S608
    'FOR UPDATE SKIP LOCKED) RETURNING "minute", "source", "code", "count", "individually_recorded", '
    '"first_at", "last_at", "actor", "sample"'
)


def _count_refusal(refusal: Refusal) -> None:
    """One statement for a caller that did not authenticate; for one that did, the count and,
    while under the limit, the refusal's own event, in one transaction."""
    if _in_caller_transaction(connections[DEFAULT_DB_ALIAS]):
        _append_on_side_connection(_refusal_draft(refusal))  # inside someone's transaction: as before
        return
    if refusal.actor is None:
        _add_to_tally(refusal)
        return
    with transaction.atomic(durable=True):
        if _add_to_tally(refusal):
            _append(using=DEFAULT_DB_ALIAS, draft=_refusal_draft(refusal))


def _add_to_tally(refusal: Refusal) -> bool:
    """Add one to the refusal's tally row; True when this refusal is to be recorded on its own."""
    individually = refusal.actor is not None
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute(
            _COUNT_REFUSAL_SQL,
            [
                _minute_of(refusal.occurred_at),
                _source_of(refusal),
                _text(refusal.code, 64),
                1 if individually else 0,
                refusal.occurred_at,
                refusal.occurred_at,
                _json(dataclasses.asdict(refusal.actor), "actor") if refusal.actor is not None else None,
                _text(refusal.detail, 1000),
                REFUSALS_RECORDED_PER_MINUTE,
            ],
        )
        (recorded_on_its_own,) = cursor.fetchone()
    return individually and bool(recorded_on_its_own)


def _refusal_draft(refusal: Refusal) -> _Draft:
    return _draft(
        kind=AuditEventKind.REJECTION.value,
        event_type=f"security.{refusal.code}",
        actor=refusal.actor,
        table_id=refusal.table_id,
        table_name=refusal.table_name,
        subject_type="",
        subject_id="",
        subject_label="",
        before=None,
        after=None,
        detail=refusal.detail,
        occurred_at=refusal.occurred_at,
    )


def _source_of(refusal: Refusal) -> str:
    """Who the refusals are counted under: the caller when it authenticated, else its address."""
    actor = refusal.actor
    if actor is not None and actor.terminal_id is not None:
        return f"terminal {actor.terminal_id}"
    if actor is not None and actor.user_id is not None:
        return f"user {actor.user_id}"
    if actor is not None:
        return actor.kind
    address = current_request().client_address
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return "address unknown"
    if parsed.version == 6:
        return f"address {ipaddress.ip_network(f'{parsed}/{_IPV6_SOURCE_PREFIX}', strict=False)}"
    return f"address {parsed}"


def _minute_of(moment: dt.datetime) -> dt.datetime:
    return moment.astimezone(dt.UTC).replace(second=0, microsecond=0)


def verify_chain(*, since_checkpoint: bool = False, chunk_size: int = 10_000) -> VerifyResult:
    """Walk every chain (streamed) and hold each against the recorded anchors.

    Says, per chain, whether it is intact or where it first breaks (an edited,
    deleted or inserted event; a chain that no longer holds an anchored head
    because it was cut short or rewritten), and whether every anchor still
    hashes to its digest. All chains by default. With `since_checkpoint`, each
    chain only from the head the latest good checkpoint verified (that event
    re-hashed, its link taken on trust), and only the anchors recorded since:
    fast every night, while a full walk now and then re-proves the older part.
    """
    with transaction.atomic():
        starts: dict[str, tuple[int, str]] = {}
        from_anchor, legacy = 0, True
        if since_checkpoint:
            checkpoint = selectors.latest_good_checkpoint()
            if checkpoint is not None and checkpoint.anchor is not None:
                starts = {chain: (seq, head) for chain, seq, head in checkpoint.anchor.heads}
                from_anchor, legacy = checkpoint.anchor.pk, False
            elif checkpoint is not None and checkpoint.head_seq is not None:
                starts = {CASINO_CHAIN: (checkpoint.head_seq, checkpoint.head_hash)}
        anchors_checked, problems = _check_anchor_digests(from_anchor_id=from_anchor)
        altered = {f"anchor {problem.anchor_id}" for problem in problems}  # reported, not trusted
        # One statement holds the anchors against the events, so it sees every event they anchor.
        mismatched: dict[str, list[tuple[str, int, str, str | None, int | None]]] = defaultdict(list)
        for source, chain, seq, anchored, stored, event_id in selectors.anchor_mismatches(
            from_anchor_id=from_anchor, legacy=legacy
        ):
            if source not in altered:
                mismatched[chain].append((source, seq, anchored, stored, event_id))
        if since_checkpoint:
            walked = _walk_from(starts=starts, chunk_size=chunk_size)
        else:
            walked = _walk_all(chunk_size=chunk_size)
        for chain in mismatched.keys() - walked.keys():  # anchored, but not a single event left
            walked[chain] = walk([], chain=chain)
        chains = tuple(
            check_anchored(walked[chain], anchored=mismatched.get(chain, ())) for chain in sorted(walked)
        )
    return VerifyResult(chains=chains, anchors_checked=anchors_checked, anchor_problems=tuple(problems))


def record_anchor(*, now: dt.datetime | None = None) -> AuditAnchor:
    """Hash the heads of all chains together, store that anchor and log it for off-host shipping.

    When no chain has moved since the latest anchor, that anchor stands and is logged again.
    """
    heads = selectors.chain_heads()
    digest = anchor_digest(heads)
    latest = selectors.latest_anchor()
    if latest is not None and latest.digest == digest:
        anchor = latest
    else:
        with transaction.atomic(durable=True):
            anchor = _create_anchor(heads=heads, digest=digest, now=now or timezone.now())
    anchor_logger.info(
        "audit anchor: digest=%s chains=%d events=%d anchor=%d at=%s",
        anchor.digest,
        anchor.chains,
        anchor.events,
        anchor.pk,
        anchor.created_at.isoformat(),
    )
    return anchor


def record_checkpoint(*, since_checkpoint: bool = False, now: dt.datetime | None = None) -> AuditCheckpoint:
    """Verify every chain and record the result: when intact, with an anchor of the verified heads."""
    result = verify_chain(since_checkpoint=since_checkpoint)
    moment = now or timezone.now()
    with transaction.atomic(durable=True):
        anchor = (
            _create_anchor(heads=result.heads, digest=result.head_hash, now=moment) if result.ok else None
        )
        broken = result.broken
        checkpoint = AuditCheckpoint.objects.create(
            created_at=moment,
            ok=result.ok,
            events=result.events,
            head_seq=None,
            head_hash=result.head_hash,
            broken_at=None if result.ok else (broken.as_dict() if broken else result.as_dict()["anchors"]),
            anchor=anchor,
        )
    if anchor is not None:
        # A line meant for an off-host log: the anchor a DB superuser cannot rewrite.
        anchor_logger.info(
            "audit chains verified: digest=%s chains=%d events=%d anchor=%d checkpoint=%d",
            anchor.digest,
            anchor.chains,
            anchor.events,
            anchor.pk,
            checkpoint.pk,
        )
    else:
        anchor_logger.error("AUDIT CHAIN BROKEN: %s", json.dumps(result.as_dict()))
    return checkpoint


# --- internals --------------------------------------------------------------------------------


def _walk_all(*, chunk_size: int) -> dict[str, ChainResult]:
    chain_at = HASHED_COLUMNS.index("chain")
    rows = selectors.stream_all_chains(chunk_size=chunk_size)
    return {
        chain: walk(group, chain=chain)
        for chain, group in itertools.groupby(rows, key=lambda row: row[chain_at])
    }


def _walk_from(*, starts: dict[str, tuple[int, str]], chunk_size: int) -> dict[str, ChainResult]:
    walked: dict[str, ChainResult] = {}
    chains = {chain for chain, _, _ in selectors.chain_heads()} | starts.keys()
    for chain in sorted(chains):
        seq, head = starts.get(chain, (0, GENESIS_HASH))
        rows = selectors.stream_chain(chain=chain, from_seq=max(seq, 1), chunk_size=chunk_size)
        walked[chain] = walk(rows, chain=chain, after_seq=seq, after_hash=head, resume=seq > 0)
    return walked


def _check_anchor_digests(*, from_anchor_id: int) -> tuple[int, list[AnchorProblem]]:
    """Does every anchor still hash to its digest? (An edited anchor row does not.)"""
    checked, problems = 0, []
    for anchor_id, digest, heads in selectors.stream_anchors(from_id=from_anchor_id):
        checked += 1
        computed = anchor_digest(tuple(head) for head in _json_value(heads))
        if computed != digest:
            detail = (
                f"anchor {anchor_id} has digest {digest}, but its heads hash to {computed}: it was changed"
            )
            problems.append(AnchorProblem(anchor_id=anchor_id, reason="anchor_altered", detail=detail))
    return checked, problems


def _json_value(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def _create_anchor(*, heads: list[tuple[str, int, str]], digest: str, now: dt.datetime) -> AuditAnchor:
    return AuditAnchor.objects.create(
        created_at=now,
        chains=len(heads),
        events=sum(seq for _, seq, _ in heads),
        heads=[list(head) for head in sorted(heads)],
        digest=digest,
    )


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


def _lock_key(table_id: int | None, *, chain: str = CASINO_CHAIN) -> int:
    """The chain's advisory lock key, an int4: 0 for the casino-wide chain, the table id for a
    table's, minus the owner's id for an owner's (`tournament:<id>`). Ids beyond 2**31 - 1 wrap:
    two chains that share a key only wait for each other, they never mix."""
    if chain.startswith("tournament:"):
        return -((int(chain.partition(":")[2]) - 1) % _MAX_INT4 + 1)
    return 0 if table_id is None else (table_id - 1) % _MAX_INT4 + 1


def _draft(
    *,
    kind: str,
    event_type: str,
    actor: AuditActor | None,
    table_id: int | None,
    table_name: str,
    subject_type: str,
    subject_id: str,
    subject_label: str,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
    detail: str,
    occurred_at: dt.datetime,
    chain_owner: str | None = None,
) -> _Draft:
    if not EVENT_TYPE.match(event_type) or len(event_type) > 100:
        raise ValueError(
            f"event_type must be a dotted lowercase name like 'casino.round.settled': {event_type!r}"
        )
    if not isinstance(occurred_at, dt.datetime) or timezone.is_naive(occurred_at):
        raise ValueError("occurred_at must be a timezone-aware datetime")
    if actor is not None and not isinstance(actor, AuditActor):
        raise TypeError("actor must be an audit.context.AuditActor")
    table_id = _optional_int(table_id)
    if table_id is not None and table_id < 1:
        raise ValueError("table_id must be a positive id or None")
    chain = chain_for(table_id=table_id, owner=chain_owner)
    request = current_request()
    return _Draft(
        chain=chain,
        lock_key=_lock_key(table_id, chain=chain),
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
        table_id=table_id,
        table_name=_text(table_name, 100),
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
    """Lock the draft's chain, link the draft to its head, hash it and insert it: two statements."""
    with connections[using].cursor() as cursor:
        cursor.execute(
            _LOCK_HEAD_AND_PREPARE_SQL,
            [draft.before_json, draft.after_json, CHAIN_LOCK_CLASS, draft.lock_key, draft.chain],
        )
        head_seq, head_hash, event_id, before_text, after_text = cursor.fetchone()
        seq, prev_hash = (head_seq + 1, head_hash) if head_seq is not None else (1, GENESIS_HASH)
        columns: dict[str, Any] = {
            "id": event_id,
            "chain": draft.chain,
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
            "table_name": draft.table_name,
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
        columns["hash_format"] = FORMAT_VERSION
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
    if not connection.needs_rollback and _holds_chain_lock(connection, lock_key=draft.lock_key):
        raise AuditError(
            "record_rejection was called inside a transaction that already appended to the same audit "
            "chain: record rejections before any record_event, or outside the transaction"
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


def _holds_chain_lock(connection: BaseDatabaseWrapper, *, lock_key: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() "
            "AND classid = %s AND objid = %s AND objsubid = 2 AND granted)",
            [CHAIN_LOCK_CLASS, lock_key],
        )
        (held,) = cursor.fetchone()
    return bool(held)
