"""Blackjack Squares' rules one by one, the refusals and their order (RULES.md §3, §3.2)."""

import pytest

from casino.engine.cards import ALL_CARDS
from casino.engine.errors import RuleError
from squares.engine.game import (
    CashIn,
    InvalidDeckError,
    MoveOutOfOrderError,
    Place,
    SquaresMove,
    Swap,
    advance_clock,
    apply_move,
    new_game,
    place,
    replay,
)
from squares.engine.rules import (
    InvalidGameSettingsError,
    check_limit_s,
    final_squares,
    readings,
    square_score,
)
from squares.engine.view import board, describe, needs, score
from tests.squares.helpers import cards, cash, deck_with, fill, game, swap_out


def test_readings_count_each_ace_one_or_eleven() -> None:
    assert readings(cards("AS AH 4D")) == (6, 16, 26)
    assert readings(cards("KS 5D")) == (15,)
    assert readings(()) == (0,)


def test_a_square_not_full_has_no_score() -> None:
    with pytest.raises(ValueError, match="full square"):
        square_score((None,) * 9)


def test_square_scores_lie_between_minus_78_and_126() -> None:
    assert square_score(cards("6S 7H 8D 7C 8S 6H 8C 6D 7S")) == 126
    assert square_score(cards("KS KH KD KC QS QH QD QC JS")) == -54
    assert square_score(cards("AS 2S 2H 2D AH 2C AD AC 3S")) < 0


def test_at_the_limit_no_square_is_ever_lost_from_the_count() -> None:
    assert final_squares(()) == (-126,) * 5
    assert final_squares((10, 20, 30, 40, 50)) == (10, 20, 30, 40, 50)


@pytest.mark.parametrize("limit_s", [59, 7201, 0, "1800", 1800.0, True])
def test_the_time_limit_is_60_to_7200_seconds(limit_s: object) -> None:
    with pytest.raises(InvalidGameSettingsError) as refused:
        check_limit_s(limit_s)

    assert refused.value.code == "invalid_game_settings"


def test_the_default_limit_is_30_minutes() -> None:
    state = new_game(ALL_CARDS)

    assert state.deadline_ms == 1_800_000
    assert check_limit_s(60) == 60
    assert check_limit_s(7200) == 7200


def test_a_deck_is_52_distinct_cards() -> None:
    with pytest.raises(InvalidDeckError):
        new_game(ALL_CARDS[1:])


def test_a_new_game_shows_the_top_card_and_no_other() -> None:
    state = game("7D", bottom="KS")

    shown = describe(state)
    assert (shown["state"], shown["ended"], shown["seq"]) == ("playing", None, 0)
    assert shown["needs"] == {"seat": 1, "moves": ["place"], "positions": list(range(1, 10)), "swappable": []}
    assert board(state) == {
        "square": 1,
        "current": "7D",
        "cards_left": 52,
        "swaps_left": 7,
        "positions": [None] * 9,
        "lines": [
            {"line": name, "positions": line, "total": 0, "value": None}
            for name, line in [
                ("row1", [1, 2, 3]),
                ("row2", [4, 5, 6]),
                ("row3", [7, 8, 9]),
                ("col1", [1, 4, 7]),
                ("col2", [2, 5, 8]),
                ("col3", [3, 6, 9]),
            ]
        ],
    }
    assert shown["score"] == {"squares": [], "total": 0}


def test_needs_lists_the_empty_positions_and_the_swappable_ones() -> None:
    state = fill(game(""), 1, 3, 4, 6, 7, 8, 9)

    need = needs(state)
    assert need is not None
    assert need.to_dict() == {
        "seat": 1,
        "moves": ["place", "swap"],
        "positions": [2, 5],
        "swappable": [1, 3, 4, 6, 7, 8, 9],
    }
    assert board(state)["cards_left"] == 45


def test_a_full_square_may_be_swapped_or_cashed_in() -> None:
    need = needs(fill(game("")))

    assert need is not None
    assert (need.moves, need.positions) == (("swap", "cash_in"), ())


def test_a_card_on_a_taken_position_is_refused() -> None:
    state = fill(game(""), 5)

    with pytest.raises(RuleError) as refused:
        place(state, position=5, at_ms=10)

    assert refused.value.code == "move_not_allowed"
    assert state.top == 1


@pytest.mark.parametrize("position", [0, 10, True, "1"])
def test_a_position_that_does_not_exist_is_refused(position: object) -> None:
    with pytest.raises(RuleError) as refused:
        place(game(""), position=position, at_ms=0)  # type: ignore[arg-type]

    assert refused.value.code == "move_not_allowed"


def test_a_cashed_square_leaves_play_and_an_empty_one_starts() -> None:
    state = cash(fill(game("")))

    assert state.square == 2
    assert state.positions == (None,) * 9
    assert state.cashed_cards == ALL_CARDS[:9]
    assert board(state)["current"] == str(ALL_CARDS[9])


def test_the_fifth_cash_in_ends_the_game() -> None:
    state = game("")
    for _ in range(5):
        state = cash(fill(state))

    assert needs(state) is None
    assert (board(state)["square"], board(state)["current"]) == (None, None)
    with pytest.raises(RuleError) as refused:
        apply_move(state, Place(1, state.last_at_ms, seat=2))
    assert refused.value.code == "game_over"


def test_refusals_come_in_the_rules_order() -> None:
    timed_out = advance_clock(game(""), now_ms=1_800_000)
    playing = fill(game(""), 1)

    # the clock before the seat, the seat before the move itself
    with pytest.raises(RuleError) as timed:
        apply_move(timed_out, Swap(2, 100, seat=2))
    with pytest.raises(RuleError) as late:
        apply_move(playing, CashIn(1_800_000, seat=2))
    with pytest.raises(RuleError) as seat:
        apply_move(playing, CashIn(100, seat=2))
    with pytest.raises(RuleError) as rest:
        apply_move(playing, CashIn(100))

    assert [timed.value.code, late.value.code, seat.value.code, rest.value.code] == [
        "time_up",
        "time_up",
        "not_your_turn",
        "move_not_allowed",
    ]


def test_a_move_just_before_the_limit_counts() -> None:
    state = game("", limit_s=60)

    state = place(state, position=1, at_ms=59_999)

    assert state.seq == 1


def test_a_move_received_before_the_previous_one_is_refused() -> None:
    state = place(game(""), position=1, at_ms=5_000)

    with pytest.raises(MoveOutOfOrderError):
        place(state, position=2, at_ms=4_999)


def test_the_log_replays_into_the_same_game() -> None:
    moves: list[SquaresMove] = [Place(p, p * 1_000) for p in range(1, 10)]
    moves += [Swap(4, 10_000), CashIn(11_000), Place(5, 12_000)]
    state = game("")
    for move in moves:
        state = apply_move(state, move)

    assert replay(deck_with(""), moves, now_ms=12_000) == state
    assert replay(deck_with(""), moves, now_ms=1_800_000) == advance_clock(state, now_ms=1_800_000)


def test_a_swapped_out_card_is_gone_for_good() -> None:
    state = swap_out(swap_out(fill(game(""), 1), 1), 1)

    assert state.discarded == (ALL_CARDS[0], ALL_CARDS[51])
    assert state.positions[0] == ALL_CARDS[50]
    assert score(state).total == 0
