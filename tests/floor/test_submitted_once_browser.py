"""A money form double-clicked in a real Chromium records once: the page's script sends it once
(loaded from a file, no inline script) and the server records its key once."""

from collections.abc import Callable

import pytest
from selenium.webdriver.common.action_chains import ActionChains

from table_money.models import ChipRedemption, MtlEntry
from tests.floor.conftest import Console, chromium, console  # noqa: F401  (the browser fixtures)
from tests.support.api import TableActors

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_double_clicked_cash_out_is_paid_once(
    console: Callable[..., Console],  # noqa: F811  (the fixture imported above)
    make_table: Callable[..., TableActors],
) -> None:
    make_table("BJ-DBL")  # the house's accounts
    cashier = console("cage_cashier")
    cashier.open("/floor/cage/")
    cashier.find("#id_count_100000").send_keys("3")
    cashier.find("#id_count_10000").send_keys("1")
    cashier.find("[name=total]").send_keys("3,100")
    cashier.find("[name=description]").send_keys("Man, grey suit")
    cashier.follow("#redemption button[type=submit]")
    cashier.wait_for_text("Confirm and pay $3,100.00")

    ActionChains(cashier.browser).double_click(
        cashier.find("#cash-out-confirm button[type=submit]")
    ).perform()
    cashier.wait_for_text("Paid $3,100.00 to Man, grey suit.")

    cashier.wait_for(lambda b: "$3,100.00" in cashier.find("#redemptions").text)
    assert list(ChipRedemption.objects.values_list("amount_cents", flat=True)) == [310_000]
    assert MtlEntry.objects.count() == 1
    # The page shown again is a new render: its form is enabled, with a new key.
    assert cashier.find("#redemption button[type=submit]").is_enabled()
