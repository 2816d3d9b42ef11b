"""Small builders for engine example tests: wagers, scripted deals and actions."""

from blackjack.engine.round import Action, RoundState, apply_action, apply_card, open_round
from blackjack.engine.rules import HouseRules
from blackjack.engine.settlement import Line, Settlement, settle
from blackjack.engine.wagers import SeatWagers
from bonus_tie.engine.kinds import BonusKind
from bonus_tie.engine.paytable import DEFAULT_PAYTABLE
from bonus_tie.engine.tie_bonus import TIE_BONUS
from casino.engine.cards import Card, parse_card


def wagers(seat: int, primary: int = 1000, **bonus: int) -> SeatWagers:
    """`wagers(2, 1000, T18=100, RS=200)`."""
    return SeatWagers(
        seat=seat, primary_cents=primary, bonus_cents={BonusKind(k): v for k, v in bonus.items()}
    )


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_card(t) for t in text.split())


def deal(state: RoundState, text: str) -> RoundState:
    """Apply the cards in `text` ("8S 9H AS") one by one, in order."""
    for card in cards(text):
        state = apply_card(state, card)
    return state


def opened(*seats: SeatWagers, rules: HouseRules | None = None) -> RoundState:
    return open_round(seats=seats or (wagers(1),), rules=rules or HouseRules())


def started(deal_text: str, *seats: SeatWagers, rules: HouseRules | None = None) -> RoundState:
    """A round opened for `seats` (default: seat 1, 1000 cents) with `deal_text` dealt."""
    return deal(opened(*seats, rules=rules), deal_text)


def act(state: RoundState, seat: int, hand: int, action: str, amount_cents: int | None = None) -> RoundState:
    return apply_action(state, seat=seat, hand=hand, action=Action(action), amount_cents=amount_cents)


def settled(state: RoundState, *, limit: int | None = None) -> Settlement:
    return settle(state, side_bet=TIE_BONUS.on(DEFAULT_PAYTABLE), aggregate_limit_cents=limit)


def line(settlement: Settlement, seat: int, kind: str, hand: int = 0) -> Line:
    found = [x for x in settlement.lines if x.seat == seat and x.kind == kind and x.hand == hand]
    assert len(found) == 1, found
    return found[0]


def outcome(settlement: Settlement, seat: int, kind: str, hand: int = 0) -> tuple[str, int, int]:
    """(result, win_cents, paid_cents) of one line."""
    found = line(settlement, seat, kind, hand)
    return str(found.result), found.win_cents, found.paid_cents
