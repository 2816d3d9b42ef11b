"""Chip redemptions at the cage: chips in, cash out, through a balanced ledger transaction at no
table, audited, idempotent, written once; bad input changes nothing."""

import pytest
from django.db import DatabaseError, connection, transaction
from rest_framework.test import APIClient

from audit.models import AuditEvent
from casino.models import AccountKind, LedgerEntry, LedgerTransaction, MovementKind
from table_money.models import ChipRedemption
from tests.compliance.conftest import Staff
from tests.support.api import TableActors, new_patron, ok, post, problem, redeem
from tests.support.gaming_day import GAMING_DAY

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("title31_clock")]


def _state() -> tuple[int, int, int]:
    return ChipRedemption.objects.count(), LedgerEntry.objects.count(), AuditEvent.objects.count()


def test_a_redemption_takes_chips_into_the_cage_and_pays_cash_out(cashier: APIClient) -> None:
    number = new_patron(cashier, "Ana Ruiz")
    made = ok(redeem(cashier, 250_000, patron=number, chips={"100000": 2, "50000": 1}), 201)

    assert (made["patron"], made["amount_cents"], made["gaming_day"], made["shift"]) == (
        number,
        250_000,
        GAMING_DAY.isoformat(),
        "day",
    )
    assert made["chips"] == {"50000": 1, "100000": 2}
    assert made["mtl_logged"] is False
    posted = LedgerTransaction.objects.get(kind=MovementKind.REDEMPTION)
    assert posted.table is None
    assert sorted(posted.entries.values_list("account__kind", "amount_cents")) == [
        (AccountKind.CAGE, 250_000),
        (AccountKind.CAGE_CASH, -250_000),
    ]
    event = AuditEvent.objects.get(event_type="casino.cage.chips_redeemed")
    assert (event.after or {})["amount_cents"] == 250_000
    assert (event.after or {})["patron"] == number


def test_a_redemption_is_idempotent(cashier: APIClient) -> None:
    body = {"amount_cents": 40_000, "description": "Woman, green scarf"}
    first = post(cashier, "/api/v1/cage/redemptions/", body, key="cash-out-1")
    again = post(cashier, "/api/v1/cage/redemptions/", body, key="cash-out-1")
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert ChipRedemption.objects.count() == 1


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"amount_cents": 10_000}, 422, "patron_or_description_required"),
        ({"amount_cents": 10_000, "description": "   "}, 422, "patron_or_description_required"),
        ({"amount_cents": 10_000, "patron": 42}, 422, "unknown_patron"),
        ({"amount_cents": 10_000, "description": "x", "chips": {"2500": 3}}, 422, "chips_do_not_add_up"),
        ({"amount_cents": 10_000, "description": "x", "chips": {"3000": 3}}, 422, "unknown_denomination"),
        ({"amount_cents": 0, "description": "x"}, 400, "validation_error"),
        ({"amount_cents": -500, "description": "x"}, 400, "validation_error"),
        ({"amount_cents": "100", "description": "x"}, 400, "validation_error"),
    ],
)
def test_bad_redemptions_change_nothing(
    cashier: APIClient, body: dict[str, object], status: int, code: str
) -> None:
    before = _state()
    problem(post(cashier, "/api/v1/cage/redemptions/", body), status, code)
    assert _state() == before


def test_only_a_cage_cashier_redeems_chips(make_staff: Staff, table: TableActors) -> None:
    for role in ("floor_supervisor", "pit_boss", "compliance", "admin"):
        problem(redeem(make_staff(role)[1], 10_000, description="x"), 403, "role_not_allowed")
    problem(redeem(table.terminal, 10_000, description="x"), 403, "role_not_allowed")
    assert not ChipRedemption.objects.exists()


def test_redemptions_and_title31_records_are_never_rewritten(cashier: APIClient) -> None:
    number = new_patron(cashier, "Ana Ruiz", identification_type="passport", identification_reference="P-1")
    ok(redeem(cashier, 1_200_000, patron=number), 201)  # over the CTR line: MTL entry and CTR
    for table in ("casino_chipredemption", "casino_mtlentry", "casino_ctrworksheet"):
        for statement in (f"UPDATE {table} SET id = id", f"DELETE FROM {table}"):  # noqa: S608
            with transaction.atomic(), connection.cursor() as cursor:
                with pytest.raises(DatabaseError, match="not allowed"):
                    cursor.execute(statement)
                transaction.set_rollback(True)
