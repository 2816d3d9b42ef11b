"""Hypothesis strategies for Blackjack Squares: decks, and whole games driven by a seeded random."""

import random
from dataclasses import dataclass

from hypothesis import strategies as st
from hypothesis.strategies import DrawFn, composite

from casino.engine.cards import ALL_CARDS, Card
from squares.engine.game import (
    CashIn,
    Place,
    SquaresMove,
    SquaresState,
    Swap,
    advance_clock,
    apply_move,
    new_game,
)
from squares.engine.view import needs


def decks() -> st.SearchStrategy[tuple[Card, ...]]:
    return st.permutations(ALL_CARDS).map(tuple)


@dataclass(frozen=True)
class PlayedGame:
    deck: tuple[Card, ...]
    limit_s: int
    states: tuple[SquaresState, ...]  # the first, then one after each accepted move
    moves: tuple[SquaresMove, ...]  # the accepted ones, in order
    now_ms: int  # the clock when the game was last looked at

    @property
    def final(self) -> SquaresState:
        return self.states[-1]


def play_randomly(
    deck: tuple[Card, ...], rng: random.Random, *, limit_s: int, swap_rate: float, max_wait_ms: int
) -> PlayedGame:
    """Legal moves chosen by `rng` (a swap at `swap_rate` when allowed) until the game ends, by the
    fifth cash-in or by the time limit."""
    state = new_game(deck, limit_s=limit_s)
    states, moves = [state], []
    now = 0
    while (need := needs(state)) is not None:
        now += rng.randint(0, max_wait_ms)
        if now >= state.deadline_ms:
            state = advance_clock(state, now_ms=now)
            states.append(state)
            break
        move: SquaresMove
        if need.swappable and rng.random() < swap_rate:
            move = Swap(rng.choice(need.swappable), now)
        elif need.positions:
            move = Place(rng.choice(need.positions), now)
        else:
            move = CashIn(now)
        state = apply_move(state, move)
        states.append(state)
        moves.append(move)
    return PlayedGame(deck, limit_s, tuple(states), tuple(moves), now)


@composite
def played_games(draw: DrawFn) -> PlayedGame:
    """Whole games: most cashed out in time, some stopped by the limit, with swaps now and then."""
    deck = draw(decks())
    rng = draw(st.randoms(use_true_random=False))
    limit_s = draw(st.sampled_from([60, 1800]))
    swap_rate = draw(st.sampled_from([0.0, 0.1, 0.5]))
    max_wait_ms = draw(st.sampled_from([100, 1_500, 5_000]))
    return play_randomly(deck, rng, limit_s=limit_s, swap_rate=swap_rate, max_wait_ms=max_wait_ms)
