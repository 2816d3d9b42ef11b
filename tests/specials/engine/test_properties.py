"""Whole random legal matches: properties that hold for every one (RULES.md §2)."""

import functools
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from casino.engine.cards import ALL_CARDS, Card
from casino.engine.errors import RuleError
from casino.engine.hands import hand_total
from casino.engine.shoe import Shoe, new_shoe
from specials.engine.match import (
    LedgerReason,
    MatchState,
    PlayerRequest,
    Thresholds,
    balance_from_ledger,
    open_match,
    replay_match,
    round_entries,
    settle_round,
)
from specials.engine.round import (
    ACE_VALUES,
    AceDeclared,
    Action,
    ActionNeed,
    ActionTaken,
    CardDealt,
    CardToDealer,
    CardToSeat,
    DeclareAceNeed,
    Result,
    RoundEvent,
    RoundPhase,
    RoundState,
    SeatEntry,
    SeatStatus,
    apply_action,
    apply_card,
    apply_event,
    card_event,
    needs,
    open_round,
    replay,
)
from specials.engine.special_cards import SpecialCard, SpecialDeck
from tests.specials.engine.helpers import error_code
from tests.specials.engine.strategies import (
    PlayedMatch,
    played_matches,
    player_requests,
    seeded_matches,
    thresholds,
)
from tests.strategies import shoe_cards

# A whole match is up to a few hundred steps (seven players, up to 60 rounds), so the budgets are
# small: a dozen shrinkable matches per property, fifty seeded ones (a single draw each) per test,
# and twenty machine runs; the whole file stays around ten seconds.
SHRINKABLE_MATCHES = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEEDED_MATCHES = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_balances_between_thresholds(played: PlayedMatch) -> None:
    limits = played.opened.thresholds
    matches = played.matches
    for match in matches[:-1]:
        assert not match.finished
        assert all(limits.lose_points < p.points < limits.win_points for p in match.players)
    final = matches[-1]
    crossed = [p for p in final.players if not limits.lose_points < p.points < limits.win_points]
    assert final.finished == bool(crossed)
    assert final.winners == tuple(p.seat for p in final.players if p.points >= limits.win_points)
    assert final.eliminated == tuple(p.seat for p in final.players if p.points <= limits.lose_points)


def check_ledger(played: PlayedMatch) -> None:
    limits = played.opened.thresholds
    for match in played.matches:
        for player in match.players:
            assert balance_from_ledger(match.ledger, player.seat) == player.points
            running = 0
            for entry in (e for e in match.ledger if e.seat == player.seat):
                running += entry.delta
                assert entry.balance == running
                assert entry.reason is (
                    LedgerReason.START
                    if entry.round is None
                    else LedgerReason.WIN
                    if entry.delta > 0
                    else LedgerReason.LOSE
                )
            start = [e for e in match.ledger if e.seat == player.seat and e.reason is LedgerReason.START]
            assert [e.delta for e in start] == [limits.start_points]
    for number, played_round in enumerate(played.rounds, start=1):
        settlement = played_round.settlement
        assert settlement.round == number
        changed = [o for o in settlement.outcome if o.delta]
        assert [(e.seat, e.delta, e.balance) for e in settlement.entries] == [
            (o.seat, o.delta, o.points) for o in changed
        ]
        assert all(e.round == number for e in settlement.entries)


def check_special_use(played: PlayedMatch) -> None:
    for match in played.matches[1:]:
        for player in match.players:
            uses = sum(
                1
                for played_round in played.rounds[: match.rounds_played]
                if played_round.final.seat(player.seat).used_special_this_round
            )
            assert uses <= 1
            assert player.special_used == (uses == 1)
    for played_round in played.rounds:
        for state in played_round.states:
            need = needs(state)
            if isinstance(need, ActionNeed) and state.seat(need.seat).special_used:
                assert Action.USE_SPECIAL not in need.allowed
                hand = state.seat(need.seat)
                second_use = functools.partial(
                    apply_action, state, seat=hand.seat, action="use_special", discard=hand.cards[0].card
                )
                assert error_code(second_use) == "special_already_used"


def check_no_card_reaches_a_finished_hand(played: PlayedMatch) -> None:
    for played_round in played.rounds:
        for before, event, after in zip(
            played_round.states[:-1], played_round.events, played_round.states[1:], strict=True
        ):
            for hand_before, hand_after in zip(before.seats, after.seats, strict=True):
                if hand_before.status is not SeatStatus.PLAYING:
                    assert hand_after == hand_before
            if isinstance(event, CardDealt):
                if event.seat is None:
                    assert before.phase in (RoundPhase.DEALING, RoundPhase.DEALER)
                else:
                    assert before.seat(event.seat).status is SeatStatus.PLAYING
                    assert before.declaring is None


def check_final_round(state: RoundState, match_before: MatchState) -> None:
    dealer = hand_total(state.dealer_cards)
    if all(hand.status is SeatStatus.BUST for hand in state.seats):
        assert len(state.dealer_cards) == 2  # the deal is completed, nothing more
    else:
        assert dealer >= 17
        assert len(state.dealer_cards) == 2 or hand_total(state.dealer_cards[:-1]) < 17
    for hand, player in zip(state.seats, match_before.players, strict=True):
        assert hand.status is not SeatStatus.PLAYING
        assert len(hand.cards) >= 2
        assert all(held.value in ((1, 11) if held.card.is_ace else (held.card.value,)) for held in hand.cards)
        assert hand.total == sum(held.value or 0 for held in hand.cards) + hand.plus_one
        assert (hand.status is SeatStatus.BUST) == (hand.total > 21)
        assert len(hand.discarded) <= 1
        assert not (hand.plus_one and hand.discarded)
        if hand.used_special_this_round:
            assert not player.special_used
    assert needs(state) is None


@SHRINKABLE_MATCHES
@given(played=played_matches())
def test_balances_stay_strictly_between_the_thresholds_until_the_match_ends(played: PlayedMatch) -> None:
    check_balances_between_thresholds(played)


@SEEDED_MATCHES
@given(played=seeded_matches())
def test_every_seeded_match_keeps_its_balances_ledger_and_special_cards_in_order(played: PlayedMatch) -> None:
    check_balances_between_thresholds(played)
    check_ledger(played)
    check_special_use(played)
    check_no_card_reaches_a_finished_hand(played)
    for match, played_round in zip(played.matches, played.rounds, strict=False):
        check_final_round(played_round.final, match)


@SHRINKABLE_MATCHES
@given(played=played_matches())
def test_the_ledger_entries_sum_to_the_balances(played: PlayedMatch) -> None:
    check_ledger(played)


@SHRINKABLE_MATCHES
@given(played=played_matches())
def test_each_player_uses_the_special_card_at_most_once_per_match(played: PlayedMatch) -> None:
    check_special_use(played)


@SHRINKABLE_MATCHES
@given(played=played_matches())
def test_no_card_reaches_a_finished_hand(played: PlayedMatch) -> None:
    check_no_card_reaches_a_finished_hand(played)


@SEEDED_MATCHES
@given(played=seeded_matches())
def test_replaying_the_event_log_rebuilds_every_state(played: PlayedMatch) -> None:
    for played_round in played.rounds:
        assert replay(seats=played_round.entries, events=played_round.events) == played_round.final
        state = open_round(seats=played_round.entries)
        for event, expected in zip(played_round.events, played_round.states[1:], strict=True):
            state = apply_event(state, event)
            assert state == expected
    assert replay_match(opened=played.opened, rounds=[r.final for r in played.rounds]) == played.final


@SEEDED_MATCHES
@given(played=seeded_matches())
def test_outcomes_follow_the_totals_and_move_each_balance_by_one_at_most(played: PlayedMatch) -> None:
    for match, played_round in zip(played.matches, played.rounds, strict=False):
        state = played_round.final
        dealer = hand_total(state.dealer_cards)
        for hand, player, outcome in zip(
            state.seats, match.players, played_round.settlement.outcome, strict=True
        ):
            # RULES.md §2 written out again here, independently of outcome_for and points_delta
            if hand.total > 21:
                expected, delta = Result.LOSE, -1
            elif dealer > 21 or hand.total > dealer:
                expected, delta = Result.WIN, 1
            elif hand.total < dealer:
                expected, delta = Result.LOSE, -1
            else:
                expected, delta = Result.DRAW, 0
            assert (outcome.result, outcome.delta) == (expected, delta)
            assert outcome.points == player.points + outcome.delta


class MatchMachine(RuleBasedStateMachine):
    """Whole matches, round after round from one shoe, driven by random legal steps with
    illegal ones thrown in (which must change nothing)."""

    match: MatchState
    state: RoundState
    events: list[RoundEvent]
    entries: tuple[SeatEntry, ...]
    shoe: Shoe
    rounds: list[RoundState]
    opened: MatchState

    @initialize(requests=player_requests(), limits=thresholds(), seed=st.integers(0, 2**32))
    def open_a_match(self, requests: tuple[PlayerRequest, ...], limits: Thresholds, seed: int) -> None:
        self.match = open_match(
            players=requests, thresholds=limits, deck=SpecialDeck(), rng=random.Random(seed)
        )
        self.opened = self.match
        self.shoe = new_shoe(decks=6)
        self.rounds = []
        self._open_round()

    def _open_round(self) -> None:
        self.entries = round_entries(self.match)
        self.state = open_round(seats=self.entries)
        self.events = []

    def _apply(self, event: RoundEvent, state: RoundState) -> None:
        before = self.state
        for hand_before, hand_after in zip(before.seats, state.seats, strict=True):
            if hand_before.status is not SeatStatus.PLAYING:
                assert hand_after == hand_before  # no card or change reaches a finished hand
        self.state = state
        self.events.append(event)
        if state.phase is RoundPhase.FINISHED:
            self.rounds.append(state)
            self.match = settle_round(self.match, state).match

    def _round_open(self) -> bool:
        return self.state.phase is not RoundPhase.FINISHED

    @precondition(lambda self: isinstance(needs(self.state), CardToSeat | CardToDealer))
    @rule(data=st.data())
    def deal_a_card(self, data: st.DataObject) -> None:
        card = data.draw(shoe_cards(self.shoe))
        self.shoe = self.shoe.draw(card)
        self._apply(card_event(self.state, card), apply_card(self.state, card))

    @precondition(lambda self: isinstance(needs(self.state), DeclareAceNeed))
    @rule(value=st.sampled_from(ACE_VALUES))
    def declare_the_ace(self, value: int) -> None:
        need = needs(self.state)
        assert isinstance(need, DeclareAceNeed)
        event = AceDeclared(need.seat, value)
        self._apply(event, apply_action(self.state, seat=need.seat, action="declare_ace", value=value))

    @precondition(lambda self: isinstance(needs(self.state), ActionNeed))
    @rule(data=st.data())
    def take_an_allowed_action(self, data: st.DataObject) -> None:
        need = needs(self.state)
        assert isinstance(need, ActionNeed)
        action = data.draw(st.sampled_from(need.allowed))
        hand = self.state.seat(need.seat)
        discard = None
        if action is Action.USE_SPECIAL and hand.special is SpecialCard.SWAP:
            discard = data.draw(st.sampled_from(hand.cards)).card
        event = ActionTaken(need.seat, action, discard)
        self._apply(event, apply_action(self.state, seat=need.seat, action=action, discard=discard))

    @precondition(lambda self: self._round_open())
    @rule(
        seat=st.integers(0, 8),
        action=st.sampled_from(["hit", "stand", "declare_ace", "use_special", "double", "fold"]),
        value=st.none() | st.sampled_from([0, 1, 10, 11, 12]),
        discard=st.none() | st.sampled_from(ALL_CARDS),
    )
    def try_any_action(self, seat: int, action: str, value: int | None, discard: Card | None) -> None:
        before = self.state
        try:
            after = apply_action(before, seat=seat, action=action, value=value, discard=discard)
        except RuleError as error:
            code = error.code
        else:
            code = ""
        if code:
            assert code in {
                "ace_value_required", "invalid_ace_value", "special_already_used", "action_not_allowed",
                "not_your_turn", "card_not_in_hand", "no_action_expected", "validation_error",
            }  # fmt: skip
            assert self.state == before
            return
        need = needs(before)
        assert isinstance(need, ActionNeed | DeclareAceNeed)
        assert need.seat == seat
        event: RoundEvent = (
            AceDeclared(seat, value)
            if action == "declare_ace" and value is not None
            else ActionTaken(seat, Action(action), discard)
        )
        self._apply(event, after)

    @precondition(lambda self: not isinstance(needs(self.state), CardToSeat | CardToDealer))
    @rule(data=st.data())
    def report_a_card_nobody_needs(self, data: st.DataObject) -> None:
        try:
            apply_card(self.state, data.draw(shoe_cards(self.shoe)))
        except RuleError as error:
            code = error.code
        else:
            code = ""
        expected = (
            "ace_value_required" if isinstance(needs(self.state), DeclareAceNeed) else "no_card_expected"
        )
        assert code == expected

    @precondition(lambda self: self.state.phase is RoundPhase.FINISHED and not self.match.finished)
    @rule()
    def open_the_next_round(self) -> None:
        if self.shoe.penetration_reached(percent=75):
            self.shoe = new_shoe(decks=6)  # the match outlives the shoe
        self._open_round()

    @precondition(lambda self: self.match.finished)
    @rule()
    def no_round_after_the_match_ends(self) -> None:
        assert error_code(lambda: round_entries(self.match)) == "match_finished"

    @invariant()
    def needs_something_until_the_round_finishes(self) -> None:
        assert (needs(self.state) is None) == (self.state.phase is RoundPhase.FINISHED)

    @invariant()
    def the_round_replays_from_its_events(self) -> None:
        assert replay(seats=self.entries, events=self.events) == self.state

    @invariant()
    def the_match_replays_from_its_rounds(self) -> None:
        assert replay_match(opened=self.opened, rounds=self.rounds) == self.match

    @invariant()
    def balances_stay_between_the_thresholds_until_the_match_ends(self) -> None:
        limits = self.match.thresholds
        inside = all(limits.lose_points < p.points < limits.win_points for p in self.match.players)
        assert inside != self.match.finished

    @invariant()
    def the_ledger_sums_to_the_balances(self) -> None:
        for player in self.match.players:
            assert balance_from_ledger(self.match.ledger, player.seat) == player.points

    @invariant()
    def a_special_card_is_used_once_per_match_at_most(self) -> None:
        for player in self.match.players:
            uses = sum(1 for state in self.rounds if state.seat(player.seat).used_special_this_round)
            assert uses == int(player.special_used)


TestMatchMachine = MatchMachine.TestCase
TestMatchMachine.settings = settings(
    max_examples=20, stateful_step_count=50, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
