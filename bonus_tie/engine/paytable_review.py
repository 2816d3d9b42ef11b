"""Everything compliance needs to approve a paytable, in one pass (PAYTABLE.md).

The house-edge report (house_edge.py) and the steering check (steering.py) both need the
dealer's final totals for thousands of player compositions; computed together, one task per up
card, they share that work. Use this from the management command or a report task.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from bonus_tie.engine.best_play import UpCardSteering
from bonus_tie.engine.dealer_odds import DealerOdds
from bonus_tie.engine.house_edge import (
    DEFAULT_SPLIT_SAMPLES,
    HouseEdgeReport,
    TieJob,
    assemble_ties,
    format_report,
    house_edge_report,
    run_tie_job,
    tie_jobs,
)
from bonus_tie.engine.paytable import Paytable
from bonus_tie.engine.rank_counts import Counts
from bonus_tie.engine.steering import (
    Scenario,
    SteeringJob,
    SteeringReport,
    assemble_steering,
    format_steering,
    run_steering_job,
    steering_jobs,
)
from bonus_tie.engine.task_map import Progress, TaskMap, run_tasks
from bonus_tie.engine.tie_odds import UpCardTies
from casino.engine.rules import DealerRule, HouseRules


@dataclass(frozen=True, slots=True)
class PaytableReview:
    house_edge: HouseEdgeReport
    steering: SteeringReport

    @property
    def flagged(self) -> tuple[str, ...]:
        """Scenarios where the best steering strategy gives the player an edge."""
        return self.steering.flagged


@dataclass(frozen=True, slots=True)
class _ReviewJob:
    ties: TieJob
    steering: SteeringJob


def _run_review_job(job: _ReviewJob) -> tuple[UpCardTies, UpCardSteering]:
    dealer = DealerOdds(hits_soft_17=job.ties.rules.dealer is DealerRule.H17)
    return run_tie_job(job.ties, dealer), run_steering_job(job.steering, dealer)


def review_paytable(
    *,
    paytable: Paytable,
    rules: HouseRules,
    composition: Counts | None = None,
    seed: int = 0,
    split_samples: int = DEFAULT_SPLIT_SAMPLES,
    scenarios: Sequence[Scenario] | None = None,
    progress: Progress | None = None,
    task_map: TaskMap | None = None,
) -> PaytableReview:
    """House edge of every bet (basic strategy) and the steering check, for one rule set."""
    jobs = tie_jobs(rules=rules, composition=composition, seed=seed, split_samples=split_samples)
    if not jobs:
        raise ValueError("the shoe has no cards")
    shoe = jobs[0].shoe
    steering = steering_jobs(paytable=paytable, rules=rules, shoe=shoe, scenarios=scenarios)
    paired = [_ReviewJob(t, s) for t, s in zip(jobs, steering, strict=True)]
    results = run_tasks(_run_review_job, paired, task_map=task_map, progress=progress)
    ties = assemble_ties(
        [t for t, _ in results], rules=rules, shoe=shoe, seed=seed, split_samples=split_samples
    )
    return PaytableReview(
        house_edge=house_edge_report(paytable=paytable, rules=rules, ties=ties),
        steering=assemble_steering(
            [s for _, s in results], paytable=paytable, rules=rules, shoe=shoe, scenarios=scenarios
        ),
    )


def format_review(review: PaytableReview) -> str:
    return f"{format_report(review.house_edge)}\n\n{format_steering(review.steering)}"
