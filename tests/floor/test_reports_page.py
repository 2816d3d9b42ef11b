"""The console's Reports page without a browser: who may open it, what each reader sees of it,
and its CSV and PDF, provisional or final as the API says, of the reader's own tables."""

import csv
import io
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from casino.models import Pit, StaffProfile
from casino.services.provisioning import ProvisionedStaff
from tests.support.api import TableActors, buy_in, ok, open_table
from tests.support.factories import StaffFactory
from tests.support.gaming_day import Clock, day_shift_clock
from tests.support.report_documents import pdf_page_texts

pytestmark = pytest.mark.django_db

DAY = "2026-11-20"


@pytest.fixture(autouse=True)
def clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Clock:
    return day_shift_clock(monkeypatch, settings)


@pytest.fixture
def two_pits(
    make_table: Callable[..., TableActors], make_staff: Callable[[str], tuple[ProvisionedStaff, APIClient]]
) -> tuple[TableActors, TableActors]:
    boss = make_staff("pit_boss")[1]
    mine, theirs = make_table("BJ-MINE", pit_name="Pit 1"), make_table("BJ-THEIRS", pit_name="Pit 2")
    for table in (mine, theirs):
        ok(open_table(boss, table, {"100000": 10}), 201)
        ok(buy_in(table, 1, 10_000), 201)
    return mine, theirs


def signed_in(client: Client, role: str, pits: tuple[Pit, ...] = ()) -> Client:
    staff = StaffFactory.create(username=f"{role}-reader", role=role)
    StaffProfile.objects.get(user_id=staff.user.pk).pits.set(pits)
    client.force_login(User.objects.get(pk=staff.user.pk))
    return client


def test_the_reports_page_opens_on_the_shift_under_way(client: Client, two_pits: Any) -> None:
    signed_in(client, "compliance")

    landing = client.get("/floor/reports/")
    page = client.get(landing["Location"])

    assert (landing.status_code, landing["Location"]) == (302, f"/floor/reports/{DAY}/day/")
    text = page.content.decode()
    assert "PROVISIONAL" in text
    assert "BJ-MINE" in text
    assert "BJ-THEIRS" in text


@pytest.mark.parametrize("role", ["cage_cashier", "count_team"])
def test_roles_that_do_not_read_reports_are_refused(client: Client, role: str) -> None:
    signed_in(client, role)
    assert client.get(f"/floor/reports/{DAY}/day/").status_code == 403
    assert client.get(f"/floor/reports/{DAY}/report.csv").status_code == 403


def test_a_pit_boss_reads_and_downloads_the_reports_of_their_pits_only(
    client: Client, two_pits: tuple[TableActors, TableActors]
) -> None:
    mine, _ = two_pits
    signed_in(client, "pit_boss", (mine.table.pit,))

    page = client.get(f"/floor/reports/{DAY}/day/").content.decode()
    filing = client.get(f"/floor/reports/{DAY}/day/report.csv")
    pdf = client.get(f"/floor/reports/{DAY}/day/report.pdf")

    assert "BJ-MINE" in page
    assert "BJ-THEIRS" not in page
    lines = list(csv.reader(io.StringIO(filing.content.decode())))
    assert lines[10:12] == [
        ["status", "Provisional"],
        ["provisional_reasons", "the day shift has not ended; BJ-MINE day: no closer and no soft count"],
    ]
    assert "BJ-THEIRS" not in filing.content.decode()
    text = "".join(pdf_page_texts(pdf.content))
    assert "PROVISIONAL" in text
    assert "BJ-THEIRS" not in text
    assert pdf["Content-Disposition"] == f'attachment; filename="shift-report-{DAY}-day.pdf"'


@pytest.mark.parametrize(
    "path",
    [f"/floor/reports/{DAY}/noon/", f"/floor/reports/{DAY}/day/report.xls", "/floor/reports/2026-13-01/"],
)
def test_a_report_that_is_not_one_is_not_a_page(client: Client, path: str) -> None:
    signed_in(client, "compliance")
    assert client.get(path).status_code == 404
