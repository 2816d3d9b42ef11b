"""A round played at the table: one engine call per terminal call says what happened."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blackjack.engine import table as play
from blackjack.engine.round import ActionNeed, CardDealt, CardToDealer, CardToHand, RoundPhase, needs, replay
from casino.engine.shoe import new_shoe, shoe_after, shuffle_order
from casino.engine.table_game import ElectronicShoeDealsError, ShoeInPlay
from tests.casino.engine.helpers import cards, opened, started, wagers


def reported(*, dealt: str = "", penetration: int = 75) -> ShoeInPlay:
    return ShoeInPlay(
        shoe=shoe_after(decks=6, dealt=cards(dealt) if dealt else ()), penetration_percent=penetration
    )


def electronic(order: str, *, penetration: int = 75) -> ShoeInPlay:
    return ShoeInPlay(shoe=new_shoe(decks=6), penetration_percent=penetration, upcoming=cards(order))


def test_an_electronic_shoe_deals_the_opening_cards_until_a_player_must_decide() -> None:
    # given seat 1 and an electronic shoe / when the round opens
    step = play.open_round(state=opened(wagers(1)), shoe=electronic("9C 7D 8C TD 2S 3S"))
    # then player, dealer, player, hole card come out in that order and the round waits for seat 1
    assert step.cards_drawn == cards("9C 7D 8C TD")
    assert step.events == tuple(CardDealt(card) for card in cards("9C 7D 8C TD"))
    assert isinstance(needs(step.state), ActionNeed)
    assert step.stake is None


def test_a_reported_shoe_deals_nothing_by_itself() -> None:
    step = play.open_round(state=opened(wagers(1)), shoe=reported())
    assert (step.cards_drawn, step.events) == ((), ())
    assert isinstance(needs(step.state), CardToHand)


def test_a_card_reported_for_an_electronic_shoe_is_refused_with_no_card_expected() -> None:
    state = opened(wagers(1))
    with pytest.raises(ElectronicShoeDealsError) as refused:
        play.report_card(state=state, shoe=electronic("9C 7D"), card=cards("9C")[0])
    assert refused.value.code == "no_card_expected"


def test_a_reported_card_is_one_event_and_one_card_out_of_the_shoe() -> None:
    step = play.report_card(state=opened(wagers(1)), shoe=reported(), card=cards("9C")[0])
    assert step.events == (CardDealt(cards("9C")[0]),)
    assert step.cards_drawn == cards("9C")
    assert step.state.seats[0].hands[0].cards == cards("9C")


def test_standing_on_an_electronic_shoe_plays_the_dealer_out() -> None:
    state = started("9C 7D 8C TD", wagers(1))  # seat 1 holds 17, the dealer 17
    step = play.take_action(
        state=state, shoe=electronic("2S"), seat=1, hand=0, action="stand", amount_cents=None
    )
    assert step.state.phase is RoundPhase.READY_TO_SETTLE
    assert step.cards_drawn == ()  # the dealer stands on 17 with the two cards already out
    assert step.stake is None


def test_a_double_places_a_primary_stake_on_the_same_hand() -> None:
    state = started("6C 7D 5C TD", wagers(1, 1_000))  # 11 against a 7
    step = play.take_action(state=state, shoe=reported(), seat=1, hand=0, action="double", amount_cents=None)
    assert step.stake == play.StakePlaced(seat=1, hand=0, kind="primary", source="double", cents=1_000)


def test_a_split_places_its_stake_on_the_new_hand_after_the_one_split() -> None:
    state = started("8C 7D 8S TD", wagers(1, 500))  # a pair of 8s against a 7
    step = play.take_action(state=state, shoe=reported(), seat=1, hand=0, action="split", amount_cents=None)
    assert step.stake == play.StakePlaced(seat=1, hand=1, kind="primary", source="split", cents=500)
    assert [hand.cards for hand in step.state.seats[0].hands] == [cards("8C"), cards("8S")]


def test_insurance_places_an_insurance_stake_on_hand_0() -> None:
    state = started("9C AD 8C 5D", wagers(1, 1_000))  # the dealer shows an Ace
    step = play.take_action(
        state=state, shoe=reported(), seat=1, hand=0, action="insurance", amount_cents=500
    )
    assert step.stake == play.StakePlaced(seat=1, hand=0, kind="insurance", source="insurance", cents=500)


def test_the_cut_card_is_reached_once_the_penetration_is_dealt_and_the_shoe_closes_at_settle() -> None:
    # given a shoe with one card left before 1% penetration (312 cards: 3.12 make 1%)
    shoe = reported(dealt="2C 3C 4C", penetration=1)
    before = play.report_card(state=opened(wagers(1)), shoe=reported(penetration=1), card=cards("9C")[0])
    assert not before.cut_card_reached
    step = play.report_card(state=opened(wagers(1)), shoe=shoe, card=cards("9C")[0])
    assert step.cut_card_reached


def test_settling_closes_the_shoe_only_after_the_cut_card() -> None:
    state = started("9C 7D 8C TD", wagers(1))
    state = play.take_action(
        state=state, shoe=reported(), seat=1, hand=0, action="stand", amount_cents=None
    ).state
    assert play.settle(state=state, cut_card_reached=True).close_shoe
    assert not play.settle(state=state, cut_card_reached=False).close_shoe
    assert play.settle(state=state, cut_card_reached=False).state.phase is RoundPhase.SETTLED


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), seats=st.integers(min_value=1, max_value=7))
def test_an_electronic_round_replays_from_its_events_to_the_same_state(seed: int, seats: int) -> None:
    # given a shuffled 6-deck shoe and a round where every hand stands
    order = shuffle_order(decks=6, rng=random.Random(seed))
    state = opened(*(wagers(seat) for seat in range(1, seats + 1)))
    shoe = ShoeInPlay(shoe=new_shoe(decks=6), penetration_percent=75, upcoming=order)
    step = play.open_round(state=state, shoe=shoe)
    events, used = list(step.events), len(step.cards_drawn)
    current = step.state
    while isinstance(need := needs(current), ActionNeed | CardToHand | CardToDealer):
        assert isinstance(need, ActionNeed)  # an electronic shoe never leaves a card to report
        left = ShoeInPlay(
            shoe=shoe_after(decks=6, dealt=order[:used]), penetration_percent=75, upcoming=order[used:]
        )
        action = "stand" if "stand" in need.allowed else need.allowed[0]
        step = play.take_action(
            state=current, shoe=left, seat=need.seat, hand=need.hand, action=action, amount_cents=None
        )
        events += step.events
        used += len(step.cards_drawn)
        current = step.state
    # then the stored events rebuild the round exactly, and the cards came off the shoe in order
    assert replay(seats=tuple(s.wagers for s in state.seats), rules=state.rules, events=events) == current
    assert [e.card for e in events if isinstance(e, CardDealt)] == list(order[:used])
