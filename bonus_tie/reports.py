"""The compliance report of a paytable: running the engine's review, and storing its result.

`run_review` runs `bonus_tie.engine.paytable_review.review_paytable` (house edge of every bet and
the steering check, PAYTABLE.md) with worker processes, timing it; `review_to_json` turns the
result into the JSON stored in `PaytableVersion.report`, which carries the engine's own text
(`format_review`) beside the figures. Probabilities and edges are floats: statistics for the
approval, never money. A figure that is not finite (the true odds of a bet that cannot win) is
stored as null.
"""

import math
import multiprocessing
import time
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, cast

from bonus_tie.engine.house_edge import DEFAULT_SPLIT_SAMPLES, STD_ERROR_TARGET
from bonus_tie.engine.kinds import BONUS_KINDS
from bonus_tie.engine.paytable import Paytable
from bonus_tie.engine.paytable_review import PaytableReview, format_review, review_paytable
from bonus_tie.engine.rank_counts import Counts, check_counts
from bonus_tie.engine.task_map import Progress, TaskMap
from casino.engine.rules import HouseRules
from casino.mappers import rules_to_json

REPORT_FORMAT = 1
# The simulated split correction is seeded, so a report can be reproduced exactly.
REPORT_SEED = 0
DEFAULT_WORKERS = 2


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
    split_samples: int
    seed: int
    workers: int
    elapsed_seconds: float


def run_review(
    *,
    paytable: Paytable,
    rules: HouseRules,
    composition: Sequence[int] | None = None,
    split_samples: int = DEFAULT_SPLIT_SAMPLES,
    workers: int = DEFAULT_WORKERS,
    progress: Progress | None = None,
) -> TimedReview:
    """The review of `paytable` under `rules` (a full shoe of `rules.decks` decks unless a custom
    `composition` of ten counts, Ace .. ten, is given), with its wall-clock time."""
    counts = check_counts(tuple(composition)) if composition is not None else None
    started = time.perf_counter()
    with process_map(workers) as task_map:
        review = review_paytable(
            paytable=paytable,
            rules=rules,
            composition=counts,
            seed=REPORT_SEED,
            split_samples=split_samples,
            progress=progress,
            task_map=task_map,
        )
    return TimedReview(
        review=review,
        rules=rules,
        composition=counts,
        split_samples=split_samples,
        seed=REPORT_SEED,
        workers=max(workers, 1),
        elapsed_seconds=time.perf_counter() - started,
    )


def _number(value: float) -> float | None:
    return value if math.isfinite(value) else None


def review_to_json(timed: TimedReview, *, computed_at: str) -> dict[str, Any]:
    """The stored report: every figure of the review, its flags, the text, and how it was made."""
    house, steering = timed.review.house_edge, timed.review.steering
    return {
        "format": REPORT_FORMAT,
        "paytable_version": house.paytable_version,
        "rules": rules_to_json(timed.rules),
        "rules_summary": house.rules_summary,
        "composition": list(timed.composition) if timed.composition is not None else None,
        "seed": timed.seed,
        "split_samples": timed.split_samples,
        "house_edge": {
            "rows": [
                {
                    "kind": row.kind.value,
                    "pays": row.pays,
                    "win_probability": _number(row.win_probability),
                    "true_odds": _number(row.true_odds),
                    "house_edge": _number(row.house_edge),
                    "std_error": _number(row.std_error),
                    "method": "exact" if row.std_error == 0 else "exact, simulated split correction",
                }
                for row in house.rows
            ],
            "ties": [
                {
                    "tie": tie.tie.value,
                    "probability": _number(tie.probability),
                    "std_error": _number(tie.std_error),
                }
                for tie in house.ties.rows
            ],
            "any_tie": _number(house.ties.any_tie),
            "simulated_rounds": house.ties.samples,
            "max_std_error": _number(house.max_std_error),
            "std_error_target": STD_ERROR_TARGET,
            "meets_precision_target": house.meets_precision_target,
            "method": house.method,
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
            "method": steering.method,
        },
        "flagged": list(timed.review.flagged),
        "text": format_review(timed.review),
        "computed_at": computed_at,
        "elapsed_seconds": round(timed.elapsed_seconds, 3),
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
