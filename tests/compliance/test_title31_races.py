"""One patron's cash at two tables and the cage at the same moment: each request waits for the
patron's row, so the last CTR worksheet written holds every transaction, whatever came first. And
CTR filings at the same moment: each worksheet filed once, each BSA ID used once."""

import datetime as dt
from dataclasses import replace

import pytest
from django.db import transaction
from rest_framework.test import APIClient

from audit.context import AuditActor
from casino.ledger_checks import find_violations
from floor.compliance.day import latest_worksheets
from kernel.errors import ConflictError
from patrons.services import identify_patron
from table_money.models import CashDirection, CtrFiling, CtrWorksheet
from table_money.services import filing
from tests.compliance.test_title31_filing_rules import COMPLETE as COMPLETE_DETAILS
from tests.support.api import TableActors, cash_buy_in, new_patron, redeem
from tests.support.factories import StaffFactory
from tests.support.gaming_day import CASINO_ZONE, GAMING_DAY, Clock
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


def test_simultaneous_filings_record_each_worksheet_and_each_bsa_id_once(
    open_tables: list[TableActors], supervisor_client: APIClient, title31_clock: Clock
) -> None:
    compliance = StaffFactory.create(username="compliance-race", role="compliance").user
    actor = AuditActor(kind="user", user_id=compliance.pk, username="compliance-race", role="compliance")
    worksheets = []
    for seat, last_name in ((1, "Ruiz"), (2, "Kim")):
        number = new_patron(supervisor_client, f"Patron at seat {seat}")
        cash_buy_in(open_tables[0], 1_200_000, patron=number, seat=seat)
        with transaction.atomic():
            identify_patron(
                number=number,
                details=replace(COMPLETE_DETAILS, last_name=last_name),
                user=compliance,
                actor=actor,
                now=title31_clock(),
            )
        worksheets.append(CtrWorksheet.objects.get(patron__number=number))
    title31_clock.set(dt.datetime(2026, 11, 22, 10, 0, tzinfo=CASINO_ZONE))
    # Eight filings at once: four of each worksheet, all with one BSA ID but the last two.
    bsa_ids = ["31000000000001"] * 6 + ["31000000000002", "31000000000003"]

    def file(i: int) -> str:
        try:
            with transaction.atomic(durable=True):
                filing.record_ctr_filing(
                    worksheet_id=worksheets[i % 2].pk,
                    bsa_id=bsa_ids[i],
                    filed_on=dt.date(2026, 11, 22),
                    user=compliance,
                    actor=actor,
                    now=title31_clock(),
                )
        except ConflictError as refused:
            return refused.code
        return "filed"

    outcomes = race(file)

    filings = list(CtrFiling.objects.order_by("worksheet_id"))
    assert [f.worksheet_id for f in filings] == sorted(w.pk for w in worksheets)  # each filed once
    assert len({f.bsa_id for f in filings}) == 2  # never one BSA ID for both
    assert outcomes.count("filed") == 2
    assert set(outcomes) - {"filed"} <= {"ctr_already_filed", "bsa_id_in_use"}
