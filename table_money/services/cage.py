"""The cage: chip redemptions (cash-outs).

A patron hands chips to a cage cashier and takes cash. Ledger (signed cents, `casino.ledger`),
a transaction at no table:

| movement | entries | why |
|---|---|---|
| chip redemption | cage +A, cage cash -A | the chips come into the cage's chip bank; the same value of cash leaves the cage's cash |

The redemption, its ledger transaction, its Title 31 records (`table_money.services.title31`) and
its audit event are written in one transaction; the redemption is never changed afterwards.
"""

import datetime as dt
from collections.abc import Mapping

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from audit.context import AuditActor
from audit.services import record_event
from casino import ledger
from casino.models import HOUSE_ACCOUNT_KINDS, Account, AccountKind, MovementKind
from kernel.errors import ServiceError
from kernel.formatting import dollars
from patrons.services import resolve_patron
from table_money.models import ChipRedemption
from table_money.services import title31
from table_money.services.accounting import chips_total_cents


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
) -> ChipRedemption:
    description = description.strip()
    if isinstance(amount_cents, bool) or not isinstance(amount_cents, int) or amount_cents <= 0:
        raise ServiceError(
            "invalid_amount", "A redemption is a positive number of cents.", field="amount_cents"
        )
    counted: dict[str, int] = {}
    if chips:
        total = chips_total_cents(chips)
        if total != amount_cents:
            raise ServiceError(
                "chips_do_not_add_up",
                f"The chips add up to {total} cents, not the {amount_cents} cents of `amount_cents`.",
                field="chips",
            )
        counted = {key: count for key, count in sorted(chips.items(), key=lambda kv: int(kv[0])) if count}
    patron = resolve_patron(patron_number)
    if patron is None and not description:
        raise ServiceError(
            "patron_or_description_required",
            "Name the patron by number, or describe a patron who is not on file.",
            field="description",
        )
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
        patron=patron,
        description="" if patron is not None else description,
        amount_cents=amount_cents,
        chips=counted,
        cashier_id=cashier.pk,
        created_at=now,
        gaming_day=posted.gaming_day,
        shift=posted.shift,
        transaction=posted,
    )
    redemption.cashier = cashier  # type: ignore[assignment]
    title31.record_cash_out(redemption=redemption, actor=actor, now=now)
    record_event(
        event_type="casino.cage.chips_redeemed",
        actor=actor,
        table_id=None,
        table_name="",
        subject_type="chip_redemption",
        subject_id=str(redemption.pk),
        subject_label=f"redemption of {dollars(amount_cents)} at the cage"
        + (f" by patron {patron.number}" if patron else f" by {description}"),
        after={
            "amount_cents": amount_cents,
            "chips": counted,
            "patron": patron.number if patron else None,
            "description": redemption.description,
            "gaming_day": redemption.gaming_day.isoformat(),
            "shift": redemption.shift,
        },
        occurred_at=now,
    )
    return redemption
