"""House edge of every tie-bonus wager for a paytable and a table's rules (PAYTABLE.md).

For each bet: P(win) with the player on basic strategy, the true odds `(1 - p) / p` to 1, the
pay, and the house edge `1 - (pays + 1) * p`. The tie probabilities come from tie_odds.py; the
method, its one approximation and the standard errors of the simulated correction travel with
the figures. Probabilities are floats: they are statistics for approval, never money.

The engine does not read the clock or the global random generator: the caller passes a seed
for the (small) simulated part and times the call itself. The work is one task per dealer up
card; a caller that wants processes passes `task_map` (task_map.py).
"""

import random
from collections.abc import Sequence
from dataclasses import dataclass

from bonus_tie.engine.dealer_odds import DealerOdds
from bonus_tie.engine.kinds import BONUS_KINDS, BonusKind
from bonus_tie.engine.paytable import Paytable
from bonus_tie.engine.rank_counts import Counts, check_counts, shoe_counts
from bonus_tie.engine.resolution import WINNING_KINDS, Tie
from bonus_tie.engine.task_map import UP_CARD_WORK_ORDER, Progress, TaskMap, run_tasks
from bonus_tie.engine.tie_odds import TIE_OUTCOMES, TIES, UpCardTies, covariance_sum, up_card_ties
from casino.engine.rules import DealerRule, HouseRules

# The precision asked of any simulated figure: 0.005 percentage points.
STD_ERROR_TARGET = 0.00005
DEFAULT_SPLIT_SAMPLES = 200


@dataclass(frozen=True, slots=True)
class TieRow:
    tie: Tie
    probability: float
    std_error: float  # 0 where exact


@dataclass(frozen=True, slots=True)
class TieProbabilities:
    """P(each tie) for a seat on basic strategy, with the standard errors of the simulated part."""

    rules: HouseRules
    composition: Counts
    rows: tuple[TieRow, ...]  # in TIES order
    covariance: tuple[tuple[float, ...], ...]  # of the simulated part, TIES order
    samples: int
    seed: int
    method: str

    def probability(self, tie: Tie) -> float:
        return self.rows[TIES.index(tie)].probability

    def win_probability(self, kind: BonusKind) -> float:
        """P(a bet of `kind` wins): the sum over the (mutually exclusive) ties that win it."""
        return sum(row.probability for row in self.rows if kind in WINNING_KINDS[row.tie])

    def win_std_error(self, kind: BonusKind) -> float:
        outcomes = tuple(i for i, tie in enumerate(TIES) if kind in WINNING_KINDS[tie])
        return float(max(covariance_sum(self.covariance, outcomes), 0.0) ** 0.5)

    @property
    def any_tie(self) -> float:
        return sum(row.probability for row in self.rows)


@dataclass(frozen=True, slots=True)
class BetRow:
    kind: BonusKind
    pays: int  # N to 1
    win_probability: float
    std_error: float  # of win_probability, 0 where exact
    true_odds: float  # (1 - p) / p, "N to 1"
    house_edge: float  # 1 - (pays + 1) * p, per unit staked

    @property
    def true_odds_text(self) -> str:
        return f"{self.true_odds:,.2f} to 1"


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

    @property
    def max_std_error(self) -> float:
        return max(row.std_error for row in self.rows)

    @property
    def meets_precision_target(self) -> bool:
        return self.max_std_error <= STD_ERROR_TARGET


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


def _method(*, samples: int, seed: int, split_samples: int) -> str:
    correction = (
        f"estimated by simulation (control variate: {split_samples} split rounds per first pair and up card, "
        f"{samples} in all, seed {seed}); the std errors are of that estimate and 0 for every exact figure"
        if samples
        else "NOT corrected (no simulation asked for): the split figures carry that approximation"
    )
    return (
        "Exact composition-dependent analysis of one seat playing total-dependent basic strategy "
        "(hard/soft/pair charts for the table's S17/H17, double-after-split and surrender rules) off the top "
        "of the shoe: every first two cards and up card, every basic-strategy continuation drawn without "
        "replacement, and the dealer's final total computed exactly from the cards left, the hole card kept "
        "off a Blackjack under the peek. Split pairs: hand 0 (the bonus hand) and 'hand 1 is not re-split' "
        "are exact; the dealer is approximated as drawing from the cards left after hand 0 (ignoring hand "
        f"1's draws), and the error of that approximation is {correction}."
    )


@dataclass(frozen=True, slots=True)
class TieJob:
    shoe: Counts
    up: int
    rules: HouseRules
    seed: int
    split_samples: int


def tie_rng(seed: int, up: int) -> random.Random:
    """The generator for one up card's simulated correction: reproducible from the seed."""
    return random.Random(f"tie-odds/{seed}/{up}")  # noqa: S311 - statistics, not a shuffle


def run_tie_job(job: TieJob, dealer: DealerOdds | None = None) -> UpCardTies:
    dealer = dealer or DealerOdds(hits_soft_17=job.rules.dealer is DealerRule.H17)
    return up_card_ties(
        shoe=job.shoe,
        up=job.up,
        rules=job.rules,
        dealer=dealer,
        rng=tie_rng(job.seed, job.up),
        split_samples=job.split_samples,
    )


def tie_jobs(*, rules: HouseRules, composition: Counts | None, seed: int, split_samples: int) -> list[TieJob]:
    shoe = check_counts(composition) if composition is not None else shoe_counts(rules.decks)
    if split_samples < 0:
        raise ValueError("split_samples cannot be negative")
    return [TieJob(shoe, up, rules, seed, split_samples) for up in UP_CARD_WORK_ORDER if shoe[up - 1] > 0]


def assemble_ties(
    results: Sequence[UpCardTies], *, rules: HouseRules, shoe: Counts, seed: int, split_samples: int
) -> TieProbabilities:
    """Add up the per-up-card figures (the up cards are disjoint events)."""
    probabilities = [0.0] * TIE_OUTCOMES
    covariance = [[0.0] * TIE_OUTCOMES for _ in range(TIE_OUTCOMES)]
    samples = 0
    for result in results:
        samples += result.samples
        for i in range(TIE_OUTCOMES):
            probabilities[i] += result.probabilities[i]
            for j in range(TIE_OUTCOMES):
                covariance[i][j] += result.covariance[i][j]
    rows = tuple(
        TieRow(tie, probabilities[i], max(covariance[i][i], 0.0) ** 0.5) for i, tie in enumerate(TIES)
    )
    return TieProbabilities(
        rules=rules,
        composition=shoe,
        rows=rows,
        covariance=tuple(tuple(row) for row in covariance),
        samples=samples,
        seed=seed,
        method=_method(samples=samples, seed=seed, split_samples=split_samples),
    )


def tie_probabilities(
    *,
    rules: HouseRules,
    composition: Counts | None = None,
    seed: int = 0,
    split_samples: int = DEFAULT_SPLIT_SAMPLES,
    progress: Progress | None = None,
    task_map: TaskMap | None = None,
) -> TieProbabilities:
    """P(tie on 17, 18, 19, 20, 21, Blackjack) for a seat on basic strategy under `rules`.

    `composition` defaults to a full shoe of `rules.decks` decks (a custom one is for tests and
    what-if studies). `split_samples` simulated rounds per split first pair and up card
    estimate the split correction (0: no simulation, the approximation stands).
    """
    jobs = tie_jobs(rules=rules, composition=composition, seed=seed, split_samples=split_samples)
    shoe = check_counts(composition) if composition is not None else shoe_counts(rules.decks)
    results = run_tasks(run_tie_job, jobs, task_map=task_map, progress=progress)
    return assemble_ties(results, rules=rules, shoe=shoe, seed=seed, split_samples=split_samples)


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
                std_error=ties.win_std_error(kind),
                true_odds=(1.0 - p) / p if p > 0 else float("inf"),
                house_edge=1.0 - (pays + 1) * p,
            )
        )
    return tuple(rows)


def house_edge_report(
    *,
    paytable: Paytable,
    rules: HouseRules,
    composition: Counts | None = None,
    seed: int = 0,
    split_samples: int = DEFAULT_SPLIT_SAMPLES,
    progress: Progress | None = None,
    task_map: TaskMap | None = None,
    ties: TieProbabilities | None = None,
) -> HouseEdgeReport:
    """The compliance report of a paytable under a table's rules (PAYTABLE.md).

    Pass `ties` (from `tie_probabilities` with the same rules) to price several paytables
    without computing the odds again.
    """
    if ties is None:
        ties = tie_probabilities(
            rules=rules,
            composition=composition,
            seed=seed,
            split_samples=split_samples,
            progress=progress,
            task_map=task_map,
        )
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
        f"{'bet':<5}{'pays':>10}{'P(win) %':>11}{'std err %':>11}{'true odds':>16}{'house edge %':>14}",
    ]
    for row in report.rows:
        lines.append(
            f"{row.kind.value:<5}{row.pays:>5} to 1{100 * row.win_probability:>11.4f}"
            f"{100 * row.std_error:>11.6f}{row.true_odds_text:>16}{100 * row.house_edge:>14.3f}"
        )
    for tie_row in report.ties.rows:
        lines.append(
            f"  P(tie {tie_row.tie.value}) = {100 * tie_row.probability:.4f} % (std err {100 * tie_row.std_error:.6f})"
        )
    lines.append(f"  P(any tie) = {100 * report.ties.any_tie:.4f} %")
    lines.append(f"Method: {report.method}")
    return "\n".join(lines)
