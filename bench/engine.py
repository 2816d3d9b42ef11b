"""Engine benchmark: seeded random tie-bonus rounds, driven from open to settlement on one core,
then as many special-card rounds (RULES.md §2), so the two engines' rates print side by side.

    python bench/engine.py [--rounds 100000] [--seed 1] [--decks 6|8] [--seats 1-7]

Each round: 7 seats (`--seats`), every wager kind placed (checked by `validate_wagers`), an
electronic shoe (shuffled order, drawn as `needs` asks, counted by `Shoe`),
random allowed actions, insurance answered at random, settlement with an
aggregate limit. A new shoe is shuffled once the cut card comes out.

Each special-card round: as many players, a shoe of its own, Aces declared 1 or 11 at random, random
allowed actions (a SWAP discards a random card of the hand), the round applied to its match
(outcomes, points-ledger entries, match end); a finished match is followed by a new one with
default thresholds and special cards dealt from the default special deck.
"""

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from blackjack.engine.round import (
    Action,
    ActionNeed,
    CardToDealer,
    CardToHand,
    InsuranceNeed,
    RoundState,
    apply_action,
    apply_card,
    needs,
    open_round,
)
from blackjack.engine.rules import HouseRules
from blackjack.engine.settlement import Settlement, settle
from blackjack.engine.wagers import SeatRequest, WagerRequest, validate_wagers
from bonus_tie.engine.kinds import BONUS_KINDS, LEFT_SIDE
from bonus_tie.engine.paytable import DEFAULT_PAYTABLE
from bonus_tie.engine.tie_bonus import TIE_BONUS
from casino.engine.cards import Card
from casino.engine.shoe import Shoe, new_shoe, shuffle_order
from casino.engine.wager_kinds import KindLimit, TableLimits, WagerKind
from specials.engine import round as specials_round
from specials.engine.match import (
    MatchState,
    PlayerRequest,
    RoundSettlement,
    Thresholds,
    open_match,
    round_entries,
    settle_round,
)
from specials.engine.special_cards import SpecialCard, SpecialDeck

AGGREGATE_LIMIT_CENTS = 500_000
TIE_BONUS_V1 = TIE_BONUS.on(DEFAULT_PAYTABLE)
REQUEST_POOL = 1_000


def seat_requests(rng: random.Random, seat_count: int) -> tuple[SeatRequest, ...]:
    seats = []
    for seat in range(1, seat_count + 1):
        primary = rng.randrange(1_000, 50_001)
        side = primary // 2 // 4  # each side holds four kinds, so a quarter of the side limit each
        wagers = [WagerRequest("primary", primary)]
        wagers += [WagerRequest(str(kind), rng.randrange(1, side + 1)) for kind in BONUS_KINDS]
        seats.append(SeatRequest(seat, tuple(wagers)))
    return tuple(seats)


class ElectronicShoe:
    def __init__(self, *, decks: int, rng: random.Random) -> None:
        self.decks = decks
        self.rng = rng
        self.shuffles = 0
        self._start()

    def _start(self) -> None:
        self.order = shuffle_order(decks=self.decks, rng=self.rng)
        self.position = 0
        self.shoe: Shoe = new_shoe(decks=self.decks)
        self.shuffles += 1

    def draw(self) -> Card:
        card = self.order[self.position]
        self.position += 1
        self.shoe = self.shoe.draw(card)
        return card

    def end_of_round(self, rules: HouseRules) -> None:
        if self.shoe.penetration_reached(percent=rules.penetration_percent):
            self._start()


def play_round(
    rng: random.Random,
    requests: tuple[SeatRequest, ...],
    shoe: ElectronicShoe,
    rules: HouseRules,
    limits: TableLimits,
) -> tuple[RoundState, Settlement]:
    state = open_round(seats=validate_wagers(seats=requests, limits=limits, side_bet=TIE_BONUS), rules=rules)
    while True:
        need = needs(state)
        if isinstance(need, (CardToHand, CardToDealer)):
            state = apply_card(state, shoe.draw())
        elif isinstance(need, ActionNeed):
            action = rng.choice(need.allowed)
            state = apply_action(state, seat=need.seat, hand=need.hand, action=action)
        elif isinstance(need, InsuranceNeed):
            if need.max_cents and rng.random() < 0.3:
                amount = rng.randrange(1, need.max_cents + 1)
                state = apply_action(
                    state, seat=need.seat, hand=0, action=Action.INSURANCE, amount_cents=amount
                )
            else:
                state = apply_action(state, seat=need.seat, hand=0, action=Action.DECLINE_INSURANCE)
        else:
            break
    result = settle(state, side_bet=TIE_BONUS_V1, aggregate_limit_cents=AGGREGATE_LIMIT_CENTS)
    shoe.end_of_round(rules)
    return state, result


def play_specials_round(rng: random.Random, match: MatchState, shoe: ElectronicShoe) -> RoundSettlement:
    state = specials_round.open_round(seats=round_entries(match))
    while (need := specials_round.needs(state)) is not None:
        if isinstance(need, specials_round.CardToSeat | specials_round.CardToDealer):
            state = specials_round.apply_card(state, shoe.draw())
        elif isinstance(need, specials_round.DeclareAceNeed):
            value = rng.choice(specials_round.ACE_VALUES)
            state = specials_round.apply_action(state, seat=need.seat, action="declare_ace", value=value)
        else:
            action = rng.choice(need.allowed)
            hand = state.seat(need.seat)
            discard = None
            if action is specials_round.Action.USE_SPECIAL and hand.special is SpecialCard.SWAP:
                discard = rng.choice(hand.cards).card
            state = specials_round.apply_action(state, seat=need.seat, action=action, discard=discard)
    return settle_round(match, state)


def bench_specials(
    rng: random.Random, rounds: int, seats: int, shoe: ElectronicShoe, rules: HouseRules
) -> None:
    players = [PlayerRequest(seat) for seat in range(1, seats + 1)]
    deck = SpecialDeck()

    def new_match() -> MatchState:
        return open_match(players=players, thresholds=Thresholds(), deck=deck, rng=rng)

    match = new_match()
    matches = 1
    started, cpu_started = time.perf_counter(), time.process_time()
    for _ in range(rounds):
        match = play_specials_round(rng, match, shoe).match
        shoe.end_of_round(rules)
        if match.finished:
            match = new_match()
            matches += 1
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started

    print(f"specials: {rounds} rounds ({matches} matches, {seats} players) in {elapsed:.2f} s")
    print(f"specials: {rounds / elapsed:,.0f} rounds/s on one core ({rounds / cpu:,.0f} per CPU-second)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--decks", type=int, default=6, choices=(6, 8))
    parser.add_argument(
        "--seats", type=int, default=7, choices=range(1, 8), help="occupied seats (default 7)"
    )
    args = parser.parse_args()

    rng = random.Random(args.seed)
    rules = HouseRules(decks=args.decks, surrender=True)
    limits = TableLimits(
        {WagerKind.PRIMARY: KindLimit(100, 100_000), **{k: KindLimit(1, 25_000) for k in LEFT_SIDE}}
    )
    shoe = ElectronicShoe(decks=args.decks, rng=rng)

    # Requests are drawn from a pool made up front, so the timing is the engine's, not the RNG's.
    pool = [seat_requests(rng, args.seats) for _ in range(REQUEST_POOL)]
    hands = wagered = house_net = 0
    started, cpu_started = time.perf_counter(), time.process_time()
    for _ in range(args.rounds):
        state, result = play_round(rng, rng.choice(pool), shoe, rules, limits)
        hands += sum(len(seat.hands) for seat in state.seats)
        wagered += result.wagered_cents
        house_net += result.house_net_cents
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started

    print(f"{args.rounds} rounds ({hands} hands, {shoe.shuffles} shoes) in {elapsed:.2f} s")
    print(f"{args.rounds / elapsed:,.0f} rounds/s on one core ({args.rounds / cpu:,.0f} per CPU-second)")
    print(f"house net {house_net / wagered:.2%} of {wagered} cents wagered (random play)")

    bench_specials(rng, args.rounds, args.seats, ElectronicShoe(decks=args.decks, rng=rng), rules)


if __name__ == "__main__":
    main()
