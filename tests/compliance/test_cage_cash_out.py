"""The cage's cash-out against the CTR line (31 CFR 1021.311, 1010.312): the patron's gaming day
read before paying, the stop for identification, a supervisor's override, chips by denomination.
A refused cash-out changes nothing."""

from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from audit.context import AuditActor
from audit.models import AuditEvent
from casino.models import LedgerEntry
from kernel.errors import ConflictError, ForbiddenError, ServiceError
from patrons.identification import IdentificationDetails
from patrons.services import identify_patron
from table_money.engine.title31 import identification_required
from table_money.models import CashDirection, ChipRedemption, CtrWorksheet, MtlEntry
from table_money.services import cage
from tests.support.api import TableActors, cash_buy_in, new_patron, ok
from tests.support.factories import StaffFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("title31_clock")]

ACTOR = AuditActor(kind="system", username="tests")


def _state() -> dict[str, int]:
    return {
        "redemptions": ChipRedemption.objects.count(),
        "mtl": MtlEntry.objects.count(),
        "ctr": CtrWorksheet.objects.count(),
        "ledger_entries": LedgerEntry.objects.count(),
        "audit_events": AuditEvent.objects.count(),
    }


def _user(role: str, username: str) -> Any:
    return StaffFactory.create(username=username, role=role).user


@pytest.fixture
def cashier_user() -> Any:
    return _user("cage_cashier", "cashier-window-1")


def _pay(cashier: Any, cents: int, **options: Any) -> ChipRedemption:
    options.setdefault("patron_number", None)
    options.setdefault("description", "")
    options.setdefault("chips", None)
    return cage.redeem_chips(amount_cents=cents, cashier=cashier, actor=ACTOR, now=timezone.now(), **options)


def test_the_one_rule_is_over_the_line_and_not_identified() -> None:
    assert identification_required(identified=False, day_total_cents=1_000_001, ctr_threshold_cents=1_000_000)
    assert not identification_required(
        identified=False, day_total_cents=1_000_000, ctr_threshold_cents=1_000_000
    )
    assert not identification_required(
        identified=True, day_total_cents=5_000_000, ctr_threshold_cents=1_000_000
    )


def test_the_check_shows_the_patrons_day_with_this_payment(
    open_tables: list[TableActors], supervisor_client: APIClient, cashier_user: Any
) -> None:
    ana = new_patron(supervisor_client, "Ana Ruiz")
    ok(cash_buy_in(open_tables[0], 800_000, patron=ana), 201)
    ok(cash_buy_in(open_tables[1], 150_000, patron=ana, method="marker"), 201)  # credit, not cash
    _pay(cashier_user, 300_000, patron_number=ana)

    check = cage.check_cash_out(
        amount_cents=450_000,
        chips={"100000": 4, "50000": 1},
        patron_number=ana,
        description="",
        now=timezone.now(),
    )

    assert (check.cash_in_cents, check.cash_out_before_cents, check.cash_out_after_cents) == (
        800_000,
        300_000,
        750_000,
    )
    assert (check.ctr_due, check.needs_identification) == (False, False)
    assert check.chips == {"50000": 1, "100000": 4}
    over = cage.check_cash_out(
        amount_cents=700_001, chips=None, patron_number=ana, description="", now=timezone.now()
    )
    assert (over.cash_out_after_cents, over.ctr_due, over.needs_identification) == (1_000_001, True, True)


def test_an_unidentified_patron_is_stopped_at_the_line_and_nothing_changes(
    open_tables: list[TableActors], supervisor_client: APIClient, cashier_user: Any
) -> None:
    bea = new_patron(supervisor_client, "Bea Kim")
    _pay(cashier_user, 600_000, patron_number=bea)
    before = _state()

    with pytest.raises(ConflictError) as stopped:
        _pay(cashier_user, 650_000, patron_number=bea)

    assert stopped.value.code == "identification_required"
    assert "$12,500.00, over the CTR line of $10,000.00" in stopped.value.detail
    assert f"Patron {bea} is not identified" in stopped.value.detail
    assert _state() == before
    # Up to the line itself it pays: "more than $10,000".
    _pay(cashier_user, 400_000, patron_number=bea)
    assert ChipRedemption.objects.filter(patron__number=bea).count() == 2
    assert not CtrWorksheet.objects.exists()


def test_once_identified_the_patron_is_paid_and_the_ctr_is_ready_to_file(
    open_tables: list[TableActors], supervisor_client: APIClient, cashier_user: Any
) -> None:
    bea = new_patron(supervisor_client, "Bea Kim")
    _pay(cashier_user, 600_000, patron_number=bea)
    with pytest.raises(ConflictError):
        _pay(cashier_user, 650_000, patron_number=bea)

    identify_patron(
        number=bea,
        details=IdentificationDetails(
            last_name="Kim", first_name="Bea", id_type="drivers_license", id_number="NV-123"
        ),
        user=cashier_user,
        actor=ACTOR,
        now=timezone.now(),
    )
    paid = _pay(cashier_user, 650_000, patron_number=bea)

    assert paid.identification_override_by is None
    (worksheet,) = CtrWorksheet.objects.filter(direction=CashDirection.CASH_OUT)
    assert (worksheet.total_cents, worksheet.identified) == (1_250_000, True)


def test_someone_not_on_file_is_stopped_over_the_line_on_their_own_transaction(
    open_tables: list[TableActors], cashier_user: Any
) -> None:
    _pay(cashier_user, 900_000, description="Man, grey suit")  # not aggregated: not on file
    before = _state()
    with pytest.raises(ConflictError) as stopped:
        _pay(cashier_user, 1_000_001, description="Man, grey suit")
    assert stopped.value.code == "identification_required"
    assert "Man, grey suit is not on file" in stopped.value.detail
    assert _state() == before


def test_a_supervisors_override_pays_and_is_on_the_record(
    open_tables: list[TableActors], supervisor_client: APIClient, cashier_user: Any
) -> None:
    bea = new_patron(supervisor_client, "Bea Kim")
    boss = _user("pit_boss", "boss-window")
    reason = "Regular patron; ID in the car, security escorting"

    paid = _pay(
        cashier_user,
        1_100_000,
        patron_number=bea,
        chips={"500000": 2, "100000": 1},
        override=cage.IdentificationOverride(supervisor=boss, reason=f"  {reason} "),
    )

    assert (paid.identification_override_by, paid.identification_override_reason) == (boss, reason)
    overridden = AuditEvent.objects.get(event_type="compliance.identification.overridden")
    assert overridden.after == {
        "supervisor": "boss-window",
        "reason": reason,
        "day_cash_out_cents": 1_100_000,
        "ctr_threshold_cents": 1_000_000,
    }
    redeemed = AuditEvent.objects.get(event_type="casino.cage.chips_redeemed")
    assert (redeemed.after or {})["identification_override"] == {"by": "boss-window", "reason": reason}
    (worksheet,) = CtrWorksheet.objects.all()
    assert (worksheet.total_cents, worksheet.identified) == (1_100_000, False)  # compliance sees it flagged


def test_an_override_where_none_is_needed_is_not_recorded(
    open_tables: list[TableActors], cashier_user: Any
) -> None:
    boss = _user("floor_supervisor", "super-window")
    paid = _pay(
        cashier_user,
        50_000,
        description="Woman, red coat",
        override=cage.IdentificationOverride(supervisor=boss, reason="not needed"),
    )
    assert (paid.identification_override_by, paid.identification_override_reason) == (None, "")
    assert not AuditEvent.objects.filter(event_type="compliance.identification.overridden").exists()


@pytest.mark.parametrize(
    ("role", "reason", "code"),
    [
        ("cage_cashier", "a second cashier", "override_not_allowed"),
        ("count_team", "count room", "override_not_allowed"),
        ("compliance", "compliance", "override_not_allowed"),
        ("pit_boss", "   ", "reason_required"),
    ],
)
def test_only_a_supervisor_with_a_reason_overrides_and_a_refusal_changes_nothing(
    open_tables: list[TableActors], cashier_user: Any, role: str, reason: str, code: str
) -> None:
    signer = _user(role, f"{role}-signer")
    before = _state()
    with pytest.raises(ServiceError) as refused:
        _pay(
            cashier_user,
            1_200_000,
            description="Man, grey suit",
            override=cage.IdentificationOverride(supervisor=signer, reason=reason),
        )
    assert refused.value.code == code
    assert _state() == before


def test_the_cashier_does_not_override_their_own_stop(open_tables: list[TableActors]) -> None:
    # A pit boss working the window is still the cashier of the payment.
    boss = _user("pit_boss", "boss-at-window")
    with pytest.raises(ForbiddenError):
        _pay(
            boss,
            1_200_000,
            description="Man, grey suit",
            override=cage.IdentificationOverride(supervisor=boss, reason="me"),
        )
    assert not ChipRedemption.objects.exists()


@pytest.mark.parametrize(
    ("chips", "code"),
    [
        ({"100000": 3}, "chips_do_not_add_up"),
        ({"100000": 3, "10000": 2}, "chips_do_not_add_up"),
        ({"700": 1}, "unknown_denomination"),
        ({"100000": -1}, "invalid_chip_count"),
    ],
)
def test_the_chips_must_add_up_to_the_amount(
    open_tables: list[TableActors], cashier_user: Any, chips: dict[str, int], code: str
) -> None:
    before = _state()
    with pytest.raises(ServiceError) as refused:
        _pay(cashier_user, 310_000, description="Man, grey suit", chips=chips)
    assert refused.value.code == code
    assert _state() == before
    paid = _pay(cashier_user, 310_000, description="Man, grey suit", chips={"100000": 3, "10000": 1})
    assert paid.chips == {"10000": 1, "100000": 3}
