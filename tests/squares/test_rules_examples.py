"""Every example of RULES.md §3.2 (Blackjack Squares), as written there."""

import pytest

from casino.engine.errors import RuleError
from squares.engine.game import EndReason, SquaresState, advance_clock, cash_in, swap
from squares.engine.rules import best_reading, game_score, line_value
from squares.engine.view import board, needs, score
from tests.squares.helpers import cards, cash, fill, game, swap_out

SIX_21S = "6S 7H 8D / 7C 8S 6H / 8C 6D 7S"
FIFTY_ONE = "AS 5H 5D / KC 9S 2H / QD 8C 4S"
ANOTHER_51 = "3H 8S JH / TC 3S JD / 4C JS 7H"


def totals(state: SquaresState) -> list[tuple[str, int, int | None]]:
    return [(line["line"], line["total"], line["value"]) for line in board(state)["lines"]]


def test_six_lines_of_21_score_126() -> None:
    state = fill(game(SIX_21S))
    assert [value for _, _, value in totals(state)] == [21] * 6

    state = cash(state)

    assert score(state).squares == (126,)
    assert score(state).total == 126


def test_the_best_reading_of_each_line_on_its_own() -> None:
    state = fill(game(FIFTY_ONE))

    # the Ace of spades is 11 in row 1 and 1 in column 1
    assert totals(state) == [
        ("row1", 21, 21),
        ("row2", 21, 21),
        ("row3", 22, -1),
        ("col1", 21, 21),
        ("col2", 22, -1),
        ("col3", 11, -10),
    ]
    assert score(cash(state)).total == 51


def test_a_swap_brings_in_the_hidden_bottom_card() -> None:
    state = fill(game(FIFTY_ONE, bottom="3C"))
    assert "3C" not in str(board(state))

    state = swap_out(state, 9)

    assert board(state)["positions"][8] == "3C"
    assert state.discarded == cards("4S")
    assert ("row3", 21, 21) in totals(state)
    assert ("col3", 10, -11) in totals(state)
    assert score(cash(state)).total == 72


@pytest.mark.parametrize(
    ("line", "total", "value"),
    [
        ("AS 6H 5D", 22, -1),
        ("AS AH AD", 23, -2),
        ("AS AH 9D", 21, 21),
        ("KS QH JD", 30, -9),
        ("2S 2H 2D", 6, -15),
    ],
)
def test_line_readings_and_values(line: str, total: int, value: int) -> None:
    assert best_reading(cards(line)) == total
    assert line_value(total) == value


def test_of_two_equally_close_readings_the_lower_shows() -> None:
    assert best_reading(cards("AS AH 4D")) == 16


def test_a_line_not_yet_full_shows_the_same_reading_and_no_value() -> None:
    state = fill(game("AS AH 4D 9C"), 1, 2, 4, 5)

    # the same rule as a full line: the reading closest to 21 (A A: 22, not 12)
    assert totals(state)[:2] == [("row1", 22, None), ("row2", 13, None)]
    assert totals(state)[3] == ("col1", 15, None)

    state = fill(game("AS AH 4D"), 1, 2, 3)
    assert totals(state)[0] == ("row1", 16, -5)


def test_an_eighth_swap_is_refused() -> None:
    state = fill(game(""))
    for _ in range(7):
        state = swap_out(state, 1)
    assert board(state)["swaps_left"] == 0

    with pytest.raises(RuleError) as refused:
        swap(state, position=1, at_ms=state.last_at_ms)

    assert refused.value.code == "move_not_allowed"
    need = needs(state)
    assert need is not None
    assert (need.moves, need.swappable) == (("cash_in",), ())


def test_a_swap_of_an_empty_position_is_refused() -> None:
    state = fill(game(""), 1)

    with pytest.raises(RuleError) as refused:
        swap(state, position=2, at_ms=state.last_at_ms)

    assert refused.value.code == "move_not_allowed"
    assert state.swaps_used == 0


def test_a_cash_in_with_a_position_empty_is_refused() -> None:
    state = fill(game(""), 1, 2, 3, 4, 5, 6, 7, 8)

    with pytest.raises(RuleError) as refused:
        cash_in(state, at_ms=state.last_at_ms)

    assert refused.value.code == "move_not_allowed"
    assert state.cashed == ()


def test_five_squares_add_up() -> None:
    assert game_score([51, 72, -20, 126, -33]) == 196


def test_at_the_limit_every_square_not_cashed_in_scores_minus_126() -> None:
    state = cash(swap_out(fill(game(f"{FIFTY_ONE} {ANOTHER_51}", bottom="3C", limit_s=600)), 9))
    state = fill(cash(fill(state)), 1, 2, 3, 4)
    assert score(state).squares == (72, 51)

    ended = advance_clock(state, now_ms=600_000)

    assert ended.ended is EndReason.TIME_UP
    assert needs(ended) is None
    assert score(ended).squares == (72, 51, -126, -126, -126)
    assert score(ended).total == 51 + 72 - 3 * 126 == -255


def test_at_the_limit_a_full_square_on_the_table_scores_minus_126() -> None:
    state = fill(game(SIX_21S, limit_s=60))

    ended = advance_clock(state, now_ms=60_000)

    assert score(ended).squares == (-126,) * 5
    assert board(ended)["positions"] == [str(card) for card in cards(SIX_21S)]


@pytest.mark.parametrize(("swaps", "unused"), [(2, 5), (7, 0)])
def test_five_squares_leave_the_unused_swaps_cards_in_the_deck(swaps: int, unused: int) -> None:
    state = game("")
    for square in range(5):
        state = fill(state)
        if square == 0:
            for _ in range(swaps):
                state = swap_out(state, 5)
        state = cash(state)

    assert state.ended is EndReason.CASHED_OUT
    assert len(score(state).squares) == 5
    assert state.cards_left == unused
