"""Re-score a skill game from its log and its reveal, and check its deck against the commitment.

The score is recomputed by the kit's own re-scoring (`skill_games.services.rescore_game`, as the
`rescore_game` command does: the deck order and the log replayed through the game's engine) and
held part by part against the score stored when the game ended. Once the deck is revealed, the
commitment is recomputed from the revealed text alone, as API.md ("Verifying an electronic shoe")
tells anyone to: the SHA-256 of the cards joined by commas, `:`, then the salt in lower-case hex.
Before the reveal nothing about the order is checked or shown.
"""

import datetime as dt
import hmac
from dataclasses import dataclass
from typing import Any

from casino.engine.cards import ALL_CARDS
from casino.engine.errors import RuleError
from floor.games.story import label_of
from floor.rounds.shoes import commitment_of
from skill_games.models import Game, GameState
from skill_games.services import rescore_game, reveal_of


@dataclass(frozen=True)
class DeckCheck:
    """A revealed deck against the commitment published at the start."""

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


def check_deck(game: Game) -> DeckCheck | None:
    """The revealed deck checked; None while the order and salt are secret."""
    reveal = reveal_of(game)
    if reveal is None:
        return None
    order = [str(code) for code in reveal["order"]]
    try:
        recomputed = commitment_of(order=order, salt_hex=str(reveal["salt"]))
    except UnicodeEncodeError:
        recomputed = ""
    whole = sorted(order) == sorted(str(card) for card in ALL_CARDS)
    return DeckCheck(order, str(reveal["salt"]), str(reveal["commitment"]), recomputed, whole)


def _text(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, list):
        return ", ".join(str(item) for item in value) or "none"
    return str(value)


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
        return _text(self.stored)

    @property
    def recomputed_text(self) -> str:
        return _text(self.recomputed)


@dataclass(frozen=True)
class GameVerdict:
    parts: tuple[ScoreCheck, ...]
    deck: DeckCheck | None
    problem: str = ""  # why the log could not be re-scored at all
    note: str = ""  # why nothing is compared: no final score is stored yet
    so_far: tuple[tuple[str, str], ...] = ()  # then, the score so far recomputed: (label, value)

    @property
    def differing_parts(self) -> tuple[ScoreCheck, ...]:
        return tuple(part for part in self.parts if not part.matches)

    @property
    def matches(self) -> bool:
        deck_ok = self.deck is None or self.deck.verified
        return not self.problem and not self.differing_parts and deck_ok


def compare_scores(*, stored: dict[str, Any], recomputed: dict[str, Any]) -> tuple[ScoreCheck, ...]:
    """Every part of either score, in the recomputed score's order, then any the stored one adds."""
    keys = [*recomputed, *(key for key in stored if key not in recomputed)]
    return tuple(ScoreCheck(label_of(key), stored.get(key), recomputed.get(key)) for key in keys)


def rescore(game: Game, *, now: dt.datetime) -> GameVerdict:
    """The game re-scored from its log (and its deck checked once revealed)."""
    deck = check_deck(game)
    try:
        result = rescore_game(game_id=game.pk, now=now)
    except (RuleError, ValueError, KeyError, TypeError) as error:
        return GameVerdict((), deck, problem=f"The stored moves do not replay: {error}")
    if game.state != GameState.FINISHED or result.stored is None:
        return GameVerdict(
            (),
            None,
            note="No final score is stored yet: the game is being played. Its score so far is "
            "recomputed from the log below; the score is stored, and the deck revealed, when it ends.",
            so_far=tuple((label_of(key), _text(value)) for key, value in result.score.items()),
        )
    return GameVerdict(compare_scores(stored=result.stored, recomputed=result.score), deck)
