"""Properties of every Blackjack Squares game (RULES.md §3.2), over random decks and moves."""

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from casino.engine.cards import ALL_CARDS, Card
from casino.engine.errors import RuleError
from squares.engine.game import (
    CashIn,
    EndReason,
    Place,
    SquaresMove,
    SquaresState,
    Swap,
    advance_clock,
    apply_move,
    new_game,
    replay,
)
from squares.engine.rules import SQUARES_PER_GAME, UNCASHED_SQUARE_SCORE
from squares.engine.view import board, describe, needs, score
from tests.squares.strategies import PlayedGame, decks, played_games

GAMES = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_cards(state: SquaresState) -> None:
    """Every card is once on the table, swapped out, cashed in, or still in the deck."""
    table = [card for card in state.positions if card is not None]
    deck = state.deck[state.top : state.bottom + 1]
    assert Counter([*table, *state.discarded, *state.cashed_cards, *deck]) == Counter(ALL_CARDS)


def check_deck_suffices(state: SquaresState) -> None:
    """45 placements and at most 7 swaps use 52 cards: the deck holds exactly what is left of both,
    so a square never starts short and a swap always finds a card."""
    assert state.cards_left == state.placements_left + state.swaps_left
    if state.square is not None and not state.finished and state.positions == (None,) * 9:
        assert state.cards_left >= 9


def check_score(state: SquaresState) -> None:
    result = score(state)
    assert result.total == sum(result.squares)
    assert all(-78 <= square <= 126 or square == UNCASHED_SQUARE_SCORE for square in result.squares)
    if state.ended is EndReason.TIME_UP:
        assert len(result.squares) == SQUARES_PER_GAME
        assert result.squares[len(state.cashed) :] == (UNCASHED_SQUARE_SCORE,) * (5 - len(state.cashed))
    else:
        assert result.squares == state.cashed


def check_board(state: SquaresState) -> None:
    """Of the deck, only the top card shows; the bottom card stays hidden until a swap brings it in."""
    shown = board(state)
    hidden = {str(card) for card in state.deck[state.top + 1 : state.bottom + 1]}
    visible = {card for card in [shown["current"], *shown["positions"]] if card is not None}
    assert not hidden & visible
    playing = not state.finished and state.cards_left > 0
    assert shown["current"] == (str(state.deck[state.top]) if playing else None)
    assert shown["cards_left"] == state.cards_left
    assert shown["swaps_left"] == state.swaps_left >= 0


def every_move(at_ms: int) -> list[SquaresMove]:
    return [CashIn(at_ms), *(kind(position, at_ms) for kind in (Place, Swap) for position in range(11))]


def allowed_by_needs(state: SquaresState, move: SquaresMove) -> bool:
    need = needs(state)
    if need is None:
        return False
    if isinstance(move, Place):
        return "place" in need.moves and move.position in need.positions
    if isinstance(move, Swap):
        return "swap" in need.moves and move.position in need.swappable
    return "cash_in" in need.moves


def check_moves_against_needs(state: SquaresState, at_ms: int) -> None:
    """A move is accepted exactly when `needs` allows it; a refused one changes nothing."""
    before = describe(state)
    for move in every_move(at_ms):
        try:
            apply_move(state, move)
        except RuleError:
            assert not allowed_by_needs(state, move), move
        else:
            assert allowed_by_needs(state, move), move
    assert describe(state) == before


@GAMES
@given(played_games())
def test_every_state_of_a_game_keeps_its_cards_deck_score_board_and_needs(game: PlayedGame) -> None:
    """Cards are never lost or duplicated; the deck never runs short; the score always equals its
    parts; the board shows no hidden card; a move is accepted exactly when `needs` allows it, and a
    refused one changes nothing."""
    for state in game.states:
        check_cards(state)
        check_deck_suffices(state)
        check_score(state)
        check_board(state)
        check_moves_against_needs(state, state.last_at_ms)


@GAMES
@given(played_games())
def test_a_game_ends_by_cashing_out_or_the_limit_and_its_log_rebuilds_it(game: PlayedGame) -> None:
    final = game.final
    assert replay(game.deck, game.moves, now_ms=game.now_ms, limit_s=game.limit_s) == final
    assert final.finished
    assert len(score(final).squares) == SQUARES_PER_GAME
    if final.ended is EndReason.CASHED_OUT:
        assert final.cards_left == final.swaps_left
        assert final.positions == (None,) * 9


class SquaresMachine(RuleBasedStateMachine):
    """Whole games, move by move, with refused moves, swaps and the clock in between."""

    deck: tuple[Card, ...]
    state: SquaresState
    log: list[SquaresMove]
    now: int

    @initialize(deck=decks(), limit_s=st.sampled_from([60, 600]))
    def deal(self, deck: tuple[Card, ...], limit_s: int) -> None:
        self.deck = deck
        self.limit_s = limit_s
        self.state = new_game(deck, limit_s=limit_s)
        self.log = []
        self.now = 0

    def _try(self, move: SquaresMove) -> None:
        self.now = max(self.now, move.at_ms)
        state = self.state
        before = describe(state)
        allowed = allowed_by_needs(state, move)
        refused: RuleError | None = None
        try:
            after = apply_move(state, move)
        except RuleError as error:
            refused = error
        if refused is None:
            assert allowed
            self.state = after
            self.log.append(move)
            return
        assert not allowed
        assert describe(state) == before
        if state.ended is EndReason.CASHED_OUT:
            assert refused.code == "game_over"
        elif state.finished or move.at_ms >= state.deadline_ms:
            assert refused.code == "time_up"
            self.state = advance_clock(state, now_ms=self.now)
        else:
            assert refused.code == "move_not_allowed"

    @rule(position=st.integers(0, 10), wait=st.integers(0, 5_000))
    def place(self, position: int, wait: int) -> None:
        self._try(Place(position, self.state.last_at_ms + wait))

    @rule(index=st.integers(0, 8), wait=st.integers(0, 1_000))
    def place_legally(self, index: int, wait: int) -> None:
        need = needs(self.state)
        if need is not None and need.positions:
            self._try(Place(need.positions[index % len(need.positions)], self.state.last_at_ms + wait))

    @rule(position=st.integers(0, 10), wait=st.integers(0, 5_000))
    def swap(self, position: int, wait: int) -> None:
        self._try(Swap(position, self.state.last_at_ms + wait))

    @rule(wait=st.integers(0, 1_000))
    def cash_in(self, wait: int) -> None:
        self._try(CashIn(self.state.last_at_ms + wait))

    @rule(wait=st.integers(0, 30_000))
    def clock_ticks(self, wait: int) -> None:
        self.now += wait
        self.state = advance_clock(self.state, now_ms=self.now)

    @invariant()
    def cards_are_all_there(self) -> None:
        check_cards(self.state)

    @invariant()
    def the_deck_never_runs_short(self) -> None:
        check_deck_suffices(self.state)

    @invariant()
    def the_score_adds_up(self) -> None:
        check_score(self.state)

    @invariant()
    def the_board_shows_no_hidden_card(self) -> None:
        check_board(self.state)

    def teardown(self) -> None:
        assert replay(self.deck, self.log, now_ms=self.now, limit_s=self.limit_s) == self.state


TestSquaresMachine = SquaresMachine.TestCase
TestSquaresMachine.settings = settings(
    max_examples=30, stateful_step_count=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
