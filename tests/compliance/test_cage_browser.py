"""The cage window in a real Chromium, as the cage cashier works it: a cash-out that would take an
unidentified patron over the CTR line stops, the patron is identified on their page, and the
cash-out is then paid; a fill approved on the floor is issued by the cage to a named runner,
signed in at the table, and its printed slip shows the whole chain. Each page is a screenshot."""

from collections.abc import Callable

import pytest
from rest_framework.test import APIClient

from casino.models import Pit
from patrons.models import Patron
from table_money.models import ChipRedemption, HandoverStep, SlipHandover
from tests.support.api import TableActors, cash_buy_in, new_patron, ok, post, request_slip
from tests.support.console import Console

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("title31_clock")]


def _cash_out(cashier: Console, patron: int) -> None:
    """The form filled as the cashier fills it: the patron, then $11,000 in chips."""
    cashier.open("/floor/cage/")
    cashier.type_into("[name=patron]", str(patron))
    cashier.wait_for(lambda b: "Cash out today" in cashier.read("#patron-day"), "the patron's day")
    cashier.type_into("#id_count_500000", "2")
    cashier.type_into("#id_count_100000", "1")
    cashier.type_into("#id_total", "11,000.00")
    cashier.follow("#redemption button[type=submit]")


def test_a_cash_out_stops_at_the_ctr_line_until_the_patron_is_identified(
    console: Callable[..., Console], open_tables: list[TableActors], supervisor_client: APIClient
) -> None:
    bea = new_patron(supervisor_client, "Bea Kim")
    ok(cash_buy_in(open_tables[0], 900_000, patron=bea), 201)
    cashier = console("cage_cashier")
    cashier.wait_for_text("Cage: chip redemptions")

    cashier.open("/floor/cage/")
    cashier.type_into("[name=patron]", str(bea))
    cashier.wait_for(lambda b: "$9,000.00" in cashier.read("#patron-day"), "Bea's cash in today")
    assert "not identified" in cashier.read("#patron-day")
    cashier.screenshot("cage-patron-day")

    _cash_out(cashier, bea)
    cashier.wait_for_text("Stop: identify the patron before paying.")
    assert "$11,000.00" in cashier.read("#cash-out-after")
    assert "Due" in cashier.read("#ctr-due")
    assert "$5,000.00" in cashier.read("#cash-out-summary table.chips")
    cashier.screenshot("cage-identification-stop")
    assert not ChipRedemption.objects.exists()

    cashier.follow("#identification-stop a")
    cashier.wait_for_text(f"Patron {bea}: Bea Kim")
    cashier.follow("a[href*='/identify/']")
    cashier.wait_for_text(f"Identify patron {bea}: Bea Kim")
    cashier.type_into("[name=last_name]", "Kim")
    cashier.type_into("[name=first_name]", "Bea")
    cashier.select_value("[name=id_type]", "drivers_license")
    cashier.type_into("[name=id_number]", "NV-5512")
    cashier.follow("#patron-identify button[type=submit]")
    cashier.wait_for_text(f"Patron {bea} is identified")
    assert Patron.objects.get(number=bea).is_identified

    _cash_out(cashier, bea)
    cashier.wait_for_text("Confirm and pay $11,000.00")
    assert "identified" in cashier.read("#cash-out-summary")
    cashier.screenshot("cage-confirm")
    cashier.follow("#cash-out-confirm button[type=submit]")
    cashier.wait_for_text(f"Paid $11,000.00 to patron {bea}.")
    assert "$11,000.00" in cashier.read("#redemptions")
    cashier.screenshot("cage-paid")
    (paid,) = ChipRedemption.objects.all()
    assert (paid.amount_cents, paid.chips, paid.identification_override_by) == (
        1_100_000,
        {"100000": 1, "500000": 2},
        None,
    )


def test_a_fill_is_issued_by_the_cage_to_a_named_runner_and_shown_on_the_slip(
    console: Callable[..., Console], open_tables: list[TableActors], supervisor_client: APIClient
) -> None:
    table = open_tables[0]
    fill = ok(request_slip(table.terminal, "fill", {"10000": 20, "2500": 8}), 201)
    ok(post(supervisor_client, f"/api/v1/fills/{fill['id']}/approve/"), 200)

    cashier = console("cage_cashier")
    cashier.open("/floor/cage/")
    row = f"#cage-fill-{fill['number']}"
    assert "Awaiting: issued by the cage" in cashier.read(row)
    cashier.type_into(f"{row} [name=runner_name]", "Sam Ortiz")
    cashier.type_into(f"{row} [name=runner_badge]", "S-414")
    cashier.follow(f"{row} button[type=submit]")
    cashier.wait_for_text("is issued to Sam Ortiz (badge S-414).")
    assert "carried by Sam Ortiz (badge S-414)" in cashier.read(row)
    cashier.screenshot("cage-fill-issued")

    pit: Pit = table.table.pit
    boss = console("pit_boss", pits=(pit,))
    boss.open(f"/floor/tables/{table.table.pk}/")
    slip_row = f"#slip-fill-{fill['number']}"
    assert "Awaiting: received at the table" in boss.read(slip_row)
    boss.follow(f"{slip_row} button[type=submit]")
    boss.wait_for_text("is received at BJ-T31-A.")
    boss.follow(f"{slip_row} a[href$='/print/']")
    boss.wait_for_text("Chain of custody")
    chain = boss.read("#slip-chain")
    for text in (
        "Requested",
        "at the terminal",
        "Approved",
        "Issued by the cage",
        "carried by Sam Ortiz (badge S-414)",
        "Received at the table",
    ):
        assert text in chain, text
    assert "ORIGINAL" in boss.text()
    boss.screenshot("slip-chain-print")
    assert list(SlipHandover.objects.order_by("pk").values_list("step", flat=True)) == [
        HandoverStep.ISSUED_BY_CAGE,
        HandoverStep.RECEIVED_AT_TABLE,
    ]
