"""Dynamic programme of a hand's value against one up card, best play and basic strategy.

For the steering check (steering.py). Every hand composition the seat can reach against the up
card gets a value per scenario, a vector: the expected net of primary + bonus (a scenario is a
set of bonus wagers, given as its net bonus result per tie outcome). Two policies: the best
play, the maximum over the plays allowed at each composition (hit, stand, double, split at the
first two cards, surrender where allowed), and basic strategy. The dealer's final totals are
exact for each composition (dealer_odds.py).

Splits are modelled as one split without re-splits, each split hand drawing from the shoe less
the up card and both pair cards (the other split hand's draws are ignored); hand 0 carries the
bonus, hand 1 only the primary. Standing on a hard total of 11 or less is never considered by
the best play: hitting cannot bust there and, by exchangeability, never does worse.
"""

import dataclasses
from dataclasses import dataclass

from bonus_tie.engine.basic_strategy import Play
from bonus_tie.engine.dealer_odds import (
    BUST,
    DealerOdds,
    blackjack_hole,
    blackjack_probability,
    outcome_index,
)
from bonus_tie.engine.hand_play import basic_play, options
from bonus_tie.engine.rank_counts import (
    BLACKJACK_TOTAL,
    NO_CARDS,
    TEN,
    VALUES,
    Counts,
    is_blackjack,
    total_of,
    with_card,
    without,
)
from bonus_tie.engine.tie_odds import TIE_BLACKJACK, TIE_OUTCOMES, first_deals
from casino.engine.rules import HouseRules

NO_TIE = TIE_OUTCOMES  # index of "no tie" in a scenario's bonus results
TEN_RANKS = 4  # T, J, Q, K

Vector = list[float]


@dataclass(frozen=True, slots=True)
class UpCardSteering:
    """Expected net per scenario, jointly with one up card, under both policies."""

    up: int
    best: tuple[float, ...]
    basic: tuple[float, ...]


def up_card_steering(
    *, shoe: Counts, up: int, rules: HouseRules, payoffs: tuple[tuple[float, ...], ...], dealer: DealerOdds
) -> UpCardSteering:
    """Values of the round for each scenario (`payoffs[i]`: net bonus per tie outcome, then no tie)."""
    programme = BestPlayProgramme(shoe=shoe, up=up, rules=rules, payoffs=payoffs, dealer=dealer)
    best, basic = programme.round_values()
    return UpCardSteering(up, tuple(best), tuple(basic))


class BestPlayProgramme:
    """Values of every hand against one up card, for all scenarios at once (a vector each).

    Values are joint with "the dealer has no Blackjack" (the hands the player gets to play),
    so hitting sums over the next card without conditioning; the common factor does not change
    which play is best at a given hand. A hand is known by its cards (`hand`) and the cards it
    can still draw (`remaining`); `split_value` marks a split hand, `bonus` the hand that
    carries the bonus wagers (the unsplit hand, or hand 0 of a split).
    """

    def __init__(
        self,
        *,
        shoe: Counts,
        up: int,
        rules: HouseRules,
        payoffs: tuple[tuple[float, ...], ...],
        dealer: DealerOdds,
    ) -> None:
        self.shoe = shoe
        self.up = up
        self.rules = rules
        # Split hands are never re-split in this model.
        self.split_rules = dataclasses.replace(rules, max_hands=min(rules.max_hands, 2))
        self.payoffs = payoffs
        self.no_tie = [p[NO_TIE] for p in payoffs]
        self.dealer = dealer
        self.pool = without(shoe, with_card(NO_CARDS, up))
        self.size = len(payoffs)
        self.peek_value = blackjack_hole(up)
        self._dealer_views: dict[Counts, tuple[tuple[float, ...], float]] = {}
        self._memo: dict[tuple[Counts, int | None, bool, bool], Vector] = {}

    # -- leaves

    def _no_blackjack(self, remaining: Counts) -> float:
        """P(the hole card, from `remaining`, gives no dealer Blackjack); 0 when there is no
        hole card to deal (a void round, tiny test shoes only)."""
        left = sum(remaining)
        if left == 0:
            return 0.0
        return 1.0 if self.peek_value is None else 1.0 - remaining[self.peek_value - 1] / left

    def stand(self, remaining: Counts, total: int, *, stake: float, bonus: bool) -> Vector:
        view = self._dealer_views.get(remaining)
        if view is None:
            d = self.dealer.final_totals(remaining, self.up)
            view = (d, sum(d))
            self._dealer_views[remaining] = view
        d, no_blackjack = view
        if total < 17:
            primary = 2.0 * d[BUST] - no_blackjack
        else:
            primary = d[BUST] + sum(d[i] * ((total > 17 + i) - (total < 17 + i)) for i in range(5))
        if not bonus:
            return [stake * primary] * self.size
        values = [stake * primary + no_tie * no_blackjack for no_tie in self.no_tie]
        if total >= 17:
            index = outcome_index(total)
            chance = d[index]
            for i, payoff in enumerate(self.payoffs):
                values[i] += chance * (payoff[index] - payoff[NO_TIE])
        return values

    def bust(self, remaining: Counts, *, stake: float, bonus: bool) -> Vector:
        no_blackjack = self._no_blackjack(remaining)
        if not bonus:
            return [-stake * no_blackjack] * self.size
        return [(-stake + no_tie) * no_blackjack for no_tie in self.no_tie]

    def surrender(self, remaining: Counts) -> Vector:
        no_blackjack = self._no_blackjack(remaining)
        return [(-0.5 + no_tie) * no_blackjack for no_tie in self.no_tie]

    # -- hands

    def hand_value(
        self, hand: Counts, remaining: Counts, *, split_value: int | None, bonus: bool, best: bool
    ) -> Vector:
        """Value of a hand with at least one card still to be completed."""
        key = (remaining, split_value, bonus, best)
        found = self._memo.get(key)
        if found is not None:
            return found
        total, _ = total_of(hand)
        if sum(hand) < 2:  # a split hand takes its second card
            value = self._draw(hand, remaining, split_value=split_value, bonus=bonus, best=best)
        elif total >= BLACKJACK_TOTAL:
            value = self.stand(remaining, total, stake=1.0, bonus=bonus)
        else:
            rules = self.split_rules if split_value is not None else self.rules
            allowed = options(hand, rules=rules, split_value=split_value)
            if not allowed.acts:
                value = self.stand(remaining, total, stake=1.0, bonus=bonus)
            elif best:
                plays = [Play.HIT]
                if total >= 12:  # standing on a hard 11 or less is never better than hitting
                    plays.append(Play.STAND)
                if allowed.double:
                    plays.append(Play.DOUBLE)
                if allowed.surrender:
                    plays.append(Play.SURRENDER)
                value = self._best_of(plays, hand, remaining, split_value=split_value, bonus=bonus)
            else:
                play = basic_play(hand, up=self.up, rules=rules, split_value=split_value)
                value = self.play_value(
                    play, hand, remaining, split_value=split_value, bonus=bonus, best=False
                )
        self._memo[key] = value
        return value

    def _best_of(
        self, plays: list[Play], hand: Counts, remaining: Counts, *, split_value: int | None, bonus: bool
    ) -> Vector:
        value: Vector | None = None
        for play in plays:
            other = self.play_value(play, hand, remaining, split_value=split_value, bonus=bonus, best=True)
            value = other if value is None else [max(a, b) for a, b in zip(value, other, strict=True)]
        if value is None:
            raise ValueError("no play to choose from")
        return value

    def play_value(
        self, play: Play, hand: Counts, remaining: Counts, *, split_value: int | None, bonus: bool, best: bool
    ) -> Vector:
        if play is Play.STAND:
            return self.stand(remaining, total_of(hand)[0], stake=1.0, bonus=bonus)
        if play is Play.HIT:
            return self._draw(hand, remaining, split_value=split_value, bonus=bonus, best=best)
        if play is Play.DOUBLE:
            return self._draw(hand, remaining, split_value=split_value, bonus=bonus, best=best, doubled=True)
        if play is Play.SURRENDER:
            return self.surrender(remaining)
        raise ValueError(f"{play} is decided at the first two cards")

    def _draw(
        self,
        hand: Counts,
        remaining: Counts,
        *,
        split_value: int | None,
        bonus: bool,
        best: bool,
        doubled: bool = False,
    ) -> Vector:
        """Value of taking one card (then standing, when `doubled`)."""
        n = sum(remaining)
        value = [0.0] * self.size
        if n == 0:
            return value  # the shoe ran out: a void round (tiny test shoes only)
        stake = 2.0 if doubled else 1.0
        for card in VALUES:
            count = remaining[card - 1]
            if count == 0:
                continue
            left = (*remaining[: card - 1], count - 1, *remaining[card:])
            drawn = with_card(hand, card)
            total, _ = total_of(drawn)
            if total > BLACKJACK_TOTAL:
                child = self.bust(left, stake=stake, bonus=bonus)
            elif doubled:
                child = self.stand(left, total, stake=stake, bonus=bonus)
            else:
                child = self.hand_value(drawn, left, split_value=split_value, bonus=bonus, best=best)
            weight = count / n
            value = [v + weight * c for v, c in zip(value, child, strict=True)]
        return value

    # -- the first two cards

    def _split_value(self, pair_value: int, *, best: bool) -> Vector:
        """Both split hands, each drawing from the shoe less the up card and the pair."""
        start = with_card(NO_CARDS, pair_value)
        remaining = without(self.pool, with_card(start, pair_value))
        hand0 = self.hand_value(start, remaining, split_value=pair_value, bonus=True, best=best)
        hand1 = self.hand_value(start, remaining, split_value=pair_value, bonus=False, best=best)
        return [a + b for a, b in zip(hand0, hand1, strict=True)]

    def first_two(self, hand: Counts, *, best: bool) -> Vector:
        """Value of a first two cards that are not a Blackjack (joint with no dealer Blackjack)."""
        remaining = without(self.pool, hand)
        if not best:
            play = basic_play(hand, up=self.up, rules=self.rules, split_value=None)
            if play is Play.SPLIT:
                return self._split_value(hand.index(2) + 1, best=False)
            return self.play_value(play, hand, remaining, split_value=None, bonus=True, best=False)
        allowed = options(hand, rules=self.rules, split_value=None)
        plays = [Play.HIT, Play.STAND]
        if allowed.double:
            plays.append(Play.DOUBLE)
        if allowed.surrender:
            plays.append(Play.SURRENDER)
        value = self._best_of(plays, hand, remaining, split_value=None, bonus=True)
        pair_value = hand.index(2) + 1 if 2 in hand else None
        if allowed.split and pair_value is not None:
            split = self._split_value(pair_value, best=True)
            value = [max(a, b) for a, b in zip(value, split, strict=True)]
        elif pair_value == TEN and not self.rules.split_by_value and self.rules.max_hands >= 2:
            # Two ten-value cards may be split only when they are the same rank.
            same = self._same_rank_tens()
            split = self._split_value(TEN, best=True)
            value = [a + same * max(b - a, 0.0) for a, b in zip(value, split, strict=True)]
        return value

    def _same_rank_tens(self) -> float:
        """P(two ten-value cards are the same rank), tens spread evenly over T, J, Q, K."""
        tens = self.pool[TEN - 1]
        if tens < 2:
            return 0.0
        ranks = [tens // TEN_RANKS + (1 if r < tens % TEN_RANKS else 0) for r in range(TEN_RANKS)]
        return sum(n * (n - 1) for n in ranks) / (tens * (tens - 1))

    def round_values(self) -> tuple[Vector, Vector]:
        """Expected net per scenario (best play, basic strategy), jointly with this up card."""
        blackjack_pays = self.rules.blackjack_pays.num / self.rules.blackjack_pays.den
        best = [0.0] * self.size
        basic = [0.0] * self.size
        for deal in first_deals(self.shoe, self.up):
            remaining = without(self.pool, deal.hand)
            dealer_blackjack = blackjack_probability(remaining, self.up)
            if is_blackjack(deal.hand):
                no_blackjack = self._no_blackjack(remaining)
                best_value = basic_value = [
                    dealer_blackjack * p[TIE_BLACKJACK] + no_blackjack * (blackjack_pays + p[NO_TIE])
                    for p in self.payoffs
                ]
            else:
                lost = [dealer_blackjack * (-1.0 + no_tie) for no_tie in self.no_tie]
                best_value = [a + b for a, b in zip(lost, self.first_two(deal.hand, best=True), strict=True)]
                basic_value = [
                    a + b for a, b in zip(lost, self.first_two(deal.hand, best=False), strict=True)
                ]
            best = [v + deal.probability * x for v, x in zip(best, best_value, strict=True)]
            basic = [v + deal.probability * x for v, x in zip(basic, basic_value, strict=True)]
        return best, basic
