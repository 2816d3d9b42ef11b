"""Whole random legal rounds, driven to settlement: properties that hold for every one."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from blackjack.engine.round import (
    ActionNeed,
    CardDealt,
    CardToDealer,
    CardToHand,
    HandStatus,
    InsuranceNeed,
    RoundPhase,
    RoundState,
    SettleNeed,
    apply_action,
    apply_card,
    apply_event,
    mark_settled,
    needs,
    open_round,
    replay,
    stake_added,
    staked_cents,
)
from blackjack.engine.rules import INSURANCE_PAYS, DealerRule, HouseRules
from blackjack.engine.settlement import Result, Settlement, settle
from blackjack.engine.wagers import SeatWagers
from bonus_tie.engine.kinds import BONUS_KINDS, BonusKind
from bonus_tie.engine.paytable import DEFAULT_PAYTABLE
from bonus_tie.engine.tie_bonus import TIE_BONUS
from casino.engine import money
from casino.engine.errors import RuleError
from casino.engine.hands import total_and_soft
from casino.engine.shoe import Shoe, new_shoe
from casino.engine.wager_kinds import WagerKind
from tests.strategies import PlayedRound, house_rules, played_rounds, round_seats, seeded_rounds, shoe_cards

# Hypothesis draws cost ~0.2 ms each here, so the fully shrinkable rounds run a few hundred times and
# the seeded ones (a single draw per round) a few thousand.
SHRINKABLE_ROUNDS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEEDED_ROUNDS = settings(max_examples=2500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FEWER_ROUNDS = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FINISHED = (HandStatus.BUST, HandStatus.SURRENDERED, HandStatus.BLACKJACK)
TIE_BONUS_V1 = TIE_BONUS.on(DEFAULT_PAYTABLE)


def check_settlement(state: RoundState, result: Settlement) -> None:
    """Conservation and per-line bounds of a settlement."""
    rules = state.rules
    assert result.wagered_cents == staked_cents(state)
    assert result.wagered_cents == result.paid_cents + result.house_net_cents
    assert result.wagered_cents == sum(line.amount_cents for line in result.lines)
    assert result.paid_cents == sum(line.paid_cents for line in result.lines)
    for line in result.lines:
        stake = line.amount_cents
        if line.kind is WagerKind.PRIMARY:
            most = max(money.pay_odds(stake, rules.blackjack_pays), stake)
        elif line.kind is WagerKind.INSURANCE:
            most = money.pay_odds(stake, INSURANCE_PAYS)
        else:
            assert isinstance(line.kind, BonusKind)
            most = money.pay_to_one(stake, DEFAULT_PAYTABLE.pays_to_one(line.kind))
        assert 0 <= line.win_cents <= most
        assert line.paid_cents <= stake + most
        expected_paid = {
            Result.WIN: stake + line.win_cents,
            Result.PUSH: stake,
            Result.LOSE: 0,
            Result.SURRENDER: money.half_floor(stake),
        }[line.result]
        assert line.paid_cents == expected_paid


def check_final_round(state: RoundState) -> None:
    """The shape of a round that is ready to settle."""
    rules = state.rules
    dealer_total, dealer_soft = total_and_soft(state.dealer_cards)
    dealer_blackjack = len(state.dealer_cards) == 2 and dealer_total == 21
    all_finished = all(h.status in FINISHED for seat in state.seats for h in seat.hands)
    if not dealer_blackjack and not all_finished:
        # the dealer had to draw: final hand >= 17 (hard 17+ under H17) or bust, and no card too many
        assert dealer_total >= 17
        assert not (rules.dealer is DealerRule.H17 and dealer_total == 17 and dealer_soft)
        before_last = total_and_soft(state.dealer_cards[:-1])
        if len(state.dealer_cards) > 2:
            assert before_last[0] < 17 or (rules.dealer is DealerRule.H17 and before_last == (17, True))
    else:
        assert len(state.dealer_cards) == 2
    for seat in state.seats:
        assert 1 <= len(seat.hands) <= rules.max_hands
        for hand in seat.hands:
            assert hand.status is not HandStatus.PLAYING
            assert (hand.total, hand.soft) == total_and_soft(hand.cards)
            assert len(hand.cards) >= 2
            if hand.doubled:
                assert hand.stake_cents == 2 * seat.wagers.primary_cents
            else:
                assert hand.stake_cents == seat.wagers.primary_cents
            if hand.split_from_aces and rules.split_aces_one_card and not rules.resplit_aces:
                assert len(hand.cards) == 2


def check_whole_round(played: PlayedRound, data: st.DataObject) -> None:
    state = played.final
    # needs() was never None before settlement (the driver fails otherwise); the round is complete
    assert all(needs(s) is not None for s in played.states)
    assert needs(state) == SettleNeed()
    check_final_round(state)
    # wagered = paid + house net, and no line pays more than stake * odds + stake
    result = settle(state, side_bet=TIE_BONUS_V1, aggregate_limit_cents=None)
    check_settlement(state, result)
    # with an aggregate limit below the bonus winnings, they sum to exactly the limit
    bonus_won = sum(line.win_cents for line in result.lines if line.kind in BONUS_KINDS)
    if bonus_won:
        limit = data.draw(st.integers(0, bonus_won - 1), label="limit")
        limited = settle(state, side_bet=TIE_BONUS_V1, aggregate_limit_cents=limit)
        check_settlement(state, limited)
        assert sum(line.win_cents for line in limited.lines if line.kind in BONUS_KINDS) == limit
        assert (limited.aggregate_limit_applied, limited.aggregate_reduction_cents) == (
            True,
            bonus_won - limit,
        )
        assert limited.paid_cents == result.paid_cents - (bonus_won - limit)


@SHRINKABLE_ROUNDS
@given(played=played_rounds(), data=st.data())
def test_any_legal_round_settles_conserving_money_within_the_odds(
    played: PlayedRound, data: st.DataObject
) -> None:
    check_whole_round(played, data)


@SEEDED_ROUNDS
@given(played=seeded_rounds(), data=st.data())
def test_thousands_of_seeded_rounds_settle_conserving_money_within_the_odds(
    played: PlayedRound, data: st.DataObject
) -> None:
    check_whole_round(played, data)


@FEWER_ROUNDS
@given(played=seeded_rounds())
def test_replaying_the_events_rebuilds_every_state(played: PlayedRound) -> None:
    assert replay(seats=played.seats, rules=played.rules, events=played.events) == played.final
    state = open_round(seats=played.seats, rules=played.rules)
    for event, expected in zip(played.events, played.states[1:], strict=True):
        state = apply_event(state, event)
        assert state == expected


@FEWER_ROUNDS
@given(played=seeded_rounds())
def test_stake_added_by_each_step_sums_to_everything_staked(played: PlayedRound) -> None:
    added = [stake_added(a, b) for a, b in zip(played.states, played.states[1:], strict=False)]
    assert all(cents >= 0 for cents in added)
    assert staked_cents(played.states[0]) + sum(added) == staked_cents(played.final)


@FEWER_ROUNDS
@given(played=seeded_rounds())
def test_the_shoe_gives_up_exactly_the_cards_dealt_and_never_goes_negative(played: PlayedRound) -> None:
    dealt = [event.card for event in played.events if isinstance(event, CardDealt)]
    assert played.shoe_after.cards_remaining == played.shoe_before.cards_remaining - len(dealt)
    assert all(0 <= n <= played.rules.decks for n in played.shoe_after.counts)
    in_round = [c for seat in played.final.seats for h in seat.hands for c in h.cards] + list(
        played.final.dealer_cards
    )
    assert sorted(map(str, in_round)) == sorted(map(str, dealt))


@FEWER_ROUNDS
@given(played=seeded_rounds())
def test_bonus_wagers_of_a_seat_that_split_more_than_once_always_lose(played: PlayedRound) -> None:
    result = settle(played.final, side_bet=TIE_BONUS_V1, aggregate_limit_cents=None)
    for seat in played.final.seats:
        if len(seat.hands) >= 3 or seat.hands[0].status is HandStatus.SURRENDERED:
            lines = [x for x in result.lines if x.seat == seat.seat and x.kind in BONUS_KINDS]
            assert all(x.result is Result.LOSE for x in lines)


class RoundMachine(RuleBasedStateMachine):
    """Rounds dealt one after another from one shoe, with illegal moves thrown in."""

    house: HouseRules
    shoe: Shoe
    state: RoundState
    staked: int

    @initialize(rules=house_rules(), seats=round_seats())
    def open_table(self, rules: HouseRules, seats: tuple[SeatWagers, ...]) -> None:
        self.house = rules
        self.shoe = new_shoe(decks=rules.decks)
        self.state = open_round(seats=seats, rules=rules)
        self.staked = staked_cents(self.state)

    @precondition(lambda self: isinstance(needs(self.state), CardToHand | CardToDealer))
    @rule(data=st.data())
    def deal_a_card(self, data: st.DataObject) -> None:
        card = data.draw(shoe_cards(self.shoe))
        self.shoe = self.shoe.draw(card)
        self.state = apply_card(self.state, card)

    @precondition(lambda self: isinstance(needs(self.state), ActionNeed))
    @rule(data=st.data())
    def take_an_allowed_action(self, data: st.DataObject) -> None:
        need = needs(self.state)
        assert isinstance(need, ActionNeed)
        action = data.draw(st.sampled_from(need.allowed))
        self.state = apply_action(self.state, seat=need.seat, hand=need.hand, action=action)

    @precondition(lambda self: isinstance(needs(self.state), InsuranceNeed))
    @rule(data=st.data())
    def answer_insurance(self, data: st.DataObject) -> None:
        need = needs(self.state)
        assert isinstance(need, InsuranceNeed)
        amount = data.draw(st.none() | st.integers(1, max(need.max_cents, 1)))
        if amount is None or need.max_cents == 0:
            self.state = apply_action(self.state, seat=need.seat, hand=0, action="decline_insurance")
        else:
            self.state = apply_action(
                self.state, seat=need.seat, hand=0, action="insurance", amount_cents=amount
            )

    @precondition(lambda self: self.state.phase not in (RoundPhase.SETTLED, RoundPhase.VOID))
    @rule(seat=st.integers(0, 8), hand=st.integers(0, 4), action=st.sampled_from(["hit", "stand", "double",
          "split", "surrender", "insurance", "decline_insurance", "fold"]), amount=st.none() | st.integers(-1, 10**6))  # fmt: skip
    def try_any_action(self, seat: int, hand: int, action: str, amount: int | None) -> None:
        before = self.state
        try:
            self.state = apply_action(before, seat=seat, hand=hand, action=action, amount_cents=amount)
        except RuleError as error:
            code = error.code
        else:
            code = ""
        if code:
            assert self.state == before
            return
        need = needs(before)
        assert isinstance(need, ActionNeed | InsuranceNeed)
        assert need.seat == seat

    @precondition(lambda self: not isinstance(needs(self.state), CardToHand | CardToDealer))
    @rule(data=st.data())
    def report_a_card_nobody_needs(self, data: st.DataObject) -> None:
        code = ""
        try:
            apply_card(self.state, data.draw(shoe_cards(self.shoe)))
        except RuleError as error:
            code = error.code
        assert code == "no_card_expected"

    @precondition(lambda self: self.state.phase is RoundPhase.READY_TO_SETTLE)
    @rule()
    def settle_the_round(self) -> None:
        check_final_round(self.state)
        check_settlement(self.state, settle(self.state, side_bet=TIE_BONUS_V1, aggregate_limit_cents=None))
        self.state = mark_settled(self.state)

    @precondition(lambda self: self.state.phase is RoundPhase.SETTLED)
    @rule(seats=round_seats())
    def open_the_next_round(self, seats: tuple[SeatWagers, ...]) -> None:
        if self.shoe.penetration_reached(percent=self.house.penetration_percent):
            self.shoe = new_shoe(decks=self.house.decks)
        self.state = open_round(seats=seats, rules=self.house)
        self.staked = staked_cents(self.state)

    @invariant()
    def needs_something_until_settled(self) -> None:
        assert (needs(self.state) is None) == (self.state.phase in (RoundPhase.SETTLED, RoundPhase.VOID))

    @invariant()
    def stakes_only_grow(self) -> None:
        staked = staked_cents(self.state)
        assert staked >= self.staked
        self.staked = staked

    @invariant()
    def the_shoe_never_goes_negative(self) -> None:
        assert all(0 <= n <= self.house.decks for n in self.shoe.counts)


TestRoundMachine = RoundMachine.TestCase
TestRoundMachine.settings = settings(
    max_examples=60, stateful_step_count=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
