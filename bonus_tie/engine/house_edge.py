"""House edge of every tie-bonus wager for a paytable and a table's rules (PAYTABLE.md).

For each bet: P(win) with the player on basic strategy, the true odds `(1 - p) / p` to 1, the
pay, the house edge `1 - (pays + 1) * p`, and the bet's outcome distribution (it wins `pays`
with probability p and loses the stake otherwise) with its standard deviation per hand. Every
figure is exact (tie_odds.py); nothing is simulated. Probabilities are floats: they are
statistics for approval, never money.

The work is one task per dealer up card; a caller that wants processes passes `task_map`
(task_map.py).
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from blackjack.engine.rules import DealerRule, HouseRules
from bonus_tie.engine.dealer_odds import DealerOdds
from bonus_tie.engine.kinds import BONUS_KINDS, BonusKind
from bonus_tie.engine.paytable import Paytable
from bonus_tie.engine.rank_counts import Counts, check_counts, shoe_counts
from bonus_tie.engine.resolution import WINNING_KINDS, Tie
from bonus_tie.engine.task_map import UP_CARD_WORK_ORDER, Progress, TaskMap, run_tasks
from bonus_tie.engine.tie_odds import TIE_OUTCOMES, TIES, UpCardTies, up_card_ties

TIE_MODEL = "basic strategy, exact"


@dataclass(frozen=True, slots=True)
class TieRow:
    tie: Tie
    probability: float


@dataclass(frozen=True, slots=True)
class TieProbabilities:
    """P(each tie) for a seat on basic strategy, every figure exact."""

    rules: HouseRules
    composition: Counts
    rows: tuple[TieRow, ...]  # in TIES order
    method: str

    def probability(self, tie: Tie) -> float:
        return self.rows[TIES.index(tie)].probability

    def win_probability(self, kind: BonusKind) -> float:
        """P(a bet of `kind` wins): the sum over the (mutually exclusive) ties that win it."""
        return math.fsum(row.probability for row in self.rows if kind in WINNING_KINDS[row.tie])

    @property
    def any_tie(self) -> float:
        return math.fsum(row.probability for row in self.rows)


@dataclass(frozen=True, slots=True)
class BetRow:
    """One bet: it wins `pays` (per unit staked) with `win_probability`, else loses the stake."""

    kind: BonusKind
    pays: int  # N to 1
    win_probability: float
    true_odds: float  # (1 - p) / p, "N to 1"
    house_edge: float  # 1 - (pays + 1) * p, per unit staked
    variance: float  # of the net result per unit staked: (pays + 1)^2 p (1 - p)

    @property
    def true_odds_text(self) -> str:
        return f"{self.true_odds:,.2f} to 1"

    @property
    def std_deviation(self) -> float:
        """Standard deviation of the net result of one hand, per unit staked."""
        return math.sqrt(self.variance)

    @property
    def outcomes(self) -> tuple[tuple[int, Fraction], ...]:
        """The distribution of the net result per unit staked: (net, probability), win first; the
        loss is the exact complement of the win probability, so the two add up to exactly 1."""
        win = Fraction(self.win_probability)
        return ((self.pays, win), (-1, 1 - win))

    @property
    def break_even_pays(self) -> float:
        """The pay (N to 1) at which the bet is fair for a basic-strategy player: the true odds."""
        return self.true_odds


@dataclass(frozen=True, slots=True)
class HouseEdgeReport:
    paytable_version: int
    rules: HouseRules
    rules_summary: str
    ties: TieProbabilities
    rows: tuple[BetRow, ...]  # in BONUS_KINDS order
    method: str

    def row(self, kind: BonusKind) -> BetRow:
        return next(row for row in self.rows if row.kind is kind)


def rules_summary(rules: HouseRules, composition: Counts | None = None) -> str:
    """One line naming the table's rules (and a custom shoe, when there is one)."""
    shoe = f"{rules.decks} decks" if composition is None else f"custom shoe {list(composition)} (A..ten)"
    return ", ".join(
        (
            shoe,
            "dealer hits soft 17 (H17)"
            if rules.dealer is DealerRule.H17
            else "dealer stands on soft 17 (S17)",
            f"Blackjack pays {rules.blackjack_pays}",
            "double on any two cards" if rules.double_any_two else "double on 9-11 only",
            "double after split" if rules.double_after_split else "no double after split",
            f"split to {rules.max_hands} hands" if rules.max_hands > 1 else "no splitting",
            "split Aces take one card" if rules.split_aces_one_card else "split Aces play on",
            "re-split Aces" if rules.resplit_aces else "no re-split Aces",
            "ten-value cards split by value" if rules.split_by_value else "ten-value cards split by rank",
            "late surrender" if rules.surrender else "no surrender",
        )
    )


METHOD = (
    "Exact composition-dependent analysis of one seat playing total-dependent basic strategy "
    "(hard/soft/pair charts for the table's S17/H17, double-after-split and surrender rules) off the top "
    "of the shoe: every first two cards and up card, every basic-strategy continuation drawn without "
    "replacement, and the dealer's final total computed exactly from the cards left, the hole card kept "
    "off a Blackjack under the peek. Split pairs exactly: hand 0 (the bonus hand) in full, hand 1's cards "
    "through the order-free draw argument of tie_odds.py (hand 1's second card kept off the pair when it "
    "would be re-split, a re-split of either hand losing the bonus). Every figure is exact (no simulation, "
    "standard error 0)."
)


@dataclass(frozen=True, slots=True)
class TieJob:
    shoe: Counts
    up: int
    rules: HouseRules


def run_tie_job(job: TieJob, dealer: DealerOdds | None = None) -> UpCardTies:
    dealer = dealer or DealerOdds(hits_soft_17=job.rules.dealer is DealerRule.H17)
    return up_card_ties(shoe=job.shoe, up=job.up, rules=job.rules, dealer=dealer)


def tie_jobs(*, rules: HouseRules, composition: Counts | None) -> list[TieJob]:
    shoe = check_counts(composition) if composition is not None else shoe_counts(rules.decks)
    return [TieJob(shoe, up, rules) for up in UP_CARD_WORK_ORDER if shoe[up - 1] > 0]


def assemble_ties(results: Sequence[UpCardTies], *, rules: HouseRules, shoe: Counts) -> TieProbabilities:
    """Add up the per-up-card figures (the up cards are disjoint events)."""
    probabilities = [math.fsum(result.probabilities[i] for result in results) for i in range(TIE_OUTCOMES)]
    rows = tuple(TieRow(tie, probabilities[i]) for i, tie in enumerate(TIES))
    return TieProbabilities(rules=rules, composition=shoe, rows=rows, method=METHOD)


def tie_probabilities(
    *,
    rules: HouseRules,
    composition: Counts | None = None,
    progress: Progress | None = None,
    task_map: TaskMap | None = None,
) -> TieProbabilities:
    """P(tie on 17, 18, 19, 20, 21, Blackjack) for a seat on basic strategy under `rules`.

    `composition` defaults to a full shoe of `rules.decks` decks (a custom one is for tests and
    what-if studies).
    """
    jobs = tie_jobs(rules=rules, composition=composition)
    shoe = check_counts(composition) if composition is not None else shoe_counts(rules.decks)
    results = run_tasks(run_tie_job, jobs, task_map=task_map, progress=progress)
    return assemble_ties(results, rules=rules, shoe=shoe)


def bet_rows(paytable: Paytable, ties: TieProbabilities) -> tuple[BetRow, ...]:
    """One row per bonus kind, in BONUS_KINDS order."""
    rows = []
    for kind in BONUS_KINDS:
        p = ties.win_probability(kind)
        pays = paytable.pays_to_one(kind)
        rows.append(
            BetRow(
                kind=kind,
                pays=pays,
                win_probability=p,
                true_odds=(1.0 - p) / p if p > 0 else float("inf"),
                house_edge=1.0 - (pays + 1) * p,
                variance=(pays + 1) ** 2 * p * (1.0 - p),
            )
        )
    return tuple(rows)


def house_edge_report(
    *,
    paytable: Paytable,
    rules: HouseRules,
    composition: Counts | None = None,
    progress: Progress | None = None,
    task_map: TaskMap | None = None,
    ties: TieProbabilities | None = None,
) -> HouseEdgeReport:
    """The compliance report of a paytable under a table's rules (PAYTABLE.md).

    Pass `ties` (from `tie_probabilities` with the same rules) to price several paytables
    without computing the odds again.
    """
    if ties is None:
        ties = tie_probabilities(rules=rules, composition=composition, progress=progress, task_map=task_map)
    elif ties.rules != rules:
        raise ValueError("the tie probabilities were computed for other house rules")
    custom = None if ties.composition == shoe_counts(rules.decks) else ties.composition
    return HouseEdgeReport(
        paytable_version=paytable.version,
        rules=rules,
        rules_summary=rules_summary(rules, custom),
        ties=ties,
        rows=bet_rows(paytable, ties),
        method=ties.method,
    )


def format_report(report: HouseEdgeReport) -> str:
    """A plain-text table of the report (bench script, management command)."""
    lines = [
        f"Paytable v{report.paytable_version}: {report.rules_summary}",
        f"Bonus bets ({TIE_MODEL}; each pays N to 1 with P(win), else loses the stake):",
        f"{'bet':<5}{'pays':>10}{'P(win) %':>11}{'true odds':>16}{'house edge %':>14}{'SD/hand':>9}",
    ]
    for row in report.rows:
        lines.append(
            f"{row.kind.value:<5}{row.pays:>5} to 1{100 * row.win_probability:>11.4f}"
            f"{row.true_odds_text:>16}{100 * row.house_edge:>14.3f}{row.std_deviation:>9.3f}"
        )
    for tie_row in report.ties.rows:
        lines.append(f"  P(tie {tie_row.tie.value}) = {100 * tie_row.probability:.4f} % ({TIE_MODEL})")
    lines.append(f"  P(any tie) = {100 * report.ties.any_tie:.4f} % ({TIE_MODEL})")
    lines.append(f"Method: {report.method}")
    return "\n".join(lines)
