"""Two cash-outs of one patron at two cage windows at the same moment: the patron's row is locked
before the day is read, so the second sees the first and is stopped at the CTR line."""

from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from audit.context import AuditActor
from casino.ledger_checks import find_violations
from kernel.errors import CodedError
from table_money.models import ChipRedemption
from table_money.services import cage
from tests.support.api import TableActors, new_patron
from tests.support.factories import StaffFactory
from tests.support.races import race

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("title31_clock")]


def test_two_windows_paying_one_patron_over_the_line_pay_once(
    open_tables: list[TableActors], supervisor_client: APIClient
) -> None:
    patron = new_patron(supervisor_client, "Ana Ruiz")
    cashiers = [StaffFactory.create(username=f"window-{i}", role="cage_cashier").user for i in range(2)]
    amounts = [600_000, 500_000]  # either alone is under the line; both are $11,000

    def pay(i: int) -> Any:
        try:
            return cage.redeem_chips(
                amount_cents=amounts[i],
                chips=None,
                patron_number=patron,
                description="",
                cashier=cashiers[i],
                actor=AuditActor(kind="system", username="tests"),
                now=timezone.now(),
            )
        except CodedError as refused:
            return refused.code

    outcomes = race(pay, threads=2)

    refused = [outcome for outcome in outcomes if isinstance(outcome, str)]
    assert refused == ["identification_required"]
    (paid,) = ChipRedemption.objects.all()
    assert paid.amount_cents in amounts
    assert find_violations() == []
