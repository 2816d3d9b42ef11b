"""The hash chain itself: canonical form, hash, and the walk that verifies it.

Pure Python (no Django): values in, values out.

Each event's hash is the SHA-256 of the UTF-8 bytes of its canonical text: a
JSON array, without whitespace, of `CANONICAL_FORMAT` followed by *all* its
stored fields except the hash itself, in the fixed order of `HASHED_COLUMNS`
-- so its id, its sequence number and the hash of the event before it
(`prev_hash`; the first event links to `GENESIS_HASH`) are covered too. In it:

- numbers are JSON integers, missing values `null`, text a JSON string
  (escaping only `"`, `\\` and control characters, as `json.dumps(...,
  ensure_ascii=False)` does);
- timestamps are strings, UTC ISO 8601 with microseconds and a `Z`
  (`"2026-11-20T14:00:00.000000Z"`), the precision PostgreSQL stores;
- `before` and `after` are strings holding PostgreSQL's own text form of the
  stored `jsonb` value (`jsonb::text`), or `null`. The writer gets that text
  from the database before hashing, so what is hashed is exactly what is
  stored, whatever normalisation `jsonb` applies to keys, numbers or spacing.

Writer and verifier render the text with the same function (`render`) from
the stored values; the verifier has the server format the timestamps
(`SQL_TIMESTAMP_FORMAT`, held equal to `format_timestamp` by a test) and
cast the JSON to text, so it parses nothing per row.
"""

import datetime as dt
import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from json.encoder import encode_basestring as quote
from typing import Any

GENESIS_HASH = "0" * 64
CANONICAL_FORMAT = "casino-audit-v1"

# The stored columns that are hashed, in canonical order.
HASHED_COLUMNS: tuple[str, ...] = (
    "id",
    "seq",
    "prev_hash",
    "kind",
    "event_type",
    "occurred_at",
    "recorded_at",
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
)
INTEGER_COLUMNS = ("id", "seq", "terminal_id", "user_id", "dealer_id", "table_id")
TIMESTAMP_COLUMNS = ("occurred_at", "recorded_at")
JSON_COLUMNS = ("before", "after")
_TIMESTAMP_POSITIONS = tuple(HASHED_COLUMNS.index(name) for name in TIMESTAMP_COLUMNS)
_INTEGER_POSITIONS = frozenset(HASHED_COLUMNS.index(name) for name in INTEGER_COLUMNS)
SQL_TIMESTAMP_FORMAT = 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'
_OPEN = f'["{CANONICAL_FORMAT}",'


def format_timestamp(moment: dt.datetime) -> str:
    if moment.tzinfo is None:
        raise ValueError("audit timestamps must be timezone-aware")
    return moment.astimezone(dt.UTC).replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


def render(values: Sequence[str | int | None]) -> str:
    """The canonical text of values in `HASHED_COLUMNS` order: text, integers or None only.

    The same bytes as `json.dumps([CANONICAL_FORMAT, *values], ensure_ascii=False,
    separators=(",", ":"))`, built faster (the verifier runs it on every event).
    """
    return (
        _OPEN
        + ",".join([quote(v) if isinstance(v, str) else ("null" if v is None else str(v)) for v in values])
        + "]"
    )


def canonical_text(columns: Mapping[str, Any]) -> str:
    """The canonical text of one event from its stored values.

    Timestamps as aware datetimes (or already as canonical text); `before` and
    `after` as their `jsonb::text` form or None.
    """
    values = [columns[name] for name in HASHED_COLUMNS]
    for position, value in enumerate(values):
        if position in _TIMESTAMP_POSITIONS and isinstance(value, dt.datetime):
            values[position] = format_timestamp(value)
        elif position in _INTEGER_POSITIONS:
            if value is not None and value.__class__ is not int:
                raise TypeError(f"{HASHED_COLUMNS[position]} must be an int or None")
        elif value is not None and value.__class__ is not str:
            raise TypeError(f"{HASHED_COLUMNS[position]} must be text or None")
    return render(values)


def hash_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def hash_event(columns: Mapping[str, Any]) -> str:
    return hash_text(canonical_text(columns))


@dataclass(frozen=True)
class BrokenLink:
    """The first place where the chain can no longer be trusted."""

    seq: int
    id: int | None
    reason: str
    detail: str

    def as_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "id": self.id, "reason": self.reason, "detail": self.detail}


@dataclass(frozen=True)
class VerifyResult:
    ok: bool
    events: int  # events verified (all of them when ok; those before the break otherwise)
    head_seq: int | None
    head_hash: str
    broken: BrokenLink | None = None
    anchors_checked: int = 0
    started_after: int = 0  # > 0: events up to this seq were taken on trust from a checkpoint

    def as_dict(self) -> dict[str, Any]:
        if self.broken is None:
            return {"ok": True, "events": self.events, "head": self.head_hash}
        return {"ok": False, "events_checked": self.events, "broken_at": self.broken.as_dict()}


def walk(
    rows: Iterable[Sequence[Any]],
    *,
    anchors: Mapping[int, str] | None = None,
    after_seq: int = 0,
    after_hash: str = GENESIS_HASH,
) -> VerifyResult:
    """Verify a chain given as rows in seq order: the `HASHED_COLUMNS` values (timestamps as
    canonical text, JSON as `jsonb::text`) followed by the stored hash.

    Each event must come right after the previous one, link to its hash, and
    hash to its stored hash. `anchors` maps sequence numbers to hashes
    recorded by earlier verifications (checkpoints): an event that no longer
    has its anchored hash, or a chain that ends before an anchor, is a break
    too (a rewritten or truncated chain). With `after_seq`/`after_hash` the
    walk starts after an already verified event.
    """
    anchors = anchors or {}
    expected_seq = after_seq + 1
    prev_hash = after_hash
    checked = after_seq
    anchors_checked = 0
    sha256 = hashlib.sha256
    width = len(HASHED_COLUMNS)
    seq_at, prev_at = HASHED_COLUMNS.index("seq"), HASHED_COLUMNS.index("prev_hash")

    for row in rows:
        event_id, seq, stored_prev, stored = row[0], row[seq_at], row[prev_at], row[width]
        if seq != expected_seq:
            if seq > expected_seq:
                missing = (
                    f"event #{expected_seq} is missing"
                    if seq == expected_seq + 1
                    else f"events #{expected_seq} to #{seq - 1} are missing"
                )
                detail = f"{missing}: the next event found is #{seq} (id {event_id})"
                return _broken(checked, prev_hash, expected_seq, None, "sequence_gap", detail, after_seq)
            detail = f"event #{seq} (id {event_id}) appears where #{expected_seq} was expected"
            return _broken(
                checked, prev_hash, expected_seq, event_id, "sequence_reordered", detail, after_seq
            )
        if stored_prev != prev_hash:
            detail = (
                f"prev_hash {stored_prev} of event #{seq} does not match the hash {prev_hash} of event #{seq - 1}"
                if seq > 1
                else "the first event does not link to the genesis hash"
            )
            return _broken(checked, prev_hash, seq, event_id, "prev_hash_mismatch", detail, after_seq)
        if sha256(render(row[:width]).encode("utf-8")).hexdigest() != stored:
            detail = f"the content of event #{seq} (id {event_id}) does not match its hash: it was changed"
            return _broken(checked, prev_hash, seq, event_id, "hash_mismatch", detail, after_seq)
        anchored = anchors.get(seq)
        if anchored is not None:
            if anchored != stored:
                detail = (
                    f"event #{seq} (id {event_id}) has hash {stored}, but a checkpoint recorded {anchored}: "
                    "the chain was rewritten up to here"
                )
                return _broken(checked, prev_hash, seq, event_id, "checkpoint_mismatch", detail, after_seq)
            anchors_checked += 1
        prev_hash = stored
        checked += 1
        expected_seq = seq + 1

    last_seq = expected_seq - 1
    beyond = [seq for seq in anchors if seq > last_seq]
    if beyond:
        detail = (
            f"a checkpoint recorded event #{max(beyond)}, but the chain ends at #{last_seq}: "
            f"events from #{last_seq + 1} were removed"
        )
        return _broken(checked, prev_hash, last_seq + 1, None, "truncated", detail, after_seq)
    return VerifyResult(
        ok=True,
        events=checked,
        head_seq=last_seq or None,
        head_hash=prev_hash,
        anchors_checked=anchors_checked,
        started_after=after_seq,
    )


def _broken(
    checked: int, head_hash: str, seq: int, event_id: int | None, reason: str, detail: str, after_seq: int
) -> VerifyResult:
    return VerifyResult(
        ok=False,
        events=checked,
        head_seq=checked or None,
        head_hash=head_hash,
        broken=BrokenLink(seq=seq, id=event_id, reason=reason, detail=detail),
        started_after=after_seq,
    )
