"""The tie bonus as a side bet of the core, and the odds modules' Blackjack being the core's."""

import pytest

from bonus_tie.engine.dealer_odds import blackjack_hole, completes_blackjack
from bonus_tie.engine.kinds import BONUS_KINDS, BonusKind
from bonus_tie.engine.limits import LeftSideLimitError
from bonus_tie.engine.paytable import DEFAULT_PAYTABLE, Paytable
from bonus_tie.engine.rank_counts import VALUES, counts_of, is_blackjack
from bonus_tie.engine.tie_bonus import TIE_BONUS
from casino.engine.cards import ALL_CARDS
from casino.engine.hands import FinalHand
from casino.engine.hands import is_blackjack as cards_are_blackjack
from casino.engine.side_bet import SideBet, SideBetKind, SideBetOffer


def test_the_tie_bonus_is_a_side_bet_paid_by_a_paytable() -> None:
    side_bet: SideBet[Paytable] = TIE_BONUS  # mypy checks it implements the interface
    assert side_bet.kinds == BONUS_KINDS
    assert [kind.position for kind in BonusKind] == list(range(8))
    assert TIE_BONUS.on(DEFAULT_PAYTABLE) == SideBetOffer(rules=TIE_BONUS, terms=DEFAULT_PAYTABLE, version=1)


def test_winnings_are_the_paytable_lines_of_the_kinds_the_tie_wins() -> None:
    placed: dict[SideBetKind, int] = {BonusKind.T18: 100, BonusKind.LS: 50, BonusKind.RS: 10}
    wins = TIE_BONUS.winnings(
        placed=placed, hands=(FinalHand(total=18),), dealer=FinalHand(total=18), terms=DEFAULT_PAYTABLE
    )
    assert wins == {BonusKind.T18: 4500, BonusKind.LS: 750}
    # rule 2: a seat that split more than once wins nothing
    three_hands = (FinalHand(total=18),) * 3
    assert not TIE_BONUS.winnings(
        placed=placed, hands=three_hands, dealer=FinalHand(total=18), terms=DEFAULT_PAYTABLE
    )


def test_placement_checks_the_side_limits() -> None:
    TIE_BONUS.check_seat(seat=1, primary_cents=1000, placed={BonusKind.LS: 500}, field="seats[0].wagers")
    with pytest.raises(LeftSideLimitError) as raised:
        TIE_BONUS.check_seat(seat=1, primary_cents=1000, placed={BonusKind.LS: 501}, field="seats[0].wagers")
    assert (raised.value.code, raised.value.field) == ("left_side_limit", "seats[0].wagers")


@pytest.mark.parametrize("up", VALUES)
def test_value_counts_make_a_blackjack_exactly_when_cards_do(up: int) -> None:
    card_of_value = {card.value: card for card in ALL_CARDS}
    for hole in VALUES:
        expected = cards_are_blackjack((card_of_value[up], card_of_value[hole]))
        assert is_blackjack(counts_of((up, hole))) is expected
        assert completes_blackjack(up, hole) is expected
        assert (blackjack_hole(up) == hole) is expected
    assert is_blackjack(counts_of((1, 5, 5))) is False
