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

Break-even pays: for each bet alone at half the primary, the pay (N to 1) at which the best
steering strategy makes primary + bonus exactly even, i.e. the smallest pay the check would
flag. The steered result is the maximum over strategies of a line in N, so it is convex and
non-decreasing in N; Newton's method on it, each step solved with the plays that are best at
the current pay (their chance of winning the bet is the slope), reaches the root from above
and stops when the best plays no longer change: the figure is exact.

The primary wager alone is reported by its own models (best_play.py): basic strategy and
composition-dependent play with exact re-splits to the table's hand limit, and the steering
model's one-split figures that the bonus rows are compared with.
"""

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from blackjack.engine.rules import DealerRule, HouseRules
from bonus_tie.engine.best_play import (
    HANDS_AFTER_ONE_SPLIT,
    NO_TIE,
    PrimaryValues,
    RoundProgramme,
    UpCardSteering,
    primary_totals,
)
from bonus_tie.engine.dealer_odds import DealerOdds
from bonus_tie.engine.house_edge import rules_summary
from bonus_tie.engine.kinds import BONUS_KINDS, LEFT_SIDE, RIGHT_SIDE, BonusKind
from bonus_tie.engine.paytable import Paytable
from bonus_tie.engine.primary_outcomes import PrimaryOutcomes
from bonus_tie.engine.rank_counts import Counts, check_counts, shoe_counts
from bonus_tie.engine.resolution import WINNING_KINDS
from bonus_tie.engine.task_map import UP_CARD_WORK_ORDER, Progress, TaskMap, run_tasks
from bonus_tie.engine.tie_odds import TIE_OUTCOMES, TIES

MAX_SIDE_STAKE = 0.5  # each side at most half the primary (RULES.md §1.3)


def splits_text(rules: HouseRules, *, resplits: bool) -> str:
    """How a model splits pairs under `rules`: the steering model never re-splits."""
    if rules.max_hands < HANDS_AFTER_ONE_SPLIT:
        return "no splitting"
    if rules.max_hands == HANDS_AFTER_ONE_SPLIT:
        return "one split"
    return f"re-splits to {rules.max_hands} hands" if resplits else "one split (no re-split)"


def steering_model(rules: HouseRules) -> str:
    return f"best steering play, exact, {splits_text(rules, resplits=False)}"


def basic_model(rules: HouseRules) -> str:
    return f"basic strategy, exact, {splits_text(rules, resplits=False)}"


def primary_models(rules: HouseRules) -> tuple[str, str]:
    """The labels of the primary's basic-strategy and composition-dependent figures."""
    splits = splits_text(rules, resplits=True)
    return f"basic strategy, exact, {splits}", f"composition-dependent play, exact, {splits}"


METHOD = (
    "Dynamic programming over the player's hand compositions and plays (hit, stand, double, split, and "
    "surrender where allowed) maximising the expected net of primary + bonus; one seat off the top of the "
    "shoe; the player steers on its own cards and the up card only; the dealer's final total exact for "
    "every composition, the hole card kept off a Blackjack under the peek. Splits: one split, no re-split "
    "(removing that option can only lower the player's result), exact: each hand and the dealer decide "
    "from their own cards, so each split hand is valued as drawing right after the pair; hand 0 is played "
    "for primary + bonus, hand 1 for the primary. No insurance. Basic strategy is evaluated in the same "
    "model, so the difference is the steering alone. Edge = expected net / (primary 1 + bonus stakes), the "
    "player's side; flagged when > 0. Break-even pay: where the steered edge of the bet alone reaches 0 "
    "(Newton's method on the exact convex result, exact). Primary alone: basic strategy and "
    "composition-dependent play (after a split, each hand's best play for its cards with the shoe less "
    "the up card and the pair), both with exact re-splits to the table's hand limit."
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
class BreakEven:
    """The pay at which the best steering makes a bet alone (half the primary) break even."""

    kind: BonusKind
    pays: int  # the paytable's
    steering: float  # N to 1; inf when no pay does (the bet cannot be won)

    @property
    def margin(self) -> float:
        """How far the paytable's pay is below the break-even pay (N to 1); < 0 when flagged."""
        return self.steering - self.pays


@dataclass(frozen=True, slots=True)
class SteeringReport:
    paytable_version: int
    rules: HouseRules
    rules_summary: str
    primary_basic_strategy_ev: float  # the primary alone, basic strategy, one-split model
    primary_best_ev: float  # the primary alone, best composition-dependent play, one-split model
    rows: tuple[SteeringRow, ...]
    method: str
    primary: PrimaryValues | None = None  # the primary alone, exact re-splits
    break_even: tuple[BreakEven, ...] = ()

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


def steering_programme(job: SteeringJob, dealer: DealerOdds | None = None) -> RoundProgramme:
    dealer = dealer or DealerOdds(hits_soft_17=job.rules.dealer is DealerRule.H17)
    return RoundProgramme(shoe=job.shoe, up=job.up, rules=job.rules, dealer=dealer)


def run_steering_job(
    job: SteeringJob, dealer: DealerOdds | None = None
) -> tuple[UpCardSteering, PrimaryValues]:
    steering, primary = steering_programme(job, dealer).analyse(job.payoffs, primary_column=0)
    if primary is None:
        raise AssertionError("the primary's figures were asked for")
    return steering, primary


def _single_bet(kind: BonusKind, pays: float) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """(net bonus per tie outcome then no tie, at `pays`; stake on a win, 0 otherwise) for `kind`
    alone at half the primary."""
    wins = [kind in WINNING_KINDS[tie] for tie in TIES]
    net = (*(MAX_SIDE_STAKE * (pays if won else -1.0) for won in wins), -MAX_SIDE_STAKE)
    stake_won = (*(MAX_SIDE_STAKE if won else 0.0 for won in wins), 0.0)
    return net, stake_won


MAX_NEWTON_STEPS = 60


def break_even_pays(
    programmes: Iterable[RoundProgramme], *, paytable: Paytable, kinds: Sequence[BonusKind] = BONUS_KINDS
) -> tuple[BreakEven, ...]:
    """The steering break-even pay of each bet (module docstring), from the programmes of every
    up card of one shoe and rule set."""
    programmes = tuple(programmes)
    pays = {kind: float(paytable.pays_to_one(kind)) for kind in kinds}
    found: dict[BonusKind, float] = {}
    for _ in range(MAX_NEWTON_STEPS):
        active = [kind for kind in kinds if kind not in found]
        if not active:
            break
        rows = [_single_bet(kind, pays[kind]) for kind in active]
        payoffs = tuple(net for net, _ in rows)
        follow = tuple(won for _, won in rows)
        results = [programme.best_values(payoffs, follow) for programme in programmes]
        for i, kind in enumerate(active):
            value = math.fsum(float(ev[i]) for ev, _ in results)
            slope = math.fsum(float(won[i]) for _, won in results)
            if slope <= 0.0:
                found[kind] = math.inf  # the bet cannot be won: no pay breaks even
                continue
            step = value / slope
            pays[kind] -= step
            if abs(step) <= 1e-9 * max(1.0, abs(pays[kind])):
                found[kind] = pays[kind]
    for kind in kinds:
        found.setdefault(kind, pays[kind])  # not settled in MAX_NEWTON_STEPS: the last iterate
    return tuple(BreakEven(kind, paytable.pays_to_one(kind), found[kind]) for kind in kinds)


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
    primary: Sequence[PrimaryValues] = (),
    break_even: Sequence[BreakEven] = (),
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
        primary=primary_totals(primary) if primary else None,
        break_even=tuple(break_even),
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
    return assemble_steering(
        [steering for steering, _ in results],
        paytable=paytable,
        rules=rules,
        shoe=shoe,
        scenarios=scenarios,
        primary=[primary for _, primary in results],
    )


def primary_lines(report: SteeringReport, primary_outcomes: PrimaryOutcomes | None = None) -> list[str]:
    """The primary wager's house edge under each model, labelled, and its outcome distribution
    with the standard deviation per hand when given."""
    rules = report.rules
    lines = ["Primary wager alone (house edge per unit staked, the house's side):"]
    if report.primary is not None:
        basic, best = primary_models(rules)
        lines.append(f"  {-100 * report.primary.basic_resplit:.3f} %  {basic}")
        lines.append(f"  {-100 * report.primary.best_resplit:.3f} %  {best}")
    if report.primary is None or rules.max_hands > HANDS_AFTER_ONE_SPLIT:
        lines.append(
            f"  {-100 * report.primary_basic_strategy_ev:.3f} %  {basic_model(rules)} (the steering model)"
        )
        lines.append(f"  {-100 * report.primary_best_ev:.3f} %  {steering_model(rules)} (the steering model)")
    if primary_outcomes is not None:
        spread = primary_outcomes
        lines.append(
            f"  Standard deviation per hand {spread.std_deviation:.4f} units (variance {spread.variance:.4f}; "
            f"house edge {-100 * spread.mean:.3f} % in this model: {spread.model})"
        )
        lines.append(
            "  Net per round, units: "
            + ", ".join(f"{_units(net)}: {100 * p:.4f} %" for net, p in spread.outcomes)
        )
    return lines


def _units(net: Fraction) -> str:
    if net == 0:
        return "0"
    return f"{int(net):+d}" if net.denominator == 1 else f"{float(net):+g}"


def format_steering(report: SteeringReport, *, primary_outcomes: PrimaryOutcomes | None = None) -> str:
    """A plain-text table of the steering check (with the primary's distribution when given)."""
    lines = [
        f"Steering check, paytable v{report.paytable_version}: {report.rules_summary}",
        *primary_lines(report, primary_outcomes),
        f"Primary + bonus, player's edge ({basic_model(report.rules)} vs {steering_model(report.rules)}):",
        f"{'bets':<9}{'bonus/primary':>14}{'edge BS %':>11}{'edge steered %':>16}  flag",
    ]
    for row in report.rows:
        lines.append(
            f"{row.label:<9}{row.bonus_stake:>14.2f}{100 * row.basic_strategy_edge:>11.3f}"
            f"{100 * row.steering_edge:>16.3f}  {'PLAYER AHEAD' if row.flagged else '-'}"
        )
    lines.append(f"Flagged: {', '.join(report.flagged) or 'none'}")
    if report.break_even:
        lines.append(
            f"Break-even pays under steering (bet alone at half the primary; {steering_model(report.rules)}):"
        )
        for even in report.break_even:
            figure = "never" if math.isinf(even.steering) else f"{even.steering:,.2f} to 1"
            lines.append(f"  {even.kind.value:<4} pays {even.pays:>4} to 1, flagged from {figure}")
    lines.append(f"Method: {report.method}")
    return "\n".join(lines)
