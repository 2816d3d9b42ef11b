"""Names staff typed (tables, pits, patrons, a user's own name) are printed as written in every file
the service makes: a reportlab Paragraph never reads them as markup (`<img src=x>` used to stop
the Title 31 PDF with a 500, `<b>` or `<font>` silently changed its text), and a CSV cell never
starts a spreadsheet formula (`=HYPERLINK(...)`). The PDFs are read back as text with pdfium."""

import csv
import io
from collections.abc import Callable
from typing import Any, cast

import pypdfium2 as pdfium
import pytest
from django.contrib.auth.models import User
from django.test import Client
from hypothesis import HealthCheck, given, settings
from rest_framework.test import APIClient

from audit.exports import _csv_cell
from kernel.documents import paragraph_text, spreadsheet_text
from reports.export import shift_report_csv, shift_report_pdf
from tests.compliance.conftest import BANK, cashier, supervisor_client, title31_clock  # noqa: F401 (fixtures)
from tests.support.api import TableActors, cash_buy_in, new_patron, ok, open_table, redeem
from tests.support.factories import StaffFactory
from tests.support.gaming_day import GAMING_DAY
from tests.support.report_documents import documents

FORMULA = '=HYPERLINK("http://x.example/","<img src=x>")'
MARKUP = "<b>B</b> & <font color=red>R</font>"
IMAGE = "<img src=x>"
HOSTILE_PIT = "<b>Pit</b> & <i>co</i>"
STAFF_NAME = "<font color=red>Comp</font> & <b>Ann</b>"


def pdf_text(pdf: bytes) -> str:
    document = pdfium.PdfDocument(pdf)
    try:
        return "\n".join(str(page.get_textpage().get_text_range()) for page in document)
    finally:
        document.close()


def squeezed(text: str) -> str:
    """Text without whitespace: a Paragraph may wrap a name over two lines."""
    return "".join(text.split())


def test_the_two_functions_show_text_as_written() -> None:
    assert spreadsheet_text("=1+1") == "'=1+1"
    for start in ("+", "-", "@", "\t", "\r"):
        assert spreadsheet_text(f"{start}SUM(A1)") == f"'{start}SUM(A1)"
    assert spreadsheet_text("BJ-07") == "BJ-07"
    assert _csv_cell("=1+1") == "'=1+1"  # the audit export uses the same function
    assert paragraph_text("<img src=x> & <b>") == "&lt;img src=x&gt; &amp; &lt;b&gt;"


# --- the Title 31 day (console CSV and PDF) ------------------------------------------------------------


@pytest.fixture
def hostile_day(
    title31_clock: Any,  # noqa: F811
    make_table: Callable[..., TableActors],
    supervisor_client: APIClient,  # noqa: F811
    cashier: APIClient,  # noqa: F811
) -> dict[str, int]:
    """A CTR across tables with hostile names, and MTL entries at each."""
    tables = [make_table(FORMULA), make_table(MARKUP), make_table(IMAGE)]
    for actors in tables:
        ok(open_table(supervisor_client, actors, BANK), 201)
    ana = new_patron(
        supervisor_client, "<b>Ana</b> & co", identification_type="passport", identification_reference="X1"
    )
    ok(cash_buy_in(tables[0], 600_000, patron=ana), 201)
    ok(cash_buy_in(tables[1], 450_000, patron=ana), 201)
    ok(cash_buy_in(tables[2], 400_000, patron=ana), 201)
    ok(redeem(cashier, 350_000, description="=cmd|' /C calc'!A0"), 201)
    return {"ana": ana}


def compliance_client() -> Client:
    staff = StaffFactory.create(username="compliance-markup", role="compliance")
    user = cast(User, staff.user)
    user.first_name = STAFF_NAME
    user.save(update_fields=["first_name"])
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_the_title31_pdf_prints_markup_in_names_as_written(hostile_day: dict[str, int]) -> None:
    answer = compliance_client().get(f"/floor/compliance/{GAMING_DAY.isoformat()}/title31.pdf")

    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/pdf"
    text = squeezed(pdf_text(answer.content))
    for name in (FORMULA, MARKUP, IMAGE, STAFF_NAME, "<b>Ana</b> & co"):
        assert squeezed(name) in text, name
    assert squeezed(f"at {IMAGE},") in text  # in the CTR's transactions, a Paragraph
    assert squeezed(f"by {STAFF_NAME}.") in text


@pytest.mark.django_db
def test_the_title31_csv_never_starts_a_formula(hostile_day: dict[str, int]) -> None:
    answer = compliance_client().get(f"/floor/compliance/{GAMING_DAY.isoformat()}/title31.csv")

    assert answer.status_code == 200
    rows = list(csv.reader(io.StringIO(answer.content.decode())))
    cells = [cell for row in rows for cell in row]
    assert not [cell for cell in cells if cell.startswith(("=", "+", "-", "@", "\t", "\r"))]
    mtl = [row for row in rows if row and row[0] == "MTL"]
    assert sorted(row[5] for row in mtl) == sorted([f"'{FORMULA}", MARKUP, IMAGE, "Cage"])
    assert "Not on file: =cmd|' /C calc'!A0" in [row[2] for row in mtl]
    assert ["Generated", rows[2][1], "by", STAFF_NAME] == rows[2]


# --- the shift report (PDF and filing CSV) ---------------------------------------------------------------


def _renamed(value: Any, names: dict[str, str]) -> Any:
    """The document with its tables' and pits' names swapped for hostile ones."""
    if isinstance(value, dict):
        out = {key: _renamed(item, names) for key, item in value.items()}
        if isinstance(out.get("name"), str) and out["name"] in names:
            out["name"] = names[out["name"]]
        if isinstance(out.get("pit"), str):
            out["pit"] = HOSTILE_PIT
        return out
    if isinstance(value, list):
        return [_renamed(item, names) for item in value]
    if isinstance(value, str):
        for old, new in names.items():
            value = value.replace(f"{old} ", f"{new} ") if value.startswith(f"{old} ") else value
    return value


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(provisional=None, min_tables=3))
def test_the_shift_report_prints_markup_in_names_as_written(document: dict[str, Any]) -> None:
    tables = document["report"]["tables"]
    hostile = [IMAGE, MARKUP, FORMULA, "<font color=red>R</font>"]
    names = {t["table"]["name"]: hostile[i % len(hostile)] for i, t in enumerate(tables)}
    names["Main pit"] = HOSTILE_PIT
    renamed = _renamed(document, names)

    text = squeezed("\n".join(pdf_text(shift_report_pdf(renamed)).splitlines()))

    for table in renamed["report"]["tables"]:
        heading = f"{table['table']['name']} ({HOSTILE_PIT}), {table['shift']} shift:"
        assert squeezed(heading) in text, heading
    if renamed["provisional"]:
        assert squeezed(renamed["provisional_reasons"][0]) in text

    rows = list(csv.reader(io.StringIO(shift_report_csv(renamed))))
    cells = [cell for row in rows for cell in row]
    assert f"'{FORMULA}" in cells
    assert FORMULA not in cells
    assert not [cell for cell in cells if cell.startswith(("=", "@"))]
