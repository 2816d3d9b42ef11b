"""Hypothesis strategies for Blackjack Attack: decks, and whole games driven by a seeded random."""

import random
from dataclasses import dataclass

from hypothesis import strategies as st
from hypothesis.strategies import DrawFn, composite

from attack.engine.game import AttackMove, AttackState, Place, Undo, advance_clock, apply_move, new_game
from attack.engine.rules import CLOCK_MS
from attack.engine.view import needs
from casino.engine.cards import ALL_CARDS, Card


def decks() -> st.SearchStrategy[tuple[Card, ...]]:
    return st.permutations(ALL_CARDS).map(tuple)


@dataclass(frozen=True)
class PlayedGame:
    deck: tuple[Card, ...]
    states: tuple[AttackState, ...]  # the first, then one after each accepted move
    moves: tuple[AttackMove, ...]  # the accepted ones, in order
    now_ms: int  # the clock when the game was last looked at

    @property
    def final(self) -> AttackState:
        return self.states[-1]


def play_randomly(
    deck: tuple[Card, ...], rng: random.Random, *, undo_rate: float, max_wait_ms: int
) -> PlayedGame:
    """Legal moves chosen by `rng` (Undo at `undo_rate` when allowed) until the game ends, by the deck
    or by the clock."""
    state = new_game(deck)
    states, moves = [state], []
    now = 0
    while (need := needs(state)) is not None:
        now += rng.randint(0, max_wait_ms)
        if now >= CLOCK_MS:
            state = advance_clock(state, now_ms=now)
            states.append(state)
            break
        move: AttackMove
        if "undo" in need.moves and rng.random() < undo_rate:
            move = Undo(now)
        else:
            move = Place(rng.choice(need.columns), now)
        state = apply_move(state, move)
        states.append(state)
        moves.append(move)
    return PlayedGame(deck, tuple(states), tuple(moves), now)


@composite
def played_games(draw: DrawFn) -> PlayedGame:
    """Whole games: most played out in time, some stopped by the clock, with Undos now and then."""
    deck = draw(decks())
    rng = draw(st.randoms(use_true_random=False))
    undo_rate = draw(st.sampled_from([0.0, 0.1, 0.4]))
    max_wait_ms = draw(st.sampled_from([100, 3_000, 12_000]))
    return play_randomly(deck, rng, undo_rate=undo_rate, max_wait_ms=max_wait_ms)
