"""Title 31 (31 CFR 1021.311/313): the MTL, and CTR worksheets from each patron's cash-in and
cash-out of a gaming day, aggregated separately and recomputed from the transactions."""

import datetime as dt
from typing import Any, cast

import pytest
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st
from rest_framework.test import APIClient

from audit.models import AuditEvent
from floor.compliance.day import latest_worksheets
from table_money.engine.title31 import CashTransaction, Direction, ctrs_due
from table_money.models import CashDirection, ChipRedemption, CtrWorksheet, MtlEntry
from tests.support.api import TableActors, cash_buy_in, new_patron, ok, post, problem, redeem
from tests.support.factories import StaffFactory
from tests.support.gaming_day import GAMING_DAY, Clock

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("title31_clock")]


def _latest(direction: str) -> list[CtrWorksheet]:
    return [w for w in latest_worksheets(gaming_day=GAMING_DAY) if w.direction == direction]


def test_the_issues_patron_over_the_line_at_two_tables_gets_one_ctr_and_the_other_none(
    open_tables: list[TableActors], supervisor_client: APIClient, title31_clock: Clock
) -> None:
    first, second = open_tables
    over = new_patron(
        supervisor_client, "Ana Ruiz", identification_type="passport", identification_reference="X1"
    )
    under = new_patron(supervisor_client, "Bea Kim")

    ok(cash_buy_in(first, 1_200_000, patron=over), 201)
    title31_clock.advance(minutes=20)
    ok(cash_buy_in(second, 450_000, patron=over, seat=3), 201)
    ok(cash_buy_in(first, 500_000, patron=under, seat=2), 201)
    ok(cash_buy_in(second, 400_000, patron=under, seat=4), 201)
    ok(cash_buy_in(second, 2_000_000, patron=under, seat=4, method="marker"), 201)  # credit, not cash

    (ctr,) = _latest(CashDirection.CASH_IN)
    assert (ctr.patron.number, ctr.total_cents, ctr.identified) == (over, 1_650_000, True)  # type: ignore[union-attr]
    assert [(t["location"], t["amount_cents"]) for t in ctr.transactions] == [
        ("BJ-T31-A", 1_200_000),
        ("BJ-T31-B", 450_000),
    ]
    assert ctr.revision == 2  # the $12,000 raised it, the $4,500 revised it
    assert CtrWorksheet.objects.filter(patron__number=under).count() == 0
    logged = MtlEntry.objects.filter(gaming_day=GAMING_DAY).order_by("occurred_at", "pk")
    assert [(e.patron.number, e.amount_cents, e.location) for e in logged] == [  # type: ignore[union-attr]
        (over, 1_200_000, "BJ-T31-A"),
        (over, 450_000, "BJ-T31-B"),
        (under, 500_000, "BJ-T31-A"),
        (under, 400_000, "BJ-T31-B"),
    ]
    # The dealer by name or badge, never both the same ("Dealer D599274 (dealer D599274)").
    assert all(e.dealer is not None and e.employee.count(e.dealer.badge) == 1 for e in logged)
    assert all(e.employee.startswith("Dealer ") and "Dealer Dealer" not in e.employee for e in logged)
    assert [e.event_type for e in AuditEvent.objects.filter(event_type__startswith="compliance.ctr")] == [
        "compliance.ctr.raised",
        "compliance.ctr.revised",
    ]


def test_cash_out_is_aggregated_apart_from_cash_in(
    open_tables: list[TableActors], supervisor_client: APIClient, cashier: APIClient
) -> None:
    patron = new_patron(supervisor_client, "Cy Dorn")
    ok(cash_buy_in(open_tables[0], 800_000, patron=patron), 201)
    ok(redeem(cashier, 600_000, patron=patron), 201)
    assert not CtrWorksheet.objects.exists()  # $8,000 in and $6,000 out: neither over the line

    # $5,000 more would take Cy, not identified, over the line: the cage stops and pays nothing.
    problem(redeem(cashier, 500_000, patron=patron), 409, "identification_required")
    assert not CtrWorksheet.objects.exists()
    assert ChipRedemption.objects.count() == 1
    ok(
        post(
            cashier,
            f"/api/v1/patrons/{patron}/identify/",
            {
                "last_name": "Dorn",
                "first_name": "Cy",
                "identification_type": "drivers_license",
                "identification_reference": "D-9",
            },
        ),
        200,
    )

    ok(redeem(cashier, 500_000, patron=patron), 201)
    (ctr,) = _latest(CashDirection.CASH_OUT)
    assert (ctr.total_cents, ctr.identified, ctr.revision) == (1_100_000, True, 1)
    assert [t["location"] for t in ctr.transactions] == ["Cage", "Cage"]
    assert not _latest(CashDirection.CASH_IN)
    assert MtlEntry.objects.filter(direction=CashDirection.CASH_OUT, cashier__isnull=False).count() == 2


def test_small_transactions_count_toward_the_ctr_without_going_on_the_mtl(
    open_tables: list[TableActors], supervisor_client: APIClient
) -> None:
    patron = new_patron(supervisor_client, "Dee")
    for seat in (1, 2, 3):
        ok(cash_buy_in(open_tables[0], 299_999, patron=patron, seat=seat), 201)
    assert not CtrWorksheet.objects.exists()
    assert not MtlEntry.objects.exists()

    ok(cash_buy_in(open_tables[1], 100_004, patron=patron), 201)  # $10,000.01: "more than $10,000"
    (ctr,) = _latest(CashDirection.CASH_IN)
    assert ctr.total_cents == 1_000_001
    assert len(ctr.transactions) == 4
    assert not MtlEntry.objects.exists()


def test_exactly_the_ctr_threshold_is_not_over_it(
    open_tables: list[TableActors], supervisor_client: APIClient
) -> None:
    patron = new_patron(supervisor_client, "Eve")
    ok(cash_buy_in(open_tables[0], 1_000_000, patron=patron), 201)
    assert not CtrWorksheet.objects.exists()
    assert MtlEntry.objects.count() == 1


def test_someone_not_on_file_over_the_line_gets_a_flagged_ctr_of_their_own(
    open_tables: list[TableActors], cashier: APIClient
) -> None:
    ok(cash_buy_in(open_tables[0], 1_500_000, patron=None), 201)
    # At the cage, someone not on file is stopped before the line: they are put on file first.
    problem(redeem(cashier, 1_100_000, description="Man, grey suit"), 409, "identification_required")
    ins, outs = _latest(CashDirection.CASH_IN), _latest(CashDirection.CASH_OUT)
    assert [(w.patron, w.description, w.identified) for w in ins] == [
        (None, "Player at BJ-T31-A seat 1", False)
    ]
    assert outs == []
    assert not ChipRedemption.objects.exists()


def test_the_floor_shows_the_ctr_on_the_tables_where_the_cash_came_in(
    open_tables: list[TableActors], supervisor_client: APIClient
) -> None:
    patron = new_patron(supervisor_client, "Ana Ruiz")
    ok(cash_buy_in(open_tables[1], 1_100_000, patron=patron), 201)
    boss = StaffFactory.create(
        username="boss", role="compliance", password="pw-2026-boss", now=dt.datetime.now(dt.UTC)
    )
    browser = Client()
    browser.force_login(cast(Any, boss.user))
    page = browser.get("/floor/pit-map/").content.decode()
    assert f"CTR: Patron {patron} Ana Ruiz has bought in $11,000.00 cash" in page
    assert "Identification needed before filing." in page


# --- the aggregation, for any order --------------------------------------------------------------

_START = dt.datetime(2026, 11, 20, 14, 0, tzinfo=dt.UTC)
_transactions = st.lists(
    st.builds(
        lambda n, subject, direction, day, cents, minutes: CashTransaction(
            source="buy_in" if direction == Direction.CASH_IN else "redemption",
            id=n,
            subject=f"patron:{100_001 + subject}",
            direction=direction,
            gaming_day=GAMING_DAY + dt.timedelta(days=day),
            amount_cents=cents,
            at=_START + dt.timedelta(minutes=minutes),
        ),
        n=st.integers(1, 10**6),
        subject=st.integers(0, 3),
        direction=st.sampled_from(list(Direction)),
        day=st.integers(0, 1),
        cents=st.integers(1, 800_000),
        minutes=st.integers(0, 600),
    ),
    max_size=25,
    unique_by=lambda t: (t.source, t.id),
)


def _as_filed(due: dict[Any, Any]) -> dict[Any, tuple[int, list[tuple[str, int]]]]:
    return {
        key: (total.total_cents, [(t.source, t.id) for t in total.transactions]) for key, total in due.items()
    }


@given(transactions=_transactions, order=st.randoms(use_true_random=False))
def test_ctr_aggregation_is_order_independent_and_incremental_equals_batch(
    transactions: list[CashTransaction], order: Any
) -> None:
    shuffled = list(transactions)
    order.shuffle(shuffled)
    batch = _as_filed(ctrs_due(transactions, ctr_threshold_cents=1_000_000))
    assert _as_filed(ctrs_due(shuffled, ctr_threshold_cents=1_000_000)) == batch
    assert _as_filed(ctrs_due(shuffled + shuffled[:3], ctr_threshold_cents=1_000_000)) == batch  # idempotent

    # As the service does it: after each transaction, recompute; the last worksheet written for a
    # subject-day-direction is the batch's answer, whatever the order they came in.
    filed: dict[Any, tuple[int, list[tuple[str, int]]]] = {}
    for seen in range(1, len(shuffled) + 1):
        filed.update(_as_filed(ctrs_due(shuffled[:seen], ctr_threshold_cents=1_000_000)))
    assert filed == batch
    for key, (total, members) in batch.items():
        assert total > 1_000_000
        assert {m for m in members} == {
            (t.source, t.id) for t in transactions if (t.subject, t.gaming_day, t.direction) == key
        }
        assert key[2] in (Direction.CASH_IN, Direction.CASH_OUT)


def test_the_same_cash_in_either_order_gives_the_same_worksheet(
    make_table: Any, supervisor_client: APIClient, title31_clock: Clock
) -> None:
    from tests.compliance.conftest import BANK
    from tests.support.api import open_table

    tables = [make_table("BJ-ORD-1"), make_table("BJ-ORD-2")]
    for actors in tables:
        ok(open_table(supervisor_client, actors, BANK), 201)
    amounts = [450_000, 1_200_000, 150_000]
    first, second = new_patron(supervisor_client, "First"), new_patron(supervisor_client, "Second")
    for patron, sequence in ((first, amounts), (second, list(reversed(amounts)))):
        for seat, cents in enumerate(sequence, start=1):
            ok(cash_buy_in(tables[seat % 2], cents, patron=patron, seat=seat), 201)
    by_patron = {w.patron.number: w for w in _latest(CashDirection.CASH_IN)}  # type: ignore[union-attr]
    assert by_patron[first].total_cents == by_patron[second].total_cents == 1_800_000
    assert sorted(t["amount_cents"] for t in by_patron[first].transactions) == sorted(amounts)
    assert sorted(t["amount_cents"] for t in by_patron[second].transactions) == sorted(amounts)
