"""The filed report documents of a played day, and the text of their PDF pages."""

import datetime as dt
from typing import Any

import pypdfium2 as pdfium
from hypothesis import strategies as st
from hypothesis.strategies import DrawFn, composite

from reports.export import (
    assemble_document,
)
from tests.support.gaming_day import GAMING_DAY

# After the grave shift of 2026-11-20 has ended (06:00 on the 21st in the casino): a final report.
AFTER_THE_DAY = dt.datetime(2026, 11, 21, 15, 0, tzinfo=dt.UTC)


NAMES = st.text(alphabet="ABCDEFGHJKLMNPRSTUVWXYZ0123456789-", min_size=2, max_size=8)


SHIFTS = ("day", "swing", "grave")


def pdf_page_texts(pdf: bytes) -> list[str]:
    document = pdfium.PdfDocument(pdf)
    try:
        return [str(page.get_textpage().get_text_range()) for page in document]
    finally:
        document.close()


def _figures(draw: DrawFn, *, complete: bool) -> dict[str, Any]:
    money = st.integers(min_value=0, max_value=5_000_000)
    opener = draw(money) if complete else draw(st.one_of(st.none(), money))
    closer = draw(money) if complete else None
    drop, fills, credits = draw(money), draw(money), draw(money)
    win = drop + credits - fills + closer - opener if closer is not None and opener is not None else None
    hold_bp = round(win * 10_000 / drop) if win is not None and drop else None
    handle = draw(money)
    payouts = draw(st.integers(min_value=0, max_value=handle * 2))
    return {
        "opener_cents": opener,
        "closer_cents": closer,
        "drop_cents": drop,
        "estimated_drop_cents": drop,
        "counted_drop_cents": None,
        "drop_basis": "estimated",
        "markers_cents": draw(st.integers(min_value=0, max_value=drop)),
        "fills_cents": fills,
        "credits_cents": credits,
        "win_cents": win,
        "hold_bp": hold_bp,
        "hold_percent": None if hold_bp is None else f"{hold_bp / 100:.2f}",
        "hold_outside_range": hold_bp is not None and not 1_000 <= hold_bp <= 2_000,
        "rounds_settled": draw(st.integers(min_value=0, max_value=500)),
        "rounds_voided": draw(st.integers(min_value=0, max_value=5)),
        "hands_dealt": draw(st.integers(min_value=0, max_value=900)),
        "handle_cents": handle,
        "payouts_cents": payouts,
        "house_net_cents": handle - payouts,
        "win_minus_house_net_cents": None if win is None else win - (handle - payouts),
        "theo_win_cents": handle * 41 // 10_000,
        "by_kind": [
            {
                "kind": "primary",
                "wagers": 3,
                "handle_cents": handle,
                "payouts_cents": payouts,
                "house_net_cents": handle - payouts,
                "theo_win_cents": handle * 41 // 10_000,
            }
        ],
    }


@composite
def documents(draw: DrawFn, *, provisional: bool | None = None, min_tables: int = 0) -> dict[str, Any]:
    shifts = draw(st.lists(st.sampled_from(SHIFTS), min_size=1, max_size=3, unique=True))
    shifts.sort(key=SHIFTS.index)
    names = draw(st.lists(NAMES, min_size=min_tables, max_size=max(min_tables, 4), unique=True))
    casino = {"id": 1, "name": "Main casino"}
    tables = []
    for number, name in enumerate(names, start=1):
        complete = draw(st.booleans())
        tables.append(
            {
                "level": "table",
                "gaming_day": GAMING_DAY.isoformat(),
                "shift": draw(st.sampled_from(shifts)),
                "casino": casino,
                "pit": {"id": 1, "name": "Main pit"},
                "table": {"id": number, "name": name},
                "complete": complete,
                "provisional": not complete,
                "flags": [] if complete else ["no_closer"],
                "generated_at": "2026-11-21T14:00:00+00:00",
                **_figures(draw, complete=complete),
            }
        )
    rollup = {
        "level": "casino",
        "gaming_day": GAMING_DAY.isoformat(),
        "shift": shifts[0],
        "casino": casino,
        "tables": len(tables),
        "tables_incomplete": sum(1 for t in tables if not t["complete"]),
        **_figures(draw, complete=True),
    }
    payload: dict[str, Any] = {
        "gaming_day": GAMING_DAY.isoformat(),
        "shifts": shifts,
        "expected_hold_bp": {"low": 1_000, "high": 2_000},
        "tables": tables,
        "pits": [{**rollup, "level": "pit", "pit": {"id": 1, "name": "Main pit"}}],
        "casinos": [rollup],
        "hold_outliers": [],
    }
    if provisional is not None:
        payload["provisional"] = provisional
    if len(shifts) == len(SHIFTS):  # the whole gaming day: the daily figures beside the shifts'
        payload["daily"] = {
            "gaming_day": GAMING_DAY.isoformat(),
            "tables": [{**t, "shift": "daily"} for t in tables],
            "pits": [{**p, "shift": "daily"} for p in payload["pits"]],
            "casinos": [{**c, "shift": "daily"} for c in payload["casinos"]],
        }
    inventories = [
        {
            "table": t["table"],
            "shift": t["shift"],
            "kind": kind,
            "total_cents": t[f"{kind}_cents"],
            "chips": [{"denomination_cents": 500, "count": t[f"{kind}_cents"] // 500}],
        }
        for t in tables
        for kind in ("opener", "closer")
        if t[f"{kind}_cents"] is not None and t[f"{kind}_cents"] % 500 == 0
    ]
    slips = [
        {
            "kind": "fill",
            "number": number,
            "table": t["table"],
            "shift": t["shift"],
            "amount_cents": draw(st.integers(min_value=1, max_value=1_000_000)),
            "status": status,
            "approved": status != "pending",
            "void_reason": "wrong table" if status == "void" else None,
        }
        for number, t in enumerate(tables, start=1)
        for status in [draw(st.sampled_from(["approved", "void", "pending"]))]
    ]
    period_figures = {
        "shifts": 3,
        "shifts_incomplete": 1,
        "drop_cents": 300_000,
        "win_cents": 45_000,
        "hold_bp": 1_500,
        "hold_percent": "15.00",
    }
    period = {
        "through": {"gaming_day": GAMING_DAY.isoformat(), "shift": shifts[-1]},
        "month_start": "2026-11-01",
        "year_start": "2026-01-01",
        "rolling_start": "2026-10-22",
        "expected_hold_bp": {"low": 1_000, "high": 2_000},
        "tables": [
            {
                "table": t["table"],
                "pit": "Main pit",
                "game": "Tie-bonus blackjack",
                "month_to_date": period_figures,
                "year_to_date": period_figures,
                "rolling_30_days": {**period_figures, "outside_range": False},
            }
            for t in tables
        ],
        "games": [
            {"game": "Tie-bonus blackjack", "month_to_date": period_figures, "year_to_date": period_figures}
        ],
        "hold_investigations": [],
    }
    return assemble_document(
        payload,
        inventories=inventories,
        slips=slips,
        period=period,
        generated_by=draw(st.sampled_from([None, "auditor-1"])),
        generated_at=AFTER_THE_DAY,
    )
