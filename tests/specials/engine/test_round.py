"""RULES.md §2, bullet by bullet: the special-card round, one example test per rule."""

import pytest

from casino.engine.cards import ALL_CARDS
from specials.engine.round import (
    AceDeclared,
    Action,
    ActionNeed,
    ActionNotAllowedError,
    ActionTaken,
    CardDealt,
    CardToDealer,
    CardToSeat,
    DeclareAceNeed,
    HeldCard,
    Result,
    RoundEvent,
    RoundPhase,
    SeatHand,
    SeatStatus,
    allowed_actions,
    apply_action,
    card_event,
    dealer_must_draw,
    dealer_view,
    describe_round,
    hole_card_visible,
    needs,
    outcome_for,
    plus_one_allowed,
    points_delta,
    replay,
    results,
)
from specials.engine.special_cards import SpecialCard
from tests.specials.engine.helpers import (
    act,
    card,
    cards,
    deal,
    declare,
    opened,
    refused,
    seat,
    stand_all,
    started,
)

# --- cards ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [("2S", 2), ("5H", 5), ("9D", 9), ("TC", 10), ("JS", 10), ("QH", 10), ("KD", 10)],
)
def test_cards_two_to_ten_count_their_face_value_and_jack_queen_king_count_ten(text: str, value: int) -> None:
    # given seat 1 dealt the card, then a 2 (dealer 9 up, 9 hole)
    state = started(f"{text} 9S 2C 9H")
    # then the card counts its value in the player's total
    assert state.seats[0].cards[0] == HeldCard(card(text), value)
    assert state.seats[0].total == value + 2


# --- Aces --------------------------------------------------------------------------------------


def test_a_players_ace_waits_for_a_declaration_and_counts_nothing_until_then() -> None:
    state = started("AS")
    assert needs(state) == DeclareAceNeed(1, card("AS"))
    assert state.seats[0].cards == (HeldCard(card("AS"), None),)
    assert state.seats[0].total == 0
    assert describe_round(state)["needs"] == {"kind": "declare_ace", "seat": 1, "card": "AS"}


@pytest.mark.parametrize("value", [1, 11])
def test_a_players_ace_is_declared_1_or_11_and_the_value_stays_fixed(value: int) -> None:
    # given an Ace declared `value` and a 5
    state = deal(declare(started("AS"), 1, value), "9S 5C 9H")
    assert state.seats[0].total == value + 5
    # when the player draws a 9: the Ace keeps its value (11 + 5 + 9 = 25 busts, no soft counting)
    state = deal(act(state, 1, "hit"), "9C")
    assert state.seats[0].cards[0] == HeldCard(card("AS"), value)
    assert state.seats[0].total == value + 14
    assert state.seats[0].status is (SeatStatus.BUST if value == 11 else SeatStatus.PLAYING)


@pytest.mark.parametrize("value", [0, 2, 10, 12, -1, None, True, "11", 11.0])
def test_an_ace_declared_as_anything_but_1_or_11_is_refused_with_invalid_ace_value(value: object) -> None:
    state = started("AS")
    error = refused(lambda: declare(state, 1, value))  # type: ignore[arg-type]
    assert (error.code, error.field) == ("invalid_ace_value", "value")
    assert needs(state) == DeclareAceNeed(1, card("AS"))


def test_a_declared_ace_cannot_be_declared_again() -> None:
    state = deal(declare(started("AS"), 1, 11), "9S 5C 9H")
    error = refused(lambda: declare(state, 1, 1))
    assert error.code == "action_not_allowed"
    assert "allowed: hit, stand, use_special" in error.detail


def test_the_dealers_aces_count_soft_and_are_never_declared() -> None:
    # given the dealer shows an Ace and holds a 6: soft 17, which stands
    state = stand_all(started("TS AD 8C 6H"))
    assert state.phase is RoundPhase.FINISHED
    assert dealer_view(state).total == 17
    assert state.dealer_cards == cards("AD 6H")


@pytest.mark.parametrize(
    ("dealer", "draws"),
    [
        ("AS 6H", False),  # soft 17 stands [decided: the dealer stands on all 17s]
        ("AS 5H", True),  # soft 16
        ("AS 5H TD", True),  # the Ace drops to 1: hard 16
        ("AS AH 5D", False),  # soft 17 again
        ("TS 7H", False),
        ("TS 6H", True),
        ("9S 8H", False),
        ("TS 6H 5D", False),  # 21
        ("TS 6H 9D", False),  # bust: nothing left to draw for
    ],
)
def test_the_dealer_draws_until_the_total_counted_soft_is_at_least_17(dealer: str, draws: bool) -> None:
    assert dealer_must_draw(cards(dealer)) is draws


def test_the_dealer_draws_to_17_and_stands() -> None:
    # given seat 1 stands on 18; the dealer shows 5 with an Ace in the hole (soft 16)
    state = stand_all(started("TS 5D 8C AH"))
    assert state.phase is RoundPhase.DEALER
    # when the dealer draws a ten (hard 16) and a 2 (18)
    state = deal(state, "TD")
    assert needs(state) == CardToDealer()
    state = deal(state, "2C")
    # then the dealer stands at 18 and the round ends
    assert state.phase is RoundPhase.FINISHED
    assert needs(state) is None
    assert dealer_view(state).total == 18
    assert refused(lambda: deal(state, "3C")).code == "no_card_expected"


# --- deal order --------------------------------------------------------------------------------


def test_the_deal_goes_seat_1_upward_then_dealer_up_then_second_cards_then_the_hole_card() -> None:
    state = opened(seat(1), seat(3), seat(2))
    asked = []
    for dealt in cards("9C 8C 7C 6C 5C 4C 3C 2C"):
        asked.append(needs(state))
        state = deal(state, str(dealt))
    assert asked == [
        CardToSeat(1), CardToSeat(2), CardToSeat(3), CardToDealer(),
        CardToSeat(1), CardToSeat(2), CardToSeat(3), CardToDealer(),
    ]  # fmt: skip
    assert [hand.cards for hand in state.seats] == [
        (HeldCard(card("9C"), 9), HeldCard(card("5C"), 5)),
        (HeldCard(card("8C"), 8), HeldCard(card("4C"), 4)),
        (HeldCard(card("7C"), 7), HeldCard(card("3C"), 3)),
    ]
    assert state.dealer_cards == cards("6C 2C")
    assert needs(state) == ActionNeed(1, (Action.HIT, Action.STAND, Action.USE_SPECIAL))


def test_every_player_gets_two_cards_and_the_dealer_one_up_and_one_hidden() -> None:
    state = started("9C 7D 8C TD", seat(1))
    assert [len(hand.cards) for hand in state.seats] == [2]
    assert len(state.dealer_cards) == 2
    assert not hole_card_visible(state)
    view = dealer_view(state)
    assert (view.cards, view.total, view.bust) == (cards("7D"), 7, False)
    assert describe_round(state)["dealer"] == {"cards": ["7D"], "total": 7, "bust": False}


def test_the_hole_card_is_shown_on_the_dealers_turn() -> None:
    state = stand_all(started("9C 7D 8C 5D"))
    assert state.phase is RoundPhase.DEALER
    assert dealer_view(state).cards == cards("7D 5D")
    assert dealer_view(state).total == 12


# --- the Ace declaration pauses everything -----------------------------------------------------


def test_an_ace_in_the_deal_pauses_the_deal_until_it_is_declared() -> None:
    # given seat 1 receives an Ace as the first card of the deal
    state = started("AS", seat(1), seat(2))
    # then not even the next card of the deal is taken, nor any action
    error = refused(lambda: deal(state, "9C"))
    assert (error.code, error.field) == ("ace_value_required", "card")
    assert refused(lambda: act(state, 1, "stand")).code == "ace_value_required"
    assert refused(lambda: act(state, 2, "hit")).code == "not_your_turn"
    assert refused(lambda: declare(state, 2, 11)).code == "not_your_turn"
    # when seat 1 declares it, the deal goes on to seat 2
    state = declare(state, 1, 11)
    assert needs(state) == CardToSeat(2)
    assert state.phase is RoundPhase.DEALING


def test_an_ace_drawn_on_a_hit_pauses_the_turn_until_it_is_declared() -> None:
    state = deal(act(started("9C 7D 5C TD"), 1, "hit"), "AH")
    assert needs(state) == DeclareAceNeed(1, card("AH"))
    assert refused(lambda: act(state, 1, "hit")).code == "ace_value_required"
    state = declare(state, 1, 1)
    assert state.seats[0].total == 15
    assert needs(state) == ActionNeed(1, (Action.HIT, Action.STAND, Action.USE_SPECIAL))


def test_two_aces_declared_11_make_22_a_bust_by_the_players_choice() -> None:
    state = declare(deal(declare(started("AS"), 1, 11), "9D AH"), 1, 11)
    assert state.seats[0].total == 22
    assert state.seats[0].status is SeatStatus.BUST


def test_an_ace_declared_11_with_a_ten_is_21_which_ends_the_turn_before_it_starts() -> None:
    # given seat 2 is dealt a ten and an Ace it declares 11
    state = declare(started("9C TS 8D 9H AH", seat(1), seat(2)), 2, 11)
    state = deal(state, "7D")
    assert (state.seats[1].total, state.seats[1].status) == (21, SeatStatus.STOOD)
    # then seat 2 is never asked to act: after seat 1 the dealer plays
    assert needs(state) == ActionNeed(1, (Action.HIT, Action.STAND, Action.USE_SPECIAL))
    state = act(state, 1, "stand")
    assert state.phase is RoundPhase.DEALER


# --- turns -------------------------------------------------------------------------------------


def test_turns_go_seat_by_seat_from_seat_1() -> None:
    state = started("9C 9D 5S 8C 8D 2S", seat(1), seat(2))
    assert needs(state) == ActionNeed(1, (Action.HIT, Action.STAND, Action.USE_SPECIAL))
    assert refused(lambda: act(state, 2, "stand")).code == "not_your_turn"
    state = act(state, 1, "stand")
    assert needs(state) == ActionNeed(2, (Action.HIT, Action.STAND, Action.USE_SPECIAL))
    assert refused(lambda: act(state, 1, "hit")).code == "not_your_turn"
    state = act(state, 2, "stand")
    assert state.phase is RoundPhase.DEALER


def test_a_hand_that_reaches_21_stands_at_once() -> None:
    state = deal(act(started("7C 9D 7S 7H 8D 2S", seat(1), seat(2)), 1, "hit"), "7D")
    assert state.seats[0].total == 21
    assert state.seats[0].status is SeatStatus.STOOD
    assert needs(state) == ActionNeed(2, (Action.HIT, Action.STAND, Action.USE_SPECIAL))


def test_a_hand_over_21_busts_at_once_and_the_bust_is_final() -> None:
    state = deal(act(started("TC 9D 7S 8C 7D 2S", seat(1), seat(2)), 1, "hit"), "5H")
    assert state.seats[0].status is SeatStatus.BUST
    # the special card cannot undo it: the turn has moved on to seat 2
    error = refused(lambda: act(state, 1, "use_special", discard="5H"))
    assert error.code == "not_your_turn"
    assert needs(state) == ActionNeed(2, (Action.HIT, Action.STAND, Action.USE_SPECIAL))


def test_hit_and_stand_are_the_actions_of_a_turn_and_anything_else_is_refused_with_the_allowed_ones() -> None:
    state = started("9C 7D 5C TD", seat(1, used=True))
    error = refused(lambda: act(state, 1, "double"))
    assert isinstance(error, ActionNotAllowedError)
    assert error.allowed == (Action.HIT, Action.STAND)
    assert error.detail.endswith("allowed: hit, stand")


def test_an_action_while_the_round_waits_for_a_card_is_refused() -> None:
    state = act(started("9C 7D 5C TD"), 1, "hit")
    assert needs(state) == CardToSeat(1)
    assert refused(lambda: act(state, 1, "stand")).code == "no_action_expected"


def test_a_value_with_anything_but_a_declaration_is_refused() -> None:
    state = started("9C 7D 5C TD")
    error = refused(lambda: apply_action(state, seat=1, action="hit", value=11))
    assert (error.code, error.field) == ("validation_error", "value")


# --- SWAP --------------------------------------------------------------------------------------


def test_swap_discards_the_named_card_and_the_next_card_of_the_shoe_joins_the_hand_at_the_end() -> None:
    state = started("TC 9D 6S 7H")
    state = act(state, 1, "use_special", discard="TC")
    hand = state.seats[0]
    assert hand.cards == (HeldCard(card("6S"), 6),)
    assert hand.discarded == cards("TC")
    assert hand.special_used
    assert needs(state) == CardToSeat(1)
    state = deal(state, "5H")
    # the player's turn goes on, now without the special card
    assert state.seats[0].cards == (HeldCard(card("6S"), 6), HeldCard(card("5H"), 5))
    assert state.seats[0].total == 11
    assert needs(state) == ActionNeed(1, (Action.HIT, Action.STAND))
    assert describe_round(state)["seats"] == [
        {
            "seat": 1,
            "cards": [{"card": "6S", "value": 6}, {"card": "5H", "value": 5}],
            "discarded": ["TC"],
            "plus_one": False,
            "total": 11,
            "status": "playing",
        }
    ]


def test_swap_of_one_of_two_equal_cards_discards_the_one_dealt_first() -> None:
    # given two AS from a six-deck shoe: the first declared 1, the second 11
    state = declare(deal(declare(started("AS"), 1, 1), "9D AS"), 1, 11)
    state = deal(state, "7H")
    state = act(state, 1, "use_special", discard="AS")
    assert state.seats[0].cards == (HeldCard(card("AS"), 11),)
    assert state.seats[0].discarded == cards("AS")


def test_swap_replacement_ace_is_declared() -> None:
    state = deal(act(started("TC 9D 6S 7H"), 1, "use_special", discard="TC"), "AD")
    assert needs(state) == DeclareAceNeed(1, card("AD"))
    state = declare(state, 1, 11)
    assert state.seats[0].total == 17
    assert needs(state) == ActionNeed(1, (Action.HIT, Action.STAND))


def test_swap_replacement_that_makes_21_ends_the_turn() -> None:
    state = deal(act(started("TC 9D TS 7H"), 1, "use_special", discard="TC"), "AD")
    state = declare(state, 1, 11)
    assert state.seats[0].status is SeatStatus.STOOD
    assert state.phase is RoundPhase.DEALER


@pytest.mark.parametrize("discard", ["KD", None])
def test_swap_of_a_card_not_in_the_hand_is_refused_with_card_not_in_hand(discard: str | None) -> None:
    state = started("TC 9D 6S 7H")
    error = refused(lambda: act(state, 1, "use_special", discard=discard))
    assert (error.code, error.field) == ("card_not_in_hand", "discard")
    assert not state.seats[0].special_used


def test_a_discard_with_anything_but_a_swap_is_refused() -> None:
    state = started("TC 9D 6S 7H", seat(1, "PLUS_ONE"))
    assert refused(lambda: act(state, 1, "use_special", discard="TC")).code == "validation_error"
    assert refused(lambda: act(state, 1, "hit", discard="TC")).code == "validation_error"


# --- PLUS_ONE ----------------------------------------------------------------------------------


def test_plus_one_adds_one_to_the_hand_total_at_once_and_the_turn_goes_on() -> None:
    state = act(started("TC 9D 8S 7H", seat(1, "PLUS_ONE")), 1, "use_special")
    hand = state.seats[0]
    assert (hand.plus_one, hand.special_used, hand.total) == (True, True, 19)
    assert needs(state) == ActionNeed(1, (Action.HIT, Action.STAND))
    # later cards add to it
    state = deal(act(state, 1, "hit"), "2C")
    assert state.seats[0].total == 21
    assert state.seats[0].status is SeatStatus.STOOD


def test_plus_one_at_20_makes_21_and_ends_the_turn() -> None:
    state = act(started("TC 9D TS 7H", seat(1, "PLUS_ONE")), 1, "use_special")
    assert (state.seats[0].total, state.seats[0].status) == (21, SeatStatus.STOOD)
    assert state.phase is RoundPhase.DEALER


@pytest.mark.parametrize(("total", "allowed"), [(4, True), (12, True), (20, True), (21, False), (25, False)])
def test_plus_one_is_allowed_only_while_the_hand_is_20_or_less(total: int, allowed: bool) -> None:
    assert plus_one_allowed(total) is allowed
    hand = SeatHand(
        1, SpecialCard.PLUS_ONE, False, cards=(HeldCard(card("AS"), total - 1), HeldCard(card("AH"), 1))
    )
    assert (Action.USE_SPECIAL in allowed_actions(hand)) is allowed


def test_plus_one_never_busts_a_hand_by_itself() -> None:
    for first in ALL_CARDS[4:]:  # every non-Ace as the first card, a ten as the second
        state = started(f"{first} 9D TS 7H", seat(1, "PLUS_ONE"))
        if isinstance(needs(state), ActionNeed):
            assert act(state, 1, "use_special").seats[0].total <= 21


# --- the special card once per match -----------------------------------------------------------


@pytest.mark.parametrize("special", ["SWAP", "PLUS_ONE"])
def test_a_special_card_already_used_is_refused_with_special_already_used(special: str) -> None:
    # given the special card was used earlier in the match
    state = started("9C 7D 5C TD", seat(1, special, used=True))
    need = needs(state)
    # then use_special is not among the allowed actions, and trying it says why
    assert need == ActionNeed(1, (Action.HIT, Action.STAND))
    error = refused(lambda: act(state, 1, "use_special", discard="9C" if special == "SWAP" else None))
    assert (error.code, error.field) == ("special_already_used", "action")


def test_a_special_card_used_in_this_round_cannot_be_used_again_in_it() -> None:
    state = deal(act(started("9C 7D 5C TD"), 1, "use_special", discard="9C"), "2H")
    assert refused(lambda: act(state, 1, "use_special", discard="5C")).code == "special_already_used"


# --- dealer and the end of the round ----------------------------------------------------------


def test_the_dealer_does_not_draw_when_every_player_has_busted_but_the_hole_card_is_dealt_and_shown() -> None:
    state = deal(act(started("TC TD 9S 5D 2H 6C", seat(1), seat(2)), 1, "hit"), "9H")
    state = deal(act(state, 2, "hit"), "KH")
    assert [hand.status for hand in state.seats] == [SeatStatus.BUST, SeatStatus.BUST]
    # the dealer's 9 + 6 = 15 would draw, but there is nothing to play for
    assert state.phase is RoundPhase.FINISHED
    assert needs(state) is None
    assert dealer_view(state).cards == cards("9S 6C")
    assert results(state) == ((1, Result.LOSE), (2, Result.LOSE))


def test_the_deal_is_completed_with_the_hole_card_even_when_every_player_busts_during_it() -> None:
    state = declare(deal(declare(started("AS"), 1, 11), "9D AH"), 1, 11)
    assert needs(state) == CardToDealer()
    state = deal(state, "5C")
    assert state.phase is RoundPhase.FINISHED
    assert dealer_view(state).cards == cards("9D 5C")


def test_the_dealer_draws_when_some_player_has_not_busted() -> None:
    state = deal(act(started("TC TD 9S 5D 2H 6C", seat(1), seat(2)), 1, "hit"), "9H")
    state = act(state, 2, "stand")
    assert state.phase is RoundPhase.DEALER


def test_a_round_ends_by_itself_when_the_dealers_hand_is_final() -> None:
    state = deal(stand_all(started("TC 6D 9S 5H")), "7C")
    assert state.phase is RoundPhase.FINISHED
    assert describe_round(state)["state"] == "finished"
    assert describe_round(state)["needs"] is None
    assert results(state) == ((1, Result.WIN),)  # 19 against 18


def test_outcomes_are_only_known_once_the_round_is_finished() -> None:
    assert refused(lambda: results(started("TC 6D 9S"))).code == "round_not_finished"


# --- outcome and points ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("player", "dealer", "result"),
    [
        (22, 25, Result.LOSE),  # a player over 21 loses, even when the dealer busts too
        (22, 17, Result.LOSE),
        (15, 22, Result.WIN),  # the dealer over 21: every player at or under 21 wins
        (21, 23, Result.WIN),
        (20, 19, Result.WIN),  # else the higher total wins
        (18, 19, Result.LOSE),
        (19, 19, Result.DRAW),  # equal totals draw
        (21, 21, Result.DRAW),
        (12, 17, Result.LOSE),
    ],
)
def test_the_outcome_for_a_player(player: int, dealer: int, result: Result) -> None:
    assert outcome_for(player_total=player, dealer_total=dealer) is result


def test_a_two_card_21_has_no_special_standing_against_a_dealers_21() -> None:
    # given seat 1 is dealt an Ace (declared 11) and a ten: 21 in two cards
    state = deal(declare(started("AS"), 1, 11), "7D TC 7C")
    assert (len(state.seats[0].cards), state.seats[0].total) == (2, 21)
    # when the dealer makes 21 in three cards
    state = deal(state, "7H")
    assert state.phase is RoundPhase.FINISHED
    assert dealer_view(state).total == 21
    assert results(state) == ((1, Result.DRAW),)


def test_every_player_still_at_or_under_21_wins_when_the_dealer_goes_over() -> None:
    state = deal(act(started("TC 4D 9S 6D 2H 6C 5S TD", seat(1), seat(2), seat(3)), 1, "hit"), "KH")
    state = deal(stand_all(state), "9H")
    assert dealer_view(state).total == 25
    assert results(state) == ((1, Result.LOSE), (2, Result.WIN), (3, Result.WIN))


@pytest.mark.parametrize(("result", "delta"), [(Result.WIN, 1), (Result.LOSE, -1), (Result.DRAW, 0)])
def test_a_win_adds_a_point_a_loss_takes_one_and_a_draw_changes_nothing(result: Result, delta: int) -> None:
    assert points_delta(result) == delta


# --- events --------------------------------------------------------------------------------------


def test_replaying_the_events_rebuilds_the_round() -> None:
    entries = (seat(1), seat(2, "PLUS_ONE"))
    state = started("AS", *entries)
    events: list[RoundEvent] = [CardDealt(card("AS"), 1)]
    steps: list[RoundEvent] = [
        AceDeclared(1, 11),
        CardDealt(card("9C"), 2),
        CardDealt(card("7D"), None),
        CardDealt(card("3C"), 1),
        CardDealt(card("5C"), 2),
        CardDealt(card("TD"), None),
        ActionTaken(1, Action.USE_SPECIAL, card("3C")),
        CardDealt(card("8H"), 1),
        ActionTaken(1, Action.STAND),
        ActionTaken(2, Action.USE_SPECIAL),
        ActionTaken(2, Action.HIT),
        CardDealt(card("6S"), 2),
    ]
    for event in steps:
        if isinstance(event, CardDealt):
            assert card_event(state, event.card) == event
            state = deal(state, str(event.card))
        elif isinstance(event, AceDeclared):
            state = declare(state, event.seat, event.value)
        else:
            state = act(
                state, event.seat, event.action, discard=None if event.discard is None else str(event.discard)
            )
        events.append(event)
    assert state.phase is RoundPhase.FINISHED
    assert replay(seats=entries, events=events) == state


def test_a_replayed_card_recorded_for_the_wrong_recipient_is_refused() -> None:
    error = refused(lambda: replay(seats=(seat(1),), events=[CardDealt(card("9C"), None)]))
    assert error.code == "no_card_expected"
