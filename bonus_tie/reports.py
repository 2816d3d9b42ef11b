"""The compliance report of a paytable: running the engine's review, and storing its result.

`run_review` runs `bonus_tie.engine.paytable_review.review_paytable` (house edge of every bet,
its outcome distribution and standard deviation, the primary's house edge, outcome distribution
and standard deviation per hand, and the steering check with break-even pays, PAYTABLE.md),
timing it; `review_to_json` turns the result into the JSON stored in `PaytableVersion.report`,
which carries the engine's own text (`format_review`) beside the figures. Every figure is exact:
the `std_error` fields are kept for the readers of older reports and are always 0. The primary's
distribution (`primary.outcomes`, `std_deviation`, `variance`) is that of its own model
(`primary.outcomes_model`: one split, no re-split), beside the re-split house edge. Probabilities
and edges are floats: statistics for the approval, never money. A figure that is not finite (the
true odds of a bet that cannot win) is stored as null.
"""

import math
import multiprocessing
import time
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, cast

from blackjack.engine.rules import HouseRules
from blackjack.mappers import rules_to_json
from bonus_tie.engine.house_edge import TIE_MODEL
from bonus_tie.engine.kinds import BONUS_KINDS
from bonus_tie.engine.paytable import Paytable
from bonus_tie.engine.paytable_review import PaytableReview, format_review, review_paytable
from bonus_tie.engine.rank_counts import Counts, check_counts
from bonus_tie.engine.task_map import Progress, TaskMap

# 2: exact figures only, outcome distributions, primary house edge, break-even pays;
# 3: the primary's outcome distribution and standard deviation per hand.
REPORT_FORMAT = 3
# The review takes a few seconds in one process; worker processes only add their start-up time.
DEFAULT_WORKERS = 1


@contextmanager
def process_map(workers: int) -> Iterator[TaskMap | None]:
    """A `map` over `workers` processes for the engine's `task_map` (None: run in this process).

    A Celery prefork worker's child is a daemonic process, and the standard library refuses
    daemonic processes children ("daemonic processes are not allowed to have children"), so
    there the pool is billiard's (Celery's own fork of multiprocessing), which allows them.
    """
    if workers <= 1:
        yield None
    elif multiprocessing.current_process().daemon:
        import billiard  # only needed inside a Celery worker

        with billiard.Pool(workers) as pool:
            yield cast(TaskMap, pool.imap)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            yield cast(TaskMap, pool.map)


@dataclass(frozen=True)
class TimedReview:
    review: PaytableReview
    rules: HouseRules
    composition: Counts | None
    workers: int
    elapsed_seconds: float
    cpu_seconds: float  # of this process (worker processes not counted)


def run_review(
    *,
    paytable: Paytable,
    rules: HouseRules,
    composition: Sequence[int] | None = None,
    workers: int = DEFAULT_WORKERS,
    progress: Progress | None = None,
) -> TimedReview:
    """The review of `paytable` under `rules` (a full shoe of `rules.decks` decks unless a custom
    `composition` of ten counts, Ace .. ten, is given), with its wall-clock time."""
    counts = check_counts(tuple(composition)) if composition is not None else None
    started = time.perf_counter()
    cpu_started = time.process_time()
    with process_map(workers) as task_map:
        review = review_paytable(
            paytable=paytable, rules=rules, composition=counts, progress=progress, task_map=task_map
        )
    return TimedReview(
        review=review,
        rules=rules,
        composition=counts,
        workers=max(workers, 1),
        elapsed_seconds=time.perf_counter() - started,
        cpu_seconds=time.process_time() - cpu_started,
    )


def _number(value: float) -> float | None:
    return value if math.isfinite(value) else None


def review_to_json(timed: TimedReview, *, computed_at: str) -> dict[str, Any]:
    """The stored report: every figure of the review, its flags, the text, and how it was made."""
    house, steering = timed.review.house_edge, timed.review.steering
    primary = steering.primary
    spread = timed.review.primary_outcomes
    return {
        "format": REPORT_FORMAT,
        "paytable_version": house.paytable_version,
        "rules": rules_to_json(timed.rules),
        "rules_summary": house.rules_summary,
        "composition": list(timed.composition) if timed.composition is not None else None,
        "house_edge": {
            "rows": [
                {
                    "kind": row.kind.value,
                    "pays": row.pays,
                    "win_probability": _number(row.win_probability),
                    "true_odds": _number(row.true_odds),
                    "house_edge": _number(row.house_edge),
                    "std_deviation": _number(row.std_deviation),
                    "outcomes": [
                        {"net": net, "probability": _number(float(probability))}
                        for net, probability in row.outcomes
                    ],
                    "std_error": 0.0,
                    "method": TIE_MODEL,
                }
                for row in house.rows
            ],
            "ties": [
                {"tie": tie.tie.value, "probability": _number(tie.probability), "std_error": 0.0}
                for tie in house.ties.rows
            ],
            "any_tie": _number(house.ties.any_tie),
            "method": house.method,
        },
        "primary": None
        if primary is None
        else {
            "basic_strategy_house_edge": _number(-primary.basic_resplit),
            "composition_dependent_house_edge": _number(-primary.best_resplit),
            "one_split_basic_strategy_house_edge": _number(-steering.primary_basic_strategy_ev),
            "one_split_best_play_house_edge": _number(-steering.primary_best_ev),
            "max_hands": timed.rules.max_hands,
            "std_deviation": _number(spread.std_deviation),
            "variance": _number(spread.variance),
            "outcomes": [{"net": float(net), "probability": _number(p)} for net, p in spread.outcomes],
            "outcomes_house_edge": _number(-spread.mean),
            "outcomes_model": spread.model,
        },
        "steering": {
            "primary_basic_strategy_ev": _number(steering.primary_basic_strategy_ev),
            "primary_best_ev": _number(steering.primary_best_ev),
            "rows": [
                {
                    "label": row.label,
                    "kinds": [kind.value for kind in row.kinds],
                    "bonus_stake": row.bonus_stake,
                    "basic_strategy_ev": _number(row.basic_strategy_ev),
                    "steering_ev": _number(row.steering_ev),
                    "basic_strategy_edge": _number(row.basic_strategy_edge),
                    "steering_edge": _number(row.steering_edge),
                    "flagged": row.flagged,
                }
                for row in steering.rows
            ],
            "break_even_pays": [
                {"kind": even.kind.value, "pays": even.pays, "steering": _number(even.steering)}
                for even in steering.break_even
            ],
            "method": steering.method,
        },
        "flagged": list(timed.review.flagged),
        "text": format_review(timed.review),
        "computed_at": computed_at,
        "elapsed_seconds": round(timed.elapsed_seconds, 3),
        "cpu_seconds": round(timed.cpu_seconds, 3),
        "workers": timed.workers,
    }


def pays_in_order(pays: Mapping[str, Any]) -> dict[str, Any]:
    """The pays in bet-kind order (JSONB keeps no key order)."""
    order = [kind.value for kind in BONUS_KINDS]
    return dict(
        sorted(pays.items(), key=lambda item: order.index(item[0]) if item[0] in order else len(order))
    )


def flagged_of(report: Mapping[str, Any] | None) -> list[str] | None:
    """The scenarios the stored report flags; None while there is no report."""
    if report is None:
        return None
    return [str(label) for label in report.get("flagged", [])]
