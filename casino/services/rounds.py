"""The round's write paths: open, report a card, apply an action, settle, void.

Each locks the table, then the shoe, then the round; checks `expected_seq`;
asks the engine; writes the events, wagers and ledger entries; records the
audit event. With an electronic shoe the service deals every card the round
needs from the committed shuffle, the moment it is needed.
"""

import datetime as dt
from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from audit.context import AuditActor
from audit.services import record_event
from bonus_tie.engine.limits import SeatRequest, validate_wagers
from casino import ledger
from casino.engine import round as engine
from casino.engine.cards import Card, parse_card
from casino.engine.round import NoCardExpectedError
from casino.engine.settlement import Settlement as EngineSettlement
from casino.engine.settlement import settle, void_settlement
from casino.errors import ConflictError, ForbiddenError, NotFoundError
from casino.locks import lock_open_shoe, lock_round, lock_table
from casino.mappers import (
    house_rules_for,
    paytable_for,
    round_state,
    rules_to_json,
    shoe_state,
    table_limits_for,
)
from casino.models import (
    AccountKind,
    EventKind,
    MovementKind,
    Round,
    RoundEvent,
    RoundSeat,
    RoundState,
    Settlement,
    SettlementLine,
    Shoe,
    ShoeMode,
    Terminal,
    Wager,
    WagerSource,
)
from casino.selectors import get_current_paytable, get_open_round

_SOURCE_BY_ACTION = {
    engine.Action.DOUBLE: WagerSource.DOUBLE,
    engine.Action.SPLIT: WagerSource.SPLIT,
    engine.Action.INSURANCE: WagerSource.INSURANCE,
}


class _Locked:
    """A round with its table and shoe locked, and its replayed engine state."""

    def __init__(self, *, round_id: int, table_id: int | None = None) -> None:
        found = Round.objects.filter(pk=round_id).values_list("table_id", flat=True).first()
        if found is None:
            raise NotFoundError("not_found", f"No round {round_id}.")
        if table_id is not None and found != table_id:
            raise ForbiddenError("other_table", "A terminal acts on its own table's rounds only.")
        self.table = lock_table(table_id=found)
        self.round = lock_round(round_id=round_id)
        self.shoe = Shoe.objects.select_for_update().get(pk=self.round.shoe_id)
        self.state = round_state(
            self.round, wagers=self.round.wagers.order_by("pk"), events=self.round.events.order_by("number")
        )
        self.next_event = self.round.events.count() + 1

    def check_seq(self, expected_seq: int | None) -> None:
        if expected_seq is not None and expected_seq != self.round.seq:
            raise ConflictError(
                "stale_round",
                f"The round is at seq {self.round.seq}, not {expected_seq}; reload it and try again.",
                field="expected_seq",
            )

    def deal(self, card: Card, *, terminal: Terminal | None, now: dt.datetime) -> None:
        self.state = engine.apply_card(self.state, card)
        shoe = shoe_state(self.shoe).draw(card)
        self.shoe.dealt = [*self.shoe.dealt, str(card)]
        if shoe.penetration_reached(percent=self.round.rules["penetration_percent"]):
            self.shoe.cut_card_reached = True
        self._event(kind=EventKind.CARD, card=str(card), terminal=terminal, now=now)

    def act(
        self,
        *,
        seat: int,
        hand: int,
        action: str,
        amount_cents: int | None,
        terminal: Terminal | None,
        now: dt.datetime,
    ) -> int:
        before = self.state
        self.state = engine.apply_action(
            self.state, seat=seat, hand=hand, action=action, amount_cents=amount_cents
        )
        self._event(
            kind=EventKind.ACTION,
            seat=seat,
            hand=hand,
            action=action,
            amount_cents=amount_cents,
            terminal=terminal,
            now=now,
        )
        return engine.stake_added(before, self.state)

    def deal_electronic(self, *, now: dt.datetime) -> None:
        """Draw from the committed shuffle while the round needs cards."""
        if self.shoe.mode != ShoeMode.ELECTRONIC or self.shoe.order is None:
            return
        while isinstance(engine.needs(self.state), engine.CardToHand | engine.CardToDealer):
            self.deal(parse_card(self.shoe.order[len(self.shoe.dealt)]), terminal=None, now=now)

    def _event(
        self,
        *,
        kind: EventKind,
        now: dt.datetime,
        terminal: Terminal | None,
        card: str = "",
        seat: int | None = None,
        hand: int | None = None,
        action: str = "",
        amount_cents: int | None = None,
    ) -> None:
        RoundEvent.objects.create(
            round=self.round,
            number=self.next_event,
            kind=kind,
            card=card,
            seat=seat,
            hand=hand,
            action=action,
            amount_cents=amount_cents,
            terminal=terminal,
            dealer=terminal.dealer if terminal else None,
            created_at=now,
        )
        self.next_event += 1

    def save(self) -> None:
        self.round.seq += 1
        self.round.state = RoundState(str(self.state.phase))
        self.round.save(update_fields=["seq", "state", "settled_at", "voided_at", "void_reason", "voided_by"])
        self.shoe.save(update_fields=["dealt", "cut_card_reached", "closed_at"])


def _audit(
    locked: _Locked,
    event_type: str,
    *,
    actor: AuditActor,
    now: dt.datetime,
    before: dict[str, object],
    after: dict[str, object],
) -> None:
    record_event(
        event_type=event_type,
        actor=actor,
        table_id=locked.table.pk,
        subject_type="round",
        subject_id=str(locked.round.pk),
        subject_label=f"round {locked.round.pk} at {locked.table.name}",
        before=before,
        after=after,
        occurred_at=now,
    )


def _place_stake(locked: _Locked, *, cents: int, memo: str, now: dt.datetime) -> None:
    ledger.post(
        kind=MovementKind.WAGER,
        table=locked.table,
        round=locked.round,
        now=now,
        memo=memo,
        entries=[(AccountKind.PATRONS, -cents), (AccountKind.WAGERS, cents)],
    )


@transaction.atomic
def open_round(
    *,
    terminal: Terminal,
    seats: Sequence[SeatRequest],
    players: dict[int, str],
    actor: AuditActor,
    now: dt.datetime,
) -> int:
    if terminal.dealer is None:
        raise ForbiddenError("dealer_not_signed_in", "A dealer must be signed in at this terminal.")
    table = lock_table(table_id=terminal.table_id)
    if get_open_round(table=table) is not None:
        raise ConflictError("round_in_progress", "The table already has an open round.")
    shoe = lock_open_shoe(table=table)
    if shoe is None:
        raise ConflictError("no_open_shoe", "The table has no open shoe; open one first.")
    validated = validate_wagers(seats=seats, limits=table_limits_for(table))
    paytable = get_current_paytable()
    if paytable is None:
        raise ConflictError("no_approved_paytable", "No paytable has been approved yet.")
    rules = house_rules_for(table)
    rules = type(rules)(**{**{f: getattr(rules, f) for f in rules.__slots__}, "decks": shoe.decks})
    state = engine.open_round(seats=validated, rules=rules)
    round_ = Round.objects.create(
        table=table,
        shoe=shoe,
        paytable=paytable,
        rules=rules_to_json(rules),
        aggregate_limit_cents=table.aggregate_limit_cents,
        state=RoundState(str(state.phase)),
        terminal=terminal,
        dealer=terminal.dealer,
        opened_at=now,
    )
    RoundSeat.objects.bulk_create(
        RoundSeat(round=round_, seat=w.seat, player=players.get(w.seat) or "") for w in validated
    )
    Wager.objects.bulk_create(
        Wager(
            round=round_,
            seat=w.seat,
            hand=0,
            kind=kind,
            source=WagerSource.OPEN,
            amount_cents=cents,
            placed_at=now,
        )
        for w in validated
        for kind, cents in (("primary", w.primary_cents), *w.bonus_cents.items())
    )
    locked = _Locked(round_id=round_.pk)
    _place_stake(locked, cents=engine.staked_cents(state), memo="wagers placed at the open", now=now)
    locked.deal_electronic(now=now)
    locked.round.seq = -1  # save() raises it to 0: the open itself is seq 0
    locked.save()
    _audit(
        locked,
        "casino.round.opened",
        actor=actor,
        now=now,
        before={},
        after={
            "seats": [
                {
                    "seat": w.seat,
                    "primary_cents": w.primary_cents,
                    "bonus": {str(k): c for k, c in w.bonus_cents.items()},
                }
                for w in validated
            ],
            "paytable_version": paytable.version,
            "shoe": shoe.pk,
        },
    )
    return round_.pk


@transaction.atomic
def report_card(
    *,
    terminal: Terminal,
    round_id: int,
    card: str,
    expected_seq: int | None,
    actor: AuditActor,
    now: dt.datetime,
) -> None:
    locked = _Locked(round_id=round_id, table_id=terminal.table_id)
    locked.check_seq(expected_seq)
    if locked.shoe.mode == ShoeMode.ELECTRONIC:
        raise NoCardExpectedError(
            "this round deals from an electronic shoe: the service draws every card", field="card"
        )
    seq = locked.round.seq
    locked.deal(parse_card(card), terminal=terminal, now=now)
    locked.save()
    _audit(
        locked,
        "casino.round.card_dealt",
        actor=actor,
        now=now,
        before={"seq": seq},
        after={"seq": locked.round.seq, "card": card, "state": locked.round.state},
    )


@transaction.atomic
def apply_action(
    *,
    terminal: Terminal,
    round_id: int,
    seat: int,
    hand: int,
    action: str,
    amount_cents: int | None,
    expected_seq: int | None,
    actor: AuditActor,
    now: dt.datetime,
) -> None:
    locked = _Locked(round_id=round_id, table_id=terminal.table_id)
    locked.check_seq(expected_seq)
    seq = locked.round.seq
    added = locked.act(
        seat=seat, hand=hand, action=action, amount_cents=amount_cents, terminal=terminal, now=now
    )
    if added:
        kind = "insurance" if action == engine.Action.INSURANCE else "primary"
        target = hand + 1 if action == engine.Action.SPLIT else hand
        Wager.objects.create(
            round=locked.round,
            seat=seat,
            hand=target,
            kind=kind,
            source=_SOURCE_BY_ACTION[engine.Action(action)],
            amount_cents=added,
            placed_at=now,
        )
        _place_stake(locked, cents=added, memo=f"seat {seat} hand {hand}: {action}", now=now)
    locked.deal_electronic(now=now)
    locked.save()
    _audit(
        locked,
        "casino.round.action_applied",
        actor=actor,
        now=now,
        before={"seq": seq},
        after={
            "seq": locked.round.seq,
            "seat": seat,
            "hand": hand,
            "action": action,
            "stake_added_cents": added,
            "state": locked.round.state,
        },
    )


def _write_settlement(locked: _Locked, result: EngineSettlement, *, now: dt.datetime) -> Settlement:
    row = Settlement.objects.create(
        round=locked.round,
        wagered_cents=result.wagered_cents,
        paid_cents=result.paid_cents,
        house_net_cents=result.house_net_cents,
        aggregate_limit_applied=result.aggregate_limit_applied,
        aggregate_reduction_cents=result.aggregate_reduction_cents,
        settled_at=now,
    )
    SettlementLine.objects.bulk_create(
        SettlementLine(
            settlement=row,
            seat=line.seat,
            hand=line.hand,
            kind=str(line.kind),
            amount_cents=line.amount_cents,
            result=str(line.result),
            win_cents=line.win_cents,
            paid_cents=line.paid_cents,
        )
        for seat in result.seats
        for line in seat.lines
    )
    return row


def _close_shoe_at_cut_card(locked: _Locked, *, now: dt.datetime) -> None:
    if locked.shoe.cut_card_reached and locked.shoe.closed_at is None:
        locked.shoe.closed_at = now


@transaction.atomic
def settle_round(
    *, terminal: Terminal, round_id: int, expected_seq: int | None, actor: AuditActor, now: dt.datetime
) -> None:
    locked = _Locked(round_id=round_id, table_id=terminal.table_id)
    locked.check_seq(expected_seq)
    if locked.round.state == RoundState.SETTLED:
        raise ConflictError("round_already_settled", "The round is already settled.")
    paytable = paytable_for(locked.round.paytable)
    result = settle(locked.state, paytable=paytable, aggregate_limit_cents=locked.round.aggregate_limit_cents)
    locked.state = engine.mark_settled(locked.state)
    _write_settlement(locked, result, now=now)
    ledger.post(
        kind=MovementKind.PAYOUT,
        table=locked.table,
        round=locked.round,
        now=now,
        memo="round settled",
        entries=[
            (AccountKind.WAGERS, -result.wagered_cents),
            (AccountKind.PATRONS, result.paid_cents),
            (AccountKind.TRAY, result.house_net_cents),
        ],
    )
    locked.round.settled_at = now
    _close_shoe_at_cut_card(locked, now=now)
    seq = locked.round.seq
    locked.save()
    _audit(
        locked,
        "casino.round.settled",
        actor=actor,
        now=now,
        before={"seq": seq},
        after={
            "seq": locked.round.seq,
            "wagered_cents": result.wagered_cents,
            "paid_cents": result.paid_cents,
            "house_net_cents": result.house_net_cents,
            "aggregate_limit_applied": result.aggregate_limit_applied,
            "aggregate_reduction_cents": result.aggregate_reduction_cents,
            "paytable_version": paytable.version,
        },
    )


@transaction.atomic
def void_round(
    *, round_id: int, reason: str, user: AbstractBaseUser | None, actor: AuditActor, now: dt.datetime
) -> None:
    locked = _Locked(round_id=round_id)
    if locked.round.state in (RoundState.SETTLED, RoundState.VOID):
        raise ConflictError(
            "round_closed", f"The round is already {locked.round.state}; it cannot be voided."
        )
    returned = void_settlement(locked.state)
    locked.state = engine.void_round(locked.state)
    if returned.paid_cents:
        ledger.post(
            kind=MovementKind.VOID,
            table=locked.table,
            round=locked.round,
            now=now,
            memo=f"void: {reason}"[:200],
            entries=[(AccountKind.WAGERS, -returned.paid_cents), (AccountKind.PATRONS, returned.paid_cents)],
        )
    locked.round.voided_at = now
    locked.round.void_reason = reason
    locked.round.voided_by = user  # type: ignore[assignment]
    _close_shoe_at_cut_card(locked, now=now)
    seq = locked.round.seq
    locked.save()
    _audit(
        locked,
        "casino.round.voided",
        actor=actor,
        now=now,
        before={"seq": seq, "state": "open"},
        after={"seq": locked.round.seq, "reason": reason, "returned_cents": returned.paid_cents},
    )
