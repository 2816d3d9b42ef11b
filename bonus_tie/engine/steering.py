"""Steering check: can a player with a large bonus bet play the hand into a tie and win?

PAYTABLE.md: a player backing a tie can stand or hit against basic strategy to aim for it.
For each bonus bet at its largest allowed stake (half the primary; for the LS+RS pairing, half
the primary on each side), the player's best strategy for primary + bonus together is found by
dynamic programming over the player's hand compositions and plays (best_play.py), and the
player's result under it is reported next to basic strategy's. A scenario where the best
strategy gives the player an edge (> 0) is flagged.

Player's edge = expected net win of primary + bonus / (primary + bonus stakes placed), from
the player's side (positive = the player wins). Doubling and splitting add primary stake but
not to the denominator (the usual "per initial wager" convention).
"""

from collections.abc import Sequence
from dataclasses import dataclass

from bonus_tie.engine.best_play import NO_TIE, UpCardSteering, up_card_steering
from bonus_tie.engine.dealer_odds import DealerOdds
from bonus_tie.engine.house_edge import rules_summary
from bonus_tie.engine.kinds import BONUS_KINDS, LEFT_SIDE, RIGHT_SIDE, BonusKind
from bonus_tie.engine.paytable import Paytable
from bonus_tie.engine.rank_counts import Counts, check_counts, shoe_counts
from bonus_tie.engine.resolution import WINNING_KINDS
from bonus_tie.engine.task_map import UP_CARD_WORK_ORDER, Progress, TaskMap, run_tasks
from bonus_tie.engine.tie_odds import TIE_OUTCOMES, TIES
from casino.engine.rules import DealerRule, HouseRules

MAX_SIDE_STAKE = 0.5  # each side at most half the primary (RULES.md §1.3)

METHOD = (
    "Dynamic programming over the player's hand compositions and plays (hit, stand, double, split, and "
    "surrender where allowed) maximising the expected net of primary + bonus; one seat off the top of the "
    "shoe; the player steers on its own cards and the up card only; the dealer's final total exact for "
    "every composition, the hole card kept off a Blackjack under the peek. Splits: one split, no re-split "
    "(removing that option can only lower the player's result); each split hand draws from the shoe less "
    "the up card and both pair cards, ignoring the other split hand's draws; hand 0 is played for primary "
    "+ bonus, hand 1 for the primary. No insurance. Basic strategy is evaluated in the same model, so the "
    "difference is the steering alone. Edge = expected net / (primary 1 + bonus stakes), the player's "
    "side; flagged when > 0."
)


@dataclass(frozen=True, slots=True)
class Scenario:
    """Bonus wagers placed alongside a primary of 1: (kind, stake) pairs."""

    label: str
    stakes: tuple[tuple[BonusKind, float], ...]

    def __post_init__(self) -> None:
        left = sum(stake for kind, stake in self.stakes if kind in LEFT_SIDE)
        right = sum(stake for kind, stake in self.stakes if kind in RIGHT_SIDE)
        if left > MAX_SIDE_STAKE or right > MAX_SIDE_STAKE or any(stake <= 0 for _, stake in self.stakes):
            raise ValueError(f"{self.label}: each side carries a positive stake of at most half the primary")

    @property
    def bonus_stake(self) -> float:
        return sum(stake for _, stake in self.stakes)

    def payoffs(self, paytable: Paytable) -> tuple[float, ...]:
        """Net bonus result for each tie outcome (TIES order) and, last, for no tie."""
        result = [
            sum(
                stake * (paytable.pays_to_one(kind) if kind in WINNING_KINDS[tie] else -1)
                for kind, stake in self.stakes
            )
            for tie in TIES
        ]
        result.append(-self.bonus_stake)
        return tuple(result)


PRIMARY_ONLY = Scenario("primary only", ())


def default_scenarios() -> tuple[Scenario, ...]:
    """Each bonus bet alone at half the primary, and LS + RS at half the primary each."""
    singles = tuple(Scenario(kind.value, ((kind, MAX_SIDE_STAKE),)) for kind in BONUS_KINDS)
    pairing = Scenario("LS+RS", ((BonusKind.LS, MAX_SIDE_STAKE), (BonusKind.RS, MAX_SIDE_STAKE)))
    return (*singles, pairing)


def cross_side_scenarios() -> tuple[Scenario, ...]:
    """Every other left-side bet with every right-side bet, half the primary each (optional)."""
    left = (BonusKind.T17, BonusKind.T18, BonusKind.T19, BonusKind.LS)
    right = (BonusKind.T20, BonusKind.T21, BonusKind.TBJ, BonusKind.RS)
    return tuple(
        Scenario(f"{a.value}+{b.value}", ((a, MAX_SIDE_STAKE), (b, MAX_SIDE_STAKE)))
        for a in left
        for b in right
        if (a, b) != (BonusKind.LS, BonusKind.RS)
    )


@dataclass(frozen=True, slots=True)
class SteeringRow:
    label: str
    kinds: tuple[BonusKind, ...]
    bonus_stake: float  # per unit of primary
    basic_strategy_ev: float  # expected net of primary + bonus per unit of primary
    steering_ev: float
    basic_strategy_edge: float  # player's edge: ev / (1 + bonus_stake); > 0 favours the player
    steering_edge: float
    flagged: bool  # steering_edge > 0


@dataclass(frozen=True, slots=True)
class SteeringReport:
    paytable_version: int
    rules: HouseRules
    rules_summary: str
    primary_basic_strategy_ev: float  # the primary alone, basic strategy, same model
    primary_best_ev: float  # the primary alone, best composition-dependent play, same model
    rows: tuple[SteeringRow, ...]
    method: str

    @property
    def flagged(self) -> tuple[str, ...]:
        return tuple(row.label for row in self.rows if row.flagged)

    def row(self, label: str) -> SteeringRow:
        return next(row for row in self.rows if row.label == label)


@dataclass(frozen=True, slots=True)
class SteeringJob:
    shoe: Counts
    up: int
    rules: HouseRules
    payoffs: tuple[tuple[float, ...], ...]  # per scenario, PRIMARY_ONLY first


def run_steering_job(job: SteeringJob, dealer: DealerOdds | None = None) -> UpCardSteering:
    dealer = dealer or DealerOdds(hits_soft_17=job.rules.dealer is DealerRule.H17)
    return up_card_steering(shoe=job.shoe, up=job.up, rules=job.rules, payoffs=job.payoffs, dealer=dealer)


def _chosen(scenarios: Sequence[Scenario] | None) -> tuple[Scenario, ...]:
    return (PRIMARY_ONLY, *(scenarios if scenarios is not None else default_scenarios()))


def steering_jobs(
    *, paytable: Paytable, rules: HouseRules, shoe: Counts, scenarios: Sequence[Scenario] | None
) -> list[SteeringJob]:
    chosen = _chosen(scenarios)
    payoffs = tuple(s.payoffs(paytable) if s.stakes else (0.0,) * (NO_TIE + 1) for s in chosen)
    if len(payoffs[0]) != TIE_OUTCOMES + 1:
        raise AssertionError("a scenario's results are one per tie outcome, then no tie")
    return [SteeringJob(shoe, up, rules, payoffs) for up in UP_CARD_WORK_ORDER if shoe[up - 1] > 0]


def assemble_steering(
    results: Sequence[UpCardSteering],
    *,
    paytable: Paytable,
    rules: HouseRules,
    shoe: Counts,
    scenarios: Sequence[Scenario] | None,
) -> SteeringReport:
    chosen = _chosen(scenarios)
    best = [sum(r.best[i] for r in results) for i in range(len(chosen))]
    basic = [sum(r.basic[i] for r in results) for i in range(len(chosen))]
    rows = []
    for i, scenario in enumerate(chosen[1:], start=1):
        placed = 1.0 + scenario.bonus_stake
        rows.append(
            SteeringRow(
                label=scenario.label,
                kinds=tuple(kind for kind, _ in scenario.stakes),
                bonus_stake=scenario.bonus_stake,
                basic_strategy_ev=basic[i],
                steering_ev=best[i],
                basic_strategy_edge=basic[i] / placed,
                steering_edge=best[i] / placed,
                flagged=best[i] > 0.0,
            )
        )
    custom = None if shoe == shoe_counts(rules.decks) else shoe
    return SteeringReport(
        paytable_version=paytable.version,
        rules=rules,
        rules_summary=rules_summary(rules, custom),
        primary_basic_strategy_ev=basic[0],
        primary_best_ev=best[0],
        rows=tuple(rows),
        method=METHOD,
    )


def steering_report(
    *,
    paytable: Paytable,
    rules: HouseRules,
    composition: Counts | None = None,
    scenarios: Sequence[Scenario] | None = None,
    progress: Progress | None = None,
    task_map: TaskMap | None = None,
) -> SteeringReport:
    """Best-strategy and basic-strategy results of primary + bonus for each scenario.

    `scenarios` defaults to `default_scenarios()` (each bet alone, and LS+RS).
    """
    shoe = check_counts(composition) if composition is not None else shoe_counts(rules.decks)
    jobs = steering_jobs(paytable=paytable, rules=rules, shoe=shoe, scenarios=scenarios)
    results = run_tasks(run_steering_job, jobs, task_map=task_map, progress=progress)
    return assemble_steering(results, paytable=paytable, rules=rules, shoe=shoe, scenarios=scenarios)


def format_steering(report: SteeringReport) -> str:
    """A plain-text table of the steering check."""
    lines = [
        f"Steering check, paytable v{report.paytable_version}: {report.rules_summary}",
        f"  primary alone, per unit staked: basic strategy {100 * report.primary_basic_strategy_ev:+.3f} %, "
        f"best play {100 * report.primary_best_ev:+.3f} %",
        f"{'bets':<9}{'bonus/primary':>14}{'edge BS %':>11}{'edge steered %':>16}  flag",
    ]
    for row in report.rows:
        lines.append(
            f"{row.label:<9}{row.bonus_stake:>14.2f}{100 * row.basic_strategy_edge:>11.3f}"
            f"{100 * row.steering_edge:>16.3f}  {'PLAYER AHEAD' if row.flagged else '-'}"
        )
    lines.append(f"Flagged: {', '.join(report.flagged) or 'none'}")
    lines.append(f"Method: {report.method}")
    return "\n".join(lines)
