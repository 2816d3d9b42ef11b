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


RECENT_ROUNDS_AT_TABLE = 15


@dataclass(frozen=True)
class PlayerLine:
    seat: int
    player: str
    special: str  # the special card's name
    special_used_in: int | None  # the number of the round it was used in
    points: int  # the balance, from the points ledger
    result: str  # "winner", "eliminated", or blank while the match is in play (or for the others)


@dataclass(frozen=True)
class MatchView:
    """A match as the console shows it: players and balances, rounds in order, the points ledger."""

    match: Match
    players: Sequence[PlayerLine]
    rounds: Sequence[SpecialsRound]
    ledger: Sequence[PointsEntry]
    round_in_play: SpecialsRound | None

    @property
    def winners(self) -> list[PlayerLine]:
        return [player for player in self.players if player.result == "winner"]

    @property
    def eliminated(self) -> list[PlayerLine]:
        return [player for player in self.players if player.result == "eliminated"]


def match_view(match: Match) -> MatchView:
    snapshot = match_snapshot(match)
    used_in = dict(
        MatchPlayer.objects.filter(match=match, special_used_in__isnull=False).values_list(
            "seat", "special_used_in__number"
        )
    )
    points = {player.seat: player.points for player in snapshot.state.players}
    winners, eliminated = set(snapshot.state.winners), set(snapshot.state.eliminated)
    players = [
        PlayerLine(
            seat=player.seat,
            player=player.player,
            special=player.get_special_display(),
            special_used_in=used_in.get(player.seat),
            points=points[player.seat],
            result="winner" if player.seat in winners else "eliminated" if player.seat in eliminated else "",
        )
        for player in snapshot.players
    ]
    rounds = list(SpecialsRound.objects.filter(match=match).select_related("dealer").order_by("number"))
    in_play = next((round_ for round_ in rounds if round_.state != RoundState.FINISHED), None)
    return MatchView(match, players, rounds, snapshot.ledger, in_play)


def table_play(table: Table) -> dict[str, object]:
    """What the console's table page shows of the table's special-card game: the match in play
    (else the last one played), the table's latest rounds and the match's points ledger."""
    match = (
        Match.objects.filter(table=table, state=MatchState.PLAYING).first()
        or Match.objects.filter(table=table).order_by("-opened_at", "-pk").first()
    )
    return {
        "match": match_view(match) if match is not None else None,
        "rounds": list(
            SpecialsRound.objects.filter(match__table=table)
            .select_related("match", "dealer")
            .order_by("-opened_at", "-pk")[:RECENT_ROUNDS_AT_TABLE]
        ),
    }


def plays_on_floor(table_ids: Sequence[int]) -> dict[int, PlayOnFloor]:
    """The match in play at each of these tables and its round being dealt, if any, as the live
    floor's card shows them: a link to the match's page."""
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
    # Each player's balance: the latest entry of the seat in the match's points ledger.
    balances: dict[int, list[tuple[int, int]]] = {}
    for match_id, seat, balance in (
        PointsEntry.objects.filter(match__in=[m.pk for m in matches])
        .order_by("match_id", "seat", "-seq")
        .distinct("match_id", "seat")
        .values_list("match_id", "seat", "balance")
    ):
        balances.setdefault(match_id, []).append((seat, balance))
    plays = {}
    for match in matches:
        played = f", {match.rounds_played} round{pluralize(match.rounds_played)} played"
        round_ = open_rounds.get(match.pk)
        points = ", ".join(f"seat {seat} {balance}" for seat, balance in balances.get(match.pk, []))
        plays[match.table_id] = PlayOnFloor(
            before="",
            link=f"/floor/rounds/specials/matches/{match.pk}/",
            link_text=f"#{match.pk}",
            after=(f"{played}; round {round_.number} in play" if round_ is not None else played)
            + (f". Points: {points}" if points else ""),
            dealing=round_ is not None,
        )
    return plays


def table_of_round(round_id: int) -> int | None:
    return SpecialsRound.objects.filter(pk=round_id).values_list("match__table_id", flat=True).first()
