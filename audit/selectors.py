"""Reads of the audit trail: compliance queries, gaming-day exports and the chain stream."""

import datetime as dt
from collections.abc import Iterator
from typing import Any

from django.db import connection
from django.db.models import Q, QuerySet

from audit.chain import HASHED_COLUMNS, JSON_COLUMNS, SQL_TIMESTAMP_FORMAT, TIMESTAMP_COLUMNS
from audit.models import AuditCheckpoint, AuditEvent
from casino.gaming_day import shift_bounds


def list_events(
    *,
    since: dt.datetime | None = None,
    until: dt.datetime | None = None,
    table_id: int | None = None,
    actor: str | None = None,
    event_type: str | None = None,
) -> QuerySet[AuditEvent]:
    """Events matching the filters, oldest first (by chain position).

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
    if actor:
        events = events.filter(Q(username=actor) | Q(terminal_name=actor))
    if event_type:
        if event_type.endswith(".*"):
            events = events.filter(event_type__startswith=event_type[:-1])
        else:
            events = events.filter(event_type=event_type)
    return events.order_by("seq")


def gaming_day_bounds(day: dt.date) -> tuple[dt.datetime, dt.datetime]:
    """[start, end) of a gaming day: from its day-shift start to the next day's."""
    start, _ = shift_bounds(day, "day")
    end, _ = shift_bounds(day + dt.timedelta(days=1), "day")
    return start, end


def events_for_gaming_day(*, day: dt.date) -> QuerySet[AuditEvent]:
    start, end = gaming_day_bounds(day)
    return list_events(since=start, until=end)


def checkpoint_anchors() -> dict[int, str]:
    """Heads recorded by successful verifications: seq -> hash."""
    rows = AuditCheckpoint.objects.filter(ok=True, head_seq__isnull=False).values_list(
        "head_seq", "head_hash"
    )
    return {seq: head for seq, head in rows if seq is not None}


def _chain_column(name: str) -> str:
    if name in JSON_COLUMNS:
        return f'"{name}"::text'
    if name in TIMESTAMP_COLUMNS:  # formatted by the server: nothing to parse per row
        return f"to_char(\"{name}\" AT TIME ZONE 'UTC', '{SQL_TIMESTAMP_FORMAT}')"
    return f'"{name}"'


def _chain_sql(where: str) -> str:
    columns = ", ".join(_chain_column(name) for name in HASHED_COLUMNS)
    table = AuditEvent._meta.db_table
    return f'SELECT {columns}, "hash" FROM "{table}" WHERE {where} ORDER BY "seq"'  # noqa: S608 (constants only)


def stream_chain(*, after_seq: int = 0, chunk_size: int = 10_000) -> Iterator[tuple[Any, ...]]:
    """The hashed columns and the hash of every event after `after_seq`, in seq order.

    As `audit.chain.walk` takes them (timestamps formatted, JSON as text). A
    server-side cursor fetches `chunk_size` rows at a time, so memory stays
    flat however long the chain. Must run inside a transaction (the cursor
    lives as long as it).
    """
    with connection.chunked_cursor() as cursor:
        cursor.execute(_chain_sql('"seq" > %s'), [after_seq])
        while rows := cursor.fetchmany(chunk_size):
            yield from rows


def chain_row(*, seq: int) -> tuple[Any, ...] | None:
    """One event's row as `stream_chain` gives it, or None."""
    with connection.cursor() as cursor:
        cursor.execute(_chain_sql('"seq" = %s'), [seq])
        row: tuple[Any, ...] | None = cursor.fetchone()
    return row
