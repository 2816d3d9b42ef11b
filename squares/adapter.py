"""Blackjack Squares as the skill-game kit drives it (`skill_games.registry.Adapter`): its engine
(`squares.engine`) behind the kit's calls, and its moves, log records and views as API.md shows
them. The deck's bottom card is never shown before a swap brings it in."""

from collections.abc import Mapping, Sequence
from typing import Any

from casino.engine.cards import Card
from skill_games.registry import Caller, Clocked, OneSeatAdapter, TournamentPlay
from squares.engine import game as engine
from squares.engine.game import CashIn, MoveNotAllowedError, Place, SquaresMove, SquaresState, Swap
from squares.engine.rules import DEFAULT_LIMIT_S, SQUARES_PER_GAME, UNCASHED_SQUARE_SCORE, check_limit_s
from squares.engine.view import describe, score

KIND = "squares"
NAME = "Blackjack Squares"


class SquaresAdapter(OneSeatAdapter):
    name = NAME
    moves = {
        Place.kind: (Place, "position", "1-9"),
        Swap.kind: (Swap, "position", "1-9"),
        CashIn.kind: (CashIn, None, ""),
    }
    refusal = MoveNotAllowedError
    # A heat not started scores as every square not cashed in: -630 (RULES.md §4).
    tournament = TournamentPlay(lower_wins=False, no_show_score=SQUARES_PER_GAME * UNCASHED_SQUARE_SCORE)

    def check_settings(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """`limit_s`, 60-7200, 30 minutes unless told [decided: the seed has no clock]."""
        self.no_settings_but(body, "limit_s")
        limit_s = body.get("limit_s")
        return {"limit_s": check_limit_s(DEFAULT_LIMIT_S if limit_s is None else limit_s)}

    def new_game(self, decks: Sequence[Sequence[Card]], settings: Mapping[str, Any]) -> SquaresState:
        return engine.new_game(decks[0], limit_s=settings["limit_s"])

    def apply_move(self, state: SquaresState, move: SquaresMove) -> SquaresState:
        return engine.apply_move(state, move)

    def advance_clock(self, state: SquaresState, *, now_ms: int) -> Clocked[SquaresState]:
        return Clocked(engine.advance_clock(state, now_ms=now_ms))

    def outcome(self, before: SquaresState, after: SquaresState, move: SquaresMove) -> dict[str, Any]:
        """The card placed, the cards a swap took out and brought in (face up by then), or the
        square cashed in and its score."""
        if isinstance(move, CashIn):
            return {"square": before.square, "score": after.cashed[-1]}
        card = after.positions[move.position - 1]
        if isinstance(move, Swap):
            return {"out": str(before.positions[move.position - 1]), "in": str(card)}
        return {"card": str(card)}

    def view(self, state: SquaresState, caller: Caller) -> dict[str, Any]:
        """One player; the bottom card is hidden from everyone, staff too."""
        shown = describe(state)
        return {"needs": shown["needs"], "board": shown["board"], "score": shown["score"]}

    def score(self, state: SquaresState) -> dict[str, Any]:
        return score(state).to_dict()
