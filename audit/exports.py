"""Compliance exports of one gaming day's audit events, as CSV or as JSON lines.

Both formats carry every stored field, hashes included, of the events of every
chain, in id order (within a chain, seq order); the chain and the hash format
come last, after the columns the exports had before there were several chains.
JSON lines are exact
(`before`/`after` as JSON objects). In CSV, `before`/`after` are compact JSON
text, and a text cell that a spreadsheet would run as a formula (one starting
with = + - @ or a tab/CR) is prefixed with an apostrophe: CSV is for reading,
JSON lines for re-verifying.
"""

import csv
import datetime as dt
import io
import json
from collections.abc import Iterable, Iterator
from typing import Any

from audit.chain import format_timestamp
from audit.models import AuditEvent
from audit.selectors import events_for_gaming_day
from kernel.documents import spreadsheet_text

FORMATS = ("csv", "jsonl")
CONTENT_TYPES = {"csv": "text/csv; charset=utf-8", "jsonl": "application/x-ndjson; charset=utf-8"}
FIELDS = (
    "seq",
    "id",
    "gaming_day",
    "occurred_at",
    "recorded_at",
    "kind",
    "event_type",
    "actor_kind",
    "terminal_id",
    "terminal_name",
    "user_id",
    "username",
    "role",
    "dealer_id",
    "dealer_badge",
    "table_id",
    "table_name",
    "subject_type",
    "subject_id",
    "subject_label",
    "before",
    "after",
    "detail",
    "request_id",
    "idempotency_key",
    "client_address",
    "prev_hash",
    "hash",
    "chain",
    "hash_format",
)


def record(event: AuditEvent, *, gaming_day: dt.date) -> dict[str, Any]:
    values: dict[str, Any] = {name: getattr(event, name) for name in FIELDS if name != "gaming_day"}
    values["gaming_day"] = gaming_day.isoformat()
    values["occurred_at"] = format_timestamp(event.occurred_at)
    values["recorded_at"] = format_timestamp(event.recorded_at)
    return {name: values[name] for name in FIELDS}


def _csv_cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, dict | list):
        return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    if isinstance(value, str):
        return spreadsheet_text(value)
    return value


def _csv_lines(rows: Iterable[dict[str, Any]]) -> Iterator[str]:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(FIELDS)
    for row in rows:
        writer.writerow([_csv_cell(row[name]) for name in FIELDS])
        if buffer.tell() > 64 * 1024:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()


def _jsonl_lines(rows: Iterable[dict[str, Any]]) -> Iterator[str]:
    for row in rows:
        yield json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n"


def export_gaming_day(*, day: dt.date, fmt: str) -> Iterator[str]:
    """The day's events (occurred from its 06:00 to the next day's, casino time) as text chunks."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}")
    rows = (
        record(event, gaming_day=day) for event in events_for_gaming_day(day=day).iterator(chunk_size=2000)
    )
    return _csv_lines(rows) if fmt == "csv" else _jsonl_lines(rows)


def filename_for(*, day: dt.date, fmt: str) -> str:
    return f"audit-{day.isoformat()}.{fmt}"
