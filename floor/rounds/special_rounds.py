"""A special-card points round's story and its re-verification, from what was stored.

The story: the match and its players, every card in dealing order (stored with the seat it
went to, or the dealer), every Ace declaration and decision with who and when, the outcome per
seat, the points entries the round wrote and the round's audit events.

Re-verification replays the stored events through `specials.engine` from the seats the round
opened with, applies the finished replay to the match as it stood before the round (its
thresholds and the balances of the points ledger up to that round), and holds the recomputed
outcome and points entries against the stored ones.
"""

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from django.db.models import QuerySet

from audit.models import AuditEvent
from casino.engine.errors import RuleError
from floor.rounds.audit_trail import subject_audit_events
from floor.rounds.cards import ShownCard, dealer_card_face
from specials.engine import match as match_engine
from specials.engine import round as round_engine
from specials.engine.special_cards import SpecialCard as EngineSpecialCard
from specials.models import EventKind, MatchPlayer, PointsEntry, RoundState, SpecialCard, SpecialsRound
from specials.selectors import list_points_entries, list_round_events, round_events, seats_of


@dataclass(frozen=True)
class SpecialStep:
    number: int
    at: dt.datetime
    card: ShownCard | None
    recipient: str  # "Seat 1" or "Dealer"; for a declaration or decision, the seat
    face: str
    what: str  # the declaration or decision, blank for cards
    terminal: str
    dealer: str


@dataclass(frozen=True)
class SeatAtOpening:
    seat: int
    player: str
    special: str  # the special card's name
    used_before: bool  # used in an earlier round of the match


@dataclass
class SpecialRoundStory:
    round: SpecialsRound
    seats: list[SeatAtOpening]
    steps: list[SpecialStep]
    hands: dict[str, Any]  # the engine's description of the round (seats and dealer), or {}
    replay_problem: str
    points_entries: list[PointsEntry]
    audit_events: list[AuditEvent]


_ACTIONS = {"hit": "hit", "stand": "stand", "use_special": "use the special card"}


def build_special_round_story(round_: SpecialsRound) -> SpecialRoundStory:
    rows = list(list_round_events(round_=round_))
    steps: list[SpecialStep] = []
    dealer_cards = 0
    for row in rows:
        recipient = "Dealer" if row.seat is None else f"Seat {row.seat}"
        face, what = "", ""
        if row.kind == EventKind.CARD:
            face = dealer_card_face(dealer_cards) if row.seat is None else "face up"
            dealer_cards += row.seat is None
        elif row.kind == EventKind.DECLARE_ACE:
            what = f"declares the Ace as {row.value}"
        else:
            what = _ACTIONS.get(row.action, row.action)
            if row.discard:
                what += f", discarding {ShownCard(row.discard)}"
        steps.append(
            SpecialStep(
                number=row.number,
                at=row.created_at,
                card=ShownCard(row.card) if row.card and row.kind != EventKind.ACTION else None,
                recipient=recipient,
                face=face,
                what=what,
                terminal=row.terminal.name if row.terminal else "",
                dealer=row.dealer.name if row.dealer else "",
            )
        )
    hands: dict[str, Any] = {}
    problem = ""
    try:
        state = round_engine.replay(seats=seats_of(round_), events=round_events(round_))
    except (RuleError, ValueError, KeyError) as error:
        problem = f"The stored events do not replay: {error}"
    else:
        hands = _shown_hands(round_engine.describe_round(state))
    if round_.state != RoundState.FINISHED and (problem or not round_engine.hole_card_visible(state)):
        steps = [
            replace(step, card=None, face="hole card, face down until the dealer's turn")
            if step.face == "hole card"
            else step
            for step in steps
        ]
    return SpecialRoundStory(
        round=round_,
        seats=_seats_at_opening(round_),
        steps=steps,
        hands=hands,
        replay_problem=problem,
        points_entries=list(PointsEntry.objects.filter(round=round_).order_by("seq")),
        audit_events=list(special_round_audit_events(round_)),
    )


def _seats_at_opening(round_: SpecialsRound) -> list[SeatAtOpening]:
    names = dict(MatchPlayer.objects.filter(match_id=round_.match_id).values_list("seat", "player"))
    return [
        SeatAtOpening(seat["seat"], names.get(seat["seat"], ""), SpecialCard(seat["special"]).label,
                      seat["special_used"])
        for seat in round_.opening
    ]  # fmt: skip


def _shown_hands(described: dict[str, Any]) -> dict[str, Any]:
    """The engine's description of the round with its cards as staff read them."""
    return {
        "seats": [
            {
                **seat,
                "cards": [(ShownCard(held["card"]), held["value"]) for held in seat["cards"]],
                "discarded": [ShownCard(code) for code in seat["discarded"]],
            }
            for seat in described["seats"]
        ],
        "dealer": {
            **described["dealer"],
            "cards": [ShownCard(code) for code in described["dealer"]["cards"]],
        },
    }


def special_round_audit_events(round_: SpecialsRound) -> QuerySet[AuditEvent]:
    return subject_audit_events(
        table_id=round_.match.table_id,
        subject_type="specials_round",
        subject_id=round_.pk,
        start=round_.opened_at,
        end=round_.finished_at,
    )


# --- re-verification -------------------------------------------------------------------------


@dataclass(frozen=True)
class RowCheck:
    """One seat's row, stored and recomputed (None when one side has no such row)."""

    seat: int
    stored: tuple[object, ...] | None
    recomputed: tuple[object, ...] | None

    @property
    def matches(self) -> bool:
        return self.stored == self.recomputed


@dataclass(frozen=True)
class SpecialVerdict:
    state: tuple[str, str]  # (stored, replayed)
    outcome: tuple[RowCheck, ...]  # (result, points change, points after) per seat
    entries: tuple[RowCheck, ...]  # (change, balance, reason) per points entry of the round
    problem: str = ""
    note: str = ""

    @property
    def matches(self) -> bool:
        rows = (*self.outcome, *self.entries)
        return not self.problem and self.state[0] == self.state[1] and all(row.matches for row in rows)


def _rows(
    stored: Mapping[int, tuple[object, ...]], recomputed: Mapping[int, tuple[object, ...]]
) -> tuple[RowCheck, ...]:
    return tuple(RowCheck(seat, stored.get(seat), recomputed.get(seat)) for seat in sorted(stored.keys() | recomputed.keys()))  # fmt: skip


def reverify_special_round(round_: SpecialsRound) -> SpecialVerdict:
    try:
        state = round_engine.replay(seats=seats_of(round_), events=round_events(round_))
    except (RuleError, ValueError, KeyError) as error:
        return SpecialVerdict((round_.state, ""), (), (), problem=f"The stored events do not replay: {error}")
    states = (str(round_.state), str(state.phase))
    if round_.state != RoundState.FINISHED:
        return SpecialVerdict(states, (), (), note="The round is not finished: its state is compared.")
    match = round_.match
    ledger = list_points_entries(match=match)
    earlier = [e for e in ledger if e.round is None or e.round.number < round_.number]
    balances = {entry.seat: entry.balance for entry in earlier}
    try:
        before = match_engine.MatchState(
            thresholds=match_engine.Thresholds(
                start_points=match.start_points, win_points=match.win_points, lose_points=match.lose_points
            ),
            players=tuple(
                match_engine.Player(
                    seat=seat["seat"],
                    special=EngineSpecialCard(seat["special"]),
                    special_used=seat["special_used"],
                    points=balances[seat["seat"]],
                )
                for seat in round_.opening
            ),
            ledger=tuple(
                match_engine.LedgerEntry(
                    e.seat,
                    e.round.number if e.round else None,
                    e.delta,
                    e.balance,
                    match_engine.LedgerReason(e.reason),
                )
                for e in earlier
            ),
            rounds_played=round_.number - 1,
        )
        settled = match_engine.settle_round(before, state)
    except (RuleError, ValueError, KeyError) as error:
        return SpecialVerdict(states, (), (), problem=f"The replayed round cannot be scored: {error}")
    stored_outcome = {
        row["seat"]: (row["result"], row["delta"], row["points"]) for row in (round_.outcome or [])
    }
    recomputed_outcome = {o.seat: (str(o.result), o.delta, o.points) for o in settled.outcome}
    stored_entries = {e.seat: (e.delta, e.balance, e.reason) for e in ledger if e.round_id == round_.pk}
    recomputed_entries = {e.seat: (e.delta, e.balance, str(e.reason)) for e in settled.entries}
    return SpecialVerdict(
        states, _rows(stored_outcome, recomputed_outcome), _rows(stored_entries, recomputed_entries)
    )
