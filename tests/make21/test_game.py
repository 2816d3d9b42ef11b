"""A match of Make 21 as a state machine: the deal, the refusals and their order, the turn order,
the turn clock and its automatic moves, and a match's games one after another (RULES.md §3, §3.3)."""

import pytest

from casino.engine.cards import ALL_CARDS
from casino.engine.errors import RuleError
from casino.engine.table_game import NotYourTurnError
from make21.engine.game import (
    CardNotInHandError,
    Double,
    Extend,
    GameOverError,
    InvalidDeckError,
    Make21State,
    MoveNotAllowedError,
    MoveOutOfOrderError,
    Play,
    Take,
    advance_clock,
    apply_move,
    automatic,
    new_match,
    replay,
)
from make21.engine.rules import InvalidGameSettingsError, Outcome, first_player
from make21.engine.view import describe, needs, score
from tests.make21.helpers import A, B, C, cards, deck_with, extend, match, play, table

LIMIT = 60_000


# --- a new match -----------------------------------------------------------------------------


def test_game_1_is_dealt_by_seat_n_from_its_left_one_card_at_a_time() -> None:
    state = match("2S 3S 4S 5S 6S 8S", players=3)

    assert (state.game_no, state.dealer, state.to_move, state.previous) == (1, 3, A, C)
    assert state.hands == (cards("2S 5S"), cards("3S 6S"), cards("4S 8S"))
    assert len(state.draw_pile) == 46
    assert state.draw_pile[0] == deck_with("2S 3S 4S 5S 6S 8S")[6]
    assert (state.seq, state.last_at_ms, state.deadline_ms) == (0, 0, LIMIT)


def test_a_match_is_one_game_per_seat_unless_told() -> None:
    state = new_match([deck_with(""), deck_with("KS"), deck_with("QS")], players=3)

    assert (state.match.games, state.match.turn_limit_ms) == (3, 60_000)


def test_a_match_takes_one_full_deck_per_game() -> None:
    with pytest.raises(InvalidDeckError):
        new_match([ALL_CARDS], players=3, games=2)
    with pytest.raises(InvalidDeckError):
        new_match([ALL_CARDS[:51]], players=3, games=1)
    with pytest.raises(InvalidDeckError):
        new_match([(*ALL_CARDS[:51], ALL_CARDS[0])], players=3, games=1)


@pytest.mark.parametrize(
    ("players", "games", "turn_limit_ms"), [(1, 1, LIMIT), (6, 1, LIMIT), (3, 0, LIMIT), (3, 1, 4_000)]
)
def test_a_match_refuses_settings_out_of_range(players: int, games: int, turn_limit_ms: int) -> None:
    with pytest.raises(InvalidGameSettingsError):
        new_match([ALL_CARDS] * games, players=players, games=games, turn_limit_ms=turn_limit_ms)


# --- refusals, in the rules' order -----------------------------------------------------------


def code_of(state: Make21State, move: Play | Double | Extend | Take) -> str:
    """The code `move` is refused with; a refused move changes nothing."""
    before = describe(state, None)
    with pytest.raises(RuleError) as refused:
        apply_move(state, move)
    assert describe(state, None) == before
    return refused.value.code


def test_a_move_after_the_match_is_over_is_game_over() -> None:
    state = play(table(["2D", "", ""], p1="3S 9H", draw_size=0), "2D", "P2")
    assert state.finished
    assert not state.ended_by_clock

    # before the clock, the seat and the cards
    assert code_of(state, Play(cards("KS"), "P9", seat=B, at_ms=10**9)) == "game_over"
    assert code_of(state, Take(seat=A, at_ms=2)) == "game_over"


def test_a_move_at_or_after_the_deadline_is_time_up_from_the_seat_to_move_else_not_your_turn() -> None:
    state = table(["6D 2C", "3H 4H", None], p1="KS 5H")

    assert code_of(state, Play(cards("6D"), "P1", seat=A, at_ms=LIMIT)) == "time_up"
    assert code_of(state, Play(cards("KH"), "P7", seat=A, at_ms=LIMIT + 5)) == "time_up"  # before the cards
    assert code_of(state, Play(cards("3H"), "P1", seat=B, at_ms=LIMIT)) == "not_your_turn"
    assert play(state, "6D", at_ms=LIMIT - 1).to_move == B


def test_the_seat_that_timed_out_is_time_up_while_its_automatic_move_is_the_last() -> None:
    clocked = advance_clock(table(["6D 2C", "3H 4H", "5H 8H"], p1="KS 5H"), now_ms=LIMIT + 500)
    state = clocked.state
    assert [(move.seat, move.at_ms, move.automatic) for move in clocked.automatic] == [(A, LIMIT, True)]

    assert code_of(state, Play(cards("2C"), "P1", seat=A, at_ms=LIMIT + 500)) == "time_up"
    assert code_of(state, Play(cards("5H"), "P1", seat=C, at_ms=LIMIT + 500)) == "not_your_turn"
    after = play(state, "3H", "P2", at_ms=LIMIT + 600)  # B is to move
    assert code_of(after, Play(cards("2C"), "P1", seat=A, at_ms=LIMIT + 700)) == "not_your_turn"


def test_a_seat_that_timed_out_and_is_to_move_again_may_move() -> None:
    state = advance_clock(table(["6D 2C", "", ""], p1="KS 5H", draw_size=0), now_ms=LIMIT).state
    assert (state.to_move, state.timed_out_seat) == (A, A)  # alone with cards: its 21 came back to it

    after = play(state, "2C", "P2", at_ms=LIMIT + 1)

    assert after.finished


def test_a_match_ended_by_the_clock_is_time_up_for_the_seat_it_moved_for_and_game_over_for_others() -> None:
    state = advance_clock(table(["2D", "", ""], p1="3S 9H", draw_size=0), now_ms=LIMIT).state
    assert state.finished
    assert state.ended_by_clock

    assert code_of(state, Take(seat=A, at_ms=LIMIT + 1)) == "time_up"
    assert code_of(state, Take(seat=B, at_ms=LIMIT + 1)) == "game_over"


def test_the_seat_comes_before_the_cards_so_a_seat_not_to_move_learns_nothing_of_a_hand() -> None:
    state = table(["6D 2C", "3H 4H", None], p1="KS 5H")

    assert code_of(state, Play(cards("6D"), "P1", seat=B, at_ms=1)) == "not_your_turn"
    assert code_of(state, Play(cards("3H"), "P1", seat=B, at_ms=1)) == "not_your_turn"
    assert code_of(state, Take(seat=C, at_ms=1)) == "not_your_turn"
    with pytest.raises(NotYourTurnError):
        apply_move(state, Double(cards("3H"), seat=B, at_ms=1))


@pytest.mark.parametrize(
    "move",
    [
        Play(cards("3H"), "P1", seat=A, at_ms=1),  # another seat's card
        Play(cards("6D 6D"), "P1", seat=A, at_ms=1),  # the same card twice
        Play(cards("6D 2C 3H"), "P1", seat=A, at_ms=1),
        Play(cards("3H"), "P9", seat=A, at_ms=1),  # the cards before the pile's name
        Double(cards("6D QS"), seat=A, at_ms=1),
        Extend(cards("QS"), seat=A, at_ms=1),  # before the mode
    ],
)
def test_the_cards_come_before_the_rest(move: Play | Double | Extend) -> None:
    state = table(["6D 2C", "3H 4H", None], p1="KS 5H")

    assert code_of(state, move) == "card_not_in_hand"
    with pytest.raises(CardNotInHandError):
        apply_move(state, move)


@pytest.mark.parametrize(
    "move",
    [
        Play((), "P1", seat=A, at_ms=1),
        Play(cards("6D"), "P3", seat=A, at_ms=1),
        Play(cards("6D"), "p1", seat=A, at_ms=1),
        Play(cards("6D 2C"), "P1", seat=A, at_ms=1),  # 23, no set
        Double(cards("6D"), seat=A, at_ms=1),  # P2 is empty
        Extend(cards("6D"), seat=A, at_ms=1),  # no set-mode pile
        Take(seat=A, at_ms=1),
    ],
)
def test_the_rest_is_move_not_allowed_with_the_reason(move: Play | Double | Extend | Take) -> None:
    state = table(["6D 2C", "3H 4H", None], p1="KS 5H")

    with pytest.raises(MoveNotAllowedError) as refused:
        apply_move(state, move)
    assert refused.value.reason


def test_a_set_mode_pile_allows_only_extend_or_take() -> None:
    state = table([None, "2S 3H", None], p1="5S 9S 4S", p2="TD", set_mode="P1", to_move=B, previous=A)

    assert code_of(state, Play(cards("2S"), "P1", seat=B, at_ms=1)) == "move_not_allowed"
    assert code_of(state, Play(cards("3H"), "P2", seat=B, at_ms=1)) == "move_not_allowed"
    assert code_of(state, Double(cards("2S"), seat=B, at_ms=1)) == "move_not_allowed"
    assert code_of(state, Extend(cards("3H"), seat=B, at_ms=1)) == "move_not_allowed"
    assert extend(state, "2S").last is not None


def test_a_move_received_before_the_previous_one_is_refused() -> None:
    state = play(table(["6D 2C", "3H 4H", None], p1="KS 5H"), "6D", at_ms=5_000)

    with pytest.raises(MoveOutOfOrderError):
        apply_move(state, Play(cards("3H"), "P1", seat=B, at_ms=4_999))


def test_an_automatic_move_in_a_log_must_be_the_one_the_rules_make_at_the_deadline() -> None:
    state = table(["6D 2C", "3H 4H", None], p1="KS 5H")
    made = automatic(state)
    assert made == Play(cards("6D"), "P1", seat=A, at_ms=LIMIT, automatic=True)

    assert code_of(state, Play(cards("2C"), "P1", seat=A, at_ms=LIMIT, automatic=True)) == "move_not_allowed"
    assert (
        code_of(state, Play(cards("6D"), "P1", seat=A, at_ms=LIMIT - 1, automatic=True)) == "move_not_allowed"
    )
    assert apply_move(state, made) == advance_clock(state, now_ms=LIMIT).state


# --- the turn order --------------------------------------------------------------------------


def test_play_goes_clockwise_and_skips_empty_hands() -> None:
    state = table(["KD QD", "", "JD TD"], draw_size=0)

    assert play(state, "KD", "P1").to_move == C
    assert play(play(state, "KD", "P1"), "JD", "P2").to_move == A


def test_alone_with_cards_the_movers_own_21_comes_back_to_it() -> None:
    state = table(["6D 2C", "", ""], p1="KS 5H", draw_size=0)

    after = play(state, "6D", "P1")

    assert after.last is not None
    assert (after.last.outcome, after.last.taken_by, after.last.cards_taken) == (Outcome.HIT_21, A, 3)
    assert after.to_move == A


def test_the_next_player_is_read_after_the_mover_draws_back_up() -> None:
    state = table(["4C 2D", "", ""], p1="KS 5H", draw="9S", draw_size=1)

    after = play(state, "4C 2D", "P1")

    assert after.hand(A) == cards("9S")
    assert after.last is not None
    assert (after.last.taken_by, after.to_move) == (A, A)


def test_a_21_with_nobody_left_to_take_it_stays_and_is_discarded() -> None:
    state = table(["6D", "", ""], p1="KS 5H", draw_size=0, collected=[10, 10])

    after = play(state, "6D", "P1")

    assert after.last is not None
    assert (after.last.outcome, after.last.taken_by, after.last.cards_taken) == (Outcome.HIT_21, None, 0)
    assert after.finished
    assert after.results[0].discarded == cards("KS 5H 6D")
    assert after.results[0].collected == {A: 10, B: 10, C: 29}


def test_on_a_games_first_turn_the_dealer_is_the_previous_player() -> None:
    state = match("7S 2H 3D 4C 5S 6H", players=3)

    after = play(state, "7S", "P1")

    assert after.last is not None
    assert (after.last.outcome, after.last.taken_by) == (Outcome.SEVEN, C)


def test_the_previous_player_takes_a_seven_even_with_an_empty_hand() -> None:
    state = table(["7S", "", "KH"], p1="9C", previous=B, draw_size=0, collected=[20, 10])

    after = play(state, "7S", "P1")

    assert after.last is not None
    assert (after.last.taken_by, after.collected[B], after.to_move) == (B, 12, C)


def test_card_1_is_the_card_held_longest() -> None:
    state = table(["9S 2C", None, None], draw="QH")
    state = play(state, "9S", "P1")
    assert state.hand(A) == cards("2C QH")
    state = play(state, str(state.hand(B)[0]), "P2")
    state = play(state, str(state.hand(C)[0]), "P2")

    made = automatic(state)

    assert isinstance(made, Play)
    assert made.cards == cards("2C")  # held since the deal; QH was drawn later


def test_a_record_carries_the_cards_played_and_never_a_drawn_card() -> None:
    state = play(table(["4C 2D", None, None], p1="KS 5H", draw="9S 8S"), "4C 2D", "P1")

    assert state.last is not None
    assert state.last.cards == cards("4C 2D")
    assert state.hand(A) == cards("9S 8S")


# --- the turn clock --------------------------------------------------------------------------


def test_the_turn_clock_restarts_at_each_logged_move() -> None:
    state = table(["6D 2C", "3H 4H", "5H 8H"], p1="KS 5H")
    assert needs(state, None) == {"seat": A, "mode": "normal", "pile": None, "deadline": LIMIT}

    state = play(state, "2C", "P2", at_ms=59_000)

    assert state.deadline_ms == 59_000 + LIMIT
    assert advance_clock(state, now_ms=59_000 + LIMIT - 1).state == state


def test_deadlines_chain_when_nobody_moves_each_automatic_move_at_its_own_deadline() -> None:
    state = table(["6D 2C", "3H 4H", "5H 8H"], p1="KS 5H")

    clocked = advance_clock(state, now_ms=3 * LIMIT + 10)

    assert [(move.seat, move.at_ms) for move in clocked.automatic] == [
        (A, LIMIT),
        (B, 2 * LIMIT),
        (C, 3 * LIMIT),
    ]
    assert all(record.automatic for record in clocked.state.log)
    assert [record.at_ms for record in clocked.state.log] == [LIMIT, 2 * LIMIT, 3 * LIMIT]
    assert clocked.state.deadline_ms == 4 * LIMIT


def test_at_the_deadline_a_player_facing_a_set_takes_it() -> None:
    state = table([None, "2S 3H", None], p1="5S 9S 4S", set_mode="P1", to_move=B, previous=A)

    clocked = advance_clock(state, now_ms=LIMIT)

    assert clocked.automatic == (Take(seat=B, at_ms=LIMIT, automatic=True),)
    assert clocked.state.last is not None
    assert (clocked.state.last.outcome, clocked.state.last.taken_by, clocked.state.last.cards_taken) == (
        Outcome.TAKE,
        B,
        3,
    )


def test_the_clock_makes_no_move_once_the_match_is_over() -> None:
    state = play(table(["2D", "", ""], p1="3S 9H", draw_size=0), "2D", "P2")

    assert advance_clock(state, now_ms=10**9).automatic == ()
    assert state.deadline_ms is None
    with pytest.raises(GameOverError):
        automatic(state)


# --- a match ---------------------------------------------------------------------------------


def played_out(players: int, games: int) -> Make21State:
    """A match the clock plays out alone, every deck in `ALL_CARDS` order but the first cards."""
    decks = [deck_with(" ".join(str(card) for card in reversed(ALL_CARDS[-g - 1 :]))) for g in range(games)]
    state = new_match(decks, players=players, games=games)
    return advance_clock(state, now_ms=10**9).state


@pytest.mark.parametrize(("players", "games"), [(2, 2), (3, 3), (5, 5)])
def test_a_match_deals_its_games_one_after_another_with_the_button_moving_clockwise(
    players: int, games: int
) -> None:
    state = played_out(players, games)

    assert state.finished
    assert [result.game_no for result in state.results] == list(range(1, games + 1))
    assert [result.dealer for result in state.results] == [
        (players + g - 2) % players + 1 for g in range(1, games + 1)
    ]
    for result in state.results:
        assert sum(result.collected.values()) + len(result.discarded) == 52
        records = [record for record in state.log if record.game_no == result.game_no]
        assert records[0].seat == first_player(result.dealer, players)
    assert [record.game_no for record in state.log] == sorted(record.game_no for record in state.log)


def test_the_next_game_is_dealt_the_moment_one_ends_and_its_turn_clock_starts_then() -> None:
    state = table(["2D", "", ""], p1="3S 9H", draw_size=0, games=2)

    after = play(state, "2D", "P2", at_ms=12_345)

    assert (after.game_no, after.dealer, after.to_move, after.previous) == (2, 1, 2, 1)
    assert [len(hand) for hand in after.hands] == [2, 2, 2]
    assert after.piles[0].cards == after.piles[1].cards == ()
    assert after.collected == {A: 0, B: 0, C: 0}
    assert after.deadline_ms == 12_345 + LIMIT
    assert after.last is not None
    assert after.last.game_no == 1
    assert len(after.results) == 1


def test_the_match_score_is_judged_on_each_seats_cards_over_its_games() -> None:
    state = played_out(3, 2)
    shown = score(state)

    totals = {seat: sum(result.collected[seat] for result in state.results) for seat in (A, B, C)}
    assert shown["total"] == {str(seat): count for seat, count in totals.items()}
    assert [game["game_no"] for game in shown["games"]] == [1, 2]
    fewest, most = min(totals.values()), max(totals.values())
    assert shown["winners"] == [seat for seat, count in totals.items() if count == fewest]
    assert shown["losers"] == (
        [] if fewest == most else [seat for seat, count in totals.items() if count == most]
    )


def test_the_score_lists_the_game_in_play_and_names_no_winner_before_the_end() -> None:
    state = play(table(["6D 2C", None, None], p1="KS 5H", games=2), "6D", "P1")

    assert score(state) == {
        "games": [{"game_no": 1, "collected": {"1": 0, "2": 3, "3": 0}}],
        "total": {"1": 0, "2": 3, "3": 0},
        "winners": [],
        "losers": [],
    }


def test_replaying_the_log_rebuilds_the_match() -> None:
    decks = [deck_with("2S 3S 4S 5S 6S 8S"), deck_with("KS 5H 6D")]
    state = new_match(decks, players=3, games=2)
    state = play(state, "2S", "P1", at_ms=1_000)
    state = play(state, "3S", "P1", at_ms=2_000)
    clocked = advance_clock(state, now_ms=2_000 + 5 * LIMIT)
    moves = [
        Play(cards("2S"), "P1", seat=A, at_ms=1_000),
        Play(cards("3S"), "P1", seat=B, at_ms=2_000),
        *clocked.automatic,
    ]

    assert replay(decks, moves, players=3, games=2, now_ms=2_000 + 5 * LIMIT) == clocked.state
    assert replay(decks, moves[:2], players=3, games=2, now_ms=2_000 + 5 * LIMIT) == clocked.state
