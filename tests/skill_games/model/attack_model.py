"""An independent model of Blackjack Attack, written from RULES.md §3.1 (and API.md "Skill games")
alone.

It shares no code with `attack.engine` nor with any other app module: plain lists of card strings
(`"KH"`, `"JS"`) and integers. `AttackModel.move` says what the service must answer to one move
received at a given time (accepted, or refused with a status and a code); `game`, `log` and
`tick` say what the service must show.
"""

import copy
from dataclasses import dataclass, field
from typing import Any

from tests.skill_games.model.common import Refused, Shown, check_first

CLOCK_MS = 300_000
COLUMNS = (1, 2, 3, 4)
BLACK_JACKS = ("JS", "JC")
CATCH_21, BLACK_JACK_ATTACK, FIVE_CARD_CHARLIE, STREAK, NO_BUST = 50, 75, 100, 25, 100


def value(card: str) -> int:
    """A card's hard value: 2-9 face value, T J Q K 10, an Ace 1."""
    rank = card[0]
    if rank == "A":
        return 1
    return 10 if rank in "TJQK" else int(rank)


def hard(cards: list[str]) -> int:
    return sum(value(card) for card in cards)


def shown(cards: list[str]) -> int:
    """The hard total, with one Ace as 11 when that stays at 21 or less."""
    total = hard(cards)
    return total + 10 if any(c[0] == "A" for c in cards) and total + 10 <= 21 else total


@dataclass
class Play:
    """What Undo restores."""

    current: int = 0  # deck index of the current card
    columns: list[list[str]] = field(default_factory=lambda: [[], [], [], []])
    counts: dict[str, int] = field(
        default_factory=lambda: {
            "catch_21": 0,
            "black_jack_attack": 0,
            "five_card_charlie": 0,
            "streak_plays": 0,
        }
    )
    streak: bool = False
    busts: int = 0

    def points(self) -> int:
        c = self.counts
        return (
            CATCH_21 * c["catch_21"]
            + BLACK_JACK_ATTACK * c["black_jack_attack"]
            + FIVE_CARD_CHARLIE * c["five_card_charlie"]
            + STREAK * c["streak_plays"]
        )


@dataclass
class AttackModel(Shown):
    deck: list[str]
    play: Play = field(default_factory=Play)
    before: Play | None = None  # the play before the last placement, while Undo may take it back
    seen: int = 0  # the deepest deck index ever turned face up
    seq: int = 0
    ended: str | None = None  # "deck_played_out" | "time_up"
    ended_at_ms: int | None = None
    records: list[dict[str, Any]] = field(default_factory=list)

    # --- the rules' questions ---------------------------------------------------------------

    @property
    def card(self) -> str:
        return self.deck[self.play.current]

    def legal(self) -> list[int]:
        """Columns where the current card may go; all four when it fits nowhere (a bust)."""
        card = self.card
        fits = [
            n for n in COLUMNS if card in BLACK_JACKS or hard(self.play.columns[n - 1]) + value(card) <= 21
        ]
        return fits or list(COLUMNS)

    def must_bust(self) -> bool:
        card = self.card
        return card not in BLACK_JACKS and all(hard(col) + value(card) > 21 for col in self.play.columns)

    def scores_on(self, column: int) -> bool:
        """Whether the current card would score on `column` (a test's player aims with it)."""
        cards = [*self.play.columns[column - 1], self.card]
        total = hard(cards)
        aced = any(c[0] == "A" for c in cards)
        return (
            self.card in BLACK_JACKS
            or total == 21
            or (total == 11 and aced)
            or (len(cards) == 5 and total <= 21)
        )

    def can_undo(self) -> bool:
        return self.before is not None and self.ended is None

    # --- time and moves ---------------------------------------------------------------------

    def tick(self, now_ms: int) -> None:
        """At 0:00 the game ends by itself with the points so far and no bonus."""
        if self.ended is None and now_ms >= CLOCK_MS:
            self.ended, self.ended_at_ms, self.before = "time_up", CLOCK_MS, None

    def move(self, body: dict[str, Any], at_ms: int) -> None:
        """Apply one move received at `at_ms`, or raise `Refused` (and change nothing)."""
        self.tick(at_ms)
        check_first(body, ended=self.ended, seq=self.seq)
        kind = body.get("move")
        if kind == "undo":
            self._undo(at_ms)
        elif kind == "place":
            self._place(body.get("column"), at_ms)
        else:
            raise Refused(422, "move_not_allowed")

    def _undo(self, at_ms: int) -> None:
        if self.before is None:
            raise Refused(422, "move_not_allowed")
        taken_back = self.play.points() - self.before.points()
        self.play, self.before = self.before, None
        self.seq += 1
        outcome = {"card": self.card, "result": "undone", "points": -taken_back}
        self._log({"move": "undo"}, at_ms, outcome)

    def _place(self, column: Any, at_ms: int) -> None:
        if type(column) is not int or column not in self.legal():
            raise Refused(422, "move_not_allowed")
        before = copy.deepcopy(self.play)
        play = self.play
        card = self.card
        cards = [*play.columns[column - 1], card]
        total = hard(cards)
        black_jack = card in BLACK_JACKS
        # A Black Jack counts 10 for the other two (its hard value is already 10).
        catch = total == 21 or (total == 11 and any(c[0] == "A" for c in cards))
        charlie = len(cards) == 5 and total <= 21
        scored = [name for name, hit in (("catch_21", catch), ("five_card_charlie", charlie)) if hit]
        if black_jack:
            scored.append("black_jack_attack")
        bust = not scored and total > 21
        gained = 0
        for name in scored:
            play.counts[name] += 1
        if scored and play.streak:
            play.counts["streak_plays"] += 1
            gained += STREAK
        gained += CATCH_21 * catch + FIVE_CARD_CHARLIE * charlie + BLACK_JACK_ATTACK * black_jack
        play.busts += bust
        play.streak = bool(scored)
        play.columns[column - 1] = [] if scored or bust else cards
        play.current += 1
        self.seq += 1
        self.seen = max(self.seen, play.current)
        result = "bust" if bust else "+".join(scored) or "stays"
        self._log(
            {"move": "place", "column": column}, at_ms, {"card": card, "result": result, "points": gained}
        )
        if play.current == len(self.deck):
            self.ended, self.ended_at_ms, self.before = "deck_played_out", at_ms, None
        else:
            self.before = before

    def _log(self, move: dict[str, Any], at_ms: int, outcome: dict[str, Any]) -> None:
        self.records.append(
            {"seq": self.seq, "seat": 1, **move, "elapsed_ms": at_ms, "automatic": False, "outcome": outcome}
        )

    # --- what the service shows -------------------------------------------------------------

    def score(self) -> dict[str, Any]:
        points = self.play.points()
        no_bust: int | None = None
        timed: int | None = None
        if self.ended == "time_up":
            no_bust, timed = 0, 0
        elif self.ended == "deck_played_out" and self.ended_at_ms is not None:
            no_bust = NO_BUST if self.play.busts == 0 else 0
            seconds_left = max(0, CLOCK_MS - self.ended_at_ms) // 1000
            timed = 1000 * seconds_left // 300
        return {
            **self.play.counts,
            "points": points,
            "no_bust_bonus": no_bust,
            "time_bonus": timed,
            "total": points + (no_bust or 0) + (timed or 0),
        }

    def needs(self) -> dict[str, Any] | None:
        if self.ended is not None:
            return None
        moves = ["place", "undo"] if self.can_undo() else ["place"]
        return {"seat": 1, "moves": moves, "columns": self.legal(), "must_bust": self.must_bust()}

    def board(self) -> dict[str, Any]:
        playing = self.ended is None
        under = self.play.current + 1
        return {
            "current": self.card if playing else None,
            # the card an undone placement turned up stays known (RULES.md §3.1)
            "next": self.deck[under] if playing and under < len(self.deck) and under <= self.seen else None,
            "cards_left": len(self.deck) - self.play.current,
            "columns": [
                {"column": n, "cards": list(cards), "hard_total": hard(cards), "total": shown(cards)}
                for n, cards in zip(COLUMNS, self.play.columns, strict=True)
            ],
            "streak": self.play.streak,
            "busts": self.play.busts,
            "can_undo": self.can_undo(),
        }
