"""Table money outside the rounds: opener and closer, buy-ins, fills and credits.

Each service locks the table first (NOWAIT: 409 `table_busy`), then its other rows, checks, writes
its rows and ledger transaction, and records the audit event, in one transaction (the request's
durable one under the API, its own under a command or the admin).

Ledger entries (signed cents, money into an account is positive; `casino.ledger`):

| movement | entries | why |
|---|---|---|
| buy-in (cash or marker) | drop +A, tray -A | the cash or the marker goes into the drop box; the same value of chips leaves the tray for the player (the player gives A and gets A: no patron entry) |
| fill approved | tray +A, cage -A | chips come from the cage into the tray |
| credit approved | tray -A, cage +A | chips go from the tray back to the cage |
| fill or credit requested / pending | nothing | nothing moves until a supervisor approves |
| void of an approved slip | the approval's entries negated | a new reversing transaction, stamped with the *slip's* gaming day and shift (an adjustment of that shift, written now); a pending slip's void moves nothing |
| opener | tray +(counted - tray balance), cage -(same) | the tray's ledger balance is brought to the counted opener, the cage being the counterparty: the first opening issues the bank from the cage; a later one records any difference from what the ledger expected. Nothing is posted when they agree |
| closer | nothing | the count is recorded; its difference from the ledger's tray balance is the shift's variance (the report's `win - house net`) |
| a fill issued by the cage, received at the table; a credit received by the cage | nothing | the custody of chips already posted at the approval (below) |

With these entries the count-based win of a shift (drop + credits - fills + closer - opener)
equals the ledger's own figure (drop + credits - fills + the tray's change without the opener
transfer) whenever the closer agrees with the ledger, and both equal the wager-based house net of
the rounds settled in the shift.

A fill or credit moves chips between the cage and the tray once, posted at its approval: the
supervisor's signature is what makes the slip count in its shift's figures (API.md's approve
call, the reports), and a void reverses exactly that transaction. What follows is the slip's chain
of custody, as MICS has it (`SlipHandover`, each step signed once, in order): the cage cashier
issues a fill's chips to a runner (the security officer who carries them, named with their badge)
and a supervisor at the table signs them into the tray with the dealer signed in at its terminal;
a credit's chips are carried back by a runner and received by a cage cashier. These signatures
add no money movement: the chips were counted to the shift at the approval, and a slip whose chain
is incomplete stays in view on the cage's page and the table's until it is done or voided. Who
requested or approved a slip never signs its cage step (segregation of duties).

Gaming day and shift are stamped on every record when it is written (`kernel.gaming_day`). A
table is open between an opener and a closer; buy-ins and fill/credit requests and approvals need
it active and open *in the current shift* (`casino.services.table_state`, the same rule the rounds
and shoes follow): at a shift change the supervisor closes the ended shift (the closer
belongs to the shift its opener opened: "date and shift ended") and opens the new one. A table has
one opener and one closer per shift (a unique constraint): a table closed during a shift reopens
in the next one. Every change to what a shift report shows (an opener, a closer, a buy-in, a
slip requested, approved or voided) enqueues, once it commits, the regeneration of the table's
report of the shift it belongs to when that report is stored already or its shift has ended
(`casino.services.report_refresh`): a stored report never goes stale.
"""

import datetime as dt
import re
from collections.abc import Mapping

from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction

from audit.context import AuditActor
from audit.services import record_event
from casino import ledger
from casino.games import game_for, play_in_progress
from casino.locks import lock_table
from casino.models import AccountKind, Dealer, InventoryKind, MovementKind, Table, TableInventory, Terminal
from casino.services.report_refresh import refresh_reports_on_commit
from casino.services.table_state import TableUse, check_table_in_play
from casino.services.terminals import session_is_live
from kernel.errors import ConflictError, ForbiddenError, ServiceError
from kernel.gaming_day import gaming_day_and_shift
from patrons.services import resolve_patron
from table_money.locks import lock_slip, lock_slip_alone
from table_money.models import (
    HANDOVER_STEPS,
    RUNNER_STEPS,
    BuyIn,
    BuyInMethod,
    ChipSlip,
    HandoverStep,
    SlipHandover,
    SlipKind,
    SlipPrint,
    SlipStatus,
    SlipVoid,
)
from table_money.services import title31

# The chip denominations in use, in cents: 50c, $1, $2.50, $5, $25, $100, $500, $1,000, $5,000, $10,000.
CHIP_DENOMINATIONS_CENTS: frozenset[int] = frozenset(
    {50, 100, 250, 500, 2_500, 10_000, 50_000, 100_000, 500_000, 1_000_000}
)
_DENOMINATION_KEY = re.compile(r"^[1-9][0-9]{0,9}$")

_SLIP_MOVES: dict[str, MovementKind] = {
    SlipKind.FILL: MovementKind.FILL,
    SlipKind.CREDIT: MovementKind.CREDIT,
}
# The tray's side of an approved slip: a fill adds chips to the tray, a credit takes them away.
_TRAY_SIGN: dict[str, int] = {SlipKind.FILL: 1, SlipKind.CREDIT: -1}


# --- checks ------------------------------------------------------------------------------------


def chips_total_cents(chips: Mapping[str, int]) -> int:
    """The value of chips given as {denomination in cents (text): count}; unknown denominations
    are refused with `unknown_denomination`."""
    total = 0
    for key, count in chips.items():
        if not _DENOMINATION_KEY.match(key) or int(key) not in CHIP_DENOMINATIONS_CENTS:
            raise ServiceError(
                "unknown_denomination",
                f"{key[:20]!r} is not a chip denomination in use (cents: "
                f"{', '.join(str(d) for d in sorted(CHIP_DENOMINATIONS_CENTS))}).",
                field=f"chips.{key}"[:100],
            )
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ServiceError("invalid_chip_count", "Chip counts are whole numbers from 0.", field="chips")
        total += int(key) * count
    return total


def checked_chips(chips: Mapping[str, int], *, amount_cents: int, field: str) -> dict[str, int]:
    """The chips counted, in denomination order without empty counts; refused with
    `chips_do_not_add_up` unless they come to `amount_cents` (named `field` in the message)."""
    total = chips_total_cents(chips)
    if total != amount_cents:
        raise ServiceError(
            "chips_do_not_add_up",
            f"The chips add up to {total} cents, not the {amount_cents} cents of `{field}`.",
            field="chips",
        )
    return {key: count for key, count in sorted(chips.items(), key=lambda kv: int(kv[0])) if count}


def _latest_count(table: Table) -> TableInventory | None:
    # Counts are written one at a time under the table's lock: the highest pk is the latest.
    return TableInventory.objects.filter(table=table).order_by("-pk").first()


def _signing_dealer(table: Table, *, now: dt.datetime) -> Dealer:
    """The dealer who signs a count: the one signed in at the table's terminal."""
    terminal = Terminal.objects.select_related("dealer").filter(table=table).first()
    if terminal is None or terminal.dealer is None or not session_is_live(terminal, now=now):
        raise ConflictError(
            "dealer_not_signed_in",
            f"A dealer must be signed in at {table.name}'s terminal to sign the count.",
        )
    return terminal.dealer


def _audit(
    *,
    event_type: str,
    actor: AuditActor,
    table: Table,
    subject_type: str,
    subject_id: int,
    label: str,
    now: dt.datetime,
    before: dict[str, object] | None = None,
    after: dict[str, object],
) -> None:
    record_event(
        event_type=event_type,
        actor=actor,
        table_id=table.pk,
        table_name=table.name,
        subject_type=subject_type,
        subject_id=str(subject_id),
        subject_label=label,
        before=before or {},
        after=after,
        occurred_at=now,
    )


# --- opener and closer -------------------------------------------------------------------------


@transaction.atomic
def open_table(
    *,
    table_id: int,
    total_cents: int,
    chips: Mapping[str, int],
    supervisor: AbstractBaseUser,
    actor: AuditActor,
    now: dt.datetime,
) -> TableInventory:
    """Record the opener, signed by the dealer signed in at the table and the supervisor."""
    table, _ = lock_table(table_id=table_id)
    counted = checked_chips(chips, amount_cents=total_cents, field="total_cents")
    latest = _latest_count(table)
    if latest is not None and latest.kind == InventoryKind.OPENER:
        raise ConflictError(
            "table_already_open",
            f"{table.name} is already open (for {latest.gaming_day} {latest.shift}); close it first.",
        )
    gaming_day, shift = gaming_day_and_shift(now)
    if TableInventory.objects.filter(
        table=table, gaming_day=gaming_day, shift=shift, kind=InventoryKind.OPENER
    ).exists():
        raise ConflictError(
            "shift_already_opened",
            f"{table.name} was already opened once in the {gaming_day} {shift} shift: one opener per shift.",
        )
    dealer = _signing_dealer(table, now=now)
    ledger.open_table_accounts(table=table)
    tray = ledger.balance_cents(table=table, kind=AccountKind.TRAY)
    transfer = None
    if total_cents != tray:
        transfer = ledger.post(
            kind=MovementKind.OPENER,
            table=table,
            now=now,
            memo=f"opener {total_cents}c; the tray's ledger balance was {tray}c",
            entries=[(AccountKind.TRAY, total_cents - tray), (AccountKind.CAGE, tray - total_cents)],
        )
    opener = TableInventory.objects.create(
        table=table,
        kind=InventoryKind.OPENER,
        chips=counted,
        total_cents=total_cents,
        dealer=dealer,
        supervisor_id=supervisor.pk,
        counted_at=now,
        gaming_day=gaming_day,
        shift=shift,
        previous_closer_cents=latest.total_cents if latest is not None else None,
        transfer=transfer,
    )
    _audit(
        event_type="casino.table.opened",
        actor=actor,
        table=table,
        subject_type="table_inventory",
        subject_id=opener.pk,
        label=f"opener of {table.name}, {gaming_day} {shift}",
        now=now,
        before={"tray_ledger_cents": tray, "previous_closer_cents": opener.previous_closer_cents},
        after={
            "total_cents": total_cents,
            "chips": counted,
            "dealer": dealer.badge,
            "gaming_day": gaming_day.isoformat(),
            "shift": shift,
            "transfer_cents": total_cents - tray,
        },
    )
    refresh_reports_on_commit(table_id=table.pk, gaming_day=gaming_day, shifts=[shift], now=now)
    return opener


@transaction.atomic
def close_table(
    *,
    table_id: int,
    total_cents: int,
    chips: Mapping[str, int],
    supervisor: AbstractBaseUser,
    actor: AuditActor,
    now: dt.datetime,
) -> TableInventory:
    """Record the closer of the shift the table was opened for, signed like the opener."""
    table, _ = lock_table(table_id=table_id)
    counted = checked_chips(chips, amount_cents=total_cents, field="total_cents")
    opener = _latest_count(table)
    if opener is None or opener.kind != InventoryKind.OPENER:
        raise ConflictError("table_not_open", f"{table.name} is not open.")
    if play_in_progress(table):
        raise ConflictError("round_in_progress", f"{table.name} has a round in progress; finish it first.")
    dealer = _signing_dealer(table, now=now)
    tray = ledger.balance_cents(table=table, kind=AccountKind.TRAY)
    closer = TableInventory.objects.create(
        table=table,
        kind=InventoryKind.CLOSER,
        chips=counted,
        total_cents=total_cents,
        dealer=dealer,
        supervisor_id=supervisor.pk,
        counted_at=now,
        gaming_day=opener.gaming_day,
        shift=opener.shift,
    )
    _audit(
        event_type="casino.table.closed",
        actor=actor,
        table=table,
        subject_type="table_inventory",
        subject_id=closer.pk,
        label=f"closer of {table.name}, {opener.gaming_day} {opener.shift}",
        now=now,
        before={"opener_cents": opener.total_cents, "tray_ledger_cents": tray},
        after={
            "total_cents": total_cents,
            "chips": counted,
            "dealer": dealer.badge,
            "gaming_day": opener.gaming_day.isoformat(),
            "shift": opener.shift,
            "variance_cents": total_cents - tray,
        },
    )
    refresh_reports_on_commit(table_id=table.pk, gaming_day=opener.gaming_day, shifts=[opener.shift], now=now)
    return closer


# --- buy-ins -----------------------------------------------------------------------------------


@transaction.atomic
def record_buy_in(
    *,
    terminal: Terminal,
    seat: int,
    amount_cents: int,
    method: str,
    player: str,
    actor: AuditActor,
    now: dt.datetime,
    patron_number: int | None = None,
) -> BuyIn:
    if terminal.dealer is None:
        raise ForbiddenError("dealer_not_signed_in", "A dealer must be signed in at this terminal.")
    seats = game_for(terminal.table.game).seats
    if seat not in seats:
        raise ServiceError(
            "invalid_seat", f"Seats are numbered {seats[0]} to {seats[-1]}, not {seat}.", field="seat"
        )
    if method not in BuyInMethod.values:
        raise ServiceError("invalid_method", "A buy-in is `cash` or `marker`.", field="method")
    patron = resolve_patron(patron_number)
    table, count = lock_table(table_id=terminal.table_id)
    check_table_in_play(table, count, use=TableUse.MONEY, now=now)
    transaction_ = ledger.post(
        kind=MovementKind.BUY_IN,
        table=table,
        now=now,
        memo=f"{method} buy-in, seat {seat}",
        entries=[(AccountKind.DROP, amount_cents), (AccountKind.TRAY, -amount_cents)],
    )
    buy_in = BuyIn.objects.create(
        table=table,
        seat=seat,
        amount_cents=amount_cents,
        method=method,
        player=player,
        patron=patron,
        terminal=terminal,
        dealer=terminal.dealer,
        created_at=now,
        gaming_day=transaction_.gaming_day,
        shift=transaction_.shift,
        transaction=transaction_,
    )
    title31.record_cash_in(buy_in=buy_in, actor=actor, now=now)
    _audit(
        event_type="casino.buy_in.recorded",
        actor=actor,
        table=table,
        subject_type="buy_in",
        subject_id=buy_in.pk,
        label=f"{method} buy-in of {amount_cents}c at {table.name} seat {seat}",
        now=now,
        after={
            "seat": seat,
            "amount_cents": amount_cents,
            "method": method,
            "player": player,
            "patron": patron.number if patron else None,
        },
    )
    refresh_reports_on_commit(table_id=table.pk, gaming_day=buy_in.gaming_day, shifts=[buy_in.shift], now=now)
    return buy_in


# --- fills and credits -------------------------------------------------------------------------


def _next_slip_number(kind: str) -> int:
    """The next number of the kind's series. The UPDATE holds the counter row's lock until the
    transaction ends, so numbers are issued one at a time and a rollback returns its number."""
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO casino_slipcounter (series, last_number) VALUES (%s, 1) "
            "ON CONFLICT (series) DO UPDATE SET last_number = casino_slipcounter.last_number + 1 "
            "RETURNING last_number",
            [kind],
        )
        (number,) = cursor.fetchone()
    return int(number)


@transaction.atomic
def request_slip(
    *,
    kind: SlipKind,
    table_id: int,
    amount_cents: int,
    chips: Mapping[str, int],
    terminal: Terminal | None,
    user: AbstractBaseUser | None,
    actor: AuditActor,
    now: dt.datetime,
) -> ChipSlip:
    """A fill or credit request, numbered and pending: nothing moves until it is approved."""
    if terminal is not None and terminal.dealer is None:
        raise ForbiddenError("dealer_not_signed_in", "A dealer must be signed in at this terminal.")
    table, count = lock_table(table_id=table_id)
    counted = checked_chips(chips, amount_cents=amount_cents, field="amount_cents")
    check_table_in_play(table, count, use=TableUse.MONEY, now=now)
    gaming_day, shift = gaming_day_and_shift(now)
    slip = ChipSlip.objects.create(
        kind=kind,
        number=_next_slip_number(kind),
        table=table,
        amount_cents=amount_cents,
        chips=counted,
        status=SlipStatus.PENDING,
        requested_at=now,
        gaming_day=gaming_day,
        shift=shift,
        requested_by_terminal=terminal,
        requested_by_dealer=terminal.dealer if terminal is not None else None,
        requested_by_user_id=user.pk if terminal is None and user is not None else None,
    )
    _audit(
        event_type=f"casino.{kind}.requested",
        actor=actor,
        table=table,
        subject_type=kind,
        subject_id=slip.pk,
        label=f"{kind} #{slip.number} at {table.name}",
        now=now,
        after={"number": slip.number, "amount_cents": amount_cents, "chips": counted, "status": slip.status},
    )
    refresh_reports_on_commit(table_id=table.pk, gaming_day=gaming_day, shifts=[shift], now=now)
    return slip


def _refuse_the_requester(*, kind: SlipKind, slip: ChipSlip, user: AbstractBaseUser, verb: str) -> None:
    """Maker-checker both ways: whoever requested a slip neither approves nor voids it."""
    if slip.requested_by_user_id is not None and slip.requested_by_user_id == user.pk:
        raise ForbiddenError(
            "approver_is_requester",
            f"{kind} #{slip.number} was requested by you: another supervisor {verb} it.",
        )


@transaction.atomic
def approve_slip(
    *, kind: SlipKind, slip_id: int, user: AbstractBaseUser, actor: AuditActor, now: dt.datetime
) -> ChipSlip:
    """Approve a pending fill or credit: the chips move, through the ledger, exactly once."""
    (table, count), slip = lock_slip(kind=kind, slip_id=slip_id)
    if slip.status != SlipStatus.PENDING:
        raise ConflictError(
            "slip_not_pending", f"{kind} #{slip.number} is {slip.status}: only a pending slip is approved."
        )
    _refuse_the_requester(kind=kind, slip=slip, user=user, verb="approves")
    check_table_in_play(table, count, use=TableUse.MONEY, now=now)
    tray_cents = _TRAY_SIGN[kind] * slip.amount_cents
    if kind == SlipKind.CREDIT:
        tray = ledger.balance_cents(table=table, kind=AccountKind.TRAY)
        if tray < slip.amount_cents:
            raise ServiceError(
                "credit_exceeds_tray",
                f"credit #{slip.number} of {slip.amount_cents}c is more than the {tray}c the tray holds.",
            )
    slip.transaction = ledger.post(
        kind=_SLIP_MOVES[kind],
        table=table,
        now=now,
        memo=f"{kind} #{slip.number}",
        entries=[(AccountKind.TRAY, tray_cents), (AccountKind.CAGE, -tray_cents)],
    )
    slip.status = SlipStatus.APPROVED
    slip.approved_at = now
    slip.approved_by_id = user.pk
    slip.save(update_fields=["status", "approved_at", "approved_by", "transaction"])
    _audit(
        event_type=f"casino.{kind}.approved",
        actor=actor,
        table=table,
        subject_type=kind,
        subject_id=slip.pk,
        label=f"{kind} #{slip.number} at {table.name}",
        now=now,
        before={"status": SlipStatus.PENDING},
        after={"status": slip.status, "amount_cents": slip.amount_cents, "transaction": slip.transaction.pk},
    )
    for day, shift in {(slip.gaming_day, slip.shift), (slip.transaction.gaming_day, slip.transaction.shift)}:
        refresh_reports_on_commit(table_id=table.pk, gaming_day=day, shifts=[shift], now=now)
    return slip


@transaction.atomic
def void_slip(
    *,
    kind: SlipKind,
    slip_id: int,
    reason: str,
    user: AbstractBaseUser,
    actor: AuditActor,
    now: dt.datetime,
) -> ChipSlip:
    """Void a fill or credit: a new `SlipVoid` record; an approved slip's chips move back."""
    reason = reason.strip()
    if not reason:
        raise ServiceError("reason_required", "A void needs a reason.", field="reason")
    (table, _), slip = lock_slip(kind=kind, slip_id=slip_id)
    if slip.status == SlipStatus.VOID:
        raise ConflictError("slip_already_void", f"{kind} #{slip.number} is already void.")
    _refuse_the_requester(kind=kind, slip=slip, user=user, verb="voids")
    was = slip.status
    reversal = None
    if slip.transaction is not None:
        tray_cents = _TRAY_SIGN[kind] * slip.amount_cents
        reversal = ledger.post(
            kind=_SLIP_MOVES[kind],
            table=table,
            entries=[(AccountKind.TRAY, -tray_cents), (AccountKind.CAGE, tray_cents)],
            now=now,
            period=(slip.transaction.gaming_day, slip.transaction.shift),
            memo=f"void of {kind} #{slip.number}: {reason}",
        )
    gaming_day, shift = gaming_day_and_shift(now)
    SlipVoid.objects.create(
        slip=slip,
        reason=reason,
        voided_by_id=user.pk,
        voided_at=now,
        gaming_day=gaming_day,
        shift=shift,
        reversal=reversal,
    )
    slip.status = SlipStatus.VOID
    slip.save(update_fields=["status"])
    _audit(
        event_type=f"casino.{kind}.voided",
        actor=actor,
        table=table,
        subject_type=kind,
        subject_id=slip.pk,
        label=f"{kind} #{slip.number} at {table.name}",
        now=now,
        before={"status": was},
        after={"status": slip.status, "reason": reason, "reversal": reversal.pk if reversal else None},
    )
    # The slip's own shift (its pending flag) and, for an approved slip, the shift of its approval.
    for day, shift in {
        (slip.gaming_day, slip.shift),
        *([(reversal.gaming_day, reversal.shift)] if reversal else []),
    }:
        refresh_reports_on_commit(table_id=table.pk, gaming_day=day, shifts=[shift], now=now)
    return slip


# --- the slip's chain of custody and its printed copies -----------------------------------------

_STEP_KIND: dict[HandoverStep, SlipKind] = {
    step: SlipKind(kind) for kind, steps in HANDOVER_STEPS.items() for step in steps
}
_STEP_WORDS: dict[HandoverStep, str] = {
    HandoverStep.ISSUED_BY_CAGE: "issued by the cage",
    HandoverStep.RECEIVED_AT_TABLE: "received at the table",
    HandoverStep.RECEIVED_BY_CAGE: "received by the cage",
}


def _check_handover(slip: ChipSlip, *, step: HandoverStep, user: AbstractBaseUser) -> None:
    name = f"{slip.kind} #{slip.number}"
    if slip.kind != _STEP_KIND[step]:
        raise ConflictError(
            "wrong_slip_kind", f"{name} is a {slip.kind}: a {_STEP_KIND[step]} is {_STEP_WORDS[step]}."
        )
    if slip.status != SlipStatus.APPROVED:
        raise ConflictError(
            "slip_not_approved",
            f"{name} is {slip.get_status_display().lower()}: only an approved slip's chips move.",
        )
    done = set(SlipHandover.objects.filter(slip=slip).values_list("step", flat=True))
    if step in done:
        raise ConflictError("slip_step_done", f"{name} is already {_STEP_WORDS[step]}.")
    steps = HANDOVER_STEPS[slip.kind]
    missing = [earlier for earlier in steps[: steps.index(step)] if earlier not in done]
    if missing:
        raise ConflictError("slip_step_out_of_order", f"{name} is not yet {_STEP_WORDS[missing[0]]}.")
    if step in RUNNER_STEPS and user.pk in {slip.requested_by_user_id, slip.approved_by_id}:
        raise ForbiddenError(
            "cage_signer_is_requester",
            f"You requested or approved {name}: another person signs for the cage.",
        )


def _runner(name: str, badge: str) -> tuple[str, str]:
    name, badge = name.strip(), badge.strip()
    if not name or not badge:
        raise ServiceError(
            "runner_required",
            "Name the runner, the security officer who carries the chips, with their badge.",
            field="runner_name" if not name else "runner_badge",
        )
    return name, badge


def _sign_handover(
    *,
    kind: SlipKind,
    slip_id: int,
    step: HandoverStep,
    user: AbstractBaseUser,
    actor: AuditActor,
    now: dt.datetime,
    runner: tuple[str, str] = ("", ""),
) -> SlipHandover:
    (table, _), slip = lock_slip(kind=kind, slip_id=slip_id)
    _check_handover(slip, step=step, user=user)
    dealer = _signing_dealer(table, now=now) if step == HandoverStep.RECEIVED_AT_TABLE else None
    handover = SlipHandover.objects.create(
        slip=slip,
        step=step,
        signed_by_id=user.pk,
        signed_at=now,
        dealer=dealer,
        runner_name=runner[0],
        runner_badge=runner[1],
    )
    _audit(
        event_type=f"casino.{kind}.{step}",
        actor=actor,
        table=table,
        subject_type=kind,
        subject_id=slip.pk,
        label=f"{kind} #{slip.number} at {table.name}",
        now=now,
        after={
            "step": step,
            "amount_cents": slip.amount_cents,
            "runner": {"name": runner[0], "badge": runner[1]} if runner[0] else None,
            "dealer": dealer.badge if dealer is not None else None,
        },
    )
    return handover


# The cage's step of each kind of slip: it issues a fill's chips and receives a credit's.
CAGE_STEP: dict[SlipKind, HandoverStep] = {
    SlipKind.FILL: HandoverStep.ISSUED_BY_CAGE,
    SlipKind.CREDIT: HandoverStep.RECEIVED_BY_CAGE,
}


@transaction.atomic
def sign_at_cage(
    *,
    kind: SlipKind,
    slip_id: int,
    runner_name: str,
    runner_badge: str,
    cashier: AbstractBaseUser,
    actor: AuditActor,
    now: dt.datetime,
) -> SlipHandover:
    """The cage's signature of an approved slip: it issues a fill's chips to the runner who
    carries them to the table, or receives a credit's chips from the runner who carried them."""
    runner = _runner(runner_name, runner_badge)
    return _sign_handover(
        kind=kind, slip_id=slip_id, step=CAGE_STEP[kind], user=cashier, actor=actor, now=now, runner=runner
    )


@transaction.atomic
def receive_fill_at_table(
    *, slip_id: int, supervisor: AbstractBaseUser, actor: AuditActor, now: dt.datetime
) -> SlipHandover:
    """A supervisor at the table signs an issued fill's chips into the tray, with the dealer
    signed in at its terminal (who counts them in view)."""
    return _sign_handover(
        kind=SlipKind.FILL,
        slip_id=slip_id,
        step=HandoverStep.RECEIVED_AT_TABLE,
        user=supervisor,
        actor=actor,
        now=now,
    )


@transaction.atomic
def print_slip(*, slip_id: int, user: AbstractBaseUser, actor: AuditActor, now: dt.datetime) -> SlipPrint:
    """Record one printed copy of a slip: the first is the original, every later one a reprint."""
    slip = lock_slip_alone(slip_id=slip_id)
    last = SlipPrint.objects.filter(slip=slip).order_by("-copy").values_list("copy", flat=True).first()
    printed = SlipPrint.objects.create(slip=slip, copy=(last or 0) + 1, printed_by_id=user.pk, printed_at=now)
    record_event(
        event_type=f"casino.{slip.kind}.printed",
        actor=actor,
        table_id=slip.table_id,
        table_name=slip.table.name,
        subject_type=slip.kind,
        subject_id=str(slip.pk),
        subject_label=f"{slip.kind} #{slip.number} at {slip.table.name}",
        after={"copy": printed.copy, "reprint": printed.is_reprint},
        occurred_at=now,
    )
    return printed
