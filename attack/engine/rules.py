"""The rules of Blackjack Attack (RULES.md §3.1), one function each: no state, no clock, no I/O.

A column is the tuple of its cards, bottom first. Card values are the blackjack engine's
(`casino.engine.cards`): 2-9 face value, T J Q K ten, an Ace 1 (a column's hard total counts every
Ace as 1; `shown_total` and `reads_21` say when one Ace is 11).
"""

from collections.abc import Sequence
from dataclasses import dataclass

from casino.engine.cards import Card, Rank, Suit

__all__ = [
    "BLACK_JACK_ATTACK_POINTS",
    "CATCH_21_POINTS",
    "CLOCK_MS",
    "CLOCK_S",
    "COLUMNS",
    "FIVE_CARD_CHARLIE_POINTS",
    "NO_BUST_POINTS",
    "STREAK_POINTS",
    "TIME_BONUS_MAX",
    "Outcome",
    "Tally",
    "black_jack_attack",
    "busts",
    "catch_21",
    "fits",
    "five_card_charlie",
    "hard_total",
    "is_black_jack",
    "legal_columns",
    "must_bust",
    "no_bust_bonus",
    "placement_outcome",
    "points",
    "reads_21",
    "seconds_left",
    "shown_total",
    "streak_bonus",
    "tally_after",
    "time_bonus",
]

TWENTY_ONE = 21
COLUMNS = (1, 2, 3, 4)
CHARLIE_CARDS = 5
CLOCK_S = 300
CLOCK_MS = CLOCK_S * 1000

CATCH_21_POINTS = 50
BLACK_JACK_ATTACK_POINTS = 75
FIVE_CARD_CHARLIE_POINTS = 100
STREAK_POINTS = 25
NO_BUST_POINTS = 100
TIME_BONUS_MAX = 1000

_BLACK_SUITS = frozenset({Suit.SPADES, Suit.CLUBS})


# --- cards and columns -----------------------------------------------------------------------


def is_black_jack(card: Card) -> bool:
    """`JS` and `JC` are the Black Jacks."""
    return card.rank is Rank.JACK and card.suit in _BLACK_SUITS


def hard_total(cards: Sequence[Card]) -> int:
    """Every Ace counts 1, T J Q K ten (a Black Jack too)."""
    return sum(card.value for card in cards)


def _soft_ace(cards: Sequence[Card]) -> bool:
    """One Ace can count 11: there is an Ace and the total stays at 21 or less."""
    return hard_total(cards) + 10 <= TWENTY_ONE and any(card.is_ace for card in cards)


def shown_total(cards: Sequence[Card]) -> int:
    """The total the column shows: one Ace as 11 when that stays at 21 or less."""
    return hard_total(cards) + (10 if _soft_ace(cards) else 0)


def reads_21(cards: Sequence[Card]) -> bool:
    """The column reads exactly 21: hard 21, or hard 11 with an Ace."""
    return shown_total(cards) == TWENTY_ONE


def fits(column: Sequence[Card], card: Card) -> bool:
    """A card other than a Black Jack may go where the hard total plus the card (Ace 1) is 21 or less."""
    return hard_total(column) + card.value <= TWENTY_ONE


def must_bust(columns: Sequence[Sequence[Card]], card: Card) -> bool:
    """No column is legal for the card: the player must bust one, any one
    [decided: busting is allowed only then]. A Black Jack never busts."""
    return not is_black_jack(card) and not any(fits(column, card) for column in columns)


def legal_columns(columns: Sequence[Sequence[Card]], card: Card) -> tuple[int, ...]:
    """Where `place` may put the card: any column for a Black Jack or when it must bust; else the
    columns it fits."""
    if is_black_jack(card) or must_bust(columns, card):
        return COLUMNS
    return tuple(number for number, column in zip(COLUMNS, columns, strict=True) if fits(column, card))


# --- what a placement does -------------------------------------------------------------------


def catch_21(after: Sequence[Card]) -> bool:
    """Catch 21: the column reads exactly 21; it clears at once [decided: a soft 21 is never kept]."""
    return reads_21(after)


def five_card_charlie(after: Sequence[Card]) -> bool:
    """Five Card Charlie: the column's fifth card, hard total 21 or less."""
    return len(after) == CHARLIE_CARDS and hard_total(after) <= TWENTY_ONE


def black_jack_attack(card: Card) -> bool:
    """Black Jack Attack: `JS` or `JC` on any column, an empty one too [decided]; it clears the
    column whatever its total and never busts."""
    return is_black_jack(card)


def busts(after: Sequence[Card], card: Card) -> bool:
    """Bust: a hard total over 21 with no Black Jack; column and card leave play, no points."""
    return hard_total(after) > TWENTY_ONE and not black_jack_attack(card)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a placement does; the scoring parts add up (a combo)."""

    catch_21: bool
    five_card_charlie: bool
    black_jack_attack: bool
    bust: bool

    @property
    def scores(self) -> bool:
        return self.catch_21 or self.five_card_charlie or self.black_jack_attack

    @property
    def clears(self) -> bool:
        """The column and the card leave play (a score or a bust); otherwise the card stays."""
        return self.scores or self.bust

    @property
    def name(self) -> str:
        """`bust`, `stays`, or the scoring parts joined by `+` (`catch_21+five_card_charlie`)."""
        if self.bust:
            return "bust"
        parts = [
            part
            for part, happened in (
                ("catch_21", self.catch_21),
                ("five_card_charlie", self.five_card_charlie),
                ("black_jack_attack", self.black_jack_attack),
            )
            if happened
        ]
        return "+".join(parts) or "stays"


def placement_outcome(column: Sequence[Card], card: Card) -> Outcome:
    """What `card` does on a column holding `column`."""
    after = (*column, card)
    return Outcome(
        catch_21=catch_21(after),
        five_card_charlie=five_card_charlie(after),
        black_jack_attack=black_jack_attack(card),
        bust=busts(after, card),
    )


# --- score -----------------------------------------------------------------------------------


def streak_bonus(*, after_a_score: bool, outcome: Outcome) -> bool:
    """A scoring play straight after a scoring play earns the streak bonus: flat, once per play
    even for a combo [decided]; none for the first score of a run."""
    return after_a_score and outcome.scores


@dataclass(frozen=True, slots=True)
class Tally:
    """The counts the score is made of, and the busts that stand."""

    catch_21: int = 0
    black_jack_attack: int = 0
    five_card_charlie: int = 0
    streak_plays: int = 0
    busts: int = 0


def tally_after(tally: Tally, outcome: Outcome, *, streak: bool) -> Tally:
    """The counts after one placement (`streak`: it earned the streak bonus)."""
    return Tally(
        tally.catch_21 + outcome.catch_21,
        tally.black_jack_attack + outcome.black_jack_attack,
        tally.five_card_charlie + outcome.five_card_charlie,
        tally.streak_plays + streak,
        tally.busts + outcome.bust,
    )


def points(tally: Tally) -> int:
    """Points during play: 50 a Catch 21, 75 a Black Jack Attack, 100 a Five Card Charlie, 25 a
    streak play."""
    return (
        CATCH_21_POINTS * tally.catch_21
        + BLACK_JACK_ATTACK_POINTS * tally.black_jack_attack
        + FIVE_CARD_CHARLIE_POINTS * tally.five_card_charlie
        + STREAK_POINTS * tally.streak_plays
    )


def no_bust_bonus(busts: int) -> int:
    """100 for a played-out deck when no bust stands (undone busts do not count)."""
    return NO_BUST_POINTS if busts == 0 else 0


def seconds_left(at_ms: int) -> int:
    """Whole seconds left on the clock at `at_ms` after the game was created (rounded down)."""
    return max(0, CLOCK_MS - at_ms) // 1000


def time_bonus(last_card_at_ms: int) -> int:
    """floor(1000 x s / 300), s the whole seconds left when the last card was placed
    [decided: both rounded down]."""
    return TIME_BONUS_MAX * seconds_left(last_card_at_ms) // CLOCK_S
