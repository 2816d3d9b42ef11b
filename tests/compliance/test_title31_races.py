"""One patron's cash at two tables and the cage at the same moment: each request waits for the
patron's row, so the last CTR worksheet written holds every transaction, whatever came first."""

import pytest
from rest_framework.test import APIClient

from casino.ledger_checks import find_violations
from floor.compliance.day import latest_worksheets
from table_money.models import CashDirection, CtrWorksheet
from tests.support.api import TableActors, cash_buy_in, new_patron, redeem
from tests.support.gaming_day import GAMING_DAY
from tests.support.races import race

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("title31_clock")]


def test_simultaneous_cash_of_one_patron_is_aggregated_whole(
    open_tables: list[TableActors], supervisor_client: APIClient, cashier: APIClient
) -> None:
    patron = new_patron(
        supervisor_client, "Ana Ruiz", identification_type="passport", identification_reference="X1"
    )
    calls = [
        lambda: cash_buy_in(open_tables[0], 600_000, patron=patron),
        lambda: cash_buy_in(open_tables[1], 700_000, patron=patron),
        lambda: redeem(cashier, 550_000, patron=patron),
        lambda: redeem(cashier, 600_000, patron=patron),
    ]

    responses = race(lambda i: calls[i](), threads=len(calls))

    assert [r.status_code for r in responses] == [201] * len(calls)
    latest = {w.direction: w for w in latest_worksheets(gaming_day=GAMING_DAY)}
    assert latest[CashDirection.CASH_IN].total_cents == 1_300_000
    assert latest[CashDirection.CASH_OUT].total_cents == 1_150_000
    assert CtrWorksheet.objects.count() == 2  # each crossed the line with its second transaction only
    assert find_violations() == []
