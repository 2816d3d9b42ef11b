"""Everything compliance needs to approve a paytable, in one pass (PAYTABLE.md).

The house-edge report (house_edge.py) and the steering check (steering.py) both need the
dealer's final totals for thousands of player compositions; computed together, one task per up
card, they share that work. The steering break-even pays need every up card at once (a root of
their sum), so they are solved in this process on the same programmes. Several paytables under
the same rules share everything that does not depend on the pays (`review_paytables`). Use this
from the management command or a report task.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from blackjack.engine.rules import DealerRule, HouseRules
from bonus_tie.engine.best_play import PrimaryValues, RoundProgramme, UpCardSteering
from bonus_tie.engine.dealer_odds import DealerOdds
from bonus_tie.engine.house_edge import (
    HouseEdgeReport,
    TieJob,
    assemble_ties,
    format_report,
    house_edge_report,
    run_tie_job,
    tie_jobs,
)
from bonus_tie.engine.paytable import Paytable
from bonus_tie.engine.primary_outcomes import (
    PrimaryOutcomes,
    UpCardPrimaryOutcomes,
    primary_outcomes,
    up_card_primary_outcomes,
)
from bonus_tie.engine.rank_counts import Counts
from bonus_tie.engine.steering import (
    Scenario,
    SteeringJob,
    SteeringReport,
    assemble_steering,
    break_even_pays,
    format_steering,
    steering_jobs,
    steering_programme,
)
from bonus_tie.engine.task_map import Progress, TaskMap, run_tasks
from bonus_tie.engine.tie_odds import UpCardTies


@dataclass(frozen=True, slots=True)
class PaytableReview:
    house_edge: HouseEdgeReport
    steering: SteeringReport
    primary_outcomes: PrimaryOutcomes  # the primary's net per round, basic strategy, one split

    @property
    def flagged(self) -> tuple[str, ...]:
        """Scenarios where the best steering strategy gives the player an edge."""
        return self.steering.flagged


@dataclass(frozen=True, slots=True)
class _ReviewJob:
    ties: TieJob
    steering: SteeringJob


_UpCard = tuple[UpCardTies, UpCardSteering, PrimaryValues, UpCardPrimaryOutcomes]


def _run_review_job(job: _ReviewJob) -> _UpCard:
    dealer = DealerOdds(hits_soft_17=job.ties.rules.dealer is DealerRule.H17)
    ties = run_tie_job(job.ties, dealer)
    programme = steering_programme(job.steering, dealer)
    steering, primary = _analyse(programme, job.steering)
    return ties, steering, primary, up_card_primary_outcomes(programme)


def _analyse(programme: RoundProgramme, job: SteeringJob) -> tuple[UpCardSteering, PrimaryValues]:
    steering, primary = programme.analyse(job.payoffs, primary_column=0)
    if primary is None:
        raise AssertionError("the primary's figures were asked for")
    return steering, primary


def review_paytable(
    *,
    paytable: Paytable,
    rules: HouseRules,
    composition: Counts | None = None,
    scenarios: Sequence[Scenario] | None = None,
    progress: Progress | None = None,
    task_map: TaskMap | None = None,
) -> PaytableReview:
    """House edge of every bet (basic strategy), the primary's house edge and outcome
    distribution, and the steering check with break-even pays, for one rule set. With `task_map`, the per-up-card work runs through it
    and the break-even pays are solved here afterwards (on programmes built again here)."""
    jobs = tie_jobs(rules=rules, composition=composition)
    if not jobs:
        raise ValueError("the shoe has no cards")
    if task_map is None:
        return review_paytables(
            paytables=(paytable,),
            rules=rules,
            composition=composition,
            scenarios=scenarios,
            progress=progress,
        )[0]
    shoe = jobs[0].shoe
    steering = steering_jobs(paytable=paytable, rules=rules, shoe=shoe, scenarios=scenarios)
    paired = [_ReviewJob(t, s) for t, s in zip(jobs, steering, strict=True)]
    results = run_tasks(_run_review_job, paired, task_map=task_map, progress=progress)
    dealer = DealerOdds(hits_soft_17=rules.dealer is DealerRule.H17)
    programmes = [steering_programme(job, dealer) for job in steering]
    return _review(
        paytable=paytable,
        rules=rules,
        shoe=shoe,
        scenarios=scenarios,
        results=results,
        programmes=programmes,
    )


def review_paytables(
    *,
    paytables: Sequence[Paytable],
    rules: HouseRules,
    composition: Counts | None = None,
    scenarios: Sequence[Scenario] | None = None,
    progress: Progress | None = None,
) -> tuple[PaytableReview, ...]:
    """`review_paytable` for several paytables under one rule set, in this process: the dealer's
    distributions, the hands' structure, the tie probabilities and the primary's figures are
    computed once; only what depends on the pays is solved again for each paytable."""
    jobs = tie_jobs(rules=rules, composition=composition)
    if not jobs:
        raise ValueError("the shoe has no cards")
    shoe = jobs[0].shoe
    dealer = DealerOdds(hits_soft_17=rules.dealer is DealerRule.H17)
    reviews = []
    programmes: list[RoundProgramme] = []
    ties: list[UpCardTies] = []
    primary: list[PrimaryValues] = []
    spread: list[UpCardPrimaryOutcomes] = []
    for number, paytable in enumerate(paytables):
        steering = steering_jobs(paytable=paytable, rules=rules, shoe=shoe, scenarios=scenarios)
        results = []
        for i, (tie_job, steering_job) in enumerate(zip(jobs, steering, strict=True)):
            if number == 0:
                ties.append(run_tie_job(tie_job, dealer))
                programmes.append(steering_programme(steering_job, dealer))
                up_card, figures = _analyse(programmes[i], steering_job)
                primary.append(figures)
                spread.append(up_card_primary_outcomes(programmes[i]))
            else:
                up_card = programmes[i].round_values(steering_job.payoffs)
            results.append((ties[i], up_card, primary[i], spread[i]))
            if progress is not None and number == 0:
                progress(i + 1, len(jobs))
        reviews.append(
            _review(
                paytable=paytable,
                rules=rules,
                shoe=shoe,
                scenarios=scenarios,
                results=results,
                programmes=programmes,
            )
        )
    return tuple(reviews)


def _review(
    *,
    paytable: Paytable,
    rules: HouseRules,
    shoe: Counts,
    scenarios: Sequence[Scenario] | None,
    results: Sequence[_UpCard],
    programmes: Sequence[RoundProgramme],
) -> PaytableReview:
    ties = assemble_ties([r[0] for r in results], rules=rules, shoe=shoe)
    return PaytableReview(
        house_edge=house_edge_report(paytable=paytable, rules=rules, ties=ties),
        steering=assemble_steering(
            [r[1] for r in results],
            paytable=paytable,
            rules=rules,
            shoe=shoe,
            scenarios=scenarios,
            primary=[r[2] for r in results],
            break_even=break_even_pays(programmes, paytable=paytable),
        ),
        primary_outcomes=primary_outcomes([r[3] for r in results], rules=rules),
    )


def format_review(review: PaytableReview) -> str:
    return (
        f"{format_report(review.house_edge)}\n\n"
        f"{format_steering(review.steering, primary_outcomes=review.primary_outcomes)}"
    )
