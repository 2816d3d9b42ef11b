"""Blackjack Attack's rules one by one, the refusals and their order (RULES.md §3, §3.1)."""

import pytest

from attack.engine.game import (
    InvalidDeckError,
    MoveOutOfOrderError,
    NotYourTurnError,
    Place,
    Undo,
    advance_clock,
    apply_move,
    new_game,
    place,
    replay,
    undo,
)
from attack.engine.rules import (
    black_jack_attack,
    fits,
    hard_total,
    is_black_jack,
    legal_columns,
    must_bust,
    placement_outcome,
    reads_21,
    seconds_left,
    shown_total,
    streak_bonus,
)
from attack.engine.view import board, describe, needs, score
from casino.engine.cards import ALL_CARDS
from casino.engine.errors import RuleError
from tests.attack.helpers import cards, deck_with, game, play, play_out


def test_the_black_jacks_are_the_jacks_of_spades_and_clubs() -> None:
    assert [str(card) for card in ALL_CARDS if is_black_jack(card)] == ["JS", "JC"]


@pytest.mark.parametrize(
    ("column", "hard", "shown"),
    [("", 0, 0), ("AS", 1, 11), ("AS AH", 2, 12), ("AS KD", 11, 21), ("AS 9D 5C", 15, 15), ("KS QH", 20, 20)],
)
def test_hard_and_shown_totals(column: str, hard: int, shown: int) -> None:
    assert (hard_total(cards(column)), shown_total(cards(column))) == (hard, shown)


@pytest.mark.parametrize(
    ("column", "reads"), [("AS TD", True), ("9S 2D KC", True), ("AS 9D", False), ("", False)]
)
def test_a_column_reads_21_hard_or_with_one_ace_as_eleven(column: str, reads: bool) -> None:
    assert reads_21(cards(column)) is reads


def test_a_card_fits_while_the_hard_total_stays_at_21_or_less() -> None:
    assert fits(cards("KS QD"), cards("AH")[0])
    assert not fits(cards("KS QD"), cards("2H")[0])


def test_a_black_jack_may_go_on_any_column_and_never_has_to_bust() -> None:
    columns = (cards("KS QD"), cards("KH QH"), cards("TS TD"), cards("KC QC"))
    jack = cards("JC")[0]

    assert legal_columns(columns, jack) == (1, 2, 3, 4)
    assert not must_bust(columns, jack)
    assert black_jack_attack(jack)


def test_a_soft_21_clears_at_once() -> None:
    outcome = placement_outcome(cards("9S AD"), cards("AH")[0])

    assert (outcome.catch_21, outcome.clears, outcome.name) == (True, True, "catch_21")


def test_a_card_that_stays_names_its_outcome() -> None:
    assert placement_outcome(cards("9S"), cards("5D")[0]).name == "stays"
    assert placement_outcome(cards("9S KD"), cards("5D")[0]).name == "bust"
    assert placement_outcome(cards("2H 3D 2C 4S"), cards("JS")[0]).name == (
        "catch_21+five_card_charlie+black_jack_attack"
    )


def test_the_first_score_of_a_run_earns_no_streak_bonus() -> None:
    catch = placement_outcome(cards("KS"), cards("AD")[0])
    stays = placement_outcome(cards("KS"), cards("2D")[0])

    assert not streak_bonus(after_a_score=False, outcome=catch)
    assert streak_bonus(after_a_score=True, outcome=catch)
    assert not streak_bonus(after_a_score=True, outcome=stays)


def test_a_card_that_stays_breaks_the_streak() -> None:
    state = play(game("KH AS 2D QC AC"), 1, 1, 2, 3, 3)

    assert state.play.tally.streak_plays == 0
    assert state.play.tally.catch_21 == 2


@pytest.mark.parametrize(("at_ms", "left"), [(0, 300), (999, 299), (1_000, 299), (299_999, 0), (300_000, 0)])
def test_seconds_left_are_whole_seconds(at_ms: int, left: int) -> None:
    assert seconds_left(at_ms) == left


def test_a_new_game_shows_the_top_card_and_52_left() -> None:
    state = game("7D")

    shown = describe(state)
    assert (shown["state"], shown["ended"], shown["seq"]) == ("playing", None, 0)
    assert shown["needs"] == {"seat": 1, "moves": ["place"], "columns": [1, 2, 3, 4], "must_bust": False}
    assert shown["board"] == board(state)
    assert (board(state)["current"], board(state)["next"], board(state)["cards_left"]) == ("7D", None, 52)
    assert shown["score"] == score(state).to_dict()
    assert score(state).total == 0


def test_a_deck_is_52_distinct_cards() -> None:
    with pytest.raises(InvalidDeckError):
        new_game(ALL_CARDS[:51])
    with pytest.raises(InvalidDeckError):
        new_game((*ALL_CARDS[:51], ALL_CARDS[0]))


def test_undo_before_any_placement_is_refused() -> None:
    with pytest.raises(RuleError) as refused:
        undo(game(""), at_ms=0)

    assert refused.value.code == "move_not_allowed"


@pytest.mark.parametrize("column", [0, 5, True, "1"])
def test_a_column_that_does_not_exist_is_refused(column: object) -> None:
    state = game("")

    with pytest.raises(RuleError) as refused:
        place(state, column=column, at_ms=0)  # type: ignore[arg-type]

    assert refused.value.code == "move_not_allowed"
    assert state.seq == 0


def test_the_clock_runs_on_through_an_undo() -> None:
    state = play(game(""), 1, at_ms=299_000)
    state = undo(state, at_ms=299_500)

    assert advance_clock(state, now_ms=299_999) == state
    assert advance_clock(state, now_ms=300_000).finished


def test_refusals_come_in_the_rules_order() -> None:
    played_out = play_out(game(""), last_at_ms=1_000)
    timed_out = advance_clock(game(""), now_ms=300_000)
    playing = play(game(""), 1)

    # game over before the clock, the clock before the seat, the seat before the move itself
    with pytest.raises(RuleError) as over:
        apply_move(played_out, Undo(400_000, seat=2))
    with pytest.raises(RuleError) as timed:
        apply_move(timed_out, Place(7, 100, seat=2))
    with pytest.raises(RuleError) as late:
        apply_move(playing, Place(7, 300_000, seat=2))
    with pytest.raises(NotYourTurnError) as seat:
        apply_move(playing, Place(7, 100, seat=2))

    assert [over.value.code, timed.value.code, late.value.code, seat.value.code] == [
        "game_over",
        "time_up",
        "time_up",
        "not_your_turn",
    ]


def test_a_move_received_before_the_previous_one_is_refused() -> None:
    state = play(game(""), 1, at_ms=5_000)

    with pytest.raises(MoveOutOfOrderError):
        place(state, column=1, at_ms=4_999)


def test_a_refused_move_in_a_log_makes_the_log_unreadable() -> None:
    with pytest.raises(RuleError):
        replay(deck_with(""), [Undo(0)], now_ms=0)


def test_needs_is_none_once_the_game_is_over() -> None:
    assert needs(play_out(game(""), last_at_ms=0)) is None
    assert needs(advance_clock(game(""), now_ms=300_000)) is None
