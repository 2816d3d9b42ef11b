"""Every example of RULES.md §3.1 (Blackjack Attack), as written there."""

import pytest

from attack.engine.game import (
    AttackState,
    EndReason,
    GameOverError,
    MoveNotAllowedError,
    TimeUpError,
    advance_clock,
    place,
    undo,
)
from attack.engine.rules import Tally, no_bust_bonus, points, time_bonus
from attack.engine.view import board, needs, score
from tests.attack.helpers import cards, game, play, play_out, total


def test_king_then_ace_is_a_catch_21_with_the_ace_as_eleven() -> None:
    state = play(game("KH AS"), 1, 1)

    assert total(state) == 50
    assert score(state).catch_21 == 1
    assert state.play.columns[0] == ()
    assert state.play.gone == cards("KH AS")


def test_two_catches_and_a_black_jack_on_an_empty_column_score_225() -> None:
    state = game("KH QD AS AC JS")

    state = play(state, 1, 2)
    assert total(state) == 0
    state = play(state, 1)
    assert total(state) == 50
    state = play(state, 2)
    assert total(state) == 50 + 50 + 25
    state = play(state, 3)

    assert total(state) == 225
    assert score(state).to_dict() == {
        "catch_21": 2,
        "black_jack_attack": 1,
        "five_card_charlie": 0,
        "streak_plays": 2,
        "points": 225,
        "no_bust_bonus": None,
        "time_bonus": None,
        "total": 225,
    }


@pytest.mark.parametrize(
    ("top", "expected", "parts"),
    [
        ("2H 3D 4C 5S 7H", 150, (1, 0, 1)),  # 21 with five cards: Catch 21 + Five Card Charlie
        ("2H 3D 4C 5S JC", 75, (0, 1, 0)),  # 24: no bust, no Charlie
        ("2H 3D 2C 4S JS", 225, (1, 1, 1)),  # 11 + a Black Jack: 21, fifth card, Black Jack Attack
        ("AH 2C 3D 4S AD", 150, (1, 0, 1)),  # hard 11 with an Ace reads 21, fifth card
    ],
)
def test_a_fifth_card_on_a_column_of_four(top: str, expected: int, parts: tuple[int, int, int]) -> None:
    state = play(game(top), 1, 1, 1, 1)
    assert total(state) == 0

    state = play(state, 1)

    result = score(state)
    assert total(state) == expected
    assert (result.catch_21, result.black_jack_attack, result.five_card_charlie) == parts
    assert result.streak_plays == 0
    assert state.play.columns[0] == ()


def test_a_column_of_ace_two_three_four_shows_twenty() -> None:
    state = play(game("AH 2C 3D 4S"), 1, 1, 1, 1)

    assert board(state)["columns"][0] == {
        "column": 1,
        "cards": ["AH", "2C", "3D", "4S"],
        "hard_total": 10,
        "total": 20,
    }


def test_undo_restores_a_streak_a_bust_broke() -> None:
    state = play(game("9H 7C QH AD 5S"), 3, 3, 1, 1)
    assert total(state) == 50
    before_five = state

    broken = play(state, 2)
    assert total(broken) == 50
    assert not broken.play.streak
    undone = undo(broken, at_ms=broken.last_at_ms + 1)
    assert undone.play == before_five.play

    state = play(undone, 3)
    assert total(state) == 125
    assert score(state).streak_plays == 1


def test_an_undo_straight_after_an_undo_is_refused() -> None:
    state = play(game("9H 7C QH AD 5S"), 3, 3, 1, 1, 2)
    state = undo(state, at_ms=10)

    with pytest.raises(MoveNotAllowedError) as refused:
        undo(state, at_ms=11)

    assert refused.value.code == "move_not_allowed"
    need = needs(state)
    assert need is not None
    assert need.moves == ("place",)


def test_after_the_placement_again_another_undo_is_allowed_back_to_50() -> None:
    state = play(game("9H 7C QH AD 5S"), 3, 3, 1, 1, 2)
    state = play(undo(state, at_ms=10), 3)
    assert total(state) == 125

    state = undo(state, at_ms=20)

    assert total(state) == 50


def twenty_twenty_nineteen_eighteen(fifth: str, rest: str = "") -> AttackState:
    """Columns `TH QS`, `9C KD`, `8S TC`, `7D QH` (20, 19, 18, 17), `fifth` current."""
    return play(game(f"TH QS 9C KD 8S TC 7D QH {fifth} {rest}"), 1, 1, 2, 2, 3, 3, 4, 4)


def test_a_card_that_fits_nowhere_may_bust_any_column() -> None:
    state = twenty_twenty_nineteen_eighteen("5H")
    assert [column["total"] for column in board(state)["columns"]] == [20, 19, 18, 17]
    need = needs(state)
    assert need is not None
    assert need.must_bust
    assert need.columns == (1, 2, 3, 4)

    state = play(state, 2)

    assert total(state) == 0
    assert state.play.columns[1] == ()
    assert state.play.gone == cards("9C KD 5H")
    assert state.play.tally.busts == 1
    assert not state.play.streak


def test_a_bust_that_stands_loses_the_no_bust_bonus() -> None:
    state = play(twenty_twenty_nineteen_eighteen("5H"), 2)

    state = play_out(state, last_at_ms=100_000)

    assert state.ended is EndReason.DECK_PLAYED_OUT
    assert score(state).no_bust_bonus == 0
    assert score(state).time_bonus == 666


def test_with_a_four_only_column_four_is_legal() -> None:
    state = twenty_twenty_nineteen_eighteen("4C")
    need = needs(state)
    assert need is not None
    assert (need.columns, need.must_bust) == ((4,), False)

    with pytest.raises(MoveNotAllowedError):
        play(state, 1)
    state = play(state, 4)

    assert total(state) == 50


@pytest.mark.parametrize(
    ("last_card_at_ms", "bonus"), [(120_000, 600), (200_400, 330), (299_500, 0), (0, 1000)]
)
def test_time_bonus(last_card_at_ms: int, bonus: int) -> None:
    assert time_bonus(last_card_at_ms) == bonus


def test_a_played_out_deck_earns_its_time_bonus() -> None:
    state = play_out(game(""), last_at_ms=120_000)

    result = score(state)
    assert result.time_bonus == 600
    assert result.no_bust_bonus is not None
    assert result.total == result.points + result.no_bust_bonus + 600


def test_the_seeds_first_example_scores_1525() -> None:
    tally = Tally(catch_21=12, black_jack_attack=2, five_card_charlie=1, streak_plays=3, busts=1)

    assert points(tally) + no_bust_bonus(tally.busts) + time_bonus(120_000) == 1525


def test_the_seeds_second_example_scores_1450_by_the_formula() -> None:
    tally = Tally(catch_21=10, black_jack_attack=2, five_card_charlie=2, streak_plays=0, busts=0)

    assert points(tally) + no_bust_bonus(tally.busts) + time_bonus(150_000) == 1450


def test_a_played_out_game_has_exactly_two_black_jack_attacks() -> None:
    state = play_out(game(""), last_at_ms=200_000)

    assert score(state).black_jack_attack == 2


# A deck on which placing each card on its first legal column, one a second, makes 650 points
# with the 43rd card.
DECK_650 = (
    "5S 4D 4C 5H QS 6H QH 5C 9D JC AC KC 3H 2S 5D 9C 4H 2D 6S 2C TH 8C 2H 6D 7H 6C 4S 9S KS AS 3D AD "
    "7C TD JS QD JH KH TC 3C QC TS JD 9H 7S 7D KD 8S 3S 8H AH 8D"
)


def test_at_zero_with_nine_cards_left_the_score_is_the_points_so_far() -> None:
    state = game(DECK_650)
    for second in range(43):
        need = needs(state)
        assert need is not None
        state = place(state, column=need.columns[0], at_ms=second * 1000)
    assert (state.cards_left, total(state)) == (9, 650)

    ended = advance_clock(state, now_ms=300_000)

    assert ended.ended is EndReason.TIME_UP
    assert needs(ended) is None
    assert score(ended).total == 650
    assert (score(ended).no_bust_bonus, score(ended).time_bonus) == (0, 0)


@pytest.mark.parametrize("at_ms", [300_200, 300_000])
def test_a_place_at_or_after_300_seconds_is_refused_time_up(at_ms: int) -> None:
    state = play(game(""), 1, 2, 3)

    with pytest.raises(TimeUpError) as refused:
        place(state, column=1, at_ms=at_ms)

    assert refused.value.code == "time_up"
    assert state.seq == 3


def test_the_last_card_at_299_999_counts_with_a_time_bonus_of_0() -> None:
    state = play_out(game(""), last_at_ms=299_999)

    assert state.ended is EndReason.DECK_PLAYED_OUT
    assert score(state).time_bonus == 0


def test_no_undo_after_the_end_so_the_last_placement_stands() -> None:
    state = play_out(game(""), last_at_ms=100_000)

    with pytest.raises(GameOverError) as refused:
        undo(state, at_ms=100_001)

    assert refused.value.code == "game_over"


def test_the_card_an_undone_placement_turned_up_stays_known() -> None:
    state = play(game("9H 7C"), 1)
    assert board(state)["current"] == "7C"

    state = undo(state, at_ms=5)

    assert (board(state)["current"], board(state)["next"]) == ("9H", "7C")
    state = play(state, 2)
    assert (board(state)["current"], board(state)["next"]) == ("7C", None)


def test_an_undone_bust_does_not_count() -> None:
    state = play(twenty_twenty_nineteen_eighteen("5H"), 2)
    state = undo(state, at_ms=state.last_at_ms)
    assert state.play.tally.busts == 0
    assert board(state)["busts"] == 0

    state = play(state, 3)

    assert state.play.tally.busts == 1


# Each group fills column 1 to exactly 21 (the last two with a Black Jack), so placing every card on
# its first legal column never busts.
NO_BUST_DECK = (
    "AS TS AH TH AD TD AC TC 9S 2S QS 9H 2H QH 9D 2D QD 9C 2C QC 8S 3S KS 8H 3H KH 8D 3D KD 8C 3C KC "
    "7S 4S JH 7H 4H JD 5S 5H 5D 6S 6H 6D 4D 5C 7D 7C 4C JS 6C JC"
)


def test_a_deck_played_out_with_no_bust_standing_earns_the_no_bust_bonus() -> None:
    state = play_out(game(NO_BUST_DECK), last_at_ms=150_000)

    assert score(state).to_dict() == {
        "catch_21": 16,
        "black_jack_attack": 2,
        "five_card_charlie": 0,
        "streak_plays": 0,
        "points": 950,
        "no_bust_bonus": 100,
        "time_bonus": 500,
        "total": 1550,
    }
