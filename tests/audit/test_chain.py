"""The chain's canonical form and walk, without a database."""

import datetime as dt
import json
from typing import Any

import pytest
from django.db import connection

from audit.chain import (
    CANONICAL_FORMAT,
    GENESIS_HASH,
    HASHED_COLUMNS,
    SQL_TIMESTAMP_FORMAT,
    canonical_text,
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
        seq=1,
        terminal_id=None,
        user_id=None,
        dealer_id=None,
        table_id=None,
        occurred_at=AT,
        recorded_at=AT,
    )
    return columns | values


def _rows(count: int) -> list[tuple[Any, ...]]:
    rows: list[tuple[Any, ...]] = []
    prev = GENESIS_HASH
    for seq in range(1, count + 1):
        columns = _columns(id=seq + 100, seq=seq, prev_hash=prev, before=None, after='{"paid_cents": 100}')
        prev = hash_event(columns)
        columns.update(occurred_at=format_timestamp(AT), recorded_at=format_timestamp(AT))
        rows.append((*[columns[name] for name in HASHED_COLUMNS], prev))
    return rows


def _with(row: tuple[Any, ...], **values: Any) -> tuple[Any, ...]:
    changed = list(row)
    for name, value in values.items():
        changed[HASHED_COLUMNS.index(name) if name != "hash" else len(HASHED_COLUMNS)] = value
    return tuple(changed)


def test_every_stored_column_but_the_hash_is_hashed() -> None:
    stored = {field.column for field in AuditEvent._meta.concrete_fields}
    assert set(HASHED_COLUMNS) == stored - {"hash"}


def test_timestamps_are_utc_with_microseconds() -> None:
    pacific = dt.timezone(dt.timedelta(hours=-8))
    assert format_timestamp(dt.datetime(2026, 11, 20, 6, 0, tzinfo=pacific)) == "2026-11-20T14:00:00.000000Z"
    assert (
        format_timestamp(dt.datetime(999, 1, 2, 3, 4, 5, 6, tzinfo=dt.UTC)) == "0999-01-02T03:04:05.000006Z"
    )
    with pytest.raises(ValueError, match="aware"):
        format_timestamp(dt.datetime(2026, 11, 20))  # noqa: DTZ001


def test_an_intact_chain_verifies() -> None:
    result = walk(_rows(4))

    assert result.ok
    assert (result.events, result.head_seq) == (4, 4)
    assert result.as_dict() == {"ok": True, "events": 4, "head": _rows(4)[-1][-1]}


def test_an_empty_chain_is_intact_with_the_genesis_head() -> None:
    assert walk([]).as_dict() == {"ok": True, "events": 0, "head": GENESIS_HASH}


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


def test_anchors_catch_rewrites_and_truncation() -> None:
    rows = _rows(4)

    assert walk(rows, anchors={2: rows[1][-1]}).anchors_checked == 1
    rewritten = walk(rows, anchors={2: "c" * 64})
    truncated = walk(rows[:2], anchors={4: rows[3][-1]})

    assert rewritten.broken is not None
    assert (rewritten.broken.seq, rewritten.broken.reason) == (2, "checkpoint_mismatch")
    assert truncated.broken is not None
    assert (truncated.broken.seq, truncated.broken.reason) == (
        3,
        "truncated",
    )


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

    result = walk(rows[3:], after_seq=3, after_hash=rows[2][-1])

    assert result.ok
    assert (result.events, result.head_seq, result.started_after) == (5, 5, 3)
    assert not walk(rows[3:], after_seq=3, after_hash="d" * 64).ok


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

    row = chain_row(seq=event.seq)
    assert row is not None
    with connection.cursor() as cursor:
        cursor.execute('SELECT "before"::text FROM audit_auditevent WHERE id = %s', [event.pk])
        (before_text,) = cursor.fetchone()
    columns = {name: getattr(event, name) for name in HASHED_COLUMNS} | {"before": before_text, "after": None}
    assert render(row[:-1]) == canonical_text(columns)
    assert row[-1] == event.hash
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
