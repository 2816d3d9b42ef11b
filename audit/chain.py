"""The hash chains themselves: canonical form, hash, anchors, and the walk that verifies a chain.

Pure Python (no Django): values in, values out.

Events form one chain per table (`table:17`), one per owner of their own
(a tournament: `tournament:3`), plus one casino-wide chain (`casino`) for
events that belong to neither. Each event's hash is the
SHA-256 of the UTF-8 bytes of its canonical text: a JSON array, without
whitespace, of `CANONICAL_FORMAT` followed by *all* its stored fields except
the hash itself (and the format number, which the first element already
states), in the fixed order of `HASHED_COLUMNS` -- so its id, its chain, its
sequence number in that chain and the hash of the event before it in the chain
(`prev_hash`; the first event of every chain links to `GENESIS_HASH`) are
covered too. In it:

- numbers are JSON integers, missing values `null`, text a JSON string
  (escaping only `"`, `\\` and control characters, as `json.dumps(...,
  ensure_ascii=False)` does);
- timestamps are strings, UTC ISO 8601 with microseconds and a `Z`
  (`"2026-11-20T14:00:00.000000Z"`), the precision PostgreSQL stores;
- `before` and `after` are strings holding PostgreSQL's own text form of the
  stored `jsonb` value (`jsonb::text`), or `null`. The writer gets that text
  from the database before hashing, so what is hashed is exactly what is
  stored, whatever normalisation `jsonb` applies to keys, numbers or spacing.

Events written before there were several chains (format 1, `casino-audit-v1`)
were all in one chain, which became the casino-wide chain; their canonical
text is the same without the chain column. Each row stores the format it was
hashed with, and is verified with that format: format 1 only in the casino
chain and never after a format 2 event.

Writer and verifier render the text with the same function (`render`) from
the stored values; the verifier has the server format the timestamps
(`SQL_TIMESTAMP_FORMAT`, held equal to `format_timestamp` by a test) and
cast the JSON to text, so it parses nothing per row.

An anchor hashes the heads of all chains together at a moment
(`anchor_digest`): recorded in the database and logged off the host, it ties
the chains to each other and to a point in time.
"""

import datetime as dt
import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from json.encoder import encode_basestring as quote
from typing import Any

GENESIS_HASH = "0" * 64
FORMAT_VERSION = 2
LEGACY_FORMAT_VERSION = 1
CANONICAL_FORMAT = "casino-audit-v2"
LEGACY_CANONICAL_FORMAT = "casino-audit-v1"
ANCHOR_FORMAT = "casino-audit-anchor-v1"

CASINO_CHAIN = "casino"
CHAIN_PATTERN = re.compile(r"^(casino|table:[1-9][0-9]{0,18}|tournament:[1-9][0-9]{0,18})$")
# An owner with a chain of its own (the audit app knows the key's shape, never the owner's app).
OWNER_CHAIN_PATTERN = re.compile(r"^tournament:[1-9][0-9]{0,18}$")

# The stored columns that are hashed, in canonical order (format 2).
HASHED_COLUMNS: tuple[str, ...] = (
    "id",
    "chain",
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
# Format 1: the same without the chain (the second column, so dropping it keeps the order).
LEGACY_HASHED_COLUMNS: tuple[str, ...] = tuple(name for name in HASHED_COLUMNS if name != "chain")
INTEGER_COLUMNS = ("id", "seq", "terminal_id", "user_id", "dealer_id", "table_id")
TIMESTAMP_COLUMNS = ("occurred_at", "recorded_at")
JSON_COLUMNS = ("before", "after")
SQL_TIMESTAMP_FORMAT = 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'
_OPENS = {FORMAT_VERSION: f'["{CANONICAL_FORMAT}",', LEGACY_FORMAT_VERSION: f'["{LEGACY_CANONICAL_FORMAT}",'}
_COLUMNS = {FORMAT_VERSION: HASHED_COLUMNS, LEGACY_FORMAT_VERSION: LEGACY_HASHED_COLUMNS}
_CHAIN_AT = HASHED_COLUMNS.index("chain")


def chain_for(*, table_id: int | None, owner: str | None = None) -> str:
    """The chain an event joins: its owner's (`tournament:<id>`), its table's, or the casino-wide
    one."""
    if owner is not None:
        if not OWNER_CHAIN_PATTERN.match(owner):
            raise ValueError(f"an owner's chain is 'tournament:<id>', not {owner!r}")
        return owner
    return CASINO_CHAIN if table_id is None else f"table:{table_id}"


def format_timestamp(moment: dt.datetime) -> str:
    if moment.tzinfo is None:
        raise ValueError("audit timestamps must be timezone-aware")
    return moment.astimezone(dt.UTC).replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


def render(values: Sequence[str | int | None], *, version: int = FORMAT_VERSION) -> str:
    """The canonical text of values in the format's column order: text, integers or None only.

    The same bytes as `json.dumps([CANONICAL_FORMAT, *values], ensure_ascii=False,
    separators=(",", ":"))`, built faster (the verifier runs it on every event).
    """
    return (
        _OPENS[version]
        + ",".join([quote(v) if isinstance(v, str) else ("null" if v is None else str(v)) for v in values])
        + "]"
    )


def canonical_text(columns: Mapping[str, Any], *, version: int = FORMAT_VERSION) -> str:
    """The canonical text of one event from its stored values.

    Timestamps as aware datetimes (or already as canonical text); `before` and
    `after` as their `jsonb::text` form or None.
    """
    names = _COLUMNS[version]
    values = [columns[name] for name in names]
    for position, (name, value) in enumerate(zip(names, values, strict=True)):
        if name in TIMESTAMP_COLUMNS and isinstance(value, dt.datetime):
            values[position] = format_timestamp(value)
        elif name in INTEGER_COLUMNS:
            if value is not None and value.__class__ is not int:
                raise TypeError(f"{name} must be an int or None")
        elif value is not None and value.__class__ is not str:
            raise TypeError(f"{name} must be text or None")
    return render(values, version=version)


def hash_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def hash_event(columns: Mapping[str, Any], *, version: int = FORMAT_VERSION) -> str:
    return hash_text(canonical_text(columns, version=version))


def row_hash(row: Sequence[Any]) -> str:
    """The hash a stored row (as `walk` takes it) should have, by the format it was written with."""
    width = len(HASHED_COLUMNS)
    if row[width + 1] == FORMAT_VERSION:
        return hash_text(render(row[:width]))
    return hash_text(render([*row[:_CHAIN_AT], *row[_CHAIN_AT + 1 : width]], version=LEGACY_FORMAT_VERSION))


# --- anchors ---------------------------------------------------------------------------------

Head = tuple[str, int, str]  # chain, seq, hash


def anchor_text(heads: Iterable[Head]) -> str:
    """The canonical text of a set of chain heads: compact JSON, chains in code-point order.

    `["casino-audit-anchor-v1",[["casino",12,"9f…"],["table:3",40,"07…"]]]`
    """
    ordered = sorted((str(chain), int(seq), str(head)) for chain, seq, head in heads)
    return json.dumps([ANCHOR_FORMAT, [list(head) for head in ordered]], separators=(",", ":"))


def anchor_digest(heads: Iterable[Head]) -> str:
    return hash_text(anchor_text(heads))


# --- verification ---------------------------------------------------------------------------


@dataclass(frozen=True)
class BrokenLink:
    """The first place where a chain can no longer be trusted."""

    seq: int
    id: int | None
    reason: str
    detail: str
    chain: str = CASINO_CHAIN

    def as_dict(self) -> dict[str, Any]:
        return {
            "chain": self.chain,
            "seq": self.seq,
            "id": self.id,
            "reason": self.reason,
            "detail": self.detail,
        }


@dataclass(frozen=True)
class ChainResult:
    """One chain's walk: intact up to its head, or broken at `broken`."""

    chain: str
    events: int  # events verified (all of them when ok; those before the break otherwise)
    head_seq: int | None
    head_hash: str  # of event #head_seq; "" when an anchor cut the verified part short
    broken: BrokenLink | None = None
    started_after: int = 0  # > 0: events up to this seq were taken on trust from a checkpoint

    @property
    def ok(self) -> bool:
        return self.broken is None

    def as_dict(self) -> dict[str, Any]:
        values: dict[str, Any] = {"chain": self.chain, "ok": self.ok, "events": self.events}
        if self.broken is None:
            values.update(head_seq=self.head_seq, head=self.head_hash)
        else:
            values["broken_at"] = self.broken.as_dict()
        return values


@dataclass(frozen=True)
class AnchorProblem:
    """A recorded anchor whose own text no longer hashes to its digest: the anchor row was edited."""

    anchor_id: int
    reason: str
    detail: str

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.anchor_id, "reason": self.reason, "detail": self.detail}


@dataclass(frozen=True)
class VerifyResult:
    """Every chain's walk, and the recorded anchors' check."""

    chains: tuple[ChainResult, ...] = ()
    anchors_checked: int = 0
    anchor_problems: tuple[AnchorProblem, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return not self.anchor_problems and all(chain.ok for chain in self.chains)

    @property
    def events(self) -> int:
        return sum(chain.events for chain in self.chains)

    @property
    def broken(self) -> BrokenLink | None:
        """The first broken link of the first broken chain (chains in code-point order)."""
        return next((chain.broken for chain in self.chains if chain.broken is not None), None)

    @property
    def heads(self) -> list[Head]:
        """The head of each intact chain."""
        return [
            (chain.chain, chain.head_seq, chain.head_hash)
            for chain in self.chains
            if chain.ok and chain.head_seq is not None
        ]

    @property
    def head_hash(self) -> str:
        """The casino-wide head: the anchor digest of the intact chains' heads."""
        return anchor_digest(self.heads)

    @property
    def started_after(self) -> int:
        return sum(chain.started_after for chain in self.chains)

    def as_dict(self) -> dict[str, Any]:
        values: dict[str, Any] = {"ok": self.ok}
        broken = self.broken
        if self.ok:
            values.update(events=self.events, head=self.head_hash)
        else:
            values["events_checked"] = self.events
            if broken is not None:
                values["broken_at"] = broken.as_dict()
        values["chains"] = [chain.as_dict() for chain in self.chains]
        values["anchors"] = {
            "checked": self.anchors_checked,
            "broken": [problem.as_dict() for problem in self.anchor_problems],
        }
        return values


def walk(
    rows: Iterable[Sequence[Any]],
    *,
    chain: str = CASINO_CHAIN,
    after_seq: int = 0,
    after_hash: str = GENESIS_HASH,
    resume: bool = False,
) -> ChainResult:
    """Verify one chain given as rows in seq order: the `HASHED_COLUMNS` values (timestamps as
    canonical text, JSON as `jsonb::text`) followed by the stored hash and the format number.

    Each event must come right after the previous one, link to its hash, and
    hash to its stored hash. With `after_seq`/`after_hash` the walk starts
    after an already verified event; with `resume` too, the rows start *at*
    that event, which is re-hashed and must still have that hash (its own link
    is taken on trust).
    """
    expected_seq = after_seq + 1
    prev_hash = after_hash
    checked = after_seq
    started_after = after_seq
    sha256 = hashlib.sha256
    width = len(HASHED_COLUMNS)
    seq_at, prev_at = HASHED_COLUMNS.index("seq"), HASHED_COLUMNS.index("prev_hash")
    legacy_allowed = chain == CASINO_CHAIN

    def broken(seq: int, event_id: int | None, reason: str, detail: str) -> ChainResult:
        link = BrokenLink(seq=seq, id=event_id, reason=reason, detail=detail, chain=chain)
        return ChainResult(
            chain=chain,
            events=checked,
            head_seq=checked or None,
            head_hash=prev_hash,
            broken=link,
            started_after=started_after,
        )

    rows = iter(rows)
    if resume and after_seq > 0:
        first = next(rows, None)
        if first is None or first[seq_at] != after_seq:
            detail = f"event #{after_seq}, recorded by a checkpoint, is gone"
            checked, prev_hash = after_seq - 1, GENESIS_HASH
            return broken(after_seq, None, "truncated", detail)
        event_id, stored = first[0], first[width]
        if row_hash(first) != stored:
            checked, prev_hash = after_seq - 1, GENESIS_HASH
            detail = (
                f"the content of event #{after_seq} (id {event_id}) does not match its hash: it was changed"
            )
            return broken(after_seq, event_id, "hash_mismatch", detail)
        if stored != after_hash:
            checked, prev_hash = after_seq - 1, GENESIS_HASH
            detail = f"event #{after_seq} (id {event_id}) has hash {stored}, but a checkpoint recorded {after_hash}"
            return broken(after_seq, event_id, "anchor_mismatch", detail)
        legacy_allowed = legacy_allowed and first[width + 1] != FORMAT_VERSION

    for row in rows:
        event_id, seq, stored_prev, stored, version = (
            row[0],
            row[seq_at],
            row[prev_at],
            row[width],
            row[width + 1],
        )
        if seq != expected_seq:
            if seq > expected_seq:
                missing = (
                    f"event #{expected_seq} is missing"
                    if seq == expected_seq + 1
                    else f"events #{expected_seq} to #{seq - 1} are missing"
                )
                detail = f"{missing}: the next event found is #{seq} (id {event_id})"
                return broken(expected_seq, None, "sequence_gap", detail)
            detail = f"event #{seq} (id {event_id}) appears where #{expected_seq} was expected"
            return broken(expected_seq, event_id, "sequence_reordered", detail)
        if stored_prev != prev_hash:
            detail = (
                f"prev_hash {stored_prev} of event #{seq} does not match the hash {prev_hash} of event #{seq - 1}"
                if seq > 1
                else "the first event does not link to the genesis hash"
            )
            return broken(seq, event_id, "prev_hash_mismatch", detail)
        if version == FORMAT_VERSION:
            computed = sha256(render(row[:width]).encode("utf-8")).hexdigest()
            legacy_allowed = False
        elif version == LEGACY_FORMAT_VERSION and legacy_allowed:
            computed = row_hash(row)
        else:
            detail = f"event #{seq} (id {event_id}) claims hash format {version}, which this chain cannot hold here"
            return broken(seq, event_id, "format_mismatch", detail)
        if computed != stored:
            detail = f"the content of event #{seq} (id {event_id}) does not match its hash: it was changed"
            return broken(seq, event_id, "hash_mismatch", detail)
        prev_hash = stored
        checked += 1
        expected_seq = seq + 1

    last_seq = expected_seq - 1
    return ChainResult(
        chain=chain,
        events=checked,
        head_seq=last_seq or None,
        head_hash=prev_hash,
        started_after=started_after,
    )


def check_anchored(
    result: ChainResult, *, anchored: Iterable[tuple[str, int, str, str | None, int | None]]
) -> ChainResult:
    """Hold a walked chain against the heads anchors recorded for it.

    `anchored` holds, for each anchored head that no longer matches the chain,
    (the anchor, as "anchor 12", seq, anchored hash, stored hash or None when the
    event is gone, event id). The chain then breaks at the earliest such seq if that comes
    before its own first broken link: an event whose hash is not the anchored
    one (the chain was rewritten up to there), or a chain that ends before an
    anchored head (its tail was removed).
    """
    worst: BrokenLink | None = None
    last_seq = (result.broken.seq - 1) if result.broken is not None else (result.head_seq or 0)
    for source, seq, anchored_hash, stored, event_id in anchored:
        if stored is None and seq > last_seq and result.broken is None:
            at = last_seq + 1
            link = BrokenLink(
                seq=at,
                id=None,
                reason="truncated",
                detail=(
                    f"{source} recorded event #{seq}, but the chain ends at #{last_seq}: "
                    f"events from #{at} were removed"
                ),
                chain=result.chain,
            )
        elif stored is None:
            link = BrokenLink(
                seq=seq,
                id=None,
                reason="truncated",
                detail=f"event #{seq}, recorded by {source}, is gone",
                chain=result.chain,
            )
        else:
            link = BrokenLink(
                seq=seq,
                id=event_id,
                reason="anchor_mismatch",
                detail=(
                    f"event #{seq} (id {event_id}) has hash {stored}, but {source} recorded "
                    f"{anchored_hash}: the chain was rewritten up to here"
                ),
                chain=result.chain,
            )
        if worst is None or link.seq < worst.seq:
            worst = link
    if worst is None or (result.broken is not None and result.broken.seq <= worst.seq):
        return result
    verified = min(result.events, worst.seq - 1)
    return ChainResult(
        chain=result.chain,
        events=verified,
        head_seq=verified or None,
        head_hash=result.head_hash if verified == result.events else "",  # not read: unknown
        broken=worst,
        started_after=result.started_after,
    )
