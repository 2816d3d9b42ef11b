"""Filing documents rendered from generated figures, without a database: the same figures give the
same bytes, and two renders differ only in the generated-at line (CSV and PDF text); the PDF
prints its header and page numbers on every page and PROVISIONAL on a provisional report."""

import csv
import datetime as dt
import io
from typing import Any

import pypdfium2 as pdfium
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.strategies import DrawFn, composite

from reports.export import (
    SCHEDULED_JOB,
    assemble_document,
    decimal_dollars,
    shift_report_csv,
    shift_report_pdf,
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


def differing_lines(first: str, second: str) -> list[tuple[str, str]]:
    one, other = first.splitlines(), second.splitlines()
    assert len(one) == len(other)
    return [(a, b) for a, b in zip(one, other, strict=True) if a != b]


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


def regenerated(document: dict[str, Any], *, later_by: dt.timedelta) -> dict[str, Any]:
    """The same figures rendered again, later."""
    report = document["report"]
    return assemble_document(
        {**report, "tables": [{**t, "generated_at": "2026-11-22T01:00:00+00:00"} for t in report["tables"]]},
        inventories=document["inventories"],
        slips=document["slips"],
        period=document["period"],
        generated_by=None if document["header"]["generated_by"] == SCHEDULED_JOB else "auditor-1",
        generated_at=AFTER_THE_DAY + later_by,
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=documents(), later=st.integers(min_value=1, max_value=10**6))
def test_two_csv_renders_differ_only_in_the_generated_at_line(document: dict[str, Any], later: int) -> None:
    again = regenerated(document, later_by=dt.timedelta(seconds=later))

    assert shift_report_csv(document) == shift_report_csv(document)
    assert again["header"]["figures_sha256"] == document["header"]["figures_sha256"]
    changed = differing_lines(shift_report_csv(document), shift_report_csv(again))
    assert [(a.split(",")[0], b.split(",")[0]) for a, b in changed] == [("generated_at", "generated_at")]


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=documents(min_tables=1), later=st.integers(min_value=1, max_value=10**6))
def test_two_pdf_renders_differ_only_in_the_generated_at_line(document: dict[str, Any], later: int) -> None:
    again = regenerated(document, later_by=dt.timedelta(seconds=later))

    first = shift_report_pdf(document)
    assert shift_report_pdf(document) == first  # invariant mode: the same figures, the same bytes
    pages, pages_again = pdf_page_texts(first), pdf_page_texts(shift_report_pdf(again))
    assert len(pages) == len(pages_again)
    for page, page_again in zip(pages, pages_again, strict=True):
        changed = differing_lines(page, page_again)
        assert len(changed) == 1
        assert all(a.startswith("Generated at ") and b.startswith("Generated at ") for a, b in changed)


@settings(max_examples=20, deadline=None)
@given(document=documents(provisional=False, min_tables=1), cents=st.integers(min_value=1, max_value=10**6))
def test_the_hash_is_of_the_figures_and_moves_with_any_of_them(document: dict[str, Any], cents: int) -> None:
    report = document["report"]
    first = report["tables"][0]

    def rehash(**changes: Any) -> str:
        payload = changes.pop("payload", report)
        parts = {
            "inventories": document["inventories"],
            "slips": document["slips"],
            "period": document["period"],
            "generated_by": "someone else",
            "generated_at": AFTER_THE_DAY,
            **changes,
        }
        return str(assemble_document(payload, **parts)["header"]["figures_sha256"])

    digest = document["header"]["figures_sha256"]
    assert len(digest) == 64
    assert rehash() == digest  # who generated it, and when, are not figures
    assert (
        rehash(payload={**report, "tables": [{**first, "fills_cents": first["fills_cents"] + cents}]})
        != digest
    )
    slip = document["slips"][0]
    assert (
        rehash(slips=[{**slip, "amount_cents": slip["amount_cents"] + cents}, *document["slips"][1:]])
        != digest
    )


@pytest.mark.parametrize(
    ("cents", "text"),
    [(0, "0.00"), (5, "0.05"), (123_456, "1234.56"), (-4_500, "-45.00"), (None, "")],
)
def test_the_filing_csv_writes_decimal_dollars(cents: int | None, text: str) -> None:
    assert decimal_dollars(cents) == text


@settings(max_examples=10, deadline=None)
@given(document=documents(provisional=True, min_tables=1))
def test_every_csv_section_has_a_units_row_under_its_header_row(document: dict[str, Any]) -> None:
    lines = list(csv.reader(io.StringIO(shift_report_csv(document))))

    assert lines[10] == ["status", "PROVISIONAL"]
    titles = [i for i, line in enumerate(lines) if len(line) == 1 and line[0].startswith("[")]
    assert len(titles) == (9 if "daily" in document["report"] else 7)
    for title in titles:
        header, units = lines[title + 1], lines[title + 2]
        assert len(header) == len(units)
        assert set(units) <= {"", "USD", "%", "count", "yes/no"}
        assert "USD" in units
    header, units = lines[titles[0] + 1], lines[titles[0] + 2]
    assert (units[header.index("drop")], units[header.index("hold")]) == ("USD", "%")


@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=documents(provisional=True, min_tables=4))
def test_a_provisional_report_says_so_on_every_page_with_its_header(document: dict[str, Any]) -> None:
    document["header"]["licensee"], document["header"]["property"] = "Example Gaming LLC", "Example Casino"
    document["slips"] = document["slips"] * 12  # enough lines for several pages

    pages = pdf_page_texts(shift_report_pdf(document))

    assert len(pages) >= 2
    for number, text in enumerate(pages, start=1):
        assert "PROVISIONAL" in text
        assert "Example Gaming LLC - Example Casino" in text
        assert f"Page {number} of {len(pages)}" in text
        assert "gaming day 2026-11-20" in text
        assert "time zone America/Los_Angeles" in text
        assert document["header"]["figures_sha256"] in text
    assert all(role in pages[-1] for role in ("Pit boss", "Shift manager", "Revenue audit"))


@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=documents(provisional=False, min_tables=1))
def test_a_final_report_carries_no_provisional_mark(document: dict[str, Any]) -> None:
    text = "\n".join(pdf_page_texts(shift_report_pdf(document)))
    lines = list(csv.reader(io.StringIO(shift_report_csv(document))))

    assert "PROVISIONAL" not in text
    assert lines[10] == ["status", "Final"]
