"""Filing documents rendered from generated figures, without a database: the same figures give the
same bytes, and two renders differ only in the generated-at line (CSV and PDF text); the PDF
prints its header and page numbers on every page and PROVISIONAL on a provisional report."""

import csv
import datetime as dt
import io
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reports.export import (
    SCHEDULED_JOB,
    assemble_document,
    decimal_dollars,
    shift_report_csv,
    shift_report_pdf,
)
from tests.support.report_documents import AFTER_THE_DAY, documents, pdf_page_texts


def differing_lines(first: str, second: str) -> list[tuple[str, str]]:
    one, other = first.splitlines(), second.splitlines()
    assert len(one) == len(other)
    return [(a, b) for a, b in zip(one, other, strict=True) if a != b]


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

    assert lines[10] == ["status", "Provisional"]
    assert lines[11] == ["provisional_reasons", "; ".join(document["provisional_reasons"])]
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
    assert lines[11] == ["provisional_reasons", ""]
