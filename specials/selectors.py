"""Reads of the special-card game (STYLE.md §6): a match and a round rebuilt for the engine and
for the API, from their stored rows and events."""

from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import QuerySet
from django.template.defaultfilters import pluralize

from casino.engine.cards import parse_card
from casino.games import PlayOnFloor
from casino.models import Table
from specials.engine import match as match_engine
from specials.engine import round as round_engine
from specials.engine.special_cards import SpecialCard as EngineSpecialCard
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


@dataclass(frozen=True)
class MatchSnapshot:
    match: Match
    state: match_engine.MatchState
    players: Sequence[MatchPlayer]
    ledger: Sequence[PointsEntry]
    current_round_id: int | None  # the round in play, else the last one played


@dataclass(frozen=True)
class RoundSnapshot:
    round: SpecialsRound
    state: round_engine.RoundState
    events_stored: int


def match_snapshot(match: Match) -> MatchSnapshot:
    """The match as it stands: players, balances from the points ledger, specials used."""
    players = list(MatchPlayer.objects.filter(match=match).order_by("seat"))
    ledger = list(PointsEntry.objects.filter(match=match).select_related("round").order_by("seq"))
    balances = {entry.seat: entry.balance for entry in ledger}
    thresholds = match_engine.Thresholds(
        start_points=match.start_points, win_points=match.win_points, lose_points=match.lose_points
    )
    engine_players = tuple(
        match_engine.Player(
            seat=player.seat,
            special=EngineSpecialCard(player.special),
            special_used=player.special_used_in_id is not None,
            points=balances[player.seat],
        )
        for player in players
    )
    winners, eliminated = (
        match_engine.match_result(engine_players, thresholds)
        if match.state == MatchState.FINISHED
        else ((), ())
    )
    state = match_engine.MatchState(
        thresholds=thresholds,
        players=engine_players,
        ledger=tuple(
            match_engine.LedgerEntry(
                seat=entry.seat,
                round=entry.round.number if entry.round else None,
                delta=entry.delta,
                balance=entry.balance,
                reason=match_engine.LedgerReason(entry.reason),
            )
            for entry in ledger
        ),
        rounds_played=match.rounds_played,
        winners=winners,
        eliminated=eliminated,
    )
    # Rounds are numbered in order and one is open at a time: the highest number is the current one.
    current_round_id = (
        SpecialsRound.objects.filter(match=match).order_by("-number").values_list("pk", flat=True).first()
    )
    return MatchSnapshot(match, state, players, ledger, current_round_id)


def _engine_event(event: SpecialsRoundEvent) -> round_engine.RoundEvent:
    if event.kind == EventKind.CARD:
        return round_engine.CardDealt(parse_card(event.card), event.seat)
    if event.seat is None:
        raise ValueError(f"event {event.number} of round {event.round_id} has no seat")
    if event.kind == EventKind.DECLARE_ACE:
        if event.value is None:
            raise ValueError(f"event {event.number} of round {event.round_id} declares no value")
        return round_engine.AceDeclared(event.seat, event.value)
    return round_engine.ActionTaken(
        event.seat, round_engine.Action(event.action), parse_card(event.discard) if event.discard else None
    )


def seats_of(round_: SpecialsRound) -> tuple[round_engine.SeatEntry, ...]:
    """The round's seats as it opened."""
    return tuple(
        round_engine.SeatEntry(seat["seat"], EngineSpecialCard(seat["special"]), seat["special_used"])
        for seat in round_.opening
    )


def round_events(round_: SpecialsRound) -> list[round_engine.RoundEvent]:
    """The round's stored events, in order, as the engine's."""
    return [
        _engine_event(event) for event in SpecialsRoundEvent.objects.filter(round=round_).order_by("number")
    ]


def round_snapshot(round_: SpecialsRound) -> RoundSnapshot:
    """The round rebuilt by replaying its stored events (accepted by the same engine)."""
    events = round_events(round_)
    return RoundSnapshot(round_, round_engine.replay(seats=seats_of(round_), events=events), len(events))


def get_match(*, match_id: int) -> Match | None:
    return Match.objects.filter(pk=match_id).first()


def get_round(*, round_id: int) -> SpecialsRound | None:
    return SpecialsRound.objects.select_related("match").filter(pk=round_id).first()


def list_round_events(*, round_: SpecialsRound) -> QuerySet[SpecialsRoundEvent]:
    """The round's events in order, with the terminal and dealer that reported each."""
    return (
        SpecialsRoundEvent.objects.filter(round=round_)
        .select_related("terminal", "dealer")
        .order_by("number")
    )


def list_points_entries(*, match: Match) -> list[PointsEntry]:
    """The match's points ledger, oldest first, with the round of each entry."""
    return list(PointsEntry.objects.filter(match=match).select_related("round").order_by("seq"))


def list_recent_rounds_of_tables(*, tables: QuerySet[Table], limit: int) -> QuerySet[SpecialsRound]:
    """The newest special-card rounds of `tables`, newest first, with their match, table and dealer."""
    return (
        SpecialsRound.objects.filter(match__table__in=tables)
        .select_related("match", "match__table", "dealer")
        .order_by("-opened_at", "-pk")[:limit]
    )


def plays_on_floor(table_ids: Sequence[int]) -> dict[int, PlayOnFloor]:
    """The match in play at each of these tables and its round being dealt, if any, as the live
    floor's card shows them."""
    matches = list(
        Match.objects.filter(table_id__in=table_ids, state=MatchState.PLAYING).only(
            "id", "table_id", "rounds_played"
        )
    )
    open_rounds = {
        row.match_id: row
        for row in SpecialsRound.objects.filter(match__in=[m.pk for m in matches])
        .exclude(state=RoundState.FINISHED)
        .only("id", "match_id", "number", "state")
    }
    plays = {}
    for match in matches:
        played = f"#{match.pk}, {match.rounds_played} round{pluralize(match.rounds_played)} played"
        round_ = open_rounds.get(match.pk)
        plays[match.table_id] = (
            PlayOnFloor(
                before=f"{played}; ",
                link=f"/floor/rounds/specials/{round_.pk}/",
                link_text=f"round {round_.number}",
                after=f", {round_.state}",
                dealing=True,
            )
            if round_ is not None
            else PlayOnFloor(before=played)
        )
    return plays


def table_of_round(round_id: int) -> int | None:
    return SpecialsRound.objects.filter(pk=round_id).values_list("match__table_id", flat=True).first()
