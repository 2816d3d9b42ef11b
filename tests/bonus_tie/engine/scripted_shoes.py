"""Shoes of a few ranks, and a primary hand played out against them, for the exact-figure tests."""

from collections.abc import Callable

from blackjack.engine.rules import DealerRule, HouseRules
from bonus_tie.engine.basic_strategy import basic_strategy_play
from bonus_tie.engine.rank_counts import ACE, TEN
from tests.bonus_tie.engine.scripted_hands import _Hand

H17 = HouseRules(dealer=DealerRule.H17)


def _play_primary(draw: Callable[[], int], rules: HouseRules) -> float:
    """One round, one seat on basic strategy: the primary's net per unit (RULES.md §1.2)."""
    first, up, second, hole = draw(), draw(), draw(), draw()
    blackjack_pays = rules.blackjack_pays.num / rules.blackjack_pays.den
    player_blackjack = sorted((first, second)) == [ACE, TEN]
    if sorted((up, hole)) == [ACE, TEN]:
        return 0.0 if player_blackjack else -1.0
    if player_blackjack:
        return blackjack_pays
    hands = [_Hand([first, second])]
    i = 0
    while i < len(hands):
        hand = hands[i]
        while not hand.done:
            if len(hand.cards) == 1:
                hand.cards.append(draw())
            total, soft = hand.total
            split_ace = hand.split_from == ACE and rules.split_aces_one_card
            pair = hand.cards[0] if len(hand.cards) == 2 and hand.cards[0] == hand.cards[1] else None
            can_split = (
                pair is not None
                and len(hands) < rules.max_hands
                and not (pair == ACE and hand.split_from is not None and not rules.resplit_aces)
            )
            if total >= 21 or (split_ace and not can_split):
                break
            play = basic_strategy_play(
                total=total,
                soft=soft,
                pair=pair,
                up=up,
                rules=rules,
                can_double=len(hand.cards) == 2
                and not split_ace
                and (rules.double_after_split or hand.split_from is None),
                can_split=can_split,
                can_surrender=False,
            )
            if play == "stand":
                hand.done = True
            elif play == "split":
                assert pair is not None
                hand.cards = [pair]
                hand.split_from = pair
                hands.insert(i + 1, _Hand([pair], split_from=pair))
            elif play == "double":
                hand.cards.append(draw())
                hand.doubled = hand.done = True
            else:
                hand.cards.append(draw())
        i += 1
    dealer = [up, hole]
    if any(h.total[0] <= 21 for h in hands):
        while True:
            total, soft = _Hand(dealer).total
            if total < 17 or (total == 17 and soft and rules.dealer is DealerRule.H17):
                dealer.append(draw())
            else:
                break
    dealer_total = _Hand(dealer).total[0]
    net = 0.0
    for hand in hands:
        stake = 2.0 if hand.doubled else 1.0
        total = hand.total[0]
        if total > 21:
            net -= stake
        elif dealer_total > 21 or total > dealer_total:
            net += stake
        elif total < dealer_total:
            net -= stake
    return net


# Shoes no round can run out of, with few card values so that every card sequence can be played:
# eights are split and re-split against every up card; Aces are split (and re-split when the
# rules allow); sevens, nines and tens make hands that hit, double and stand.
EIGHTS_AND_TENS = (0, 0, 0, 0, 0, 0, 0, 30, 0, 30)


ACES_AND_TENS = (30, 0, 0, 0, 0, 0, 0, 0, 0, 30)


SEVENS_NINES_TENS = (0, 0, 0, 0, 0, 0, 25, 0, 25, 20)
