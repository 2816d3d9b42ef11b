"""A match of the special-card points game (RULES.md §2): players, points and the ledger.

`open_match` seats the players, deals their special cards and writes each one's start
balance to the points ledger. Each finished round is applied by `settle_round`: its
outcomes move the balances through new ledger entries (one per changed balance, never an
overwritten number), the special cards used in it are marked used for the rest of the match,
and the match ends as soon as any balance reaches a threshold (`match_result`). Replaying
the finished rounds in order (`replay_match`) rebuilds the match exactly.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from casino.engine.errors import RuleError
from casino.engine.seats import DuplicateSeatError, SeatsRequiredError, check_seat_number
from casino.engine.shoe import ShuffleRng
from specials.engine.round import Result, RoundState, SeatEntry, points_delta, results
from specials.engine.special_cards import SpecialCard, SpecialDeck, deal_specials

DEFAULT_START_POINTS = 5
DEFAULT_WIN_POINTS = 10
DEFAULT_LOSE_POINTS = 0


class InvalidPointsError(RuleError):
    code = "invalid_points"


class MatchFinishedError(RuleError):
    code = "match_finished"


class RoundNotOfMatchError(RuleError):
    code = "round_not_of_match"


class LedgerReason(StrEnum):
    START = "start"
    WIN = "win"
    LOSE = "lose"


_REASONS = {Result.WIN: LedgerReason.WIN, Result.LOSE: LedgerReason.LOSE}


@dataclass(frozen=True, slots=True)
class Thresholds:
    """Points a player starts with, and the balances that end the match (win at or above
    `win_points`, out at or below `lose_points`)."""

    start_points: int = DEFAULT_START_POINTS
    win_points: int = DEFAULT_WIN_POINTS
    lose_points: int = DEFAULT_LOSE_POINTS

    def __post_init__(self) -> None:
        for name in ("start_points", "win_points", "lose_points"):
            points = getattr(self, name)
            if type(points) is not int:
                raise InvalidPointsError(f"{name} is a whole number of points, not {points!r}", field=name)
        if not thresholds_in_order(
            start_points=self.start_points, win_points=self.win_points, lose_points=self.lose_points
        ):
            raise InvalidPointsError(
                "points must satisfy lose_points < start_points < win_points, not "
                f"{self.lose_points}, {self.start_points}, {self.win_points}",
                field="start_points",
            )


def thresholds_in_order(*, start_points: int, win_points: int, lose_points: int) -> bool:
    """A match starts strictly between the balance that loses and the one that wins."""
    return lose_points < start_points < win_points


@dataclass(frozen=True, slots=True)
class PlayerRequest:
    """A player joining a match; `special` names a card dealt from a physical special deck,
    None lets the engine deal one."""

    seat: int
    special: SpecialCard | None = None


@dataclass(frozen=True, slots=True)
class Player:
    seat: int
    special: SpecialCard
    special_used: bool
    points: int


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One change of one balance; `round` is the match's round number (None for the start)."""

    seat: int
    round: int | None
    delta: int
    balance: int
    reason: LedgerReason


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    seat: int
    result: Result
    delta: int
    points: int  # the balance after the round


@dataclass(frozen=True, slots=True)
class MatchState:
    thresholds: Thresholds
    players: tuple[Player, ...]  # in seat order
    ledger: tuple[LedgerEntry, ...]
    rounds_played: int = 0
    winners: tuple[int, ...] = ()  # seats at or above win_points when the match ended
    eliminated: tuple[int, ...] = ()  # seats at or below lose_points when the match ended

    @property
    def finished(self) -> bool:
        return bool(self.winners or self.eliminated)

    def player(self, seat: int) -> Player:
        for player in self.players:
            if player.seat == seat:
                return player
        raise KeyError(seat)


@dataclass(frozen=True, slots=True)
class RoundSettlement:
    """A finished round applied to its match: the new match, each seat's outcome, and the
    ledger entries it added (already part of `match.ledger`)."""

    match: MatchState
    round: int
    outcome: tuple[SeatOutcome, ...]
    entries: tuple[LedgerEntry, ...]


def open_match(
    *, players: Sequence[PlayerRequest], thresholds: Thresholds, deck: SpecialDeck, rng: ShuffleRng
) -> MatchState:
    """A new match: seats checked (1-7, each once), special cards dealt, start balances written."""
    if not players:
        raise SeatsRequiredError("a match needs one to seven players", field="players")
    numbers = [check_seat_number(request.seat) for request in players]
    if len(set(numbers)) != len(numbers):
        raise DuplicateSeatError(f"a seat is listed twice: {sorted(numbers)}", field="players")
    ordered = sorted(players, key=lambda request: request.seat)
    specials = deal_specials(named=[request.special for request in ordered], deck=deck, rng=rng)
    start = thresholds.start_points
    seated = tuple(
        Player(request.seat, special, special_used=False, points=start)
        for request, special in zip(ordered, specials, strict=True)
    )
    ledger = tuple(LedgerEntry(player.seat, None, start, start, LedgerReason.START) for player in seated)
    return MatchState(thresholds, seated, ledger)


def round_entries(match: MatchState) -> tuple[SeatEntry, ...]:
    """The seats of the match's next round; refused once the match is over."""
    if match.finished:
        raise MatchFinishedError("the match is finished: no more rounds")
    return tuple(SeatEntry(player.seat, player.special, player.special_used) for player in match.players)


def match_result(
    players: Iterable[Player], thresholds: Thresholds
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(winners, eliminated): every seat that reached `win_points` or `lose_points`. Any of
    either ends the whole match [decided]; several can cross in the same round."""
    players = tuple(players)
    winners = tuple(player.seat for player in players if player.points >= thresholds.win_points)
    eliminated = tuple(player.seat for player in players if player.points <= thresholds.lose_points)
    return winners, eliminated


def settle_round(match: MatchState, state: RoundState) -> RoundSettlement:
    """Apply a finished round: outcomes, one ledger entry per changed balance, specials used."""
    entries_expected = round_entries(match)
    if tuple(hand.seat for hand in state.seats) != tuple(entry.seat for entry in entries_expected):
        raise RoundNotOfMatchError("the round's seats are not the match's players")
    number = match.rounds_played + 1
    used = {hand.seat for hand in state.seats if hand.used_special_this_round}
    outcome: list[SeatOutcome] = []
    entries: list[LedgerEntry] = []
    players: list[Player] = []
    for player, (seat, result) in zip(match.players, results(state), strict=True):
        delta = points_delta(result)
        points = player.points + delta
        outcome.append(SeatOutcome(seat, result, delta, points))
        if delta:
            entries.append(LedgerEntry(seat, number, delta, points, _REASONS[result]))
        players.append(Player(seat, player.special, player.special_used or seat in used, points))
    winners, eliminated = match_result(players, match.thresholds)
    settled = MatchState(
        match.thresholds, tuple(players), (*match.ledger, *entries), number, winners, eliminated
    )
    return RoundSettlement(settled, number, tuple(outcome), tuple(entries))


def replay_match(*, opened: MatchState, rounds: Iterable[RoundState]) -> MatchState:
    """The match after its finished rounds, applied in order to the match as it opened."""
    match = opened
    for state in rounds:
        match = settle_round(match, state).match
    return match


def balance_from_ledger(ledger: Iterable[LedgerEntry], seat: int) -> int:
    """A seat's balance as the sum of its ledger entries."""
    return sum(entry.delta for entry in ledger if entry.seat == seat)


def describe_match(match: MatchState) -> dict[str, object]:
    """The engine's part of the API's match: thresholds, players, end and the points ledger
    (`round` is the match's round number here; the service shows its own round ids)."""
    thresholds = match.thresholds
    return {
        "state": "finished" if match.finished else "playing",
        "start_points": thresholds.start_points,
        "win_points": thresholds.win_points,
        "lose_points": thresholds.lose_points,
        "rounds_played": match.rounds_played,
        "players": [
            {"seat": p.seat, "points": p.points, "special": str(p.special), "special_used": p.special_used}
            for p in match.players
        ],
        "finished": match.finished,
        "winners": list(match.winners),
        "eliminated": list(match.eliminated),
        "points_ledger": [
            {
                "seq": seq,
                "seat": entry.seat,
                "round": entry.round,
                "delta": entry.delta,
                "balance": entry.balance,
                "reason": str(entry.reason),
            }
            for seq, entry in enumerate(match.ledger, start=1)
        ],
    }
