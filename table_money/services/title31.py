"""Title 31 records, written in the transaction that moves the cash (31 CFR 1021.311/313).

Called by the write paths of cash, never on their own: `record_cash_in` by a cash buy-in
(`table_money.services.accounting.record_buy_in`), `record_cash_out` by a chip redemption
(`table_money.services.cage.redeem_chips`), `record_cage_cash` by any other cash the cage takes in
or pays out (a tournament's entry, prize or refund: `tournaments.services`), which it stores as a
`CageCash` row named by the source's reference. Markers are credit, not cash, and chips are not
currency: neither is logged nor aggregated. Every kind counts with the others: a patron's cash
buy-ins, cash entries and other cash in of a day make one cash-in total, their redemptions,
cash prizes and cash refunds one cash-out total.

- A transaction at or above `CASINO_MTL_THRESHOLD_CENTS` gets its `MtlEntry`.
- The patron's cash of that gaming day and direction is then recomputed from every transaction
  (`table_money.engine.title31`: in any order, the same total). Over `CASINO_CTR_THRESHOLD_CENTS`, a
  `CtrWorksheet` is written when none exists yet, or as the next revision when the day's
  transactions have changed since the last one; a recomputation that finds nothing new writes
  nothing. Someone not on file is a subject of their own transaction only.
- A worksheet of a patron who is not identified (or of someone not on file) is flagged for
  identification: at a table the chips have already moved, so the buy-in stands and compliance
  identifies the patron (`patrons.services.identify_patron`) before filing. The cage stops a
  cash-out that would need identification (`table_money.engine.title31.identification_required`)
  unless a supervisor overrides the stop (`table_money.services.cage.redeem_chips`).

The patron's row is locked (FOR UPDATE) before the day is recomputed, after the table's lock in
a buy-in (the source's own lock, e.g. a tournament's, in cage cash): two tables' buy-ins of one
patron then recompute one after the other, each seeing the other's transaction.
"""

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import QuerySet

from audit.context import AuditActor
from audit.services import record_event
from casino.models import LedgerTransaction
from kernel.errors import ConflictError
from kernel.formatting import dollars
from kernel.gaming_day import gaming_day_and_shift
from patrons.models import Patron
from table_money.engine.title31 import (
    CashTransaction,
    DayTotal,
    Direction,
    ctrs_due,
    day_totals,
    identification_required,
    on_mtl,
)
from table_money.locks import lock_patron
from table_money.models import (
    BuyIn,
    BuyInMethod,
    CageCash,
    CashDirection,
    ChipRedemption,
    CtrWorksheet,
    MtlEntry,
)

CAGE_LOCATION = "Cage"


def buy_in_description(buy_in: BuyIn) -> str:
    return buy_in.player or f"Player at {buy_in.table.name} seat {buy_in.seat}"


def _dealer_name(buy_in: BuyIn) -> str:
    """ "Dealer Ann Lee (badge D17)"; a dealer with no name but their badge is "Dealer D17"."""
    name, badge = buy_in.dealer.name.strip(), buy_in.dealer.badge
    if name in ("", badge, f"Dealer {badge}"):
        return f"Dealer {badge}"
    return f"Dealer {name} (badge {badge})"


def _cashier_name(redemption: ChipRedemption) -> str:
    return _cashier_label(redemption.cashier)


def _described_as(patron: Patron | None, *, fallback: str) -> str:
    """Who the MTL says took part, as they were known when the cash moved: kept as written, so a
    later identification of the patron does not rewrite it."""
    return patron.name if patron is not None else fallback


def _subject(patron: Patron | None, *, source: str, pk: int) -> str:
    return f"patron:{patron.number}" if patron is not None else f"{source}:{pk}"


def _cash_in(buy_in: BuyIn) -> CashTransaction:
    return CashTransaction(
        source="buy_in",
        id=buy_in.pk,
        subject=_subject(buy_in.patron, source="buy_in", pk=buy_in.pk),
        direction=Direction.CASH_IN,
        gaming_day=buy_in.gaming_day,
        amount_cents=buy_in.amount_cents,
        at=buy_in.created_at,
    )


def _cash_out(redemption: ChipRedemption) -> CashTransaction:
    return CashTransaction(
        source="redemption",
        id=redemption.pk,
        subject=_subject(redemption.patron, source="redemption", pk=redemption.pk),
        direction=Direction.CASH_OUT,
        gaming_day=redemption.gaming_day,
        amount_cents=redemption.amount_cents,
        at=redemption.created_at,
    )


def _cage(row: CageCash) -> CashTransaction:
    return CashTransaction(
        source="cage",
        id=row.pk,
        subject=_subject(row.patron, source="cage", pk=row.pk),
        direction=Direction(row.direction),
        gaming_day=row.gaming_day,
        amount_cents=row.amount_cents,
        at=row.created_at,
    )


def _cage_cash(*, patron: Patron, gaming_day: dt.date, direction: str | None = None) -> QuerySet[CageCash]:
    rows = CageCash.objects.filter(patron=patron, gaming_day=gaming_day).select_related("cashier", "patron")
    return rows if direction is None else rows.filter(direction=direction)


def _cash_buy_ins(*, patron: Patron, gaming_day: dt.date) -> QuerySet[BuyIn]:
    return BuyIn.objects.filter(patron=patron, gaming_day=gaming_day, method=BuyInMethod.CASH).select_related(
        "table", "dealer", "patron"
    )


def _redemptions(*, patron: Patron, gaming_day: dt.date) -> QuerySet[ChipRedemption]:
    return ChipRedemption.objects.filter(patron=patron, gaming_day=gaming_day).select_related(
        "cashier", "patron"
    )


@dataclass(frozen=True)
class CashDay:
    """A patron's cash of one gaming day, each direction aggregated apart as for the CTR."""

    cash_in_cents: int
    cash_out_cents: int


def cash_of_day(*, patron: Patron, gaming_day: dt.date) -> CashDay:
    """The patron's cash in and cash out of the gaming day so far, as the CTR aggregates them."""
    transactions = [_cash_in(row) for row in _cash_buy_ins(patron=patron, gaming_day=gaming_day)]
    transactions += [_cash_out(row) for row in _redemptions(patron=patron, gaming_day=gaming_day)]
    transactions += [_cage(row) for row in _cage_cash(patron=patron, gaming_day=gaming_day)]
    totals = day_totals(transactions)

    def total(direction: Direction) -> int:
        found = totals.get((_subject(patron, source="", pk=0), gaming_day, direction))
        return found.total_cents if found is not None else 0

    return CashDay(cash_in_cents=total(Direction.CASH_IN), cash_out_cents=total(Direction.CASH_OUT))


def record_cash_in(*, buy_in: BuyIn, actor: AuditActor, now: dt.datetime) -> None:
    """The Title 31 side of a buy-in, inside its transaction (a marker buy-in is not cash)."""
    if buy_in.method != BuyInMethod.CASH:
        return
    if on_mtl(buy_in.amount_cents, mtl_threshold_cents=settings.CASINO_MTL_THRESHOLD_CENTS):
        MtlEntry.objects.create(
            direction=CashDirection.CASH_IN,
            amount_cents=buy_in.amount_cents,
            patron=buy_in.patron,
            description=_described_as(buy_in.patron, fallback=buy_in_description(buy_in)),
            table=buy_in.table,
            location=buy_in.table.name,
            occurred_at=buy_in.created_at,
            gaming_day=buy_in.gaming_day,
            dealer=buy_in.dealer,
            employee=_dealer_name(buy_in),
            buy_in=buy_in,
        )
    if buy_in.patron is None:
        details = {("buy_in", buy_in.pk): _buy_in_detail(buy_in)}
        transactions = [_cash_in(buy_in)]
    else:
        lock_patron(patron_id=buy_in.patron.pk)
        day = list(_cash_buy_ins(patron=buy_in.patron, gaming_day=buy_in.gaming_day))
        cage = list(
            _cage_cash(patron=buy_in.patron, gaming_day=buy_in.gaming_day, direction=CashDirection.CASH_IN)
        )
        details = {("buy_in", row.pk): _buy_in_detail(row) for row in day}
        details |= {("cage", row.pk): _cage_detail(row) for row in cage}
        transactions = [_cash_in(row) for row in day] + [_cage(row) for row in cage]
    _write_due_worksheets(
        transactions,
        details=details,
        patron=buy_in.patron,
        description="" if buy_in.patron else buy_in_description(buy_in),
        table_id=buy_in.table_id,
        table_name=buy_in.table.name,
        actor=actor,
        now=now,
    )


def record_cash_out(*, redemption: ChipRedemption, actor: AuditActor, now: dt.datetime) -> None:
    """The Title 31 side of a chip redemption, inside its transaction."""
    if on_mtl(redemption.amount_cents, mtl_threshold_cents=settings.CASINO_MTL_THRESHOLD_CENTS):
        MtlEntry.objects.create(
            direction=CashDirection.CASH_OUT,
            amount_cents=redemption.amount_cents,
            patron=redemption.patron,
            description=_described_as(redemption.patron, fallback=redemption.description),
            table=None,
            location=CAGE_LOCATION,
            occurred_at=redemption.created_at,
            gaming_day=redemption.gaming_day,
            cashier=redemption.cashier,
            employee=_cashier_name(redemption),
            redemption=redemption,
        )
    cage: list[CageCash] = []
    if redemption.patron is None:
        rows = [redemption]
    else:
        lock_patron(patron_id=redemption.patron.pk)
        rows = list(_redemptions(patron=redemption.patron, gaming_day=redemption.gaming_day))
        cage = list(
            _cage_cash(
                patron=redemption.patron, gaming_day=redemption.gaming_day, direction=CashDirection.CASH_OUT
            )
        )
    _write_due_worksheets(
        [_cash_out(row) for row in rows] + [_cage(row) for row in cage],
        details={("redemption", row.pk): _redemption_detail(row) for row in rows}
        | {("cage", row.pk): _cage_detail(row) for row in cage},
        patron=redemption.patron,
        description=redemption.description,
        table_id=None,
        table_name="",
        actor=actor,
        now=now,
    )


def check_cage_cash_out(*, patron: Patron, amount_cents: int, now: dt.datetime) -> None:
    """The cage's identification stop (31 CFR 1010.312) for cash it is about to pay out other
    than a chip redemption: refused with `identification_required` when the payment would take a
    patron who is not identified over the CTR line for the gaming day's cash out. Locks the
    patron's row (after the source's own lock), so the day read is the day the payment joins."""
    lock_patron(patron_id=patron.pk)
    patron.refresh_from_db(fields=["current_identification"])
    gaming_day, _ = gaming_day_and_shift(now)
    after = cash_of_day(patron=patron, gaming_day=gaming_day).cash_out_cents + amount_cents
    threshold = settings.CASINO_CTR_THRESHOLD_CENTS
    if identification_required(
        identified=patron.is_identified, day_total_cents=after, ctr_threshold_cents=threshold
    ):
        raise ConflictError(
            "identification_required",
            f"Paying {dollars(amount_cents)} in cash takes the gaming day's cash out to {dollars(after)}, "
            f"over the CTR line of {dollars(threshold)}: identify patron {patron.number} first.",
        )


def record_cage_cash(
    *,
    patron: Patron,
    direction: CashDirection,
    amount_cents: int,
    description: str,
    reference: str,
    cashier: Any,
    transaction: LedgerTransaction,
    actor: AuditActor,
    now: dt.datetime,
) -> CageCash:
    """The Title 31 side of cash the cage takes in or pays out for something other than chips,
    inside the transaction that posts `transaction` (the source's ledger transaction, whose
    gaming day and shift it takes): the `CageCash` row, its MTL entry at the threshold and the
    patron's CTR worksheet of that day and direction, aggregated with every other cash
    transaction of theirs. The caller holds its own lock first; the patron's row is locked here."""
    lock_patron(patron_id=patron.pk)
    row = CageCash.objects.create(
        patron=patron,
        direction=direction,
        amount_cents=amount_cents,
        description=description,
        reference=reference,
        cashier_id=cashier.pk,
        created_at=now,
        gaming_day=transaction.gaming_day,
        shift=transaction.shift,
        transaction=transaction,
    )
    row.cashier = cashier
    if on_mtl(amount_cents, mtl_threshold_cents=settings.CASINO_MTL_THRESHOLD_CENTS):
        MtlEntry.objects.create(
            direction=direction,
            amount_cents=amount_cents,
            patron=patron,
            description=patron.name,
            table=None,
            location=CAGE_LOCATION,
            occurred_at=now,
            gaming_day=row.gaming_day,
            cashier_id=cashier.pk,
            employee=_cashier_label(cashier),
            cage_cash=row,
        )
    if direction == CashDirection.CASH_IN:
        buy_ins = list(_cash_buy_ins(patron=patron, gaming_day=row.gaming_day))
        others = [_cash_in(buy_in) for buy_in in buy_ins]
        other_details = {("buy_in", b.pk): _buy_in_detail(b) for b in buy_ins}
    else:
        redemptions = list(_redemptions(patron=patron, gaming_day=row.gaming_day))
        others = [_cash_out(redemption) for redemption in redemptions]
        other_details = {("redemption", r.pk): _redemption_detail(r) for r in redemptions}
    cage = list(_cage_cash(patron=patron, gaming_day=row.gaming_day, direction=direction))
    _write_due_worksheets(
        others + [_cage(c) for c in cage],
        details=other_details | {("cage", c.pk): _cage_detail(c) for c in cage},
        patron=patron,
        description="",
        table_id=None,
        table_name="",
        actor=actor,
        now=now,
    )
    return row


def _cashier_label(cashier: Any) -> str:
    return f"Cashier {cashier.get_full_name() or cashier.get_username()}"


def _cage_detail(row: CageCash) -> dict[str, Any]:
    return {
        "location": CAGE_LOCATION,
        "employee": _cashier_label(row.cashier),
        "description": row.description,
    }


def _buy_in_detail(buy_in: BuyIn) -> dict[str, Any]:
    return {"location": buy_in.table.name, "employee": _dealer_name(buy_in)}


def _redemption_detail(redemption: ChipRedemption) -> dict[str, Any]:
    return {"location": CAGE_LOCATION, "employee": _cashier_name(redemption)}


def _worksheet_transactions(
    total: DayTotal, details: dict[tuple[str, int], dict[str, Any]]
) -> list[dict[str, Any]]:
    return [
        {
            "source": t.source,
            "id": t.id,
            "amount_cents": t.amount_cents,
            "at": t.at.isoformat(),
            **details[(t.source, t.id)],
        }
        for t in total.transactions
    ]


def _write_due_worksheets(
    transactions: list[CashTransaction],
    *,
    details: dict[tuple[str, int], dict[str, Any]],
    patron: Patron | None,
    description: str,
    table_id: int | None,
    table_name: str,
    actor: AuditActor,
    now: dt.datetime,
) -> None:
    for (subject, gaming_day, direction), total in ctrs_due(
        transactions, ctr_threshold_cents=settings.CASINO_CTR_THRESHOLD_CENTS
    ).items():
        latest = (
            CtrWorksheet.objects.filter(subject_key=subject, gaming_day=gaming_day, direction=direction)
            .order_by("-revision")
            .first()
        )
        listed = _worksheet_transactions(total, details)
        if latest is not None and [(t["source"], t["id"]) for t in latest.transactions] == [
            (t["source"], t["id"]) for t in listed
        ]:
            continue  # nothing new since the last revision: recomputing writes nothing
        worksheet = CtrWorksheet.objects.create(
            subject_key=subject,
            patron=patron,
            description="" if patron is not None else description,
            gaming_day=gaming_day,
            direction=direction,
            revision=latest.revision + 1 if latest is not None else 1,
            total_cents=total.total_cents,
            transactions=listed,
            identified=patron is not None and patron.is_identified,
            created_at=now,
        )
        who = f"patron {patron.number}" if patron is not None else description
        record_event(
            event_type="compliance.ctr.raised" if worksheet.revision == 1 else "compliance.ctr.revised",
            actor=actor,
            table_id=table_id,
            table_name=table_name,
            subject_type="ctr_worksheet",
            subject_id=str(worksheet.pk),
            subject_label=f"CTR {direction.replace('_', '-')} {gaming_day} {who}"[:200],
            before={"revision": latest.revision, "total_cents": latest.total_cents} if latest else {},
            after={
                "revision": worksheet.revision,
                "total_cents": worksheet.total_cents,
                "transactions": len(listed),
                "identified": worksheet.identified,
            },
            occurred_at=now,
        )
