"""The admin pages for table money: the shift PDF download and the approve action, the admin's
alone (the floor roles approve and read their pits' money on the floor console)."""

import datetime as dt
import importlib
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import clear_url_caches

import config.urls
from audit.context import AuditActor
from casino.models import LedgerTransaction, MovementKind
from casino.services.provisioning import ProvisionedStaff
from reports import services as reports
from table_money.models import ChipSlip
from tests.support.api import TableActors, buy_in, close_table, ok, open_table, request_slip

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def admin_urls() -> Iterator[None]:
    importlib.reload(config.urls)  # the admin's URLs include pages registered after the first import
    clear_url_caches()
    yield
    clear_url_caches()


def logged_in(
    make_staff: Callable[[str], tuple[ProvisionedStaff, Any]], role: str
) -> tuple[Client, ProvisionedStaff]:
    staff, _ = make_staff(role)
    client = Client()
    assert client.login(username=staff.user.get_username(), password=staff.password)
    return client, staff


def test_the_admin_downloads_a_shifts_pdf_from_the_admin_and_no_one_else_does(
    make_table: Callable[..., TableActors], make_staff: Callable[[str], tuple[ProvisionedStaff, Any]]
) -> None:
    supervisor = make_staff("floor_supervisor")[1]
    actors = make_table("BJ-A1")
    ok(open_table(supervisor, actors, {"100000": 2}), 201)
    ok(buy_in(actors, 1, 10_000), 201)
    ok(close_table(supervisor, actors, {"100000": 1, "10000": 9}), 201)
    reports.produce_shift_reports(
        gaming_day=dt.date(2026, 11, 20),
        shift="day",
        actor=AuditActor(kind="system"),
        now=dt.datetime.now(dt.UTC),
    )
    admin, _ = logged_in(make_staff, "admin")
    compliance, _ = logged_in(make_staff, "compliance")
    pit_boss, _ = logged_in(make_staff, "pit_boss")

    listing = admin.get("/admin/reports/shiftreport/")
    pdf = admin.get("/admin/reports/shiftreport/pdf/2026-11-20/day/")
    bad = admin.get("/admin/reports/shiftreport/pdf/2026-11-20/night/")
    by_compliance = compliance.get("/admin/reports/shiftreport/pdf/2026-11-20/day/")
    by_pit_boss = pit_boss.get("/admin/reports/shiftreport/pdf/2026-11-20/day/")

    assert listing.status_code == 200
    assert b"/admin/reports/shiftreport/pdf/2026-11-20/day/" in listing.content
    assert pdf.status_code == 200
    assert pdf["Content-Type"] == "application/pdf"
    assert pdf["Content-Disposition"] == 'attachment; filename="shift-report-2026-11-20-day.pdf"'
    assert pdf.content.startswith(b"%PDF-")
    assert bad.status_code == 400
    assert by_compliance.status_code == 403
    assert (by_pit_boss.status_code, by_pit_boss["Location"][:13]) == (302, "/admin/login/")
    assert not by_compliance.content.startswith(b"%PDF-")


def test_the_admin_approves_pending_slips_with_the_admin_action_and_floor_roles_cannot(
    make_table: Callable[..., TableActors], make_staff: Callable[[str], tuple[ProvisionedStaff, Any]]
) -> None:
    supervisor = make_staff("floor_supervisor")[1]
    actors = make_table("BJ-A2")
    ok(open_table(supervisor, actors, {"100000": 2}), 201)
    fill = ok(request_slip(actors.terminal, "fill", {"10000": 2}), 201)
    compliance, _ = logged_in(make_staff, "compliance")
    pit_boss, _ = logged_in(make_staff, "pit_boss")
    admin, _ = logged_in(make_staff, "admin")
    form = {"action": "approve", "_selected_action": [str(fill["id"])]}

    assert compliance.post("/admin/table_money/chipslip/", form).status_code == 403
    refused = pit_boss.post("/admin/table_money/chipslip/", form)
    assert (refused.status_code, refused["Location"][:13]) == (302, "/admin/login/")
    assert ChipSlip.objects.get(pk=fill["id"]).status == "pending"

    done = admin.post("/admin/table_money/chipslip/", form)
    again = admin.post("/admin/table_money/chipslip/", form)

    assert (done.status_code, again.status_code) == (302, 302)
    assert ChipSlip.objects.get(pk=fill["id"]).status == "approved"
    assert LedgerTransaction.objects.filter(kind=MovementKind.FILL).count() == 1
