"""Hypothesis strategies for Make 21: decks, every move a seat could send, and whole matches played
by a seeded random with the clock acting now and then."""

import random
from collections.abc import Iterable
from contextlib import suppress
from dataclasses import dataclass
from itertools import permutations

from hypothesis import strategies as st
from hypothesis.strategies import DrawFn, composite

from casino.engine.cards import ALL_CARDS, Card
from casino.engine.errors import RuleError
from make21.engine.game import (
    Double,
    Extend,
    Make21Move,
    Make21State,
    Play,
    Take,
    advance_clock,
    apply_move,
    new_match,
    replay,
)
from make21.engine.rules import PILES

LIMITS = (5_000, 60_000)


def decks() -> st.SearchStrategy[tuple[Card, ...]]:
    return st.permutations(ALL_CARDS).map(tuple)


@dataclass(frozen=True)
class Setup:
    decks: tuple[tuple[Card, ...], ...]
    players: int
    games: int
    turn_limit_ms: int

    def new(self) -> Make21State:
        return new_match(self.decks, players=self.players, games=self.games, turn_limit_ms=self.turn_limit_ms)

    def replay(self, moves: Iterable[Make21Move], *, now_ms: int) -> Make21State:
        return replay(
            self.decks,
            moves,
            players=self.players,
            games=self.games,
            turn_limit_ms=self.turn_limit_ms,
            now_ms=now_ms,
        )


@composite
def setups(draw: DrawFn, *, max_games: int = 2) -> Setup:
    players = draw(st.integers(2, 5))
    games = draw(st.integers(1, max_games))
    return Setup(tuple(draw(decks()) for _ in range(games)), players, games, draw(st.sampled_from(LIMITS)))


def every_move(state: Make21State, seat: int, at_ms: int) -> list[Make21Move]:
    """Every move `seat` could send with its own cards at `at_ms`: each card or ordered pair played
    on each pile, doubled or extended, and `take`."""
    held = state.hand(seat)
    groups = [(card,) for card in held] + list(permutations(held, 2))
    moves: list[Make21Move] = [Take(seat=seat, at_ms=at_ms)]
    for group in groups:
        moves.extend(Play(group, name, seat=seat, at_ms=at_ms) for name in PILES)
        moves.append(Double(group, seat=seat, at_ms=at_ms))
        moves.append(Extend(group, seat=seat, at_ms=at_ms))
    return moves


def accepted(state: Make21State, moves: list[Make21Move]) -> list[tuple[Make21Move, Make21State]]:
    """The moves the state accepts, each with the state after it."""
    out = []
    for move in moves:
        with suppress(RuleError):
            out.append((move, apply_move(state, move)))
    return out


@dataclass(frozen=True)
class PlayedMatch:
    setup: Setup
    states: tuple[Make21State, ...]  # the first, then one after each accepted or automatic move
    moves: tuple[Make21Move, ...]  # the log: accepted and automatic moves, in order
    now_ms: int  # the clock when the match was last looked at

    @property
    def final(self) -> Make21State:
        return self.states[-1]


def play_randomly(setup: Setup, rng: random.Random, *, timeout_rate: float) -> PlayedMatch:
    """Legal moves chosen by `rng` until the match is over; at `timeout_rate` a seat lets its
    deadline pass and the clock moves for it."""
    state = setup.new()
    states, moves = [state], []
    now = 0
    while (seat := state.to_move) is not None and state.deadline_ms is not None:
        if rng.random() < timeout_rate:
            now = state.deadline_ms + rng.randrange(setup.turn_limit_ms)
            clocked = advance_clock(state, now_ms=now)
            for move in clocked.automatic:
                state = apply_move(state, move)
                states.append(state)
                moves.append(move)
            assert state == clocked.state
            continue
        now = rng.randrange(max(now, state.last_at_ms), state.deadline_ms)
        move, state = rng.choice(accepted(state, every_move(state, seat, now)))
        states.append(state)
        moves.append(move)
    return PlayedMatch(setup, tuple(states), tuple(moves), now)


@composite
def played_matches(draw: DrawFn, *, max_games: int = 2) -> PlayedMatch:
    setup = draw(setups(max_games=max_games))
    rng = draw(st.randoms(use_true_random=False))
    return play_randomly(setup, rng, timeout_rate=draw(st.sampled_from([0.0, 0.05, 0.3])))
