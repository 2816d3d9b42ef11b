"""A CTR worksheet filed in a real Chromium, as compliance does it: the CTR listed as due, the
patron identified with every field Form 112 needs from the worksheet, the filing recorded with its
BSA ID, and the CTR shown as filed. Each page is saved as a screenshot."""

import datetime as dt
from collections.abc import Callable

import pytest
from rest_framework.test import APIClient
from selenium.webdriver.common.by import By

from table_money.models import CtrFiling
from tests.support.api import TableActors, cash_buy_in, new_patron, ok
from tests.support.console import Console
from tests.support.gaming_day import CASINO_ZONE, Clock

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("title31_clock")]

TEXT_FIELDS = {
    "last_name": "Ruiz",
    "first_name": "Ana",
    "street": "100 Main Street",
    "city": "Las Vegas",
    "state": "NV",
    "zip_code": "89101",
    "country": "US",
    "tin": "123-45-6789",
    "occupation": "Nurse",
    "id_number": "NV1234567",
    "id_issuer_state": "NV",
    "id_issuer_country": "US",
}


def _set_date(console: Console, name: str, value: str) -> None:
    """A date picker's value, as the picker sets it (typing into one depends on the browser's locale)."""
    field = console.find(f"[name={name}]")
    console.browser.execute_script("arguments[0].value = arguments[1];", field, value)
    assert field.get_attribute("value") == value


def test_compliance_files_a_ctr_worksheet(
    console: Callable[..., Console],
    open_tables: list[TableActors],
    supervisor_client: APIClient,
    title31_clock: Clock,
) -> None:
    number = new_patron(supervisor_client, "Tall man, red cap")
    ok(cash_buy_in(open_tables[0], 1_200_000, patron=number), 201)
    title31_clock.set(dt.datetime(2026, 11, 22, 10, 0, tzinfo=CASINO_ZONE))  # the gaming day is over

    compliance = console("compliance")
    compliance.open("/floor/compliance/ctrs/")
    compliance.wait_for_text("Currency transaction reports: filing")
    listing = compliance.read("#ctr-filing")
    assert "Due" in listing
    assert "2026-12-05" in listing
    assert "$12,000.00" in listing

    compliance.follow("#ctr-filing a")
    compliance.wait_for_text("Part I: person involved in the transactions")
    assert "is not identified" in compliance.text()
    compliance.follow("a[href*='/identify/']")
    compliance.wait_for_text(f"Identify patron {number}: Tall man, red cap")
    for name, value in TEXT_FIELDS.items():
        compliance.type_into(f"[name={name}]", value)
    compliance.select_value("[name=tin_type]", "ssn_itin")
    compliance.select_value("[name=id_type]", "drivers_license")
    _set_date(compliance, "date_of_birth", "1980-05-17")
    _set_date(compliance, "id_expires_on", "2029-05-17")
    compliance.screenshot("ctr-identify")
    compliance.follow("#patron-identify button[type=submit]")

    compliance.wait_for_text(f"Patron {number} is identified: Ana Ruiz.")  # back on the worksheet
    assert "Complete" in compliance.read("dl.identification")
    assert "123456789" in compliance.read("dl.identification")  # compliance sees the TIN
    compliance.type_into("[name=bsa_id]", "31000123456789")
    _set_date(compliance, "filed_on", "2026-11-22")
    compliance.follow("#ctr-file button[type=submit]")

    compliance.wait_for_text("The CTR is recorded as filed on 2026-11-22, BSA ID 31000123456789.")
    assert compliance.read("#ctr-state-value") == "Filed"
    assert compliance.read("#ctr-bsa-id") == "31000123456789"
    assert not compliance.browser.find_elements(By.ID, "ctr-file")
    compliance.screenshot("ctr-worksheet-filed")

    compliance.open("/floor/compliance/ctrs/")
    compliance.wait_for_text("Currency transaction reports: filing")
    assert "2026-11-22, BSA ID 31000123456789" in compliance.read("#ctr-filing .ctr-filed")
    compliance.screenshot("ctr-list-filed")
    assert CtrFiling.objects.get().bsa_id == "31000123456789"

    compliance.follow("#ctr-filing a")
    compliance.follow("a[href*='/identify/']")
    compliance.wait_for_text(f"Correct the identification of patron {number}: Ana Ruiz")
    compliance.type_into("[name=street]", "7 Elm Road")
    compliance.follow("#patron-identify button[type=submit]")
    compliance.wait_for_text(f"Patron {number} identification is corrected: Ana Ruiz.")
    # The filed CTR keeps the identification it was filed with; the patron's page lists both.
    assert "100 Main Street" in compliance.read("dl.identification")
    compliance.open(f"/floor/patrons/{number}/")
    compliance.wait_for_text("Revisions")
    revisions = compliance.read("#identification-revisions")
    assert "7 Elm Road" in revisions
    assert "100 Main Street" in revisions
    compliance.screenshot("patron-identification-revisions")
