"""What a player hand may do under the house rules, and what basic strategy does with it.

Shared by the tie odds (basic strategy) and the steering analysis. A hand
is a composition (`Counts`); `split_value` is the value of the pair it was split from (None for
the seat's unsplit hand). The seat holds two hands while a split hand is played; a further
split would make three, which ends every bonus wager (RULES.md §1.3 rule 2).
"""

from dataclasses import dataclass

from blackjack.engine.rules import HouseRules
from bonus_tie.engine.basic_strategy import Play, basic_strategy_play
from bonus_tie.engine.rank_counts import ACE, BLACKJACK_TOTAL, Counts, total_of

HANDS_AFTER_ONE_SPLIT = 2
DOUBLE_TOTALS = (9, 10, 11)  # where doubling is allowed when "double on any two" is off


@dataclass(frozen=True, slots=True)
class Options:
    """The plays a hand may choose from, beside hit and stand (when it may act at all)."""

    acts: bool
    double: bool
    split: bool
    surrender: bool


def may_split_pair(rules: HouseRules, *, value: int, hands: int, from_split: bool) -> bool:
    """A first-two-card pair of `value` may be split (for tens: when split by value is on)."""
    if hands >= rules.max_hands:
        return False
    return not (value == ACE and from_split and not rules.resplit_aces)


def options(hand: Counts, *, rules: HouseRules, split_value: int | None) -> Options:
    """What a hand with these cards may do (RULES.md §1.2; `split_value` None = unsplit hand)."""
    cards = sum(hand)
    total, _ = total_of(hand)
    from_split = split_value is not None
    if total >= BLACKJACK_TOTAL:
        return Options(acts=False, double=False, split=False, surrender=False)
    one_card_ace = from_split and split_value == ACE and rules.split_aces_one_card and cards == 2
    pair_value = next((i + 1 for i, count in enumerate(hand) if count == 2), None) if cards == 2 else None
    split = pair_value is not None and may_split_pair(
        rules,
        value=pair_value,
        hands=HANDS_AFTER_ONE_SPLIT if from_split else 1,
        from_split=from_split,
    )
    if pair_value == 10 and not rules.split_by_value:
        split = False  # ranks are not tracked here; basic strategy never splits tens anyway
    double = (
        cards == 2
        and not one_card_ace
        and (rules.double_any_two or total in DOUBLE_TOTALS)
        and (rules.double_after_split or not from_split)
    )
    surrender = rules.surrender and not from_split and cards == 2
    return Options(acts=not one_card_ace or split, double=double, split=split, surrender=surrender)


def basic_play(hand: Counts, *, up: int, rules: HouseRules, split_value: int | None) -> Play:
    """Basic strategy's play for a hand of two or more cards that has not finished."""
    allowed = options(hand, rules=rules, split_value=split_value)
    if not allowed.acts:
        return Play.STAND
    total, soft = total_of(hand)
    pair = next((i + 1 for i, count in enumerate(hand) if count == 2), None) if sum(hand) == 2 else None
    play = basic_strategy_play(
        total=total,
        soft=soft,
        pair=pair,
        up=up,
        rules=rules,
        can_double=allowed.double,
        can_split=allowed.split,
        can_surrender=allowed.surrender,
    )
    one_card_ace = split_value == ACE and rules.split_aces_one_card
    if one_card_ace and play is not Play.SPLIT:
        return Play.STAND  # a split Ace took its one card; only a re-split could follow
    return play
