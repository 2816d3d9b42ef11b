"""The blackjack round state machine, rule by rule (RULES.md §1.2)."""

import pytest

from blackjack.engine.round import (
    Action,
    ActionNeed,
    ActionTaken,
    CardDealt,
    CardToDealer,
    CardToHand,
    HandStatus,
    InsuranceNeed,
    NotReadyToSettleError,
    RoundClosedError,
    RoundEvent,
    RoundPhase,
    RoundState,
    Settled,
    SettleNeed,
    Voided,
    apply_action,
    apply_card,
    dealer_view,
    hole_card_visible,
    mark_settled,
    needs,
    open_round,
    replay,
    stake_added,
    staked_cents,
    void_round,
    wagers_of,
)
from blackjack.engine.rules import DealerRule, HouseRules
from casino.engine.errors import RuleError
from casino.engine.money import InvalidAmountError
from casino.engine.table_game import (
    ActionNotAllowedError,
    NoActionExpectedError,
    NoCardExpectedError,
    NotYourTurnError,
)
from tests.casino.engine.helpers import act, cards, deal, opened, started, wagers

H, S, D, P, R = Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER


def hand_texts(state: RoundState, seat: int) -> list[str]:
    return [" ".join(map(str, hand.cards)) for hand in state.seat(seat).hands]


def statuses(state: RoundState, seat: int) -> list[HandStatus]:
    return [hand.status for hand in state.seat(seat).hands]


def assert_rejected(
    state: RoundState, error: type[RuleError], code: str, *, card: str | None = None, **action: object
) -> RuleError:
    """The transition raises `error` with `code`, and the state is left as it was."""
    before = state
    if card is not None:
        with pytest.raises(error) as raised:
            apply_card(state, cards(card)[0])
    else:
        with pytest.raises(error) as raised:
            apply_action(state, **action)  # type: ignore[arg-type]
    assert raised.value.code == code
    assert state == before
    return raised.value


# --- dealing -------------------------------------------------------------------------------------


def test_dealing_order_seat_1_upward_dealer_up_card_second_round_then_hole_card() -> None:
    # given seats 3, 1 and 5 (in any order)
    state = opened(wagers(3), wagers(1), wagers(5))
    asked = []
    # when eight cards are dealt
    for card in cards("2S 3S 4S 9H 5S 6S 7S 8H"):
        asked.append(needs(state))
        state = apply_card(state, card)
    # then they went seat 1, 3, 5, dealer, seat 1, 3, 5, dealer
    assert asked == [
        CardToHand(1, 0), CardToHand(3, 0), CardToHand(5, 0), CardToDealer(),
        CardToHand(1, 0), CardToHand(3, 0), CardToHand(5, 0), CardToDealer(),
    ]  # fmt: skip
    assert hand_texts(state, 1) == ["2S 5S"]
    assert hand_texts(state, 3) == ["3S 6S"]
    assert hand_texts(state, 5) == ["4S 7S"]
    assert [str(c) for c in state.dealer_cards] == ["9H", "8H"]
    assert state.phase is RoundPhase.PLAYING
    assert needs(state) == ActionNeed(1, 0, (H, S, D))


def test_a_new_round_waits_for_the_first_card_of_seat_1() -> None:
    state = opened(wagers(2), wagers(6))
    assert state.phase is RoundPhase.DEALING
    assert needs(state) == CardToHand(2, 0)
    assert needs(state).to_dict() == {"kind": "card", "to": {"seat": 2, "hand": 0}}  # type: ignore[union-attr]


def test_needs_have_the_api_shapes() -> None:
    assert CardToDealer().to_dict() == {"kind": "card", "to": "dealer"}
    assert ActionNeed(2, 0, (H, S, D, P)).to_dict() == {
        "kind": "action", "seat": 2, "hand": 0, "allowed": ["hit", "stand", "double", "split"],
    }  # fmt: skip
    assert InsuranceNeed(1, 5000).to_dict() == {"kind": "insurance", "seat": 1, "max_cents": 5000}
    assert SettleNeed().to_dict() == {"kind": "settle"}


def test_open_round_rejects_a_duplicate_seat_and_an_empty_table() -> None:
    with pytest.raises(RuleError) as duplicate:
        open_round(seats=(wagers(2), wagers(2)), rules=HouseRules())
    assert duplicate.value.code == "duplicate_seat"
    with pytest.raises(RuleError) as empty:
        open_round(seats=(), rules=HouseRules())
    assert empty.value.code == "seats_required"


def test_a_natural_blackjack_is_finished_from_the_deal() -> None:
    # given seat 1 dealt AS KH and seat 2 TS 7H against a dealer 9
    state = started("AS TS 9H KH 7H 8D", wagers(1), wagers(2))
    # then seat 1's hand is a finished Blackjack and seat 2 is asked first
    hand = state.seat(1).hands[0]
    assert (hand.status, hand.blackjack, hand.total) == (HandStatus.BLACKJACK, True, 21)
    assert needs(state) == ActionNeed(2, 0, (H, S, D))


# --- the peek and insurance ----------------------------------------------------------------------


def test_dealer_peeks_on_a_ten_and_blackjack_ends_the_round_before_anyone_acts() -> None:
    # given a dealer TS up and AS in the hole
    state = started("9S AS TS 9H KH AH", wagers(1), wagers(2))
    # then the round is ready to settle at once, the hole card turned over
    assert state.phase is RoundPhase.READY_TO_SETTLE
    assert needs(state) == SettleNeed()
    assert hole_card_visible(state) is True
    assert dealer_view(state).blackjack is True
    assert statuses(state, 1) == [HandStatus.STOOD]
    assert statuses(state, 2) == [HandStatus.BLACKJACK]


def test_dealer_peeks_on_an_ace_after_insurance_and_blackjack_ends_the_round() -> None:
    # given a dealer AS up, KD in the hole, one seat
    state = started("9S AS 9H KD", wagers(1))
    assert needs(state) == InsuranceNeed(1, 500)
    # when the seat declines insurance / then the peek shows Blackjack and the round ends
    state = act(state, 1, 0, "decline_insurance")
    assert state.phase is RoundPhase.READY_TO_SETTLE


def test_no_dealer_blackjack_at_the_peek_keeps_the_hole_card_hidden() -> None:
    # given a dealer TS up and 9H in the hole
    state = started("9S TS 8H 9H", wagers(1))
    # then play starts and the table sees only the up card
    assert state.phase is RoundPhase.PLAYING
    assert hole_card_visible(state) is False
    view = dealer_view(state)
    assert ([str(c) for c in view.cards], view.total, view.soft, view.blackjack) == (["TS"], 10, False, False)


def test_dealer_does_not_peek_for_blackjack_on_other_up_cards() -> None:
    # given a 9 up and an Ace in the hole (no Blackjack possible)
    state = started("9S 9H 8H AS", wagers(1))
    assert state.phase is RoundPhase.PLAYING
    assert needs(state) == ActionNeed(1, 0, (H, S, D))


def test_insurance_is_asked_in_seat_order_up_to_half_the_primary_before_the_peek() -> None:
    # given seats 1 (primary 2501) and 4 (primary 1000) and a dealer Ace
    state = started("9S 8S AH 9H 8H 7C", wagers(4, 1000), wagers(1, 2501))
    assert state.phase is RoundPhase.INSURANCE
    assert needs(state) == InsuranceNeed(1, 1250)
    # when seat 1 takes 1250 (half of 2501, rounded down)
    state = act(state, 1, 0, "insurance", 1250)
    # then seat 4 is asked next, then the peek (no Blackjack) starts play
    assert needs(state) == InsuranceNeed(4, 500)
    state = act(state, 4, 0, "decline_insurance")
    assert state.phase is RoundPhase.PLAYING
    assert (state.seat(1).insurance_cents, state.seat(4).insurance_cents) == (1250, 0)
    assert wagers_of(state.seat(1)) == (("primary", 2501), ("insurance", 1250))


def test_insurance_is_not_offered_when_the_house_rule_is_off() -> None:
    state = started("9S AH 9H 7C", wagers(1), rules=HouseRules(insurance=False))
    assert state.phase is RoundPhase.PLAYING
    assert needs(state) == ActionNeed(1, 0, (H, S, D, P))


@pytest.mark.parametrize(
    ("amount", "message"), [(1251, "1 to 1250"), (0, "1 to 1250"), (None, "needs amount")]
)
def test_insurance_outside_1_to_half_the_primary_is_rejected(amount: int | None, message: str) -> None:
    state = started("9S AH 9H 7C", wagers(1, 2501))
    error = assert_rejected(
        state, InvalidAmountError, "invalid_amount", seat=1, hand=0, action="insurance", amount_cents=amount
    )
    assert message in error.detail
    assert error.field == "amount_cents"


def test_insurance_amount_must_be_int_cents() -> None:
    state = started("9S AH 9H 7C", wagers(1))
    assert_rejected(
        state, InvalidAmountError, "invalid_amount", seat=1, hand=0, action="insurance", amount_cents=1.5
    )


def test_a_one_cent_primary_can_only_decline_insurance() -> None:
    state = started("9S AH 9H 7C", wagers(1, 1))
    assert needs(state) == InsuranceNeed(1, 0)
    error = assert_rejected(
        state, ActionNotAllowedError, "action_not_allowed", seat=1, hand=0, action="insurance"
    )
    assert error.allowed == (Action.DECLINE_INSURANCE,)  # type: ignore[attr-defined]


def test_play_actions_are_not_allowed_while_insurance_is_asked() -> None:
    state = started("9S AH 9H 7C", wagers(1))
    error = assert_rejected(state, ActionNotAllowedError, "action_not_allowed", seat=1, hand=0, action="hit")
    assert error.allowed == (Action.INSURANCE, Action.DECLINE_INSURANCE)  # type: ignore[attr-defined]


# --- turns and errors ----------------------------------------------------------------------------


def test_a_card_when_none_is_expected_is_rejected_and_changes_nothing() -> None:
    insurance = started("9S AH 9H 7C", wagers(1))
    assert_rejected(insurance, NoCardExpectedError, "no_card_expected", card="2S")
    playing = started("9S TH 9H 7C", wagers(1))
    assert_rejected(playing, NoCardExpectedError, "no_card_expected", card="2S")
    ready = act(playing, 1, 0, "stand")
    assert ready.phase is RoundPhase.READY_TO_SETTLE
    assert_rejected(ready, NoCardExpectedError, "no_card_expected", card="2S")


def test_an_action_for_another_seat_or_hand_is_not_your_turn() -> None:
    state = started("9S 9D 6H 9H 8D 7C", wagers(1), wagers(2))
    assert_rejected(state, NotYourTurnError, "not_your_turn", seat=2, hand=0, action="stand")
    assert_rejected(state, NotYourTurnError, "not_your_turn", seat=1, hand=1, action="stand")
    assert_rejected(state, NotYourTurnError, "not_your_turn", seat=9, hand=0, action="stand")
    assert_rejected(state, NotYourTurnError, "not_your_turn", seat=True, hand=0, action="stand")
    assert_rejected(state, NotYourTurnError, "not_your_turn", seat=1, hand=0.0, action="stand")


def test_an_action_that_is_not_allowed_lists_the_allowed_ones() -> None:
    # given 9S 8H (no pair) / when the dealer posts split
    state = started("9S 6H 8H 7C", wagers(1))
    error = assert_rejected(
        state, ActionNotAllowedError, "action_not_allowed", seat=1, hand=0, action="split"
    )
    # then the error names what is allowed
    assert error.allowed == (H, S, D)  # type: ignore[attr-defined]
    assert "allowed: hit, stand, double" in error.detail


def test_an_unknown_action_is_not_allowed() -> None:
    state = started("9S 6H 8H 7C", wagers(1))
    assert_rejected(state, ActionNotAllowedError, "action_not_allowed", seat=1, hand=0, action="fold")


def test_an_action_while_a_card_is_due_is_rejected() -> None:
    state = act(started("9S 6H 2H 7C", wagers(1)), 1, 0, "hit")
    assert needs(state) == CardToHand(1, 0)
    assert_rejected(state, NoActionExpectedError, "no_action_expected", seat=1, hand=0, action="stand")


def test_amount_cents_is_only_for_insurance() -> None:
    state = started("9S 6H 8H 7C", wagers(1))
    assert_rejected(state, InvalidAmountError, "invalid_amount", seat=1, hand=0, action="hit", amount_cents=5)


def test_seats_play_in_order_from_seat_1_upward() -> None:
    state = started("9S 9D 6H 8H 8D 7C", wagers(5), wagers(2))
    assert needs(state) == ActionNeed(2, 0, (H, S, D))
    state = act(state, 2, 0, "stand")
    assert needs(state) == ActionNeed(5, 0, (H, S, D))


# --- hit, stand, double --------------------------------------------------------------------------


def test_hit_asks_for_one_card_for_the_same_hand() -> None:
    state = act(started("5S 6H 4H 7C", wagers(1)), 1, 0, "hit")
    assert needs(state) == CardToHand(1, 0)
    state = deal(state, "2C")
    assert hand_texts(state, 1) == ["5S 4H 2C"]
    assert needs(state) == ActionNeed(1, 0, (H, S))


def test_a_hand_reaching_21_is_finished_at_once() -> None:
    # given 9S 2H, hit, then a ten: 21
    state = deal(act(started("9S 9D 6H 2H 8D 7C", wagers(1), wagers(2)), 1, 0, "hit"), "TS")
    # then no action is asked for it: seat 2 plays
    assert statuses(state, 1) == [HandStatus.STOOD]
    assert state.seat(1).hands[0].total == 21
    assert state.seat(1).hands[0].blackjack is False
    assert needs(state) == ActionNeed(2, 0, (H, S, D))


def test_a_bust_hand_is_finished_at_once() -> None:
    state = deal(act(started("TS 9D 6H 5H 8D 7C", wagers(1), wagers(2)), 1, 0, "hit"), "KC")
    hand = state.seat(1).hands[0]
    assert (hand.status, hand.bust, hand.total) == (HandStatus.BUST, True, 25)
    assert needs(state) == ActionNeed(2, 0, (H, S, D))


def test_double_doubles_the_primary_stake_and_takes_exactly_one_card() -> None:
    # given 6S 5H with a 1000 primary
    state = started("6S 9D 6H 5H 8D 7C", wagers(1, 1000), wagers(2))
    before = state
    # when doubled
    state = act(state, 1, 0, "double")
    # then the stake is 2000, one card is asked, and the hand is finished after it
    assert stake_added(before, state) == 1000
    assert needs(state) == CardToHand(1, 0)
    state = deal(state, "2C")
    hand = state.seat(1).hands[0]
    assert (hand.stake_cents, hand.doubled, hand.status, hand.total) == (2000, True, HandStatus.STOOD, 13)
    assert needs(state) == ActionNeed(2, 0, (H, S, D))


def test_double_is_only_on_the_first_two_cards() -> None:
    state = deal(act(started("2S 6H 3H 7C", wagers(1)), 1, 0, "hit"), "2C")
    assert needs(state) == ActionNeed(1, 0, (H, S))
    assert_rejected(state, ActionNotAllowedError, "action_not_allowed", seat=1, hand=0, action="double")


@pytest.mark.parametrize(("deal_text", "allowed"), [("6S 6H 5H 7C", (H, S, D)), ("TS 6H 7H 7C", (H, S))])
def test_without_double_any_two_only_9_10_or_11_may_double(
    deal_text: str, allowed: tuple[Action, ...]
) -> None:
    state = started(deal_text, wagers(1), rules=HouseRules(double_any_two=False))
    assert needs(state) == ActionNeed(1, 0, allowed)


def test_double_on_any_two_cards_by_default() -> None:
    state = started("TS 6H 7H 7C", wagers(1))
    assert needs(state) == ActionNeed(1, 0, (H, S, D))


# --- splits --------------------------------------------------------------------------------------


def test_split_keeps_the_first_card_and_moves_the_second_to_a_new_hand_right_after_it() -> None:
    # given 8S 8H with a 1000 primary against a dealer 6
    state = started("8S 6H 8H 7C", wagers(1, 1000))
    assert needs(state) == ActionNeed(1, 0, (H, S, D, P))
    before = state
    # when split
    state = act(state, 1, 0, "split")
    # then hand 0 keeps 8S, hand 1 holds 8H with its own 1000 primary, and hand 0 gets the next card
    assert hand_texts(state, 1) == ["8S", "8H"]
    assert [h.stake_cents for h in state.seat(1).hands] == [1000, 1000]
    assert stake_added(before, state) == 1000
    assert needs(state) == CardToHand(1, 0)


def test_the_split_hand_is_played_to_the_end_before_the_new_hand_gets_its_second_card() -> None:
    state = deal(act(started("8S 6H 8H 7C", wagers(1)), 1, 0, "split"), "3C")
    # hand 0 (8S 3C) plays while hand 1 still holds one card
    assert hand_texts(state, 1) == ["8S 3C", "8H"]
    assert needs(state) == ActionNeed(1, 0, (H, S, D))
    state = deal(act(state, 1, 0, "hit"), "2D")
    state = act(state, 1, 0, "stand")
    # only now does hand 1 get its second card, then play
    assert needs(state) == CardToHand(1, 1)
    state = deal(state, "TD")
    assert hand_texts(state, 1) == ["8S 3C 2D", "8H TD"]
    assert needs(state) == ActionNeed(1, 1, (H, S, D))


def test_later_hands_shift_up_when_an_earlier_hand_splits_again() -> None:
    # given 8S 8H split, and hand 0 draws another 8
    state = deal(act(started("8S 6H 8H 7C", wagers(1)), 1, 0, "split"), "8D")
    # when hand 0 splits again
    state = act(state, 1, 0, "split")
    # then the new hand (8D) is hand 1 and the old hand 1 (8H) is now hand 2
    assert hand_texts(state, 1) == ["8S", "8D", "8H"]
    assert needs(state) == CardToHand(1, 0)


def test_split_up_to_4_hands_by_default() -> None:
    state = deal(act(started("8S 6H 8H 7C", wagers(1)), 1, 0, "split"), "8D")
    state = deal(act(state, 1, 0, "split"), "8C")
    state = deal(act(state, 1, 0, "split"), "8S")
    # four hands: 8S 8S | 8C | 8D | 8H; no fifth
    assert len(state.seat(1).hands) == 4
    assert needs(state) == ActionNeed(1, 0, (H, S, D))


def test_max_hands_is_a_table_setting() -> None:
    state = deal(act(started("8S 6H 8H 7C", wagers(1), rules=HouseRules(max_hands=2)), 1, 0, "split"), "8D")
    assert needs(state) == ActionNeed(1, 0, (H, S, D))


def test_split_aces_receive_one_card_each_and_may_not_be_resplit() -> None:
    # given AS AH split
    state = act(started("AS 6H AH 7C", wagers(1)), 1, 0, "split")
    assert all(h.split_from_aces for h in state.seat(1).hands)
    # when hand 0 draws another Ace / then it is finished with two cards, no re-split
    state = deal(state, "AD")
    assert statuses(state, 1) == [HandStatus.STOOD, HandStatus.PLAYING]
    assert needs(state) == CardToHand(1, 1)
    # and hand 1 is finished after its one card too
    state = deal(state, "9C")
    assert statuses(state, 1) == [HandStatus.STOOD, HandStatus.STOOD]
    assert state.phase is RoundPhase.DEALER


def test_split_aces_may_be_resplit_when_the_house_allows_it() -> None:
    rules = HouseRules(resplit_aces=True)
    state = deal(act(started("AS 6H AH 7C", wagers(1), rules=rules), 1, 0, "split"), "AD")
    assert needs(state) == ActionNeed(1, 0, (S, P))


def test_split_aces_play_on_when_the_one_card_rule_is_off() -> None:
    rules = HouseRules(split_aces_one_card=False)
    state = deal(act(started("AS 6H AH 7C", wagers(1), rules=rules), 1, 0, "split"), "5D")
    assert needs(state) == ActionNeed(1, 0, (H, S, D))


def test_any_two_ten_value_cards_are_a_pair_by_default() -> None:
    state = started("KS 6H TH 7C", wagers(1))
    assert needs(state) == ActionNeed(1, 0, (H, S, D, P))


def test_without_split_by_value_only_equal_ranks_split() -> None:
    rules = HouseRules(split_by_value=False)
    assert needs(started("KS 6H TH 7C", wagers(1), rules=rules)) == ActionNeed(1, 0, (H, S, D))
    assert needs(started("KS 6H KH 7C", wagers(1), rules=rules)) == ActionNeed(1, 0, (H, S, D, P))


def test_double_after_split_is_allowed_by_default_and_can_be_switched_off() -> None:
    allowed = deal(act(started("8S 6H 8H 7C", wagers(1)), 1, 0, "split"), "3C")
    assert needs(allowed) == ActionNeed(1, 0, (H, S, D))
    rules = HouseRules(double_after_split=False)
    refused = deal(act(started("8S 6H 8H 7C", wagers(1), rules=rules), 1, 0, "split"), "3C")
    assert needs(refused) == ActionNeed(1, 0, (H, S))


def test_a_split_ace_and_a_ten_make_21_not_blackjack() -> None:
    state = deal(act(started("AS 6H AH 7C", wagers(1)), 1, 0, "split"), "KD")
    hand = state.seat(1).hands[0]
    assert (hand.total, hand.blackjack, hand.status) == (21, False, HandStatus.STOOD)


# --- surrender -----------------------------------------------------------------------------------


def test_late_surrender_is_off_by_default() -> None:
    state = started("TS 6H 6D 7C", wagers(1))
    assert_rejected(state, ActionNotAllowedError, "action_not_allowed", seat=1, hand=0, action="surrender")


def test_late_surrender_is_only_the_first_action_on_an_unsplit_two_card_hand() -> None:
    rules = HouseRules(surrender=True)
    state = started("TS 6H 6D 7C", wagers(1), rules=rules)
    assert needs(state) == ActionNeed(1, 0, (H, S, D, R))
    after_hit = deal(act(state, 1, 0, "hit"), "2C")
    assert needs(after_hit) == ActionNeed(1, 0, (H, S))
    after_split = deal(act(started("8S 6H 8H 7C", wagers(1), rules=rules), 1, 0, "split"), "2C")
    assert needs(after_split) == ActionNeed(1, 0, (H, S, D))


def test_late_surrender_comes_after_the_peek() -> None:
    # a dealer Blackjack ends the round before a surrender can be offered
    state = started("TS AH 6D KC", wagers(1), rules=HouseRules(surrender=True, insurance=False))
    assert state.phase is RoundPhase.READY_TO_SETTLE


def test_surrender_finishes_the_hand() -> None:
    state = act(
        started("TS 9D 6H 6D 8D 7C", wagers(1), wagers(2), rules=HouseRules(surrender=True)),
        1,
        0,
        "surrender",
    )
    assert statuses(state, 1) == [HandStatus.SURRENDERED]
    assert needs(state) == ActionNeed(2, 0, (H, S, D, R))


# --- the dealer ----------------------------------------------------------------------------------


def test_the_hole_card_is_turned_over_for_the_dealers_turn() -> None:
    state = act(started("TS 6H 8D TC", wagers(1)), 1, 0, "stand")
    assert state.phase is RoundPhase.DEALER
    assert hole_card_visible(state) is True
    assert needs(state) == CardToDealer()
    assert dealer_view(state).total == 16


def test_dealer_draws_to_17_then_stands() -> None:
    state = act(started("TS 6H 8D TC", wagers(1)), 1, 0, "stand")
    state = deal(state, "AC")  # 17
    assert state.phase is RoundPhase.READY_TO_SETTLE
    assert [str(c) for c in dealer_view(state).cards] == ["6H", "TC", "AC"]


def test_dealer_stands_on_soft_17_by_default() -> None:
    state = act(started("TS 6H 8D AC", wagers(1)), 1, 0, "stand")
    assert state.phase is RoundPhase.READY_TO_SETTLE
    assert (dealer_view(state).total, dealer_view(state).soft) == (17, True)


def test_h17_dealer_hits_soft_17() -> None:
    state = act(started("TS 6H 8D AC", wagers(1), rules=HouseRules(dealer=DealerRule.H17)), 1, 0, "stand")
    assert needs(state) == CardToDealer()
    state = deal(state, "2S")  # soft 19
    assert state.phase is RoundPhase.READY_TO_SETTLE


def test_h17_dealer_stands_on_hard_17() -> None:
    state = act(started("TS 7H 8D TC", wagers(1), rules=HouseRules(dealer=DealerRule.H17)), 1, 0, "stand")
    assert state.phase is RoundPhase.READY_TO_SETTLE


def test_dealer_does_not_draw_when_every_hand_busted_surrendered_or_is_blackjack() -> None:
    # given seat 1 Blackjack, seat 2 busts, seat 3 surrenders; dealer 5 + 6 = 11
    rules = HouseRules(surrender=True)
    state = started("AS TS TH 5H KD 6C 6D 6S", wagers(1), wagers(2), wagers(3), rules=rules)
    state = deal(act(state, 2, 0, "hit"), "9C")
    state = act(state, 3, 0, "surrender")
    # then the dealer stays on 11
    assert state.phase is RoundPhase.READY_TO_SETTLE
    assert dealer_view(state).total == 11


def test_dealer_draws_when_any_hand_still_stands() -> None:
    state = started("AS TS 5H KD 7C 6S", wagers(1), wagers(2))
    state = act(state, 2, 0, "stand")
    assert state.phase is RoundPhase.DEALER


# --- closing, replay, stakes ---------------------------------------------------------------------


def test_mark_settled_only_from_ready_to_settle() -> None:
    playing = started("TS 6H 8D TC", wagers(1))
    with pytest.raises(NotReadyToSettleError) as raised:
        mark_settled(playing)
    assert raised.value.code == "not_ready_to_settle"
    done = mark_settled(deal(act(playing, 1, 0, "stand"), "AC"))
    assert (done.phase, needs(done)) == (RoundPhase.SETTLED, None)


def test_a_round_can_be_voided_once_and_then_needs_nothing() -> None:
    state = void_round(started("TS 6H", wagers(1)))
    assert (state.phase, needs(state)) == (RoundPhase.VOID, None)
    with pytest.raises(RoundClosedError) as raised:
        void_round(state)
    assert raised.value.code == "round_closed"
    assert_rejected(state, NoCardExpectedError, "no_card_expected", card="2S")
    assert_rejected(state, NoActionExpectedError, "no_action_expected", seat=1, hand=0, action="stand")


def test_replaying_the_events_rebuilds_the_same_state() -> None:
    # given a round played step by step
    seats = (wagers(1, 1000, T18=100), wagers(2, 500))
    events: list[RoundEvent] = [
        *(CardDealt(c) for c in cards("8S 9D AH 8H 9C 7C")),
        ActionTaken(1, 0, Action.INSURANCE, 500),
        ActionTaken(2, 0, Action.DECLINE_INSURANCE),
        ActionTaken(1, 0, Action.SPLIT),
        CardDealt(cards("TD")[0]),
        ActionTaken(1, 0, Action.STAND),
        CardDealt(cards("3S")[0]),
        ActionTaken(1, 1, Action.DOUBLE),
        CardDealt(cards("9S")[0]),
        ActionTaken(2, 0, Action.STAND),
    ]
    state = open_round(seats=seats, rules=HouseRules())
    for event in events:
        if isinstance(event, CardDealt):
            state = apply_card(state, event.card)
        elif isinstance(event, ActionTaken):
            state = apply_action(
                state, seat=event.seat, hand=event.hand, action=event.action, amount_cents=event.amount_cents
            )
    # when the stored events are replayed / then the state is the same
    assert replay(seats=seats, rules=HouseRules(), events=events) == state
    assert state.phase is RoundPhase.READY_TO_SETTLE
    assert replay(seats=seats, rules=HouseRules(), events=[*events, Settled()]).phase is RoundPhase.SETTLED
    assert replay(seats=seats, rules=HouseRules(), events=[*events, Voided()]).phase is RoundPhase.VOID


def test_staked_cents_counts_primaries_doubles_splits_insurance_and_bonus_wagers() -> None:
    # given primary 1000 + T18 100 + RS 200
    state = started("8S AH 8H 9C", wagers(1, 1000, T18=100, RS=200))
    assert staked_cents(state) == 1300
    # insurance adds its amount, a split a primary, a double a primary
    state = act(state, 1, 0, "insurance", 300)
    assert staked_cents(state) == 1600
    split = act(state, 1, 0, "split")
    assert stake_added(state, split) == 1000
    doubled = act(deal(split, "3C"), 1, 0, "double")
    assert staked_cents(doubled) == 3600
    assert stake_added(doubled, deal(doubled, "5D")) == 0


def test_transitions_never_change_the_state_they_are_given() -> None:
    state = started("8S 6H 8H 7C", wagers(1))
    copy = started("8S 6H 8H 7C", wagers(1))
    act(state, 1, 0, "split")
    assert state == copy
    assert hand_texts(state, 1) == ["8S 8H"]


def test_house_rule_defaults_are_the_decided_ones() -> None:
    # RULES.md §1.2 [decided]: S17, 3:2, double any two, double after split, up to 4 hands, split Aces
    # one card each and no re-split, ten-value pairs split, no late surrender, insurance offered
    rules = HouseRules()
    assert (rules.dealer, rules.blackjack_pays.num, rules.blackjack_pays.den) == (DealerRule.S17, 3, 2)
    assert (rules.double_any_two, rules.double_after_split, rules.max_hands) == (True, True, 4)
    assert (rules.split_aces_one_card, rules.resplit_aces, rules.split_by_value) == (True, False, True)
    assert (rules.surrender, rules.insurance, rules.penetration_percent) == (False, True, 75)
