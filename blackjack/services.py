"""The round's write paths: open, report a card, apply an action, settle, void.

Each takes its locks through `casino.locks` (table, shoe, round, in one
statement), checks `expected_seq`, rebuilds the round once from its stored
events, asks the engine once (`blackjack.engine.table`: what happened, including
the cards an electronic shoe deals), writes the events, wagers and ledger
entries, records the audit event, and returns the snapshot the API presents.
"""

import contextlib
import datetime as dt
import functools
from collections.abc import Iterator, Mapping, Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction

from audit.context import AuditActor
from blackjack.engine import round as engine
from blackjack.engine import table as play
from blackjack.engine.settlement import Settlement as EngineSettlement
from blackjack.engine.settlement import settle, void_settlement
from blackjack.engine.wagers import SeatRequest, validate_wagers
from blackjack.locks import lock_round, lock_table_for_new_round
from blackjack.mappers import house_rules_for, rules_to_json
from blackjack.models import (
    EventKind,
    Round,
    RoundEvent,
    RoundSeat,
    RoundState,
    Settlement,
    SettlementLine,
    Wager,
    WagerSource,
)
from blackjack.selectors import RoundSnapshot, players_of, round_state
from casino import ledger
from casino.engine.cards import parse_card
from casino.engine.table_game import ShoeInPlay
from casino.games import check_table_game
from casino.locks import LatestCount
from casino.mappers import table_limits_for
from casino.models import AccountKind, GameKind, MovementKind, Shoe, Terminal
from casino.selectors import shoe_in_play
from casino.services.report_refresh import refresh_reports_on_commit
from casino.services.rule_changes import apply_due_rule_change
from casino.services.table_rounds import RoundAtTable
from casino.services.table_state import TableUse, check_table_in_play
from casino.side_bets import side_bet_for
from kernel.errors import ConflictError, ForbiddenError
from kernel.gaming_day import gaming_day_and_shift
from kernel.rows import Insert, Update, run_together
from patrons.services import resolve_patron_ids


class _RoundAtTable(RoundAtTable):
    subject_type = "round"

    """A locked round (with its table and shoe), rebuilt once; collects what a step changes and
    writes it, events, shoe and round row, in one statement (`save`)."""

    def __init__(
        self,
        round_: Round,
        *,
        state: engine.RoundState,
        events_stored: int,
        count: LatestCount | None = None,
    ) -> None:
        super().__init__(table=round_.table, shoe=round_.shoe, round_=round_, events_stored=events_stored)
        self.round = round_
        self.count = count  # the table's latest count, read with its lock
        self.state = state
        self._writes: list[tuple[str, list[object]]] = []
        self._event_rows: list[tuple[object, ...]] = []
        self._cards_out: list[str] = []
        self._shoe_changed = False

    @classmethod
    def locked(cls, *, round_id: int, table_id: int | None = None) -> "_RoundAtTable":
        locked = lock_round(round_id=round_id, table_id=table_id)
        state, events_stored = round_state(locked.round, events=locked.events)
        return cls(locked.round, state=state, events_stored=events_stored, count=locked.latest_count)

    def check_table_deals(self, *, now: dt.datetime) -> None:
        check_table_in_play(self.table, self.count, use=TableUse.FINISH_ROUND, now=now)

    def shoe_in_play(self) -> ShoeInPlay:
        return shoe_in_play(self.shoe, penetration_percent=self.round.rules["penetration_percent"])

    def store_step(self, step: play.Step, *, terminal: Terminal | None, now: dt.datetime) -> None:
        """Take the step's events and the cards it took out of the shoe, written by `save`."""
        self.state = step.state
        for event, (number, reported) in zip(
            step.events, self.numbered(step.events, terminal=terminal), strict=True
        ):
            self._event_rows.append(_event_values(self.round, number, event, terminal=reported, now=now))
        if step.cards_drawn or (step.cut_card_reached and not self.shoe.cut_card_reached):
            self._cards_out += self.take_from_shoe(step.cards_drawn, cut_card_reached=step.cut_card_reached)
            self._shoe_changed = True

    def close_shoe_if(self, close: bool, *, now: dt.datetime) -> bool:
        closed = super().close_shoe_if(close, now=now)
        self._shoe_changed = self._shoe_changed or closed
        return closed

    def write_with_step(self, statement: tuple[str, list[object]]) -> None:
        """Another INSERT of this step (`kernel.rows`), sent with `save`."""
        self._writes.append(statement)

    def save(self, *fields: str) -> None:
        """Write the step: its events, the shoe, and the round row (next seq, state, `fields`)."""
        self.round.seq += 1
        self.round.state = RoundState(str(self.state.phase))
        names = ("seq", "state", *fields)
        values = [getattr(self.round, _ROUND_ATTNAMES[name]) for name in names]
        self._write(_statements().update_round(names).statement(self.round.pk, values))

    def save_opened(self) -> None:
        """Write the opening deal's events and the shoe (the round row is new)."""
        self._write(None)

    def _write(self, round_update: tuple[str, list[object]] | None) -> None:
        statements = self._writes
        if self._event_rows:
            statements.append(_statements().insert_events.statement(self._event_rows))
        if self._shoe_changed:  # the cards appended in place: the dealt list is not rewritten
            shoe = self.shoe
            statements.append(
                (_statements().shoe_dealt, [self._cards_out, shoe.cut_card_reached, shoe.closed_at, shoe.pk])
            )
        if round_update is not None:
            statements.append(round_update)
        run_together(statements)
        self._writes, self._event_rows, self._cards_out, self._shoe_changed = [], [], [], False

    def snapshot(
        self, *, settlement: Settlement | None = None, lines: Sequence[SettlementLine] = ()
    ) -> RoundSnapshot:
        return RoundSnapshot(
            round=self.round,
            state=self.state,
            players=players_of(self.round),
            settlement=settlement,
            lines=lines,
            events_stored=self.events_stored,
        )


_ROUND_ATTNAMES = {field.name: field.attname for field in Round._meta.concrete_fields}

_EVENT_FIELDS = (
    "round",
    "number",
    "kind",
    "card",
    "seat",
    "hand",
    "action",
    "amount_cents",
    "terminal",
    "dealer",
    "created_at",
)


def _event_values(
    round_: Round, number: int, event: engine.RoundEvent, *, terminal: Terminal | None, now: dt.datetime
) -> tuple[object, ...]:
    terminal_id = terminal.pk if terminal else None
    dealer_id = terminal.dealer_id if terminal else None
    if isinstance(event, engine.CardDealt):
        return (
            round_.pk,
            number,
            EventKind.CARD.value,
            str(event.card),
            None,
            None,
            "",
            None,
            terminal_id,
            dealer_id,
            now,
        )
    if isinstance(event, engine.ActionTaken):
        return (
            round_.pk, number, EventKind.ACTION.value, "", event.seat, event.hand, str(event.action),
            event.amount_cents, terminal_id, dealer_id, now,
        )  # fmt: skip
    raise TypeError(f"{event!r} is not stored as a round event")


class _Statements:
    """The writes every round call makes, written once per process (kernel.rows): compiling
    them through the ORM on each call would cost more CPU than the database spends on them."""

    def __init__(self) -> None:
        self.insert_events = Insert(RoundEvent, _EVENT_FIELDS)
        self.insert_seats = Insert(RoundSeat, ("round", "seat", "player", "patron"))
        self.insert_settlement = Insert(Settlement, returning_pk=True)
        self.insert_lines = Insert(SettlementLine)
        self.insert_wagers = Insert(
            Wager, ("round", "seat", "hand", "kind", "source", "amount_cents", "placed_at")
        )
        self.shoe_dealt = (
            f'UPDATE "{Shoe._meta.db_table}" SET "dealt" = "dealt" || %s::varchar(2)[], '  # noqa: S608  (model metadata only)
            '"cut_card_reached" = %s, "closed_at" = %s WHERE "id" = %s'
        )
        self._round_updates: dict[tuple[str, ...], Update[Round]] = {}

    def update_round(self, fields: tuple[str, ...]) -> Update[Round]:
        update = self._round_updates.get(fields)
        if update is None:
            update = self._round_updates[fields] = Update(Round, fields)
        return update


@functools.cache
def _statements() -> _Statements:
    return _Statements()


def _place_stake(at: _RoundAtTable, *, cents: int, memo: str, now: dt.datetime) -> None:
    ledger.post(
        kind=MovementKind.WAGER,
        table=at.table,
        round_id=at.round.pk,
        now=now,
        memo=memo,
        entries=[(AccountKind.PATRONS, -cents), (AccountKind.WAGERS, cents)],
    )


@contextlib.contextmanager
def _one_open_round_per_table() -> Iterator[None]:
    """The lock's statement reads the table's open rounds in its snapshot, taken before the lock
    is granted: a round that another request opened and committed in between shows only here, as
    the database refusing a second open round."""
    try:
        yield
    except IntegrityError as exc:
        if (
            getattr(getattr(exc.__cause__, "diag", None), "constraint_name", None)
            == "round_one_open_per_table"
        ):
            raise ConflictError("round_in_progress", "The table already has an open round.") from exc
        raise


@transaction.atomic(savepoint=False)
def open_round(
    *,
    terminal: Terminal,
    seats: Sequence[SeatRequest],
    players: dict[int, str],
    actor: AuditActor,
    now: dt.datetime,
    patrons: Mapping[int, int] | None = None,
) -> RoundSnapshot:
    """`patrons`: the patron number of each seat that names one (resolved in one query, only when
    some seat does)."""
    if terminal.dealer_id is None:
        raise ForbiddenError("dealer_not_signed_in", "A dealer must be signed in at this terminal.")
    locked = lock_table_for_new_round(table_id=terminal.table_id, now=now)
    table = locked.table
    check_table_in_play(table, locked.latest_count, use=TableUse.NEW_PLAY, now=now)
    check_table_game(table, GameKind.TIE_BONUS)
    if locked.round_open:
        raise ConflictError("round_in_progress", "The table already has an open round.")
    shoe = locked.shoe
    if shoe is None:
        raise ConflictError("no_open_shoe", "The table has no open shoe; open one first.")
    if locked.rule_change_due:  # approved limits or house rules whose time has come: from this round on
        apply_due_rule_change(table=table, now=now)
    side_bet = side_bet_for(table.game)
    validated = validate_wagers(
        seats=seats, limits=table_limits_for(table), side_bet=side_bet.side_bet if side_bet else None
    )
    in_force = side_bet.terms_in_force() if side_bet else None
    if in_force is None:
        raise ConflictError("no_approved_paytable", "No paytable has been approved yet.")
    patron_ids = resolve_patron_ids(list(patrons.values()), field="seats.patron") if patrons else {}
    rules = house_rules_for(table)
    rules = type(rules)(**{**{f: getattr(rules, f) for f in rules.__slots__}, "decks": shoe.decks})
    opened = engine.open_round(seats=validated, rules=rules)
    penetration = rules_to_json(rules)["penetration_percent"]
    step = play.open_round(state=opened, shoe=shoe_in_play(shoe, penetration_percent=penetration))
    with _one_open_round_per_table():
        round_ = Round.objects.create(
            table=table,
            shoe=shoe,
            paytable=in_force.paytable,
            rules=rules_to_json(rules),
            opening=[
                {
                    "seat": w.seat,
                    "player": players.get(w.seat) or "",
                    "primary_cents": w.primary_cents,
                    "bonus_cents": {str(kind): cents for kind, cents in w.bonus_cents.items()},
                }
                for w in validated
            ],
            aggregate_limit_cents=table.aggregate_limit_cents,
            state=RoundState(str(step.state.phase)),
            seq=0,
            terminal=terminal,
            dealer_id=terminal.dealer_id,
            opened_at=now,
        )
    at = _RoundAtTable(round_, state=opened, events_stored=0)
    at.write_with_step(
        _statements().insert_seats.statement(
            [
                (round_.pk, w.seat, players.get(w.seat) or "", patron_ids.get((patrons or {}).get(w.seat, 0)))
                for w in validated
            ]
        )
    )
    at.write_with_step(
        _statements().insert_wagers.statement(
            [
                (round_.pk, w.seat, 0, kind, WagerSource.OPEN, cents, now)
                for w in validated
                for kind, cents in (("primary", w.primary_cents), *w.bonus_cents.items())
            ]
        )
    )
    _place_stake(at, cents=engine.staked_cents(opened), memo="wagers placed at the open", now=now)
    at.store_step(step, terminal=None, now=now)
    at.save_opened()
    at.audit(
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
            "paytable_version": in_force.offer.version,
            "shoe": shoe.pk,
        },
    )
    return at.snapshot()


@transaction.atomic(savepoint=False)
def report_card(
    *,
    terminal: Terminal,
    round_id: int,
    card: str,
    expected_seq: int | None,
    actor: AuditActor,
    now: dt.datetime,
) -> RoundSnapshot:
    at = _RoundAtTable.locked(round_id=round_id, table_id=terminal.table_id)
    at.check_table_deals(now=now)
    at.check_seq(expected_seq)
    seq = at.round.seq
    step = play.report_card(state=at.state, shoe=at.shoe_in_play(), card=parse_card(card))
    at.store_step(step, terminal=terminal, now=now)
    at.save()
    at.audit(
        "casino.round.card_dealt",
        actor=actor,
        now=now,
        before={"seq": seq},
        after={"seq": at.round.seq, "card": card, "state": at.round.state},
    )
    return at.snapshot()


@transaction.atomic(savepoint=False)
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
) -> RoundSnapshot:
    at = _RoundAtTable.locked(round_id=round_id, table_id=terminal.table_id)
    at.check_table_deals(now=now)
    at.check_seq(expected_seq)
    seq = at.round.seq
    step = play.take_action(
        state=at.state, shoe=at.shoe_in_play(), seat=seat, hand=hand, action=action, amount_cents=amount_cents
    )
    at.store_step(step, terminal=terminal, now=now)
    stake = step.stake
    if stake is not None:
        at.write_with_step(
            _statements().insert_wagers.statement(
                [
                    (
                        at.round.pk,
                        stake.seat,
                        stake.hand,
                        stake.kind,
                        WagerSource(stake.source),
                        stake.cents,
                        now,
                    )
                ]
            )
        )
        _place_stake(at, cents=stake.cents, memo=f"seat {seat} hand {hand}: {action}", now=now)
    at.save()
    at.audit(
        "casino.round.action_applied",
        actor=actor,
        now=now,
        before={"seq": seq},
        after={
            "seq": at.round.seq,
            "seat": seat,
            "hand": hand,
            "action": action,
            "stake_added_cents": stake.cents if stake else 0,
            "state": at.round.state,
        },
    )
    return at.snapshot()


def _write_settlement(
    at: _RoundAtTable, result: EngineSettlement, *, now: dt.datetime
) -> tuple[Settlement, list[SettlementLine]]:
    """The settlement row, and its lines sent with the round's `save`."""
    row = Settlement(
        round=at.round,
        wagered_cents=result.wagered_cents,
        paid_cents=result.paid_cents,
        house_net_cents=result.house_net_cents,
        aggregate_limit_applied=result.aggregate_limit_applied,
        aggregate_reduction_cents=result.aggregate_reduction_cents,
        settled_at=now,
    )
    insert = _statements().insert_settlement
    (row.pk,) = insert.run([insert.row_of(row)])
    row._state.adding = False
    lines = [
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
    ]
    if lines:
        at.write_with_step(
            _statements().insert_lines.statement([_statements().insert_lines.row_of(line) for line in lines])
        )
    return row, lines


@transaction.atomic(savepoint=False)
def settle_round(
    *, terminal: Terminal, round_id: int, expected_seq: int | None, actor: AuditActor, now: dt.datetime
) -> RoundSnapshot:
    at = _RoundAtTable.locked(round_id=round_id, table_id=terminal.table_id)
    at.check_table_deals(now=now)
    at.check_seq(expected_seq)
    if at.round.state == RoundState.SETTLED:
        raise ConflictError("round_already_settled", "The round is already settled.")
    side_bet = side_bet_for(at.table.game)
    offer = side_bet.terms_of(at.round.paytable) if side_bet else None
    result = settle(at.state, side_bet=offer, aggregate_limit_cents=at.round.aggregate_limit_cents)
    closing = play.settle(state=at.state, cut_card_reached=at.shoe.cut_card_reached)
    at.state = closing.state
    settlement, lines = _write_settlement(at, result, now=now)
    ledger.post(
        kind=MovementKind.PAYOUT,
        table=at.table,
        round_id=at.round.pk,
        now=now,
        memo="round settled",
        entries=[
            (AccountKind.WAGERS, -result.wagered_cents),
            (AccountKind.PATRONS, result.paid_cents),
            (AccountKind.TRAY, result.house_net_cents),
        ],
    )
    at.round.settled_at = now
    at.close_shoe_if(closing.close_shoe, now=now)
    seq = at.round.seq
    at.save("settled_at")
    at.audit(
        "casino.round.settled",
        actor=actor,
        now=now,
        before={"seq": seq},
        after={
            "seq": at.round.seq,
            "wagered_cents": result.wagered_cents,
            "paid_cents": result.paid_cents,
            "house_net_cents": result.house_net_cents,
            "aggregate_limit_applied": result.aggregate_limit_applied,
            "aggregate_reduction_cents": result.aggregate_reduction_cents,
            "paytable_version": at.round.paytable.version,
        },
    )
    return at.snapshot(settlement=settlement, lines=lines)


@transaction.atomic(savepoint=False)
def void_round(
    *, round_id: int, reason: str, user: AbstractBaseUser | None, actor: AuditActor, now: dt.datetime
) -> RoundSnapshot:
    at = _RoundAtTable.locked(round_id=round_id)
    if at.round.state in (RoundState.SETTLED, RoundState.VOID):
        raise ConflictError("round_closed", f"The round is already {at.round.state}; it cannot be voided.")
    returned = void_settlement(at.state)
    closing = play.void(state=at.state, cut_card_reached=at.shoe.cut_card_reached)
    at.state = closing.state
    if returned.paid_cents:
        ledger.post(
            kind=MovementKind.VOID,
            table=at.table,
            round_id=at.round.pk,
            now=now,
            memo=f"void: {reason}"[:200],
            entries=[(AccountKind.WAGERS, -returned.paid_cents), (AccountKind.PATRONS, returned.paid_cents)],
        )
    at.round.voided_at = now
    at.round.void_reason = reason
    at.round.voided_by = user  # type: ignore[assignment]
    at.close_shoe_if(closing.close_shoe, now=now)
    seq = at.round.seq
    at.save("voided_at", "void_reason", "voided_by")
    at.audit(
        "casino.round.voided",
        actor=actor,
        now=now,
        before={"seq": seq, "state": "open"},
        after={"seq": at.round.seq, "reason": reason, "returned_cents": returned.paid_cents},
    )
    # The void counts in the current shift's report (rounds voided): keep a stored one current.
    gaming_day, shift = gaming_day_and_shift(now)
    refresh_reports_on_commit(table_id=at.table.pk, gaming_day=gaming_day, shifts=[shift], now=now)
    return at.snapshot()
