"""Make 21's rules one function at a time (RULES.md §3.3)."""

import pytest

from casino.engine.cards import ALL_CARDS, Rank, Suit
from make21.engine.rules import (
    AutomaticMove,
    InvalidGameSettingsError,
    Outcome,
    Pile,
    SetKind,
    SetLock,
    ace_values,
    automatic_move,
    busts,
    can_double,
    can_extend,
    check_games,
    check_players,
    check_turn_limit_ms,
    deal,
    dealer_of,
    double_makes_21,
    double_outcome,
    draw_up,
    extend_outcome,
    first_player,
    game_over,
    hard_total,
    is_flush,
    is_rank_set,
    is_run,
    is_seven,
    judge,
    keeps_lock,
    legal_double,
    legal_extend,
    legal_play,
    makes_21,
    next_player,
    play_outcome,
    previous_player,
    purity_set,
    readings,
    shown_total,
    taker,
)
from tests.make21.helpers import cards

FLUSH_S = SetLock(SetKind.FLUSH, suit=Suit.SPADES)
RANK_K = SetLock(SetKind.RANK, rank=Rank.KING)
RUN = SetLock(SetKind.RUN)


def locked(text: str) -> Pile:
    pile = cards(text)
    return Pile(pile, purity_set(pile))


# --- settings --------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 6, 0, "3", 2.0, True, None])
def test_a_table_seats_two_to_five(players: object) -> None:
    with pytest.raises(InvalidGameSettingsError) as error:
        check_players(players)
    assert (error.value.code, error.value.field) == ("invalid_game_settings", "players")


def test_settings_in_range_are_kept() -> None:
    assert [check_players(n) for n in (2, 5)] == [2, 5]
    assert [check_games(n) for n in (1, 20)] == [1, 20]
    assert [check_turn_limit_ms(ms) for ms in (5_000, 600_000)] == [5_000, 600_000]


@pytest.mark.parametrize(
    ("check", "value"),
    [(check_games, 0), (check_games, 21), (check_turn_limit_ms, 4_999), (check_turn_limit_ms, 600_001)],
)
def test_games_and_turn_limits_out_of_range_are_refused(check: object, value: int) -> None:
    with pytest.raises(InvalidGameSettingsError):
        check(value)  # type: ignore[operator]


# --- card values and readings ----------------------------------------------------------------


def test_only_sevens_are_sevens() -> None:
    assert [str(card) for card in ALL_CARDS if is_seven(card)] == ["7S", "7H", "7D", "7C"]


@pytest.mark.parametrize(
    ("pile", "hard", "reads", "shown"),
    [
        ("", 0, {0}, 0),
        ("AS", 1, {1, 11}, 11),
        ("KS QH 9D", 29, {29}, 29),
        ("AS 5H", 6, {6, 16}, 16),
        ("AS AH", 2, {2, 11, 12, 20, 21, 22}, 21),  # `A A` is 21: one Ace 10, the other 11
        ("AS AH AD", 3, {3, 13, 23, 33}, 13),  # three Aces: no 10
        ("AS KS QS", 21, {21, 31}, 21),
        ("AS KS QS 9S", 30, {30, 40}, 30),  # every reading over 21: the all-Aces-1 total
        ("TC 8D", 18, {18}, 18),
    ],
)
def test_totals_readings_and_the_shown_total(pile: str, hard: int, reads: set[int], shown: int) -> None:
    assert hard_total(cards(pile)) == hard
    assert readings(cards(pile)) == reads
    assert shown_total(cards(pile)) == shown


def test_an_ace_reads_ten_only_in_a_pile_of_exactly_two_aces() -> None:
    assert ace_values(cards("AS AH")) == (1, 10, 11)
    assert ace_values(cards("AS")) == (1, 11)
    assert ace_values(cards("AS 9H")) == (1, 11)
    assert ace_values(cards("AS AH AD")) == (1, 11)


@pytest.mark.parametrize(
    ("pile", "bust", "twenty_one"),
    [
        ("KS QH", False, False),
        ("KS QH 2D", True, False),
        ("KS QH AD", False, True),  # the Ace as 1
        ("AS 5H 5D", False, True),  # the Ace as 11
        ("AS AH", False, True),
        ("AS AH 9D", False, True),  # 1 + 11 + 9
        ("KS QH AD AC", True, False),  # 22 with every Ace 1
        ("KD QD 9D", True, False),  # a flush over 21 still reads over 21; `play_outcome` saves it
    ],
)
def test_a_pile_busts_only_over_21_with_every_ace_1_and_makes_21_if_any_reading_is_21(
    pile: str, bust: bool, twenty_one: bool
) -> None:
    assert busts(cards(pile)) is bust
    assert makes_21(cards(pile)) is twenty_one


# --- purity sets -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pile", "flush", "rank", "run"),
    [
        ("5S 9S 4S", True, False, False),
        ("5S 9H 4S", False, False, False),
        ("KS KH KD", False, True, False),
        ("4C 5C 6C", True, False, True),
        ("AS 2H 3D", False, False, True),  # Ace low
        ("JS QH KD AC", False, False, True),  # Ace high
        ("QH KS AD", False, False, True),
        ("KS AH 2D", False, False, False),  # no wrap
        ("4C 6D 9H", False, False, False),
        ("5S 5H 6D", False, False, False),  # a repeat
        ("9S TH JD 8C QS", False, False, True),  # in any order
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS", True, False, True),
    ],
)
def test_flushes_rank_sets_and_runs(pile: str, flush: bool, rank: bool, run: bool) -> None:
    assert (is_flush(cards(pile)), is_rank_set(cards(pile)), is_run(cards(pile))) == (flush, rank, run)


@pytest.mark.parametrize(
    ("pile", "lock"),
    [
        ("5S 9S 4S", FLUSH_S),
        ("KS KH KD", RANK_K),
        ("AS 2H 3D", RUN),
        ("4S 5S 6S", FLUSH_S),  # a flush that is also a run locks as a flush
        ("5S 9S", None),  # 3 cards or more
        ("KS KH", None),
        ("5S 9H 4S", None),
        ("", None),
    ],
)
def test_a_purity_set_is_the_whole_pile_of_three_or_more_and_a_flush_beats_a_run(
    pile: str, lock: SetLock | None
) -> None:
    assert purity_set(cards(pile)) == lock


@pytest.mark.parametrize(
    ("lock", "pile", "kept"),
    [
        (FLUSH_S, "5S 9S 4S 2S", True),
        (FLUSH_S, "5S 9S 4S 3H", False),
        (FLUSH_S, "4S 5S 6S KS", True),  # the run may break
        (FLUSH_S, "4S 5S 6S 7S", True),  # a 7 as such a card
        (RANK_K, "KS KH KD KC", True),
        (RANK_K, "KS KH KD QC", False),
        (RUN, "9S TH JD 8C", True),  # at the low end
        (RUN, "9S TH JD QC", True),  # at the high end
        (RUN, "9S TH JD 8C QH", True),  # both ends, two cards
        (RUN, "AS 2H 3D 4C 5S", True),  # two cards at one end
        (RUN, "QS KH AD 2C", False),  # no wrap
        (RUN, "9S TH JD KC", False),  # a gap
        (RUN, "8S 9H TD 7C", True),  # a 7 extends a run that starts at an 8
    ],
)
def test_an_extended_pile_must_keep_its_lock(lock: SetLock, pile: str, kept: bool) -> None:
    assert keeps_lock(lock, cards(pile)) is kept


# --- which moves are legal -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pile", "played", "legal"),
    [
        ("KS 9H", "5C", True),  # one card is always legal, a bust too
        ("", "7S", True),
        ("KS 5H", "4C 2D", True),  # a Hit 21
        ("KS 5H", "4C 9D", False),
        ("4C 5C", "6C 7C", True),  # a flush with a 7
        ("", "AS AH", True),  # `A A`
        ("", "5S 9S", False),  # two cards alone are no purity set
        ("KS KH", "KD KC", True),  # a rank set, 40
        ("QC 6H", "QS QD", False),
        ("KS 6H", "2C 3D", True),  # 21: the first card alone does not matter
        ("KS 9H", "2C 5D", False),  # 21 after the first card only: judged on the pile with both
    ],
)
def test_two_cards_go_on_one_pile_only_to_make_a_set(pile: str, played: str, legal: bool) -> None:
    assert legal_play(cards(pile), cards(played)) is legal


@pytest.mark.parametrize(
    ("first", "second", "bridge", "legal"),
    [
        ("KS 5H", "9C 6D", "6S", True),
        ("KS 5H", "AC 4D", "6S", True),
        ("KS 5H", "9C 6D", "2S 4D", True),
        ("KS 5H", "9C 6D", "AH 5S", True),  # the bridge Ace 1 on both
        ("KS QS", "TC", "AH", False),  # the bridge Ace would be 1 on P1 and 11 on P2
        ("AS", "TD", "AH", True),  # `A A` on P1 (its own Ace 10), the bridge Ace 11 on both
        ("AS", "AD", "AH", True),  # two pairs of Aces, the bridge Ace 10 on both
        ("AS", "9C", "AH", False),
        ("KS 5H", "9C 5D", "6S", False),  # 14 + 6 is 20
        ("AS 4D", "KS 5H", "6C", True),  # 5 or 15 and 15: both reach 21
    ],
)
def test_a_double_makes_both_piles_21_with_a_bridge_ace_read_the_same(
    first: str, second: str, bridge: str, legal: bool
) -> None:
    assert double_makes_21(cards(first), cards(second), cards(bridge)) is legal


def test_a_double_needs_both_piles_with_cards_and_neither_in_set_mode() -> None:
    assert legal_double((Pile(cards("KS 5H")), Pile(cards("9C 6D"))), cards("6S"))
    assert not legal_double((Pile(), Pile(cards("KS 5H"))), cards("6S"))  # `6S` alone would not do
    assert not legal_double((Pile(), Pile(cards("KS 5H"))), cards("4S 2D"))  # nor `4S 2D`
    assert double_makes_21(cards("5S 9S 2S"), cards("TC 6D"), cards("5H"))
    assert not legal_double((locked("5S 9S 2S"), Pile(cards("TC 6D"))), cards("5H"))


def test_an_extension_needs_a_set_mode_pile() -> None:
    assert legal_extend(locked("5S 9S 4S"), cards("2S"))
    assert not legal_extend(locked("5S 9S 4S"), cards("2H"))
    assert not legal_extend(Pile(cards("5S 9S")), cards("2S"))


def test_the_moves_a_hand_can_make() -> None:
    piles = (Pile(cards("KS 5H")), Pile(cards("9C 6D")))
    assert can_double(cards("6S 2H"), piles)
    assert can_double(cards("2S 4H"), piles)  # both cards as the bridge
    assert not can_double(cards("5S 2H"), piles)
    assert can_extend(cards("7S 9D"), locked("5S 9S 4S"))
    assert can_extend(cards("3C 8H"), locked("4D 5H 6C"))  # a run needs its 3 or 7
    assert not can_extend(cards("7H 9D"), locked("5S 9S 4S"))


# --- what a move does ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pile", "played", "outcome"),
    [
        ("9C 4H", "7S", Outcome.SEVEN),
        ("KS 4H", "7S", Outcome.SEVEN),  # a 7 that makes 21 is still a 7
        ("KS QH", "7S", Outcome.SEVEN),  # a 7 that busts too
        ("4C 5C", "6C 7C", Outcome.SEVEN),  # a 7 that completes a flush too
        ("KS 5H", "6D", Outcome.HIT_21),
        ("QH KS", "AD", Outcome.HIT_21),  # a run, but 21 first
        ("5S 9S", "4S", Outcome.SET_MODE),
        ("KD QD", "9D", Outcome.SET_MODE),  # a set beats a bust
        ("KD QD", "9C", Outcome.BUST),
        ("KS 5H", "3D", Outcome.STAYS),
        ("", "KS", Outcome.STAYS),
    ],
)
def test_the_outcome_of_a_play_is_the_first_that_applies(pile: str, played: str, outcome: Outcome) -> None:
    assert play_outcome(cards(pile), cards(played)) is outcome


def test_the_outcome_of_a_double_and_of_an_extension() -> None:
    assert double_outcome(cards("6S")) is Outcome.DOUBLE_21
    assert double_outcome(cards("7S")) is Outcome.SEVEN
    assert extend_outcome(cards("5S 9S 4S"), cards("2S")) is Outcome.EXTENDED
    assert extend_outcome(cards("5S 9S 4S"), cards("3S")) is Outcome.HIT_21
    assert extend_outcome(cards("5S 9S 4S"), cards("7S")) is Outcome.SEVEN
    assert extend_outcome(cards("KS KH KD"), cards("KC")) is Outcome.EXTENDED  # 40, still set-mode


@pytest.mark.parametrize(
    ("outcome", "following", "taken_by"),
    [
        (Outcome.SEVEN, 2, 3),
        (Outcome.HIT_21, 2, 2),
        (Outcome.DOUBLE_21, 2, 2),
        (Outcome.HIT_21, None, None),  # nobody has cards: the pile stays, to be discarded
        (Outcome.BUST, 2, 1),
        (Outcome.TAKE, 2, 1),
        (Outcome.SET_MODE, 2, None),
        (Outcome.EXTENDED, 2, None),
        (Outcome.STAYS, 2, None),
    ],
)
def test_who_takes_the_piles_a_move_touched(
    outcome: Outcome, following: int | None, taken_by: int | None
) -> None:
    assert taker(outcome, mover=1, previous=3, following=following) == taken_by


# --- seats, the deal, the turn order ---------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "dealers"),
    [(2, [2, 1, 2, 1]), (3, [3, 1, 2, 3]), (5, [5, 1, 2, 3, 4, 5])],
)
def test_game_1_is_dealt_by_seat_n_then_the_button_moves_clockwise(players: int, dealers: list[int]) -> None:
    assert [dealer_of(game_no, players) for game_no in range(1, len(dealers) + 1)] == dealers


def test_the_dealers_left_plays_first() -> None:
    assert [first_player(dealer, 3) for dealer in (1, 2, 3)] == [2, 3, 1]


def test_two_cards_each_one_at_a_time_from_the_dealers_left() -> None:
    deck = ALL_CARDS
    hands, draw_pile = deal(deck, dealer=1, players=3)

    assert hands == ((deck[2], deck[5]), (deck[0], deck[3]), (deck[1], deck[4]))
    assert draw_pile == deck[6:]


@pytest.mark.parametrize(
    ("hand", "draw", "after", "left"),
    [
        ("", "2S 3S 4S", "2S 3S", "4S"),
        ("KD", "2S 3S", "KD 2S", "3S"),
        ("KD QD", "2S", "KD QD", "2S"),
        ("", "2S", "2S", ""),
        ("KD", "", "KD", ""),
    ],
)
def test_a_player_draws_back_up_to_two_while_the_draw_pile_lasts(
    hand: str, draw: str, after: str, left: str
) -> None:
    assert draw_up(cards(hand), cards(draw)) == (cards(after), cards(left))


@pytest.mark.parametrize(
    ("sizes", "mover", "following"),
    [
        ([2, 2, 2], 1, 2),
        ([2, 2, 2], 3, 1),
        ([2, 0, 2], 1, 3),  # an empty hand is skipped
        ([1, 0, 0], 1, 1),  # alone with cards: the mover again
        ([0, 0, 1], 1, 3),
        ([0, 0, 0], 2, None),
    ],
)
def test_the_next_player_skips_empty_hands(sizes: list[int], mover: int, following: int | None) -> None:
    assert next_player(sizes, mover) == following


def test_the_previous_player_took_the_turn_before_or_dealt() -> None:
    assert previous_player(None, dealer=3) == 3
    assert previous_player(2, dealer=3) == 2


def test_a_game_ends_when_every_hand_is_empty() -> None:
    assert game_over([0, 0, 0])
    assert not game_over([0, 1, 0])


@pytest.mark.parametrize(
    ("collected", "winners", "losers"),
    [
        ({1: 20, 2: 14, 3: 14}, (2, 3), (1,)),
        ({1: 5, 2: 9, 3: 9}, (1,), (2, 3)),
        ({1: 7, 2: 7}, (1, 2), ()),  # all tie: all win, none loses
        ({1: 0, 2: 3, 3: 10, 4: 10, 5: 1}, (1,), (3, 4)),
    ],
)
def test_fewest_cards_win_most_lose_and_ties_share(
    collected: dict[int, int], winners: tuple[int, ...], losers: tuple[int, ...]
) -> None:
    assert judge(collected) == (winners, losers)


# --- the clock -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "p1", "p2", "chosen"),
    [
        ("9S 2C", "KS 5H", "", AutomaticMove("play", cards("9S")[0], "P2")),  # card 1 busts on P1
        ("9S 2C", "KS 5H", "TD 4C", AutomaticMove("play", cards("2C")[0], "P1")),  # card 1 busts on both
        ("9S 8C", "KS 5H", "TD 4C", AutomaticMove("play", cards("9S")[0], "P1")),  # all bust: card 1 on P1
        ("7S 2C", "KS QH", "", AutomaticMove("play", cards("7S")[0], "P1")),  # a 7 is no bust
        ("6D 2C", "KS 5H", "", AutomaticMove("play", cards("6D")[0], "P1")),  # a Hit 21 is no bust
        ("9D", "KS 5H", "KD QD", AutomaticMove("play", cards("9D")[0], "P2")),  # a flush is no bust
        ("9S", "KS 5H", "TD 4C", AutomaticMove("play", cards("9S")[0], "P1")),  # one card left
    ],
)
def test_at_the_deadline_the_server_plays_the_first_card_and_pile_that_does_not_bust(
    hand: str, p1: str, p2: str, chosen: AutomaticMove
) -> None:
    assert automatic_move(cards(hand), (Pile(cards(p1)), Pile(cards(p2)))) == chosen


def test_at_the_deadline_a_player_facing_a_set_takes_it() -> None:
    assert automatic_move(cards("2S 3S"), (Pile(), locked("5S 9S 4S"))) == AutomaticMove("take")
