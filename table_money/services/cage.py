"""The cage: chip redemptions (cash-outs).

A patron hands chips to a cage cashier and takes cash. Ledger (signed cents, `casino.ledger`),
a transaction at no table:

| movement | entries | why |
|---|---|---|
| chip redemption | cage +A, cage cash -A | the chips come into the cage's chip bank; the same value of cash leaves the cage's cash |

Before paying, the cage checks the patron's gaming day (`check_cash_out`): a cash-out that
would take a patron who is not identified, or someone not on file, over the CTR line needs the
identification first (`table_money.engine.title31.identification_required`, 31 CFR 1010.312) and
is refused with `identification_required`, unless a floor supervisor or pit boss overrides the
stop with their own signature and a reason; the override is written on the redemption and
audited. The patron's row is locked before the day is read, so two cash-outs of one patron are
checked one after the other, each seeing the other.

The redemption, its ledger transaction, its Title 31 records (`table_money.services.title31`) and
its audit event are written in one transaction; the redemption is never changed afterwards.
"""

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from audit.context import AuditActor
from audit.services import record_event
from casino import ledger
from casino.models import HOUSE_ACCOUNT_KINDS, Account, AccountKind, MovementKind, StaffProfile, StaffRole
from kernel.errors import ConflictError, ForbiddenError, ServiceError
from kernel.formatting import dollars
from kernel.gaming_day import gaming_day_and_shift
from patrons.models import Patron
from patrons.services import resolve_patron
from table_money.engine.title31 import identification_required, over_ctr_line
from table_money.locks import lock_patron
from table_money.models import ChipRedemption
from table_money.services import title31
from table_money.services.accounting import checked_chips

# Who may sign an override of the identification stop.
OVERRIDE_ROLES = frozenset({StaffRole.FLOOR_SUPERVISOR, StaffRole.PIT_BOSS})


@dataclass(frozen=True)
class IdentificationOverride:
    """A supervisor's signature for paying without the identification (already authenticated)."""

    supervisor: AbstractBaseUser
    reason: str


@dataclass(frozen=True)
class CashOutCheck:
    """A cash-out as the cashier confirms it: who, what, and the patron's day with it."""

    patron: Patron | None
    description: str
    amount_cents: int
    chips: dict[str, int]
    gaming_day: dt.date
    cash_in_cents: int  # the patron's cash in of the gaming day (0 for someone not on file)
    cash_out_before_cents: int  # their cash out of the day before this one
    ctr_due: bool  # the day's cash out, with this one, is over the CTR line
    needs_identification: bool

    @property
    def cash_out_after_cents(self) -> int:
        return self.cash_out_before_cents + self.amount_cents

    @property
    def who(self) -> str:
        return f"patron {self.patron.number}" if self.patron is not None else self.description


def check_cash_out(
    *,
    amount_cents: int,
    chips: Mapping[str, int] | None,
    patron_number: int | None,
    description: str,
    now: dt.datetime,
) -> CashOutCheck:
    """Check a cash-out and read the patron's gaming day with it; nothing is written or locked
    (the payment checks again under the patron's lock)."""
    description = description.strip()
    if isinstance(amount_cents, bool) or not isinstance(amount_cents, int) or amount_cents <= 0:
        raise ServiceError(
            "invalid_amount", "A redemption is a positive number of cents.", field="amount_cents"
        )
    counted = checked_chips(chips, amount_cents=amount_cents, field="amount_cents") if chips else {}
    patron = resolve_patron(patron_number)
    if patron is None and not description:
        raise ServiceError(
            "patron_or_description_required",
            "Name the patron by number, or describe a patron who is not on file.",
            field="description",
        )
    gaming_day, _ = gaming_day_and_shift(now)
    # Someone not on file is a subject of their own transaction only: nothing adds to it.
    day = title31.cash_of_day(patron=patron, gaming_day=gaming_day) if patron is not None else None
    cash_out_after = (day.cash_out_cents if day else 0) + amount_cents
    threshold = settings.CASINO_CTR_THRESHOLD_CENTS
    return CashOutCheck(
        patron=patron,
        description="" if patron is not None else description,
        amount_cents=amount_cents,
        chips=counted,
        gaming_day=gaming_day,
        cash_in_cents=day.cash_in_cents if day else 0,
        cash_out_before_cents=day.cash_out_cents if day else 0,
        ctr_due=over_ctr_line(cash_out_after, ctr_threshold_cents=threshold),
        needs_identification=identification_required(
            identified=patron is not None and patron.is_identified,
            day_total_cents=cash_out_after,
            ctr_threshold_cents=threshold,
        ),
    )


def _identification_stop(check: CashOutCheck) -> ConflictError:
    if check.patron is None:
        what = (
            f"{check.description} is not on file: put them on file and identify them, or have a "
            "supervisor override the stop."
        )
    else:
        what = (
            f"Patron {check.patron.number} is not identified: identify them, or have a supervisor "
            "override the stop."
        )
    return ConflictError(
        "identification_required",
        f"Paying {dollars(check.amount_cents)} takes the gaming day's cash out to "
        f"{dollars(check.cash_out_after_cents)}, over the CTR line of "
        f"{dollars(settings.CASINO_CTR_THRESHOLD_CENTS)}. {what}",
    )


def _checked_override(override: IdentificationOverride, *, cashier: AbstractBaseUser) -> str:
    reason = override.reason.strip()
    if not reason:
        raise ServiceError("reason_required", "An override needs a reason.", field="override_reason")
    profile = StaffProfile.objects.filter(user_id=override.supervisor.pk).first()
    if profile is None or profile.role not in OVERRIDE_ROLES or not override.supervisor.is_active:
        raise ForbiddenError(
            "override_not_allowed", "Only a floor supervisor or a pit boss overrides the identification stop."
        )
    if override.supervisor.pk == cashier.pk:
        raise ForbiddenError("override_not_allowed", "The cashier does not override their own stop.")
    return reason


@transaction.atomic
def redeem_chips(
    *,
    amount_cents: int,
    chips: Mapping[str, int] | None,
    patron_number: int | None,
    description: str,
    cashier: AbstractBaseUser,
    actor: AuditActor,
    now: dt.datetime,
    override: IdentificationOverride | None = None,
) -> ChipRedemption:
    """Pay a cash-out: refused with `identification_required` when it needs the patron identified
    and no supervisor overrides the stop (an override where none is needed is not recorded)."""
    patron = resolve_patron(patron_number)
    if patron is not None:
        lock_patron(patron_id=patron.pk)
    # Read under the lock: the day as it stands now, and the patron identified while we waited.
    check = check_cash_out(
        amount_cents=amount_cents,
        chips=chips,
        patron_number=patron_number,
        description=description,
        now=now,
    )
    override_reason = ""
    if check.needs_identification:
        if override is None:
            raise _identification_stop(check)
        override_reason = _checked_override(override, cashier=cashier)
    overridden_by = override.supervisor if override_reason and override is not None else None
    for kind in HOUSE_ACCOUNT_KINDS:
        Account.objects.get_or_create(kind=kind, table=None)
    posted = ledger.post(
        kind=MovementKind.REDEMPTION,
        table=None,
        now=now,
        memo=f"chip redemption of {amount_cents}c at the cage",
        entries=[(AccountKind.CAGE, amount_cents), (AccountKind.CAGE_CASH, -amount_cents)],
    )
    redemption = ChipRedemption.objects.create(
        patron=check.patron,
        description=check.description,
        amount_cents=amount_cents,
        chips=check.chips,
        cashier_id=cashier.pk,
        created_at=now,
        gaming_day=posted.gaming_day,
        shift=posted.shift,
        transaction=posted,
        identification_override_by_id=overridden_by.pk if overridden_by is not None else None,
        identification_override_reason=override_reason,
    )
    redemption.cashier = cashier  # type: ignore[assignment]
    title31.record_cash_out(redemption=redemption, actor=actor, now=now)
    label = f"redemption of {dollars(amount_cents)} at the cage by {check.who}"
    after: dict[str, object] = {
        "amount_cents": amount_cents,
        "chips": check.chips,
        "patron": check.patron.number if check.patron else None,
        "description": redemption.description,
        "gaming_day": redemption.gaming_day.isoformat(),
        "shift": redemption.shift,
        "day_cash_out_cents": check.cash_out_after_cents,
    }
    if overridden_by is not None:
        after["identification_override"] = {"by": overridden_by.get_username(), "reason": override_reason}
        record_event(
            event_type="compliance.identification.overridden",
            actor=actor,
            table_id=None,
            table_name="",
            subject_type="chip_redemption",
            subject_id=str(redemption.pk),
            subject_label=label[:200],
            after={
                "supervisor": overridden_by.get_username(),
                "reason": override_reason,
                "day_cash_out_cents": check.cash_out_after_cents,
                "ctr_threshold_cents": settings.CASINO_CTR_THRESHOLD_CENTS,
            },
            occurred_at=now,
        )
    record_event(
        event_type="casino.cage.chips_redeemed",
        actor=actor,
        table_id=None,
        table_name="",
        subject_type="chip_redemption",
        subject_id=str(redemption.pk),
        subject_label=label[:200],
        after=after,
        occurred_at=now,
    )
    return redemption
