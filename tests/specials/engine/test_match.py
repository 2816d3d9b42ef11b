"""RULES.md §2, the match: start balances, special cards, points ledger, thresholds and the end."""

import random

import pytest

from specials.engine.match import (
    LedgerEntry,
    LedgerReason,
    MatchState,
    Player,
    PlayerRequest,
    SeatOutcome,
    Thresholds,
    balance_from_ledger,
    describe_match,
    match_result,
    open_match,
    replay_match,
    round_entries,
    settle_round,
)
from specials.engine.round import Result, SeatEntry, open_round
from specials.engine.special_cards import SpecialCard, SpecialDeck
from tests.specials.engine.helpers import (
    NO_SHUFFLE,
    act,
    deal,
    match_of,
    refused,
    round_of,
    settled,
    stand_all,
)

# Two seats, no Aces: seat 1 holds 19, seat 2 holds 18, the dealer 17 (stands).
BOTH_BEAT_17 = "TC TD 9S 9C 8H 8D"
# seat 1 holds 19, seat 2 holds 16; the dealer 18 (stands): seat 1 wins, seat 2 loses.
ONE_WINS_ONE_LOSES = "TC TD 9S 9C 6H 9D"
# seat 1 holds 17, seat 2 holds 17, the dealer 17: both draw.
BOTH_DRAW = "TC TD 9S 7C 7H 8D"


def test_a_match_starts_each_player_with_5_points_by_default_and_10_wins_0_loses() -> None:
    assert Thresholds() == Thresholds(start_points=5, win_points=10, lose_points=0)
    match = match_of("SWAP", "PLUS_ONE")
    assert [p.points for p in match.players] == [5, 5]
    assert not match.finished


def test_the_start_balance_is_written_to_the_points_ledger() -> None:
    match = match_of("SWAP", "PLUS_ONE", start=3, win=7, lose=1)
    assert match.ledger == (
        LedgerEntry(1, None, 3, 3, LedgerReason.START),
        LedgerEntry(2, None, 3, 3, LedgerReason.START),
    )


@pytest.mark.parametrize(
    ("start", "win", "lose"),
    [(5, 10, 5), (10, 10, 0), (0, 10, 0), (11, 10, 0), (5, 4, 6), ("5", 10, 0), (5.0, 10, 0), (True, 10, 0)],
)
def test_thresholds_out_of_order_or_not_whole_numbers_are_refused_with_invalid_points(
    start: object, win: object, lose: object
) -> None:
    error = refused(lambda: Thresholds(start_points=start, win_points=win, lose_points=lose))  # type: ignore[arg-type]
    assert error.code == "invalid_points"


def test_thresholds_are_configurable() -> None:
    match = match_of("SWAP", start=2, win=3, lose=-4)
    assert match.players[0].points == 2
    won = settle_round(match, round_of(match, "TC 9S 9C 8D"))  # 19 against 17
    assert won.match.winners == (1,)


def test_each_player_receives_one_special_card_dealt_from_the_special_deck() -> None:
    players = [PlayerRequest(seat) for seat in (1, 2, 3)]
    match = open_match(
        players=players, thresholds=Thresholds(), deck=SpecialDeck(swap=0, plus_one=3), rng=NO_SHUFFLE
    )
    assert [(p.seat, p.special, p.special_used) for p in match.players] == [
        (1, SpecialCard.PLUS_ONE, False),
        (2, SpecialCard.PLUS_ONE, False),
        (3, SpecialCard.PLUS_ONE, False),
    ]


def test_a_special_card_named_by_the_terminal_is_kept() -> None:
    players = [PlayerRequest(2, SpecialCard.SWAP), PlayerRequest(1)]
    match = open_match(
        players=players, thresholds=Thresholds(), deck=SpecialDeck(swap=0, plus_one=1), rng=NO_SHUFFLE
    )
    assert [(p.seat, p.special) for p in match.players] == [(1, SpecialCard.PLUS_ONE), (2, SpecialCard.SWAP)]


def test_the_random_source_decides_which_special_card_each_player_draws() -> None:
    drawn = {
        open_match(
            players=[PlayerRequest(1)], thresholds=Thresholds(), deck=SpecialDeck(), rng=random.Random(seed)
        )
        .players[0]
        .special
        for seed in range(40)
    }
    assert drawn == {SpecialCard.SWAP, SpecialCard.PLUS_ONE}


@pytest.mark.parametrize(
    ("seats", "code"),
    [([], "seats_required"), ([0], "invalid_seat"), ([8], "invalid_seat"), ([1, 1], "duplicate_seat")],
)
def test_a_match_needs_one_to_seven_players_on_distinct_seats_1_to_7(seats: list[int], code: str) -> None:
    error = refused(
        lambda: open_match(
            players=[PlayerRequest(s) for s in seats],
            thresholds=Thresholds(),
            deck=SpecialDeck(),
            rng=NO_SHUFFLE,
        )
    )
    assert error.code == code


def test_a_win_adds_a_point_and_a_loss_takes_one_through_ledger_entries() -> None:
    match = match_of("SWAP", "SWAP")
    result = settled(match, ONE_WINS_ONE_LOSES)
    assert result.round == 1
    assert result.outcome == (SeatOutcome(1, Result.WIN, 1, 6), SeatOutcome(2, Result.LOSE, -1, 4))
    assert result.entries == (
        LedgerEntry(1, 1, 1, 6, LedgerReason.WIN),
        LedgerEntry(2, 1, -1, 4, LedgerReason.LOSE),
    )
    assert result.match.ledger == (*match.ledger, *result.entries)
    assert [p.points for p in result.match.players] == [6, 4]
    assert result.match.rounds_played == 1


def test_a_draw_changes_no_balance_and_writes_no_ledger_entry() -> None:
    match = match_of("SWAP", "SWAP")
    result = settled(match, BOTH_DRAW)
    assert [o.result for o in result.outcome] == [Result.DRAW, Result.DRAW]
    assert result.entries == ()
    assert result.match.ledger == match.ledger
    assert [p.points for p in result.match.players] == [5, 5]


def test_the_ledger_entries_sum_to_each_balance() -> None:
    match = match_of("SWAP", "SWAP")
    for deal_text in (ONE_WINS_ONE_LOSES, BOTH_BEAT_17, BOTH_DRAW, ONE_WINS_ONE_LOSES):
        match = settled(match, deal_text).match
    assert [p.points for p in match.players] == [8, 4]
    assert [balance_from_ledger(match.ledger, p.seat) for p in match.players] == [8, 4]


def test_the_match_ends_as_soon_as_a_player_reaches_the_win_points() -> None:
    match = settled(match_of("SWAP", "SWAP", start=9), ONE_WINS_ONE_LOSES).match
    assert match.finished
    assert (match.winners, match.eliminated) == ((1,), ())
    assert refused(lambda: round_entries(match)).code == "match_finished"


def test_the_whole_match_ends_as_soon_as_a_player_reaches_the_lose_points() -> None:
    match = settled(match_of("SWAP", "SWAP", start=1, win=5), ONE_WINS_ONE_LOSES).match
    assert match.finished
    assert (match.winners, match.eliminated) == ((), (2,))
    assert [p.points for p in match.players] == [2, 0]


def test_several_players_reaching_the_win_points_in_one_round_are_all_winners() -> None:
    match = settled(match_of("SWAP", "PLUS_ONE", start=9), BOTH_BEAT_17).match
    assert (match.winners, match.eliminated) == ((1, 2), ())


def test_winners_and_eliminated_can_come_from_the_same_round() -> None:
    match = settled(match_of("SWAP", "PLUS_ONE", start=1, win=2), ONE_WINS_ONE_LOSES).match
    assert (match.winners, match.eliminated) == ((1,), (2,))
    assert describe_match(match)["state"] == "finished"


def test_match_result_lists_every_seat_at_or_beyond_a_threshold() -> None:
    match = match_of("SWAP", "SWAP", "SWAP")
    players = [
        Player(p.seat, p.special, p.special_used, points)
        for p, points in zip(match.players, (10, 0, 11), strict=True)
    ]
    assert match_result(players, match.thresholds) == ((1, 3), (2,))


def test_a_special_card_is_used_once_per_match_not_once_per_round() -> None:
    # given seat 1 uses its PLUS_ONE in round 1
    match = match_of("PLUS_ONE")
    state = act(deal(open_round(seats=round_entries(match)), "TC 9S 5C 8D"), 1, "use_special")
    state = stand_all(state)
    result = settle_round(match, state)
    assert result.match.players[0].special_used
    # then in round 2 the plus one is gone and the special card cannot be used again
    entries = round_entries(result.match)
    assert entries == (SeatEntry(1, SpecialCard.PLUS_ONE, True),)
    round_2 = deal(open_round(seats=entries), "TC 9S 5C 8D")
    assert not round_2.seats[0].plus_one
    assert round_2.seats[0].total == 15
    assert refused(lambda: act(round_2, 1, "use_special")).code == "special_already_used"


def test_a_special_card_not_used_stays_available_in_the_next_round() -> None:
    match = settled(match_of("SWAP"), "TC 9S 9C 8D").match
    assert round_entries(match) == (SeatEntry(1, SpecialCard.SWAP, False),)


def test_a_round_is_applied_only_to_its_own_match() -> None:
    match = match_of("SWAP", "SWAP")
    other = match_of("SWAP")
    assert refused(lambda: settle_round(match, round_of(other, "TC 9S 9C 8D"))).code == "round_not_of_match"


def test_replaying_the_finished_rounds_rebuilds_the_match() -> None:
    opened = match_of("SWAP", "PLUS_ONE")
    match = opened
    rounds = []
    for deal_text in (ONE_WINS_ONE_LOSES, BOTH_DRAW, BOTH_BEAT_17):
        state = round_of(match, deal_text)
        rounds.append(state)
        match = settle_round(match, state).match
    assert replay_match(opened=opened, rounds=rounds) == match


def test_describe_match_gives_the_apis_match_fields() -> None:
    match = settled(match_of("SWAP", "PLUS_ONE"), ONE_WINS_ONE_LOSES).match
    assert describe_match(match) == {
        "state": "playing",
        "start_points": 5,
        "win_points": 10,
        "lose_points": 0,
        "rounds_played": 1,
        "players": [
            {"seat": 1, "points": 6, "special": "SWAP", "special_used": False},
            {"seat": 2, "points": 4, "special": "PLUS_ONE", "special_used": False},
        ],
        "finished": False,
        "winners": [],
        "eliminated": [],
        "points_ledger": [
            {"seq": 1, "seat": 1, "round": None, "delta": 5, "balance": 5, "reason": "start"},
            {"seq": 2, "seat": 2, "round": None, "delta": 5, "balance": 5, "reason": "start"},
            {"seq": 3, "seat": 1, "round": 1, "delta": 1, "balance": 6, "reason": "win"},
            {"seq": 4, "seat": 2, "round": 1, "delta": -1, "balance": 4, "reason": "lose"},
        ],
    }


def test_match_state_player_lookup() -> None:
    match: MatchState = match_of("SWAP", "PLUS_ONE")
    assert match.player(2).special is SpecialCard.PLUS_ONE
    with pytest.raises(KeyError):
        match.player(3)
