"""The Title 31 pages in a real Chromium: compliance reads the gaming day's CTR and MTL and opens
the patron's page; the cashier pays out at the cage. Each page is saved as a screenshot."""

from collections.abc import Callable

import pytest
from rest_framework.test import APIClient

from table_money.models import ChipRedemption
from tests.support.api import TableActors, cash_buy_in, new_patron, ok
from tests.support.console import Console
from tests.support.gaming_day import GAMING_DAY

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("title31_clock")]


def test_compliance_reads_the_days_ctr_and_the_cashier_pays_out(
    console: Callable[..., Console],
    open_tables: list[TableActors],
    supervisor_client: APIClient,
) -> None:
    ana = new_patron(supervisor_client, "Ana Ruiz")
    ok(cash_buy_in(open_tables[0], 1_200_000, patron=ana), 201)
    ok(cash_buy_in(open_tables[1], 450_000, patron=ana), 201)

    compliance = console("compliance")
    compliance.follow(".mainnav a[href='/floor/compliance/']")
    compliance.wait_for_text(f"Title 31 records: gaming day {GAMING_DAY.isoformat()}")
    assert "$16,500.00" in compliance.read("#ctrs")
    assert "Needed" in compliance.read("#ctrs")  # Ana is not identified
    assert "BJ-T31-B" in compliance.read("#mtl")
    compliance.screenshot("compliance-day")

    compliance.follow("#identification-needed a")
    compliance.wait_for_text(f"Patron {ana}: Ana Ruiz")
    assert "$16,500.00" in compliance.read("#patron-days")
    compliance.screenshot("patron-page")

    compliance.open("/floor/patrons/?q=ruiz")
    assert "Ana Ruiz" in compliance.read("#patrons")
    compliance.screenshot("patrons-find")

    cashier = console("cage_cashier")
    cashier.wait_for_text("Cage: chip redemptions")  # signing in lands the cashier at the cage
    cashier.type_into("[name=patron]", str(ana))
    cashier.type_into("#id_count_100000", "3")
    cashier.type_into("#id_count_10000", "2")
    cashier.type_into("#id_total", "3,200")
    cashier.follow("#redemption button[type=submit]")
    cashier.wait_for_text("Confirm and pay $3,200.00")
    cashier.follow("#cash-out-confirm button[type=submit]")
    cashier.wait_for_text("Paid $3,200.00 to patron")
    assert "$3,200.00" in cashier.read("#redemptions")
    cashier.screenshot("cage")
    assert ChipRedemption.objects.get().patron.number == ana  # type: ignore[union-attr]
