"""Re-score a skill game from its log and its reveals, and check its decks against their
commitments.

The score is recomputed by the kit's own re-scoring (`skill_games.services.rescore_game`, as the
`rescore_game` command does: the deck orders and the log replayed through the game's engine) and
held part by part against the score stored when the game ended. Once a deck is revealed (a match
reveals each game's deck as that game ends), its commitment is recomputed from the revealed text
alone, as API.md ("Verifying an electronic shoe") tells anyone to: the SHA-256 of the cards joined
by commas, `:`, then the salt in lower-case hex. Before its reveal nothing about an order is
checked or shown.
"""

import datetime as dt
import hmac
from dataclasses import dataclass
from typing import Any

from casino.engine.cards import ALL_CARDS
from casino.engine.errors import RuleError
from floor.games.story import label_of, value_text
from floor.rounds.shoes import commitment_of
from skill_games.models import Game, GameState
from skill_games.selectors import reveals_of
from skill_games.services import rescore_game


@dataclass(frozen=True)
class DeckCheck:
    """A revealed deck against the commitment published at the start."""

    game_no: int  # the game of the match it was dealt for
    order: list[str]
    salt: str
    commitment: str
    recomputed: str
    whole_deck: bool  # each of the 52 cards exactly once

    @property
    def commitment_matches(self) -> bool:
        return bool(self.recomputed) and hmac.compare_digest(self.recomputed, self.commitment.lower())

    @property
    def verified(self) -> bool:
        return self.commitment_matches and self.whole_deck


def _checked(reveal: dict[str, Any]) -> DeckCheck:
    order = [str(code) for code in reveal["order"]]
    try:
        recomputed = commitment_of(order=order, salt_hex=str(reveal["salt"]))
    except UnicodeEncodeError:
        recomputed = ""
    whole = sorted(order) == sorted(str(card) for card in ALL_CARDS)
    return DeckCheck(
        int(reveal["game_no"]), order, str(reveal["salt"]), str(reveal["commitment"]), recomputed, whole
    )


def check_decks(game: Game) -> list[DeckCheck]:
    """Each revealed deck checked, game 1's first; none while every order and salt is secret."""
    return [_checked(reveal) for reveal in reveals_of(game)]


@dataclass(frozen=True)
class ScoreCheck:
    """One part of the score: stored when the game ended, and recomputed from the log."""

    label: str
    stored: Any
    recomputed: Any

    @property
    def matches(self) -> bool:
        return self.stored == self.recomputed

    @property
    def stored_text(self) -> str:
        return value_text(self.stored)

    @property
    def recomputed_text(self) -> str:
        return value_text(self.recomputed)


@dataclass(frozen=True)
class GameVerdict:
    parts: tuple[ScoreCheck, ...]
    decks: tuple[DeckCheck, ...]  # the revealed ones
    problem: str = ""  # why the log could not be re-scored at all
    note: str = ""  # why nothing is compared: no final score is stored yet
    so_far: tuple[tuple[str, str], ...] = ()  # then, the score so far recomputed: (label, value)

    @property
    def differing_parts(self) -> tuple[ScoreCheck, ...]:
        return tuple(part for part in self.parts if not part.matches)

    @property
    def failing_decks(self) -> tuple[DeckCheck, ...]:
        return tuple(deck for deck in self.decks if not deck.verified)

    @property
    def matches(self) -> bool:
        return not self.problem and not self.differing_parts and not self.failing_decks


def compare_scores(*, stored: dict[str, Any], recomputed: dict[str, Any]) -> tuple[ScoreCheck, ...]:
    """Every part of either score, in the recomputed score's order, then any the stored one adds."""
    keys = [*recomputed, *(key for key in stored if key not in recomputed)]
    return tuple(ScoreCheck(label_of(key), stored.get(key), recomputed.get(key)) for key in keys)


def rescore(game: Game, *, now: dt.datetime) -> GameVerdict:
    """The game re-scored from its log (and its decks checked once revealed)."""
    decks = tuple(check_decks(game))
    try:
        result = rescore_game(game_id=game.pk, now=now)
    except (RuleError, ValueError, KeyError, TypeError) as error:
        return GameVerdict((), decks, problem=f"The stored moves do not replay: {error}")
    if game.state != GameState.FINISHED or result.stored is None:
        return GameVerdict(
            (),
            decks,
            note="No final score is stored yet: the game is being played. Its score so far is "
            "recomputed from the log below; the score is stored, and the deck revealed, when it ends.",
            so_far=tuple((label_of(key), value_text(value)) for key, value in result.score.items()),
        )
    return GameVerdict(compare_scores(stored=result.stored, recomputed=result.score), decks)
