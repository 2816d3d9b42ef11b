"""Pit and casino rollups are the sums of their complete tables, whatever the tables (DB-free)."""

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from reports.read import rollup, rollups

CENTS = st.integers(min_value=0, max_value=10**9)
SUMMED = (
    "drop_cents",
    "estimated_drop_cents",
    "markers_cents",
    "fills_cents",
    "credits_cents",
    "rounds_settled",
    "rounds_voided",
    "hands_dealt",
    "handle_cents",
    "payouts_cents",
    "house_net_cents",
    "theo_win_cents",
)


@st.composite
def table_rows(draw: st.DrawFn, table_id: int) -> dict[str, Any]:
    complete = draw(st.booleans())
    counted = draw(st.one_of(st.none(), CENTS))
    estimated = draw(CENTS)
    handle, payouts = draw(CENTS), draw(CENTS)
    win = draw(st.integers(min_value=-(10**9), max_value=10**9))
    pit = draw(st.sampled_from([(1, "Main pit"), (2, "High limit")]))
    return {
        "level": "table",
        "gaming_day": "2026-11-20",
        "shift": "day",
        "casino": {"id": 1, "name": "Casino"},
        "pit": {"id": pit[0], "name": pit[1]},
        "table": {"id": table_id, "name": f"BJ-{table_id:02d}"},
        "opener_cents": draw(CENTS) if complete else draw(st.one_of(st.none(), CENTS)),
        "closer_cents": draw(CENTS) if complete else None,
        "drop_cents": counted if counted is not None else estimated,
        "estimated_drop_cents": estimated,
        "counted_drop_cents": counted,
        "drop_difference_cents": counted - estimated if counted is not None else None,
        "drop_basis": "counted" if counted is not None else "estimated",
        "markers_cents": draw(CENTS),
        "fills_cents": draw(CENTS),
        "credits_cents": draw(CENTS),
        "win_cents": win if complete else draw(st.one_of(st.none(), st.just(win))),
        "rounds_settled": draw(st.integers(0, 500)),
        "rounds_voided": draw(st.integers(0, 50)),
        "hands_dealt": draw(st.integers(0, 3000)),
        "handle_cents": handle,
        "payouts_cents": payouts,
        "house_net_cents": handle - payouts,
        "win_minus_house_net_cents": win - (handle - payouts),
        "theo_win_cents": draw(CENTS),
        "flags": [] if complete else ["no_closer"],
        "complete": complete,
        "provisional": not complete or draw(st.booleans()),
        "by_kind": [
            {
                "kind": "primary",
                "wagers": 1,
                "handle_cents": handle,
                "payouts_cents": payouts,
                "house_net_cents": handle - payouts,
                "theo_win_cents": 0,
            }
        ],
    }


@st.composite
def shift_tables(draw: st.DrawFn) -> list[dict[str, Any]]:
    count = draw(st.integers(min_value=1, max_value=8))
    return [draw(table_rows(table_id)) for table_id in range(1, count + 1)]


@given(shift_tables())
def test_a_rollup_is_the_sum_of_its_complete_tables(tables: list[dict[str, Any]]) -> None:
    casino = rollup("casino", tables)
    complete = [t for t in tables if t["complete"]]

    for name in SUMMED:
        # No complete table: nothing is known, so nothing is 0.
        assert casino[name] == (sum(t[name] for t in complete) if complete else None), name
    assert casino["win_cents"] == (sum(t["win_cents"] for t in complete) if complete else None)
    assert casino["tables"] == len(tables)
    assert casino["tables_incomplete"] == len(tables) - len(complete)
    assert [row["table"]["id"] for row in casino["incomplete_tables"]] == [
        t["table"]["id"] for t in tables if not t["complete"]
    ]
    assert casino["provisional"] == any(t["provisional"] for t in tables)
    primary = [k for k in casino["by_kind"] if k["kind"] == "primary"]
    assert sum(k["handle_cents"] for k in primary) == sum(t["handle_cents"] for t in complete)


@given(shift_tables())
def test_the_pits_add_up_to_the_casino(tables: list[dict[str, Any]]) -> None:
    pits = rollups(tables, level="pit")
    (casino,) = rollups(tables, level="casino")

    for name in ("tables", "tables_incomplete"):
        assert sum(p[name] for p in pits) == casino[name], name
    for name in SUMMED:
        known_sums = [p[name] for p in pits if p[name] is not None]
        assert casino[name] == (sum(known_sums) if known_sums else None), name
    known = [p["win_cents"] for p in pits if p["win_cents"] is not None]
    assert casino["win_cents"] == (sum(known) if known else None)
