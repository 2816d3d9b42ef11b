"""The special-card game's write paths: start a match, open a round, report a card, act.

Each takes its locks through `specials.locks` (table, shoe, match, round), checks
`expected_seq`, rebuilds the match and the round from their rows and events, asks the engine
once (`specials.engine.table`: what happened, including the cards an electronic shoe deals and,
when the dealer's hand is final, the round applied to the match), writes the events, the shoe,
the round and, for a finished round, its points-ledger entries and the match, records the
audit event and returns the snapshot the API presents. The engine decides; nothing here does.
"""

import datetime as dt
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction

from audit.context import AuditActor
from audit.services import record_event
from casino.engine.cards import parse_card
from casino.locks import lock_open_shoe
from casino.models import Shoe, Table, Terminal
from casino.selectors import shoe_in_play
from casino.services.table_rounds import RoundAtTable
from casino.services.table_state import TableUse, check_table_in_play
from kernel.errors import ConflictError, ForbiddenError
from specials.engine import match as match_engine
from specials.engine import round as round_engine
from specials.engine import table as engine_table
from specials.engine.special_cards import SpecialDeck, parse_special
from specials.locks import lock_match, lock_round, lock_specials_table, unfinished_match_of
from specials.models import (
    EventKind,
    Match,
    MatchPlayer,
    MatchState,
    PointsEntry,
    RoundState,
    SpecialsRound,
    SpecialsRoundEvent,
)
from specials.selectors import MatchSnapshot, RoundSnapshot, match_snapshot, round_events, round_snapshot


@dataclass(frozen=True)
class PlayerSeat:
    seat: int
    player: str
    special: str | None  # named from a physical special deck, or None: the service deals one


def _signed_in_dealer(terminal: Terminal) -> int:
    if terminal.dealer_id is None:
        raise ForbiddenError("dealer_not_signed_in", "A dealer must be signed in at this terminal.")
    return terminal.dealer_id


def special_deck() -> SpecialDeck:
    """The special deck the service deals from (settings `SPECIALS_DECK_SWAP`, `..._PLUS_ONE`)."""
    return SpecialDeck(swap=settings.SPECIALS_DECK_SWAP, plus_one=settings.SPECIALS_DECK_PLUS_ONE)


def _audit(
    event_type: str,
    *,
    table: Table,
    subject_type: str,
    subject_id: int,
    label: str,
    actor: AuditActor,
    now: dt.datetime,
    before: dict[str, object],
    after: dict[str, object],
) -> None:
    record_event(
        event_type=event_type,
        actor=actor,
        table_id=table.pk,
        table_name=table.name,
        subject_type=subject_type,
        subject_id=str(subject_id),
        subject_label=f"{label} at {table.name}",
        before=before,
        after=after,
        occurred_at=now,
    )


@transaction.atomic(savepoint=False)
def start_match(
    *,
    terminal: Terminal,
    players: Sequence[PlayerSeat],
    start_points: int,
    win_points: int,
    lose_points: int,
    actor: AuditActor,
    now: dt.datetime,
) -> MatchSnapshot:
    dealer_id = _signed_in_dealer(terminal)
    locked = lock_specials_table(table_id=terminal.table_id)
    table = locked.table
    check_table_in_play(table, locked.latest_count, use=TableUse.NEW_PLAY, now=now)
    if unfinished_match_of(table=table) is not None:
        raise ConflictError("match_in_progress", "The table already has an unfinished match.")
    thresholds = match_engine.Thresholds(
        start_points=start_points, win_points=win_points, lose_points=lose_points
    )
    opened = engine_table.start_match(
        players=[
            match_engine.PlayerRequest(p.seat, parse_special(p.special) if p.special is not None else None)
            for p in players
        ],
        thresholds=thresholds,
        deck=special_deck(),
        rng=secrets.SystemRandom(),
    )
    match = Match.objects.create(
        table=table,
        start_points=start_points,
        win_points=win_points,
        lose_points=lose_points,
        terminal=terminal,
        dealer_id=dealer_id,
        opened_at=now,
    )
    names = {p.seat: p.player for p in players}
    reported = {p.seat for p in players if p.special is not None}
    MatchPlayer.objects.bulk_create(
        MatchPlayer(
            match=match,
            seat=player.seat,
            player=names[player.seat],
            special=str(player.special),
            special_reported=player.seat in reported,
        )
        for player in opened.players
    )
    PointsEntry.objects.bulk_create(
        PointsEntry(
            match=match,
            seq=seq,
            seat=entry.seat,
            delta=entry.delta,
            balance=entry.balance,
            reason=str(entry.reason),
            created_at=now,
        )
        for seq, entry in enumerate(opened.ledger, start=1)
    )
    _audit(
        "specials.match.started",
        table=table,
        subject_type="specials_match",
        subject_id=match.pk,
        label=f"match {match.pk}",
        actor=actor,
        now=now,
        before={},
        after={
            "start_points": start_points,
            "win_points": win_points,
            "lose_points": lose_points,
            "players": [
                {"seat": p.seat, "special": str(p.special), "named": p.seat in reported}
                for p in opened.players
            ],
        },
    )
    return match_snapshot(match)


@transaction.atomic(savepoint=False)
def open_round(*, terminal: Terminal, match_id: int, actor: AuditActor, now: dt.datetime) -> RoundSnapshot:
    dealer_id = _signed_in_dealer(terminal)
    locked = lock_specials_table(table_id=terminal.table_id)
    table = locked.table
    check_table_in_play(table, locked.latest_count, use=TableUse.NEW_PLAY, now=now)
    shoe = lock_open_shoe(table=table)
    match = lock_match(table=table, match_id=match_id)
    if match.state == MatchState.FINISHED:
        raise ConflictError("match_finished", f"Match {match.pk} is finished: start a new match.")
    if SpecialsRound.objects.filter(match=match).exclude(state=RoundState.FINISHED).exists():
        raise ConflictError("round_in_progress", "The match already has a round in progress.")
    if shoe is None:
        raise ConflictError("no_open_shoe", "The table has no open shoe; open one first.")
    state = match_snapshot(match).state
    step = engine_table.open_round(
        match=state, shoe=shoe_in_play(shoe, penetration_percent=table.penetration_percent)
    )
    round_ = SpecialsRound.objects.create(
        match=match,
        number=match.rounds_played + 1,
        shoe=shoe,
        seq=0,
        state=RoundState(str(step.state.phase)),
        opening=[
            {"seat": seat.seat, "special": str(seat.special), "special_used": seat.special_used}
            for seat in match_engine.round_entries(state)
        ],
        penetration_percent=table.penetration_percent,
        terminal=terminal,
        dealer_id=dealer_id,
        opened_at=now,
    )
    at = _RoundAtTable(table=table, shoe=shoe, match=match, round_=round_, match_state=state, events_stored=0)
    at.store(step, terminal=None, now=now)
    at.save(bump_seq=False)
    at.audit(
        "specials.round.opened",
        actor=actor,
        now=now,
        before={},
        after={"round": round_.number, "shoe": shoe.pk, "seats": round_.opening, "state": round_.state},
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
    at = _RoundAtTable.locked(terminal=terminal, round_id=round_id, now=now)
    at.check_seq(expected_seq)
    seq = at.round.seq
    step = at.play(engine_table.ReportCard(parse_card(card)))
    at.store(step, terminal=terminal, now=now)
    at.save()
    at.audit(
        "specials.round.card_dealt",
        actor=actor,
        now=now,
        before={"seq": seq},
        after={"seq": at.round.seq, "card": card, "state": at.round.state, **at.finished_summary()},
    )
    return at.snapshot()


@transaction.atomic(savepoint=False)
def take_action(
    *,
    terminal: Terminal,
    round_id: int,
    seat: int,
    action: str,
    value: int | None,
    discard: str | None,
    expected_seq: int | None,
    actor: AuditActor,
    now: dt.datetime,
) -> RoundSnapshot:
    at = _RoundAtTable.locked(terminal=terminal, round_id=round_id, now=now)
    at.check_seq(expected_seq)
    seq = at.round.seq
    request = engine_table.TakeAction(
        seat=seat, action=action, value=value, discard=parse_card(discard) if discard is not None else None
    )
    step = at.play(request)
    at.store(step, terminal=terminal, now=now)
    at.save()
    at.audit(
        "specials.round.action_taken",
        actor=actor,
        now=now,
        before={"seq": seq},
        after={
            "seq": at.round.seq,
            "seat": seat,
            "action": action,
            **({"value": value} if value is not None else {}),
            **({"discard": discard} if discard is not None else {}),
            "state": at.round.state,
            **at.finished_summary(),
        },
    )
    return at.snapshot()


class _RoundAtTable(RoundAtTable):
    subject_type = "specials_round"

    """A locked round with its table, shoe and match; stores what one engine step changed."""

    def __init__(
        self,
        *,
        table: Table,
        shoe: Shoe,
        match: Match,
        round_: SpecialsRound,
        match_state: match_engine.MatchState,
        events_stored: int,
        events: Sequence[round_engine.RoundEvent] = (),
    ) -> None:
        super().__init__(table=table, shoe=shoe, round_=round_, events_stored=events_stored)
        self.match = match
        self.round = round_
        self.match_state = match_state
        self.events = events
        self.state: round_engine.RoundState | None = None
        self.settlement: match_engine.RoundSettlement | None = None

    @classmethod
    def locked(cls, *, terminal: Terminal, round_id: int, now: dt.datetime) -> "_RoundAtTable":
        locked = lock_specials_table(table_id=terminal.table_id)
        table = locked.table
        check_table_in_play(table, locked.latest_count, use=TableUse.FINISH_ROUND, now=now)
        shoe, match, round_ = lock_round(table=table, round_id=round_id)
        events = round_events(round_)
        return cls(
            table=table,
            shoe=shoe,
            match=match,
            round_=round_,
            match_state=match_snapshot(match).state,
            events_stored=len(events),
            events=events,
        )

    def play(self, request: engine_table.Request) -> engine_table.Step:
        return engine_table.play(
            match=self.match_state,
            events=self.events,
            request=request,
            shoe=shoe_in_play(self.shoe, penetration_percent=self._penetration_percent()),
        )

    def _penetration_percent(self) -> int:
        """The cut card as the round opened, so a rule change applies from the next round."""
        kept = self.round.penetration_percent
        return kept if kept is not None else self.table.penetration_percent

    def store(self, step: engine_table.Step, *, terminal: Terminal | None, now: dt.datetime) -> None:
        """The step's events and the cards it took from the shoe; a finished round's outcome,
        points-ledger entries and the match after it."""
        self.state = step.state
        SpecialsRoundEvent.objects.bulk_create(
            _event_row(self.round, number, event, terminal=by, now=now)
            for event, (number, by) in zip(
                step.events, self.numbered(step.events, terminal=terminal), strict=True
            )
        )
        self.take_from_shoe(step.cards_drawn, cut_card_reached=step.cut_card_reached)
        self.round.state = RoundState(str(step.state.phase))
        if step.settlement is not None:
            self._finish(step.settlement, now=now)
            # The cut card closes the shoe after the round (RULES.md §1.1).
            self.close_shoe_if(self.shoe.cut_card_reached, now=now)
        self.shoe.save(update_fields=["dealt", "cut_card_reached", "closed_at"])

    def _finish(self, settlement: match_engine.RoundSettlement, *, now: dt.datetime) -> None:
        self.settlement = settlement
        self.round.outcome = [
            {"seat": o.seat, "result": str(o.result), "delta": o.delta, "points": o.points}
            for o in settlement.outcome
        ]
        self.round.finished_at = now
        first_seq = len(self.match_state.ledger) + 1
        PointsEntry.objects.bulk_create(
            PointsEntry(
                match=self.match,
                seq=seq,
                seat=entry.seat,
                round=self.round,
                delta=entry.delta,
                balance=entry.balance,
                reason=str(entry.reason),
                created_at=now,
            )
            for seq, entry in enumerate(settlement.entries, start=first_seq)
        )
        used_before = {p.seat for p in self.match_state.players if p.special_used}
        used_now = [p.seat for p in settlement.match.players if p.special_used and p.seat not in used_before]
        if used_now:
            MatchPlayer.objects.filter(match=self.match, seat__in=used_now).update(special_used_in=self.round)
        self.match.rounds_played = settlement.round
        fields = ["rounds_played"]
        if settlement.match.finished:
            self.match.state = MatchState.FINISHED
            self.match.finished_at = now
            fields += ["state", "finished_at"]
        self.match.save(update_fields=fields)

    def save(self, *, bump_seq: bool = True) -> None:
        if bump_seq:
            self.round.seq += 1
        self.round.save(update_fields=["seq", "state", "outcome", "finished_at"])

    def finished_summary(self) -> dict[str, object]:
        settlement = self.settlement
        if settlement is None:
            return {}
        return {
            "outcome": self.round.outcome,
            "points": {p.seat: p.points for p in settlement.match.players},
            "match_finished": settlement.match.finished,
            "winners": list(settlement.match.winners),
            "eliminated": list(settlement.match.eliminated),
        }

    def snapshot(self) -> RoundSnapshot:
        if self.state is None:
            return round_snapshot(self.round)
        return RoundSnapshot(self.round, self.state, self.events_stored)

    def subject_label(self) -> str:
        return f"round {self.round.number} of match {self.match.pk} at {self.table.name}"

    def audit_context(self) -> dict[str, object]:
        return {"match": self.match.pk}


def _event_row(
    round_: SpecialsRound,
    number: int,
    event: round_engine.RoundEvent,
    *,
    terminal: Terminal | None,
    now: dt.datetime,
) -> SpecialsRoundEvent:
    row = SpecialsRoundEvent(
        round=round_,
        number=number,
        terminal=terminal,
        dealer_id=terminal.dealer_id if terminal else None,
        created_at=now,
    )
    if isinstance(event, round_engine.CardDealt):
        row.kind, row.card, row.seat = EventKind.CARD, str(event.card), event.seat
    elif isinstance(event, round_engine.AceDeclared):
        row.kind, row.seat, row.value = EventKind.DECLARE_ACE, event.seat, event.value
    else:
        row.kind, row.seat, row.action = EventKind.ACTION, event.seat, str(event.action)
        row.discard = str(event.discard) if event.discard is not None else ""
    return row
