"""Blackjack Attack as the skill-game kit drives it (`skill_games.registry.Adapter`): its engine
(`attack.engine`) behind the kit's calls, and its moves, log records and views as API.md shows
them."""

from collections.abc import Mapping, Sequence
from typing import Any

from attack.engine import game as engine
from attack.engine.game import AttackMove, AttackState, MoveNotAllowedError, Place, Undo
from attack.engine.rules import placement_outcome
from attack.engine.view import describe, score
from casino.engine.cards import Card
from skill_games.registry import Caller, Clocked, OneSeatAdapter, TournamentPlay

KIND = "attack"
NAME = "Blackjack Attack"


class AttackAdapter(OneSeatAdapter):
    name = NAME
    moves = {Place.kind: (Place, "column", "1-4"), Undo.kind: (Undo, None, "")}
    refusal = MoveNotAllowedError
    tournament = TournamentPlay(lower_wins=False, no_show_score=0)  # a heat not started scores 0

    def check_settings(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """One seat and a 300-second clock: no settings."""
        self.no_settings_but(body)
        return {}

    def new_game(self, decks: Sequence[Sequence[Card]], settings: Mapping[str, Any]) -> AttackState:
        return engine.new_game(decks[0])

    def apply_move(self, state: AttackState, move: AttackMove) -> AttackState:
        return engine.apply_move(state, move)

    def advance_clock(self, state: AttackState, *, now_ms: int) -> Clocked[AttackState]:
        return Clocked(engine.advance_clock(state, now_ms=now_ms))

    def outcome(self, before: AttackState, after: AttackState, move: AttackMove) -> dict[str, Any]:
        """The card placed and what it did, or the card Undo took back: cards already face up."""
        points = score(after).points - score(before).points
        if isinstance(move, Place) and before.current_card is not None:
            done = placement_outcome(before.play.columns[move.column - 1], before.current_card)
            return {"card": str(before.current_card), "result": done.name, "points": points}
        card = after.current_card
        return {"card": None if card is None else str(card), "result": "undone", "points": points}

    def view(self, state: AttackState, caller: Caller) -> dict[str, Any]:
        """One player and nothing hidden from staff: everyone sees the same game."""
        shown = describe(state)
        return {"needs": shown["needs"], "board": shown["board"], "score": shown["score"]}

    def score(self, state: AttackState) -> dict[str, Any]:
        return score(state).to_dict()
