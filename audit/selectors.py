"""Reads of the audit trail: compliance queries, gaming-day exports, chain heads and chain streams."""

import datetime as dt
from collections.abc import Iterator
from typing import Any

from django.db import connection
from django.db.models import Q, QuerySet

from audit.chain import HASHED_COLUMNS, JSON_COLUMNS, SQL_TIMESTAMP_FORMAT, TIMESTAMP_COLUMNS, Head
from audit.models import AuditAnchor, AuditCheckpoint, AuditEvent
from kernel.gaming_day import shift_bounds

_EVENTS = AuditEvent._meta.db_table
_ANCHORS = AuditAnchor._meta.db_table
_CHECKPOINTS = AuditCheckpoint._meta.db_table


def list_events(
    *,
    since: dt.datetime | None = None,
    until: dt.datetime | None = None,
    table_id: int | None = None,
    chain: str | None = None,
    actor: str | None = None,
    event_type: str | None = None,
) -> QuerySet[AuditEvent]:
    """Events of every chain matching the filters, oldest first (by id: within a chain, seq order).

    `since` is inclusive and `until` exclusive, on `occurred_at`. `actor` is a
    username or a terminal name. `event_type` is exact, or a prefix when it
    ends in `.*` (`casino.round.*`).
    """
    events = AuditEvent.objects.all()
    if since is not None:
        events = events.filter(occurred_at__gte=since)
    if until is not None:
        events = events.filter(occurred_at__lt=until)
    if table_id is not None:
        events = events.filter(table_id=table_id)
    if chain:
        events = events.filter(chain=chain)
    if actor:
        events = events.filter(Q(username=actor) | Q(terminal_name=actor))
    if event_type:
        if event_type.endswith(".*"):
            events = events.filter(event_type__startswith=event_type[:-1])
        else:
            events = events.filter(event_type=event_type)
    return events.order_by("id")


def gaming_day_bounds(day: dt.date) -> tuple[dt.datetime, dt.datetime]:
    """[start, end) of a gaming day: from its day-shift start to the next day's."""
    start, _ = shift_bounds(day, "day")
    end, _ = shift_bounds(day + dt.timedelta(days=1), "day")
    return start, end


def events_for_gaming_day(*, day: dt.date) -> QuerySet[AuditEvent]:
    start, end = gaming_day_bounds(day)
    return list_events(since=start, until=end)


# Every chain's head in one statement (one snapshot): a skip scan over the (chain, seq)
# index, two index probes per chain, however long the chains.
_HEADS_SQL = f"""
WITH RECURSIVE chains AS (
    (SELECT "chain" FROM "{_EVENTS}" ORDER BY "chain" LIMIT 1)
    UNION ALL
    SELECT (SELECT e."chain" FROM "{_EVENTS}" AS e WHERE e."chain" > chains."chain" ORDER BY e."chain" LIMIT 1)
    FROM chains WHERE chains."chain" IS NOT NULL
)
SELECT chains."chain", head."seq", head."hash" FROM chains
CROSS JOIN LATERAL (
    SELECT e."seq", e."hash" FROM "{_EVENTS}" AS e WHERE e."chain" = chains."chain" ORDER BY e."seq" DESC LIMIT 1
) AS head
WHERE chains."chain" IS NOT NULL
"""  # noqa: S608 (constants only)


def chain_heads() -> list[Head]:
    """(chain, seq, hash) of the last event of every chain, chains in code-point order."""
    with connection.cursor() as cursor:
        cursor.execute(_HEADS_SQL)
        rows = cursor.fetchall()
    return sorted((chain, seq, head) for chain, seq, head in rows)


def latest_anchor() -> AuditAnchor | None:
    return AuditAnchor.objects.order_by("-id").first()


def latest_good_checkpoint() -> AuditCheckpoint | None:
    return AuditCheckpoint.objects.filter(ok=True).select_related("anchor").order_by("-id").first()


def stream_anchors(*, from_id: int = 0, chunk_size: int = 1000) -> Iterator[tuple[int, str, Any]]:
    """(id, digest, heads) of every anchor from `from_id`. Inside a transaction (server-side cursor)."""
    with connection.chunked_cursor() as cursor:
        cursor.execute(
            f'SELECT "id", "digest", "heads" FROM "{_ANCHORS}" WHERE "id" >= %s ORDER BY "id"',  # noqa: S608
            [from_id],
        )
        while rows := cursor.fetchmany(chunk_size):
            yield from rows


# Anchored heads that no longer match their chain, with what is stored there instead.
# Checkpoints from before the per-table chains anchor the casino-wide chain.
_ANCHOR_MISMATCHES_SQL = f"""
WITH anchored AS (
    SELECT 'anchor ' || a."id" AS source, head->>0 AS chain, (head->>1)::bigint AS seq, head->>2 AS hash
    FROM "{_ANCHORS}" AS a CROSS JOIN LATERAL jsonb_array_elements(a."heads") AS head
    WHERE a."id" >= %s
    UNION ALL
    SELECT 'checkpoint ' || c."id", 'casino', c."head_seq", c."head_hash" FROM "{_CHECKPOINTS}" AS c
    WHERE c."ok" AND c."anchor_id" IS NULL AND c."head_seq" IS NOT NULL AND %s
)
SELECT anchored.source, anchored.chain, anchored.seq, anchored.hash, e."hash", e."id"
FROM anchored LEFT JOIN "{_EVENTS}" AS e ON e."chain" = anchored.chain AND e."seq" = anchored.seq
WHERE e."hash" IS DISTINCT FROM anchored.hash
ORDER BY anchored.chain, anchored.seq
"""  # noqa: S608 (constants only)


def anchor_mismatches(*, from_anchor_id: int = 0, legacy: bool = True) -> list[tuple[Any, ...]]:
    """(source, chain, seq, anchored hash, stored hash or None, event id or None) of every
    anchored head, from anchor `from_anchor_id` on, that its chain no longer holds. The source
    names the anchor ("anchor 12"), or, with `legacy`, a checkpoint from before the per-table
    chains ("checkpoint 3"), which anchors the casino-wide chain."""
    with connection.cursor() as cursor:
        cursor.execute(_ANCHOR_MISMATCHES_SQL, [from_anchor_id, legacy])
        return list(cursor.fetchall())


def _chain_column(name: str) -> str:
    if name in JSON_COLUMNS:
        return f'"{name}"::text'
    if name in TIMESTAMP_COLUMNS:  # formatted by the server: nothing to parse per row
        return f"to_char(\"{name}\" AT TIME ZONE 'UTC', '{SQL_TIMESTAMP_FORMAT}')"
    return f'"{name}"'


def _chain_sql(where: str, *, order: str = '"seq"') -> str:
    columns = ", ".join(_chain_column(name) for name in HASHED_COLUMNS)
    return f'SELECT {columns}, "hash", "hash_format" FROM "{_EVENTS}" WHERE {where} ORDER BY {order}'  # noqa: S608 (constants only)


def stream_all_chains(*, chunk_size: int = 10_000) -> Iterator[tuple[Any, ...]]:
    """Every event as `stream_chain` gives it, chain after chain (each in seq order).

    One scan for all chains: PostgreSQL may read the table in order and sort,
    rather than visit the heap once per chain. Inside a transaction.
    """
    with connection.chunked_cursor() as cursor:
        cursor.execute(_chain_sql("TRUE", order='"chain", "seq"'))
        while rows := cursor.fetchmany(chunk_size):
            yield from rows


def stream_chain(*, chain: str, from_seq: int = 1, chunk_size: int = 10_000) -> Iterator[tuple[Any, ...]]:
    """The hashed columns, the hash and the hash format of a chain's events from `from_seq`, in seq order.

    As `audit.chain.walk` takes them (timestamps formatted, JSON as text). A
    server-side cursor fetches `chunk_size` rows at a time, so memory stays
    flat however long the chain. Must run inside a transaction (the cursor
    lives as long as it).
    """
    with connection.chunked_cursor() as cursor:
        cursor.execute(_chain_sql('"chain" = %s AND "seq" >= %s'), [chain, from_seq])
        while rows := cursor.fetchmany(chunk_size):
            yield from rows


def chain_row(*, chain: str, seq: int) -> tuple[Any, ...] | None:
    """One event's row as `stream_chain` gives it, or None."""
    with connection.cursor() as cursor:
        cursor.execute(_chain_sql('"chain" = %s AND "seq" = %s'), [chain, seq])
        row: tuple[Any, ...] | None = cursor.fetchone()
    return row
