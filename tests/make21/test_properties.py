"""Properties of every match of Make 21 (RULES.md §3, §3.3), over random decks, moves and clocks."""

import random
from collections import Counter
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from casino.engine.cards import ALL_CARDS, Card
from casino.engine.errors import RuleError
from make21.engine.game import (
    Make21Move,
    Make21State,
    Take,
    advance_clock,
    apply_move,
)
from make21.engine.rules import PILES, is_seven, keeps_lock
from make21.engine.view import describe, needs
from tests.make21.helpers import make_move
from tests.make21.strategies import PlayedMatch, Setup, accepted, every_move, played_matches, setups

MATCHES = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FOREVER = 10**12


def check_cards(state: Make21State) -> None:
    """Each game's 52 cards are all somewhere: in the hands, the piles, the draw pile and the
    collections while it is played; in the collections and the discarded piles once it is over."""
    for result in state.results:
        ended = [*(card for cards in result.collections for card in cards), *result.discarded]
        assert Counter(ended) == Counter(ALL_CARDS)
    if not state.finished:
        held = [card for cards in (*state.hands, *state.collections) for card in cards]
        on_piles = [card for pile in state.piles for card in pile.cards]
        assert Counter([*held, *on_piles, *state.draw_pile]) == Counter(ALL_CARDS)


def check_piles(state: Make21State) -> None:
    """No 7 is ever in a pile at the start of a turn; at most one pile is in set-mode, it faces
    the seat to move, and it is still its locked type."""
    assert not any(is_seven(card) for pile in state.piles for card in pile.cards)
    in_set_mode = [pile for pile in state.piles if pile.lock is not None]
    assert len(in_set_mode) <= 1
    for pile in in_set_mode:
        assert pile.lock is not None
        assert keeps_lock(pile.lock, pile.cards)
    shown = needs(state, None)
    if shown is not None:
        assert shown["mode"] == ("set_mode" if in_set_mode else "normal")
        assert state.to_move is not None
        assert state.hand(state.to_move), "an empty hand is skipped"


def check_moves_against_needs(state: Make21State) -> None:
    """The seat to move may make exactly the kinds of move its `needs` lists; every other seat's
    move is refused; a refused move changes nothing."""
    before = describe(state, None)
    for seat in range(1, state.match.players + 1):
        moves = every_move(state, seat, state.last_at_ms)
        kinds = {move.kind for move, _ in accepted(state, moves)}
        shown = needs(state, seat)
        if shown is None or seat != state.to_move:
            assert not kinds
        else:
            assert sorted(kinds) == sorted(shown["moves"])
    assert describe(state, None) == before


def redeal(state: Make21State, seat: int | None, rng: random.Random) -> Make21State:
    """The state with every card hidden from `seat` (staff: None) dealt again at random: the other
    seats' hands (same sizes), the draw pile, and the decks of the games still to come."""
    hidden = [card for number, cards in enumerate(state.hands, start=1) if number != seat for card in cards]
    pool = [*hidden, *state.draw_pile]
    rng.shuffle(pool)
    hands = []
    for number, cards in enumerate(state.hands, start=1):
        if number == seat:
            hands.append(cards)
        else:
            hands.append(tuple(pool[: len(cards)]))
            del pool[: len(cards)]
    later = tuple(tuple(rng.sample(deck, len(deck))) for deck in state.match.decks[state.game_no :])
    decks = (*state.match.decks[: state.game_no], *later)
    return replace(state, hands=tuple(hands), draw_pile=tuple(pool), match=replace(state.match, decks=decks))


@MATCHES
@given(played_matches())
def test_every_state_keeps_its_cards_its_piles_and_its_needs(match: PlayedMatch) -> None:
    """The 52 cards are always accounted for; no 7 in a pile; at most one pile in set-mode; a move
    is accepted exactly as `needs` allows, and a refused one changes nothing."""
    for state in match.states:
        check_cards(state)
        check_piles(state)
    for state in match.states[::4]:
        check_moves_against_needs(state)


@MATCHES
@given(played_matches(), st.randoms(use_true_random=False))
def test_a_seats_view_never_depends_on_cards_hidden_from_it(match: PlayedMatch, rng: random.Random) -> None:
    for state in match.states[::3]:
        for seat in (None, *range(1, state.match.players + 1)):
            assert describe(redeal(state, seat, rng), seat) == describe(state, seat)


@MATCHES
@given(played_matches())
def test_a_match_ends_and_its_log_rebuilds_it(match: PlayedMatch) -> None:
    """Replaying the log (automatic moves included) rebuilds every state; the match ends with each
    game's result and every seat judged."""
    final = match.final
    assert final.finished
    assert [result.game_no for result in final.results] == list(range(1, match.setup.games + 1))
    assert match.setup.replay(match.moves, now_ms=match.now_ms) == final
    assert all(record.cards_taken >= 0 for record in final.log)
    assert sum(record.cards_taken for record in final.log) == sum(
        sum(result.collected.values()) for result in final.results
    )


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups(max_games=3))
def test_the_clock_alone_plays_a_match_out(setup: Setup) -> None:
    """With nobody moving, deadlines chain until the last game ends, each automatic move at its own
    deadline."""
    clocked = advance_clock(setup.new(), now_ms=FOREVER)

    assert clocked.state.finished
    assert [move.at_ms for move in clocked.automatic] == [
        setup.turn_limit_ms * n for n in range(1, len(clocked.automatic) + 1)
    ]
    check_cards(clocked.state)


def refusal_by_order(state: Make21State, move: Make21Move) -> str | None:
    """The code the checks before the move's own rules give, in RULES.md §3's order (game over,
    clock, seat, cards); None when only `move_not_allowed` can still refuse it."""
    if state.finished:
        return "time_up" if move.seat == state.timed_out_seat else "game_over"
    deadline = state.deadline_ms
    assert deadline is not None
    if move.at_ms >= deadline:
        return "time_up" if move.seat == state.to_move else "not_your_turn"
    if move.seat == state.timed_out_seat and move.seat != state.to_move:
        return "time_up"
    if move.seat != state.to_move:
        return "not_your_turn"
    played = () if isinstance(move, Take) else move.cards
    if len(set(played)) != len(played) or any(card not in state.hand(move.seat) for card in played):
        return "card_not_in_hand"
    return None


class Make21Machine(RuleBasedStateMachine):
    """Whole matches of 2-5 players, move by move, with refused moves from any seat and the clock
    acting in between."""

    setup: Setup
    state: Make21State
    log: list[Make21Move]
    now: int

    @initialize(setup=setups(max_games=2))
    def deal(self, setup: Setup) -> None:
        self.setup = setup
        self.state = setup.new()
        self.log = []
        self.now = 0

    def _try(self, move: Make21Move) -> None:
        state = self.state
        before = describe(state, None)
        expected = refusal_by_order(state, move)
        refused: RuleError | None = None
        try:
            after = apply_move(state, move)
        except RuleError as error:
            refused = error
        if refused is not None:
            assert describe(state, None) == before
            assert refused.code == (expected or "move_not_allowed")
            return
        assert expected is None
        self.state = after
        self.log.append(move)
        self.now = max(self.now, move.at_ms)

    def _at(self, wait: int) -> int:
        return max(self.now, self.state.last_at_ms) + wait

    @rule(choice=st.integers(0, 1_000), wait=st.integers(0, 70_000))
    def a_legal_move(self, choice: int, wait: int) -> None:
        seat = self.state.to_move
        if seat is None:
            return
        moves = every_move(self.state, seat, self._at(wait))
        legal = [move for move, _ in accepted(self.state, moves)] or moves
        self._try(legal[choice % len(legal)])

    @rule(
        seat=st.integers(1, 5),
        kind=st.sampled_from(["play", "double", "extend", "take"]),
        picks=st.lists(st.integers(0, 51), max_size=3),
        from_hand=st.booleans(),
        pile=st.sampled_from([*PILES, "P3"]),
        wait=st.integers(0, 70_000),
    )
    def any_move(self, seat: int, kind: str, picks: list[int], from_hand: bool, pile: str, wait: int) -> None:
        seat = (seat - 1) % self.setup.players + 1
        held = self.state.hand(seat)
        played: tuple[Card, ...] = (
            tuple(held[i % len(held)] for i in picks)
            if from_hand and held
            else tuple(ALL_CARDS[i] for i in picks)
        )
        move = make_move(kind, played, pile=pile, seat=seat, at_ms=self._at(wait))
        self._try(move)

    @rule(wait=st.integers(0, 150_000))
    def clock_ticks(self, wait: int) -> None:
        self.now += wait
        clocked = advance_clock(self.state, now_ms=self.now)
        self.log.extend(clocked.automatic)
        self.state = clocked.state

    @invariant()
    def cards_are_all_there(self) -> None:
        check_cards(self.state)

    @invariant()
    def piles_hold_no_seven_and_one_set_at_most(self) -> None:
        check_piles(self.state)

    def teardown(self) -> None:
        rebuilt = self.setup.replay(self.log, now_ms=self.now)
        assert rebuilt == advance_clock(self.state, now_ms=self.now).state
        assert advance_clock(self.state, now_ms=FOREVER).state.finished


TestMake21Machine = Make21Machine.TestCase
TestMake21Machine.settings = settings(
    max_examples=40, stateful_step_count=80, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
