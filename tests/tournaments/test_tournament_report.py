"""The tournament report (API.md "Tournaments"): JSON, CSV and PDF for staff; a heat's deck order
and salt only once the heat is closed; entry tokens refused; and each tournament's revenue on its
own line of the gaming-day report, never netted against another's."""

import csv
import io
from collections.abc import Callable
from typing import Any, cast

import pytest
from django.test import Client
from rest_framework.test import APIClient

from reports.read import SHIFT_ORDER, shift_report_payload
from tests.support.api import ok, post, problem
from tests.support.gaming_day import GAMING_DAY, Clock
from tests.support.report_documents import pdf_page_texts

from .conftest import Run, Staff
from .money_support import pay, play_out, squares_run

pytestmark = pytest.mark.django_db


def _report(client: APIClient, run: Run, accept: str = "application/json") -> Any:
    return client.get(f"{run.url}report/", HTTP_ACCEPT=accept)


def test_the_report_shows_the_commitment_and_reveals_a_heat_only_once_it_is_closed(
    create: Callable[..., Run], patron: Callable[..., int], staff: Staff
) -> None:
    run = create()  # duplicate Attack, two heats
    run.file()
    first = run.entered(patron(), "cash")
    run.entered(patron(), "chips")

    report = ok(_report(staff.pit_boss, run))
    assert report["filing"] == {"reference": "NGC-2026-118", "filed_on": "2026-11-18"}
    assert report["rules"]["version"] == 1
    assert len(report["rules"]["sha256"]) == 64
    assert [(e["number"], e["paid_with"], e["buy_in_cents"], e["fee_cents"]) for e in report["entries"]] == [
        (1, "cash", 2000, 500),
        (2, "chips", 2000, 500),
    ]
    assert all(heat["commitment"] and heat["reveal"] is None for heat in report["heats"])

    run.advance(minutes=60)  # registration closes: $40 + $50 added + $160 overlay = $250
    run.advance(minutes=5)  # heat 1 opens: nobody plays it
    run.advance(minutes=3)  # its start window is over: heat 1 closes, heat 2 is still to come
    report = ok(_report(staff.director, run))
    heat1, heat2 = report["heats"]
    assert heat1["closed_at"] is not None
    assert len(heat1["reveal"]["order"]) == 52
    assert heat2["reveal"] is None
    assert heat2["commitment"]
    money = report["money"]
    assert (money["buy_ins_cents"], money["fees_cents"], money["added_cents"], money["overlay_cents"]) == (
        4000,
        1000,
        5000,
        16000,
    )
    assert (money["pool_cents"], money["revenue_cents"]) == (25000, 1000 - 5000 - 16000)
    assert report["heat_scores"][0] == {
        "entry": first.number,
        "scores": [{"heat": 1, "score": 0}, {"heat": 2, "score": None}],
        "total": 0,
    }

    response = _report(staff.compliance, run, "text/csv")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    heat_rows = {row[0]: row for row in rows if row and row[0] in ("1", "2") and len(row) == 7}
    assert heat_rows["1"][6].startswith("order ")
    assert heat1["reveal"]["salt"] in heat_rows["1"][6]
    assert heat_rows["2"][6] == "withheld until the heat is closed"
    assert ["Filing reference", "NGC-2026-118"] in rows
    assert ["Buy-ins", "40.00"] in rows
    assert ["Overlay", "160.00"] in rows

    response = _report(staff.cashier, run, "application/pdf")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    pages = pdf_page_texts(response.content)
    text = " ".join(" ".join(pages).split())
    assert f"Page 1 of {len(pages)}" in pages[0]
    assert "Figures SHA-256" in pages[0]
    assert f"Tournament report: {run.id} Friday Attack" in text
    assert "withheld until the heat is closed" in text
    assert "$160.00" in text
    assert "NGC-2026-118" in text

    problem(_report(staff.director, run, "application/xml"), 406, "not_acceptable")
    problem(_report(first.device, run), 403, "role_not_allowed")
    other = create()
    problem(first.device.get(f"{other.url}report/"), 403, "other_tournament")
    problem(APIClient().get(f"{run.url}report/"), 401, "not_authenticated")
    problem(staff.director.get("/api/v1/tournaments/999999/report/"), 404, "not_found")


def _login(staff: Staff, role: str) -> Client:
    provisioned, _ = staff.make(role)
    client = Client()
    client.force_login(cast(Any, provisioned.user))
    return client


def test_each_tournament_has_its_own_line_in_the_gaming_day_report(
    create: Callable[..., Run], patron: Callable[..., int], staff: Staff, clock: Clock
) -> None:
    short = squares_run(create, clock, name="Short field", fee_cents=500, guarantee_cents=10000)
    added = squares_run(create, clock, name="Added money", fee_cents=1000, added_cents=500)
    for run in (short, added):
        run.entered(patron(), "cash")
        run.entered(patron(), "chips")
    short_prizes = play_out(short)["prizes"]
    added.advance()
    ok(post(staff.director, f"{added.url}results/"), 201)
    ok(post(staff.compliance, f"{added.url}results/approve/"))
    ok(pay(short, short_prizes[0]["id"], "cash"))

    payload = shift_report_payload(gaming_day=GAMING_DAY, shifts=list(SHIFT_ORDER))
    lines = {line["tournament"]["name"]: line for line in payload["tournaments"]}
    # $10 of fees, the $60 overlay to reach the $100 guarantee: -$50, alone on its line.
    assert {
        k: lines["Short field"][k] for k in ("fees_cents", "added_cents", "overlay_cents", "revenue_cents")
    } == {
        "fees_cents": 1000,
        "added_cents": 0,
        "overlay_cents": 6000,
        "revenue_cents": -5000,
    }
    assert lines["Short field"]["prizes_paid_cents"] == short_prizes[0]["amount_cents"]
    assert (lines["Added money"]["revenue_cents"], lines["Added money"]["added_cents"]) == (1500, 500)
    assert "daily" not in payload  # no table played: the tables' figures are untouched

    response = staff.pit_boss.get("/api/v1/reports/shifts/", {"gaming_day": GAMING_DAY.isoformat()})
    assert len(ok(response)["tournaments"]) == 2
    filing = staff.pit_boss.get(
        "/api/v1/reports/shifts/", {"gaming_day": GAMING_DAY.isoformat()}, HTTP_ACCEPT="text/csv"
    )
    rows = list(csv.reader(io.StringIO(filing.content.decode())))
    tournament_rows = [row for row in rows if row[:1] in ([str(short.id)], [str(added.id)]) and len(row) == 9]
    assert [row[7] for row in tournament_rows] == ["-50.00", "15.00"]
    pdf = staff.pit_boss.get(
        "/api/v1/reports/shifts/", {"gaming_day": GAMING_DAY.isoformat()}, HTTP_ACCEPT="application/pdf"
    )
    text = "\n".join(pdf_page_texts(pdf.content))
    assert "revenue per tournament" in text
    assert "-$50.00" in text
    assert "$15.00" in text

    page = _login(staff, "compliance").get(f"/floor/reports/{GAMING_DAY.isoformat()}/")
    assert page.status_code == 200
    body = page.content.decode()
    assert "Short field" in body
    assert "Added money" in body
    assert 'id="report-tournaments"' in body
