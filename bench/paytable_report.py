"""Paytable review of the default paytable on 6 decks S17, 6 decks H17 and 8 decks S17.

Plain script: `python3 bench/paytable_report.py [workers]` (default 2 worker processes).
Prints each house-edge report and steering check with its elapsed (wall-clock) time.
"""

import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bonus_tie.engine.paytable import DEFAULT_PAYTABLE
from bonus_tie.engine.paytable_review import format_review, review_paytable
from casino.engine.rules import DealerRule, HouseRules

RULE_SETS = (
    ("6 decks S17", HouseRules(decks=6, dealer=DealerRule.S17)),
    ("6 decks H17", HouseRules(decks=6, dealer=DealerRule.H17)),
    ("8 decks S17", HouseRules(decks=8, dealer=DealerRule.S17)),
)
SEED = 20240601


def _progress(done: int, total: int) -> None:
    print(f"\r  up cards done: {done}/{total}", end="" if done < total else "\n", file=sys.stderr, flush=True)


def main() -> None:
    workers = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    grand = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for name, rules in RULE_SETS:
            print(f"=== {name} ({workers} worker processes) ===", flush=True)
            started = time.perf_counter()
            review = review_paytable(
                paytable=DEFAULT_PAYTABLE, rules=rules, seed=SEED, progress=_progress, task_map=pool.map
            )
            elapsed = time.perf_counter() - started
            print(format_review(review))
            report = review.house_edge
            print(
                f"max std error {100 * report.max_std_error:.6f} pp "
                f"(target {'met' if report.meets_precision_target else 'NOT met'}); "
                f"simulated split rounds {report.ties.samples}"
            )
            print(f"elapsed {elapsed:.1f} s\n", flush=True)
    print(f"total elapsed {time.perf_counter() - grand:.1f} s")


if __name__ == "__main__":
    main()
