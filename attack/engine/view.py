"""What the API shows of a game of Blackjack Attack (API.md "Skill games"): `needs`, `board` and
`score`, built from the state alone.

The board never shows a card the rules have not turned face up: the current card and the count
left, and `next`, the card under it when an undone placement turned it up (RULES.md §3.1: it
stays known).
"""

from dataclasses import dataclass
from typing import TypedDict

from attack.engine.game import DECK_SIZE, SEAT, AttackState, EndReason
from attack.engine.rules import (
    COLUMNS,
    hard_total,
    legal_columns,
    must_bust,
    no_bust_bonus,
    points,
    shown_total,
    time_bonus,
)
from casino.engine.cards import Card

__all__ = [
    "AttackBoard",
    "AttackNeeds",
    "AttackScore",
    "ColumnView",
    "board",
    "describe",
    "known_next",
    "needs",
    "score",
]


class ColumnView(TypedDict):
    column: int
    cards: list[str]
    hard_total: int
    total: int  # the shown total: one Ace as 11 when that stays at 21 or less


class AttackBoard(TypedDict):
    current: str | None
    next: str | None  # the card under the current one, turned up by an undone placement
    cards_left: int
    columns: list[ColumnView]
    streak: bool
    busts: int
    can_undo: bool


@dataclass(frozen=True, slots=True)
class AttackNeeds:
    moves: tuple[str, ...]
    columns: tuple[int, ...]  # the legal ones; all four when the card must bust
    must_bust: bool
    seat: int = SEAT

    def to_dict(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "moves": list(self.moves),
            "columns": list(self.columns),
            "must_bust": self.must_bust,
        }


def needs(state: AttackState) -> AttackNeeds | None:
    """The moves allowed now: `place` on the legal columns, and `undo` when allowed; None once the
    game is over."""
    card = state.current_card
    if state.finished or card is None:
        return None
    columns = state.play.columns
    moves = ("place", "undo") if state.can_undo else ("place",)
    return AttackNeeds(moves, legal_columns(columns, card), must_bust(columns, card))


@dataclass(frozen=True, slots=True)
class AttackScore:
    catch_21: int
    black_jack_attack: int
    five_card_charlie: int
    streak_plays: int
    points: int
    no_bust_bonus: int | None  # None until the game ends
    time_bonus: int | None
    total: int

    def to_dict(self) -> dict[str, object]:
        return {
            "catch_21": self.catch_21,
            "black_jack_attack": self.black_jack_attack,
            "five_card_charlie": self.five_card_charlie,
            "streak_plays": self.streak_plays,
            "points": self.points,
            "no_bust_bonus": self.no_bust_bonus,
            "time_bonus": self.time_bonus,
            "total": self.total,
        }


def score(state: AttackState) -> AttackScore:
    """Score = 50 x Catch 21 + 75 x Black Jack Attack + 100 x Five Card Charlie + 25 x streak plays
    + No-Bust bonus + Time bonus. The bonuses come with a played-out deck only; at 0:00 they are 0
    (the points so far and no bonus)."""
    tally = state.play.tally
    so_far = points(tally)
    no_bust: int | None = None
    timed: int | None = None
    if state.ended is EndReason.DECK_PLAYED_OUT and state.ended_at_ms is not None:
        no_bust, timed = no_bust_bonus(tally.busts), time_bonus(state.ended_at_ms)
    elif state.ended is EndReason.TIME_UP:
        no_bust, timed = 0, 0
    return AttackScore(
        tally.catch_21,
        tally.black_jack_attack,
        tally.five_card_charlie,
        tally.streak_plays,
        so_far,
        no_bust,
        timed,
        so_far + (no_bust or 0) + (timed or 0),
    )


def known_next(state: AttackState) -> Card | None:
    """The card under the current one, when a placement turned it up and Undo took that back."""
    under = state.play.current + 1
    if state.finished or under >= DECK_SIZE or state.seen < under:
        return None
    return state.deck[under]


def board(state: AttackState) -> AttackBoard:
    """The visible board: the current card (none once the game is over), the count left, the
    columns with their hard and shown totals, streak, busts and whether Undo is allowed."""
    current = None if state.finished else state.current_card
    nxt = known_next(state)
    return {
        "current": None if current is None else str(current),
        "next": None if nxt is None else str(nxt),
        "cards_left": state.cards_left,
        "columns": [
            {
                "column": number,
                "cards": [str(card) for card in cards],
                "hard_total": hard_total(cards),
                "total": shown_total(cards),
            }
            for number, cards in zip(COLUMNS, state.play.columns, strict=True)
        ],
        "streak": state.play.streak,
        "busts": state.play.tally.busts,
        "can_undo": state.can_undo,
    }


def describe(state: AttackState) -> dict[str, object]:
    """The engine's part of the API's game: state, seq, needs, board and score."""
    need = needs(state)
    return {
        "state": "finished" if state.finished else "playing",
        "ended": None if state.ended is None else str(state.ended),
        "seq": state.seq,
        "needs": None if need is None else need.to_dict(),
        "board": board(state),
        "score": score(state).to_dict(),
    }
