"""The console's patron, cage and compliance pages, and the gaming day's Title 31 export as CSV
and PDF (its text read back with pdfium)."""

import csv
import io
from typing import Any, cast

import pypdfium2 as pdfium
import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from audit.context import AuditActor
from patrons.models import Patron
from table_money.models import ChipRedemption
from table_money.services import cage
from tests.floor.form_keys import key_in, keyed, post_form
from tests.support.api import TableActors, cash_buy_in, new_patron, ok, problem, redeem
from tests.support.factories import StaffFactory
from tests.support.floor_operations import count_form
from tests.support.gaming_day import GAMING_DAY

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("title31_clock")]

DAY_URL = f"/floor/compliance/{GAMING_DAY.isoformat()}/"


def signed_in(role: str) -> Client:
    staff = StaffFactory.create(username=f"{role}-page", role=role)
    client = Client()
    client.force_login(cast(Any, staff.user))
    return client


@pytest.fixture
def played_day(
    open_tables: list[TableActors], supervisor_client: APIClient, cashier: APIClient
) -> dict[str, int]:
    """The issue's day: Ana buys in $12,000 and $4,500 cash at two tables (a CTR), Bea $9,000
    (none), and someone not on file redeems $3,500 at the cage."""
    ana = new_patron(
        supervisor_client, "Ana Ruiz", identification_type="passport", identification_reference="X1"
    )
    bea = new_patron(supervisor_client, "Bea Kim")
    ok(cash_buy_in(open_tables[0], 1_200_000, patron=ana), 201)
    ok(cash_buy_in(open_tables[1], 450_000, patron=ana), 201)
    ok(cash_buy_in(open_tables[1], 900_000, patron=bea, seat=2), 201)
    ok(redeem(cashier, 350_000, description="Man, grey suit"), 201)
    return {"ana": ana, "bea": bea}


def test_the_compliance_page_shows_the_days_mtl_and_its_one_ctr(played_day: dict[str, int]) -> None:
    page = signed_in("compliance").get(DAY_URL)
    assert page.status_code == 200
    text = page.content.decode()
    assert f"Patron {played_day['ana']} Ana Ruiz" in text
    assert "$16,500.00" in text
    assert text.count("<td>Cash in</td>") == 4  # one CTR row and three MTL rows of cash in
    assert "Man, grey suit" in text
    assert "$3,500.00" in text
    assert "No CTR of this gaming day waits" in text  # Ana is identified


def test_only_compliance_and_admins_read_the_compliance_pages(played_day: dict[str, int]) -> None:
    for role in ("pit_boss", "floor_supervisor", "cage_cashier"):
        client = signed_in(role)
        for url in (DAY_URL, f"{DAY_URL}title31.csv", f"{DAY_URL}title31.pdf"):
            assert client.get(url).status_code == 403, (role, url)
    assert signed_in("admin").get(DAY_URL).status_code == 200
    assert signed_in("compliance").get("/floor/compliance/2026-13-40/").status_code == 404


def test_the_csv_export_lists_the_mtl_and_the_ctr_in_dollars(played_day: dict[str, int]) -> None:
    response = signed_in("compliance").get(f"{DAY_URL}title31.csv")
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert ["Units", "dollars; times in casino local time"] in rows
    records = [row for row in rows if row and row[0] in ("MTL", "CTR")]
    assert [(r[0], r[1], r[2], r[4], r[5]) for r in records] == [
        ("MTL", "cash_in", f"Patron {played_day['ana']} Ana Ruiz", "12000.00", "BJ-T31-A"),
        ("MTL", "cash_in", f"Patron {played_day['ana']} Ana Ruiz", "4500.00", "BJ-T31-B"),
        ("MTL", "cash_in", f"Patron {played_day['bea']} Bea Kim", "9000.00", "BJ-T31-B"),
        ("MTL", "cash_out", "Not on file: Man, grey suit", "3500.00", "Cage"),
        ("CTR", "cash_in", f"Patron {played_day['ana']} Ana Ruiz", "16500.00", "BJ-T31-A; BJ-T31-B"),
    ]


def _pdf_text(data: bytes) -> str:
    document = pdfium.PdfDocument(data)
    return "\n".join(document[index].get_textpage().get_text_range() for index in range(len(document)))


def test_the_pdf_export_prints_the_header_the_ctr_and_the_mtl(played_day: dict[str, int]) -> None:
    response = signed_in("compliance").get(f"{DAY_URL}title31.pdf")
    assert response["Content-Type"] == "application/pdf"
    text = _pdf_text(response.content)
    assert f"Title 31 records, gaming day {GAMING_DAY.isoformat()}" in text
    assert "Licensee not configured - Property not configured" in text
    assert f"Patron {played_day['ana']} Ana Ruiz" in text
    assert "$16,500.00" in text
    for amount in ("$12,000.00", "$4,500.00", "$9,000.00", "$3,500.00"):
        assert amount in text
    assert "NEEDED" not in text  # the one CTR is of an identified patron


def test_a_patrons_page_shows_their_days_mtl_and_ctr_and_identifies_them(
    played_day: dict[str, int], cashier: APIClient
) -> None:
    # Bea cashes out over the line: the cage stops for her identification; a pit boss overrides.
    problem(redeem(cashier, 1_100_000, patron=played_day["bea"]), 409, "identification_required")
    cage.redeem_chips(
        amount_cents=1_100_000,
        chips=None,
        patron_number=played_day["bea"],
        description="",
        cashier=StaffFactory.create(username="cashier-override", role="cage_cashier").user,
        actor=AuditActor(kind="system", username="tests"),
        now=timezone.now(),
        override=cage.IdentificationOverride(
            supervisor=StaffFactory.create(username="boss-override", role="pit_boss").user,
            reason="Patron left the ID in the hotel room; security escorts them to fetch it",
        ),
    )
    client = signed_in("pit_boss")
    page = client.get(f"/floor/patrons/{played_day['bea']}/").content.decode()
    assert "Not identified" in page
    assert "$9,000.00" in page
    assert "$11,000.00" in page

    compliance_page = signed_in("compliance").get(DAY_URL).content.decode()
    assert "identify the patron" in compliance_page

    response = post_form(
        client,
        f"/floor/patrons/{played_day['bea']}/identify/",
        {"last_name": "Kim", "first_name": "Bea", "id_type": "state_id", "id_number": "S-77"},
    )
    assert response.status_code == 302
    assert Patron.objects.get(number=played_day["bea"]).is_identified
    bad = post_form(
        client, f"/floor/patrons/{played_day['ana']}/identify/", {"last_name": "Ruiz", "id_type": "passport"}
    )
    assert bad.status_code == 200
    assert "This field is required" in bad.content.decode()
    identification = Patron.objects.get(number=played_day["ana"]).current_identification
    assert identification is not None
    assert (identification.revision, identification.id_number) == (1, "X1")


def test_staff_find_and_create_patrons_on_the_console() -> None:
    client = signed_in("cage_cashier")
    body = keyed(
        client,
        "/floor/patrons/",
        {"name": "Cy Dorn", "identification_type": "", "identification_reference": ""},
    )
    response = client.post("/floor/patrons/", body)
    again = client.post("/floor/patrons/", body)  # a double click: the same page's key
    patron = Patron.objects.get(name="Cy Dorn")
    assert response.status_code == 302
    assert response["Location"] == f"/floor/patrons/{patron.number}/"
    assert (again.status_code, again["Location"]) == (302, response["Location"])
    assert "Already recorded" in client.get(again["Location"]).content.decode()
    assert "Cy Dorn" in client.get("/floor/patrons/", {"q": "dorn"}).content.decode()
    unkeyed = client.post("/floor/patrons/", {"name": "Eve", "identification_type": ""})
    assert unkeyed.status_code == 200
    assert "nothing was recorded" in unkeyed.content.decode()
    assert not Patron.objects.filter(name="Eve").exists()
    refused = post_form(client, "/floor/patrons/", {"name": "   "})
    assert refused.status_code == 200
    assert "This field is required" in refused.content.decode()
    assert Patron.objects.count() == 1


def test_the_cashier_pays_out_on_the_cage_page(open_tables: list[TableActors]) -> None:
    client = signed_in("cage_cashier")
    body = count_form({"100000": 4, "2500": 10}, total="4,250.00", patron="", description="Woman, red coat")
    review = post_form(client, "/floor/cage/", body)
    assert review.status_code == 200
    assert "Confirm and pay $4,250.00" in review.content.decode()
    assert not ChipRedemption.objects.exists()  # the review pays nothing
    response = client.post("/floor/cage/", {**body, "submission_key": key_in(review), "confirmed": "True"})
    assert response.status_code == 302
    (made,) = ChipRedemption.objects.all()
    assert (made.amount_cents, made.description, made.mtl_entry.amount_cents, made.chips) == (
        425_000,
        "Woman, red coat",
        425_000,
        {"2500": 10, "100000": 4},
    )
    assert "Woman, red coat" in client.get("/floor/cage/").content.decode()

    for bad in (
        count_form({"10000": 1}, total="100", patron="", description=""),
        count_form({"10000": 1}, total="-5", description="x"),
        count_form({"100": 1}, total="1", patron="77"),
        count_form({"10000": 1}, total="1", description="x", confirmed="True"),
    ):
        page: Any = post_form(client, "/floor/cage/", bad)
        assert page.status_code == 200
        assert "errorlist" in page.content.decode() or "form-errors" in page.content.decode()
    assert signed_in("floor_supervisor").get("/floor/cage/").status_code == 403
