"""Properties of every Blackjack Attack game (RULES.md §3.1), over random decks and moves."""

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from attack.engine.game import (
    AttackMove,
    AttackState,
    EndReason,
    Place,
    Undo,
    advance_clock,
    apply_move,
    new_game,
    replay,
)
from attack.engine.rules import (
    BLACK_JACK_ATTACK_POINTS,
    CATCH_21_POINTS,
    CLOCK_MS,
    FIVE_CARD_CHARLIE_POINTS,
    STREAK_POINTS,
    hard_total,
)
from attack.engine.view import board, describe, needs, score
from casino.engine.cards import ALL_CARDS, Card
from casino.engine.errors import RuleError
from tests.attack.strategies import PlayedGame, decks, played_games

GAMES = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_cards(state: AttackState) -> None:
    """Every card is once in a column, out of play, or still in the draw pile."""
    columns = [card for column in state.play.columns for card in column]
    everywhere = Counter([*columns, *state.play.gone, *state.deck[state.play.current :]])
    assert everywhere == Counter(ALL_CARDS)


def check_score(state: AttackState) -> None:
    result = score(state)
    assert result.points == (
        CATCH_21_POINTS * result.catch_21
        + BLACK_JACK_ATTACK_POINTS * result.black_jack_attack
        + FIVE_CARD_CHARLIE_POINTS * result.five_card_charlie
        + STREAK_POINTS * result.streak_plays
    )
    assert result.total == result.points + (result.no_bust_bonus or 0) + (result.time_bonus or 0)
    assert (result.no_bust_bonus is None) == (result.time_bonus is None) == (not state.finished)


def check_board(state: AttackState) -> None:
    """Of the draw pile, only the current card shows, and the card under it once an undone
    placement turned it up; nothing once the game is over."""
    shown = board(state)
    pile = [str(card) for card in state.deck[state.play.current :]]
    assert shown["cards_left"] == len(pile)
    if state.finished:
        assert (shown["current"], shown["next"]) == (None, None)
    else:
        assert shown["current"] == pile[0]
        turned_up = state.seen > state.play.current
        assert shown["next"] == (pile[1] if turned_up else None)
    assert state.seen <= state.play.current + 1
    for column in state.play.columns:
        assert len(column) <= 4
        assert hard_total(column) <= 21


def every_move(at_ms: int) -> list[AttackMove]:
    return [Undo(at_ms), *(Place(column, at_ms) for column in range(6))]


def check_moves_against_needs(state: AttackState, at_ms: int) -> None:
    """A move is accepted exactly when `needs` lists it; a refused one changes nothing."""
    before = describe(state)
    need = needs(state)
    for move in every_move(at_ms):
        allowed = need is not None and (
            (isinstance(move, Undo) and "undo" in need.moves)
            or (isinstance(move, Place) and move.column in need.columns)
        )
        try:
            apply_move(state, move)
        except RuleError:
            assert not allowed, move
        else:
            assert allowed, move
    assert describe(state) == before


@GAMES
@given(played_games())
def test_every_state_of_a_game_keeps_its_cards_score_board_and_needs(game: PlayedGame) -> None:
    """Cards are never lost or duplicated; the score always equals its parts; the board shows no
    hidden card; a move is accepted exactly when `needs` allows it, and a refused one changes
    nothing."""
    for state in game.states:
        check_cards(state)
        check_score(state)
        check_board(state)
        check_moves_against_needs(state, state.last_at_ms)


@GAMES
@given(played_games())
def test_undo_restores_the_exact_play_before_the_placement(game: PlayedGame) -> None:
    for before, move, after in zip(game.states, game.moves, game.states[1:], strict=False):
        if isinstance(move, Undo):
            assert after.play == before.undo_to
            assert after.undo_to is None
        elif not after.finished:
            assert after.undo_to == before.play
            undone = apply_move(after, Undo(move.at_ms))
            assert undone.play == before.play
            assert score(undone) == score(before)


@GAMES
@given(played_games())
def test_a_game_ends_by_the_deck_or_the_clock_and_its_log_rebuilds_it(game: PlayedGame) -> None:
    """Replaying the log rebuilds the state; a played-out game has its two Black Jack Attacks and
    its bonuses, a timed-out one the points so far."""
    final = game.final
    assert replay(game.deck, game.moves, now_ms=game.now_ms) == final
    assert final.finished
    result = score(final)
    if final.ended is EndReason.DECK_PLAYED_OUT:
        assert result.black_jack_attack == 2
        assert result.no_bust_bonus == (100 if final.play.tally.busts == 0 else 0)
        assert 0 <= (result.time_bonus or 0) <= 1000
        assert final.cards_left == 0
    else:
        assert (result.no_bust_bonus, result.time_bonus, result.total) == (0, 0, result.points)
        assert final.ended_at_ms == CLOCK_MS


class AttackMachine(RuleBasedStateMachine):
    """Whole games, move by move, with refused moves, Undos and the clock in between."""

    deck: tuple[Card, ...]
    state: AttackState
    log: list[AttackMove]
    now: int

    @initialize(deck=decks())
    def deal(self, deck: tuple[Card, ...]) -> None:
        self.deck = deck
        self.state = new_game(deck)
        self.log = []
        self.now = 0

    def _try(self, move: AttackMove) -> None:
        self.now = max(self.now, move.at_ms)
        state, need = self.state, needs(self.state)
        before = describe(state)
        refused: RuleError | None = None
        try:
            after = apply_move(state, move)
        except RuleError as error:
            refused = error
        if refused is None:
            assert need is not None
            self.state = after
            self.log.append(move)
            return
        assert describe(state) == before
        if state.ended is EndReason.DECK_PLAYED_OUT:
            assert refused.code == "game_over"
        elif state.finished or move.at_ms >= CLOCK_MS:
            assert refused.code == "time_up"
            self.state = advance_clock(state, now_ms=self.now)
        else:
            assert refused.code == "move_not_allowed"
            assert need is not None
            assert not (isinstance(move, Place) and move.column in need.columns)
            assert not (isinstance(move, Undo) and "undo" in need.moves)

    @rule(column=st.integers(0, 5), wait=st.integers(0, 9_000))
    def place(self, column: int, wait: int) -> None:
        self._try(Place(column, self.state.last_at_ms + wait))

    @rule(column_index=st.integers(0, 3), wait=st.integers(0, 2_000))
    def place_legally(self, column_index: int, wait: int) -> None:
        need = needs(self.state)
        if need is not None:
            self._try(Place(need.columns[column_index % len(need.columns)], self.state.last_at_ms + wait))

    @rule(wait=st.integers(0, 2_000))
    def undo(self, wait: int) -> None:
        self._try(Undo(self.state.last_at_ms + wait))

    @rule(wait=st.integers(0, 60_000))
    def clock_ticks(self, wait: int) -> None:
        self.now += wait
        self.state = advance_clock(self.state, now_ms=self.now)

    @invariant()
    def cards_are_all_there(self) -> None:
        check_cards(self.state)

    @invariant()
    def the_score_adds_up(self) -> None:
        check_score(self.state)

    @invariant()
    def the_board_shows_no_hidden_card(self) -> None:
        check_board(self.state)

    def teardown(self) -> None:
        assert replay(self.deck, self.log, now_ms=self.now) == self.state


TestAttackMachine = AttackMachine.TestCase
TestAttackMachine.settings = settings(
    max_examples=30, stateful_step_count=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
