"""The chains' canonical form, anchors and walk, without a database (but for the server's own rendering)."""

import datetime as dt
import json
from typing import Any

import pytest
from django.db import connection

from audit.chain import (
    CANONICAL_FORMAT,
    FORMAT_VERSION,
    GENESIS_HASH,
    HASHED_COLUMNS,
    LEGACY_CANONICAL_FORMAT,
    LEGACY_FORMAT_VERSION,
    LEGACY_HASHED_COLUMNS,
    SQL_TIMESTAMP_FORMAT,
    VerifyResult,
    anchor_digest,
    anchor_text,
    canonical_text,
    chain_for,
    check_anchored,
    format_timestamp,
    hash_event,
    render,
    walk,
)
from audit.models import AuditEvent

AT = dt.datetime(2026, 11, 20, 14, 0, tzinfo=dt.UTC)


def _columns(**values: Any) -> dict[str, Any]:
    columns: dict[str, Any] = dict.fromkeys(HASHED_COLUMNS, "")
    columns.update(
        id=1,
        chain="casino",
        seq=1,
        terminal_id=None,
        user_id=None,
        dealer_id=None,
        table_id=None,
        occurred_at=AT,
        recorded_at=AT,
    )
    return columns | values


def _rows(count: int, *, chain: str = "casino", formats: str = "") -> list[tuple[Any, ...]]:
    """A chain as `walk` takes it; `formats` gives the first events' hash formats ("112": 1, 1, 2)."""
    rows: list[tuple[Any, ...]] = []
    prev = GENESIS_HASH
    for seq in range(1, count + 1):
        version = int(formats[seq - 1]) if seq <= len(formats) else FORMAT_VERSION
        columns = _columns(
            id=seq + 100, chain=chain, seq=seq, prev_hash=prev, before=None, after='{"paid_cents": 100}'
        )
        prev = hash_event(columns, version=version)
        columns.update(occurred_at=format_timestamp(AT), recorded_at=format_timestamp(AT))
        rows.append((*[columns[name] for name in HASHED_COLUMNS], prev, version))
    return rows


def _with(row: tuple[Any, ...], **values: Any) -> tuple[Any, ...]:
    changed = list(row)
    positions = {"hash": len(HASHED_COLUMNS), "hash_format": len(HASHED_COLUMNS) + 1}
    for name, value in values.items():
        changed[positions[name] if name in positions else HASHED_COLUMNS.index(name)] = value
    return tuple(changed)


def test_every_stored_column_but_the_hash_and_its_format_is_hashed() -> None:
    stored = {field.column for field in AuditEvent._meta.concrete_fields}
    assert set(HASHED_COLUMNS) == stored - {"hash", "hash_format"}
    assert tuple(name for name in HASHED_COLUMNS if name != "chain") == LEGACY_HASHED_COLUMNS


def test_the_chain_identity_is_hashed() -> None:
    columns = _columns()

    assert hash_event(columns) != hash_event(columns | {"chain": "table:1"})
    assert canonical_text(columns).startswith(f'["{CANONICAL_FORMAT}",1,"casino",1,')
    assert canonical_text(columns, version=LEGACY_FORMAT_VERSION).startswith(
        f'["{LEGACY_CANONICAL_FORMAT}",1,1,'
    )
    assert (chain_for(table_id=None), chain_for(table_id=17)) == ("casino", "table:17")


def test_timestamps_are_utc_with_microseconds() -> None:
    pacific = dt.timezone(dt.timedelta(hours=-8))
    assert format_timestamp(dt.datetime(2026, 11, 20, 6, 0, tzinfo=pacific)) == "2026-11-20T14:00:00.000000Z"
    assert (
        format_timestamp(dt.datetime(999, 1, 2, 3, 4, 5, 6, tzinfo=dt.UTC)) == "0999-01-02T03:04:05.000006Z"
    )
    with pytest.raises(ValueError, match="aware"):
        format_timestamp(dt.datetime(2026, 11, 20))  # noqa: DTZ001


def test_an_intact_chain_verifies() -> None:
    rows = _rows(4, chain="table:3")
    head = rows[-1][len(HASHED_COLUMNS)]

    result = walk(rows, chain="table:3")

    assert result.ok
    assert (result.events, result.head_seq, result.head_hash) == (4, 4, head)
    assert result.as_dict() == {"chain": "table:3", "ok": True, "events": 4, "head_seq": 4, "head": head}


def test_an_empty_chain_is_intact_with_the_genesis_head() -> None:
    result = walk([])

    assert (result.ok, result.events, result.head_seq, result.head_hash) == (True, 0, None, GENESIS_HASH)


def test_events_from_before_the_per_table_chains_verify_with_their_own_format() -> None:
    rows = _rows(5, formats="111")

    relabelled = walk([*rows[:3], _with(rows[3], hash_format=LEGACY_FORMAT_VERSION), rows[4]]).broken
    # Format 1 only ever comes first, and only in the casino-wide chain.
    after_v2 = walk(_rows(5, formats="11121")).broken
    in_a_table = walk(_rows(2, chain="table:1", formats="1"), chain="table:1").broken

    assert walk(rows).ok
    assert relabelled is not None
    assert (relabelled.seq, relabelled.reason) == (4, "hash_mismatch")
    assert after_v2 is not None
    assert (after_v2.seq, after_v2.reason) == (5, "format_mismatch")
    assert in_a_table is not None
    assert (in_a_table.seq, in_a_table.reason) == (1, "format_mismatch")


def test_a_verify_result_adds_up_its_chains_and_hashes_their_heads_together() -> None:
    casino, table = walk(_rows(3)), walk(_rows(2, chain="table:9"), chain="table:9")

    result = VerifyResult(chains=(casino, table), anchors_checked=2)

    assert (result.ok, result.events) == (True, 5)
    assert result.heads == [("casino", 3, casino.head_hash), ("table:9", 2, table.head_hash)]
    assert result.head_hash == anchor_digest(reversed(result.heads))
    body = result.as_dict()
    assert (body["ok"], body["events"], body["head"]) == (True, 5, result.head_hash)
    assert [chain["chain"] for chain in body["chains"]] == ["casino", "table:9"]
    assert body["anchors"] == {"checked": 2, "broken": []}


def test_the_anchor_text_is_compact_json_in_chain_order() -> None:
    heads = [("table:10", 4, "b" * 64), ("casino", 12, "a" * 64), ("table:2", 1, "c" * 64)]

    assert anchor_text(heads) == json.dumps(
        [
            "casino-audit-anchor-v1",
            [["casino", 12, "a" * 64], ["table:10", 4, "b" * 64], ["table:2", 1, "c" * 64]],
        ],
        separators=(",", ":"),
    )


def test_the_same_moment_in_another_zone_hashes_the_same() -> None:
    columns = _columns()
    shifted = columns | {"occurred_at": AT.astimezone(dt.timezone(dt.timedelta(hours=5)))}
    as_text = columns | {
        "occurred_at": "2026-11-20T14:00:00.000000Z",
        "recorded_at": "2026-11-20T14:00:00.000000Z",
    }
    assert hash_event(columns) == hash_event(shifted) == hash_event(as_text)


@pytest.mark.parametrize(
    ("mutate", "seq", "reason"),
    [
        (lambda rows: rows.pop(1), 2, "sequence_gap"),
        (lambda rows: rows.__setitem__(1, _with(rows[1], hash="a" * 64)), 2, "hash_mismatch"),
        (lambda rows: rows.__setitem__(2, _with(rows[2], after='{"paid_cents": 999}')), 3, "hash_mismatch"),
        (
            lambda rows: rows.__setitem__(2, _with(rows[2], occurred_at="2026-11-20T14:00:00.000001Z")),
            3,
            "hash_mismatch",
        ),
        (lambda rows: rows.__setitem__(0, _with(rows[0], prev_hash="b" * 64)), 1, "prev_hash_mismatch"),
        (lambda rows: rows.insert(2, rows[1]), 3, "sequence_reordered"),
        (lambda rows: rows.__setitem__(1, _with(rows[1], chain="table:1")), 2, "hash_mismatch"),
    ],
)
def test_breaks_are_reported_where_they_are(mutate, seq: int, reason: str) -> None:
    rows = _rows(4)
    mutate(rows)

    result = walk(rows)

    assert not result.ok
    assert result.broken is not None
    assert (result.broken.seq, result.broken.reason) == (seq, reason)
    assert result.events == seq - 1


def test_anchored_heads_catch_rewrites_and_truncation() -> None:
    rows = _rows(4)
    hash_at = len(HASHED_COLUMNS)

    rewritten = check_anchored(walk(rows), anchored=[("anchor 1", 2, "c" * 64, rows[1][hash_at], 102)])
    truncated = check_anchored(walk(rows[:2]), anchored=[("anchor 2", 4, rows[3][hash_at], None, None)])
    earlier_break = check_anchored(
        walk(rows[:1] + rows[2:]), anchored=[("anchor 3", 4, "d" * 64, rows[3][hash_at], 104)]
    )

    assert rewritten.broken is not None
    assert (rewritten.broken.seq, rewritten.broken.reason, rewritten.events) == (2, "anchor_mismatch", 1)
    assert "anchor 1 recorded" in rewritten.broken.detail
    assert truncated.broken is not None
    assert (truncated.broken.seq, truncated.broken.reason, truncated.events) == (3, "truncated", 2)
    assert earlier_break.broken is not None
    assert (earlier_break.broken.seq, earlier_break.broken.reason) == (2, "sequence_gap")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "moment",
    [
        dt.datetime(2026, 11, 20, 14, 0, tzinfo=dt.UTC),
        dt.datetime(2026, 3, 8, 2, 30, 0, 1, tzinfo=dt.UTC),
        dt.datetime(2026, 12, 31, 23, 59, 59, 999999, tzinfo=dt.timezone(dt.timedelta(hours=-8))),
        dt.datetime(999, 1, 1, 0, 0, tzinfo=dt.UTC),
        dt.datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=dt.UTC),
    ],
)
def test_the_server_renders_timestamps_as_the_writer_does(moment: dt.datetime) -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT to_char(%s::timestamptz AT TIME ZONE 'UTC', '{SQL_TIMESTAMP_FORMAT}')", [moment]
        )
        (rendered,) = cursor.fetchone()

    assert rendered == format_timestamp(moment)


def test_walk_can_start_after_a_verified_event() -> None:
    rows = _rows(5)
    hash_at = len(HASHED_COLUMNS)

    result = walk(rows[3:], after_seq=3, after_hash=rows[2][hash_at])
    resumed = walk(rows[2:], after_seq=3, after_hash=rows[2][hash_at], resume=True)

    assert result.ok
    assert (result.events, result.head_seq, result.started_after) == (5, 5, 3)
    assert (resumed.ok, resumed.events, resumed.started_after) == (True, 5, 3)
    assert not walk(rows[3:], after_seq=3, after_hash="d" * 64).ok
    mismatch = walk(rows[2:], after_seq=3, after_hash="d" * 64, resume=True).broken
    gone = walk(rows[3:], after_seq=3, after_hash=rows[2][hash_at], resume=True).broken
    assert mismatch is not None
    assert (mismatch.seq, mismatch.reason) == (3, "anchor_mismatch")
    assert gone is not None
    assert (gone.seq, gone.reason) == (3, "truncated")


NASTY = 'quote " backslash \\ newline \n tab \t bell \x07 del \x7f é 漢字 😀 \u2028 </script>'


@pytest.mark.django_db
def test_the_server_renders_the_canonical_text_exactly_as_the_writer() -> None:
    from audit.selectors import chain_row
    from audit.services import verify_chain
    from tests.audit.conftest import append

    event = append(
        subject_label=NASTY,
        subject_id="",
        before={"label": NASTY, "n": [1.5, -0.0, 10**30, None, True]},
        after=None,
        occurred_at=dt.datetime(2026, 11, 20, 14, 0, 0, 7, tzinfo=dt.timezone(dt.timedelta(hours=-8))),
    )

    row = chain_row(chain="casino", seq=event.seq)
    assert row is not None
    with connection.cursor() as cursor:
        cursor.execute('SELECT "before"::text FROM audit_auditevent WHERE id = %s', [event.pk])
        (before_text,) = cursor.fetchone()
    columns = {name: getattr(event, name) for name in HASHED_COLUMNS} | {"before": before_text, "after": None}
    assert render(row[: len(HASHED_COLUMNS)]) == canonical_text(columns)
    assert row[len(HASHED_COLUMNS) :] == (event.hash, FORMAT_VERSION)
    assert verify_chain().ok


@pytest.mark.parametrize("text", [NASTY, "", "plain", "\x00\x1f\ud7ff\ue000\U0010ffff"])
def test_render_is_exactly_compact_json(text: str) -> None:
    values: list[str | int | None] = [text, 0, -(2**63), 2**63 - 1, None, text[::-1]]

    assert render(values) == json.dumps(
        [CANONICAL_FORMAT, *values], ensure_ascii=False, separators=(",", ":")
    )


def test_the_writer_refuses_values_outside_the_canonical_types() -> None:
    with pytest.raises(TypeError, match="table_id"):
        canonical_text(_columns(table_id=True))
    with pytest.raises(TypeError, match="detail"):
        canonical_text(_columns(detail=1.5))
