"""Paytable review of the default paytable on 6 decks S17, 6 decks H17 and 8 decks S17.

Plain script: `python3 bench/paytable_report.py [--quiet]`. Runs each review in this process
and prints it with its CPU and wall-clock time (`--quiet`: the times only), then five paytables
under 6 decks S17 in one call (`review_paytables`, sharing everything that does not depend on
the pays). The issue's budget is 3 s of CPU for one rule set on this machine. The last lines
give each rule set's primary standard deviation per hand (basic strategy, one split).
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from blackjack.engine.rules import DealerRule, HouseRules
from bonus_tie.engine.kinds import BonusKind
from bonus_tie.engine.paytable import DEFAULT_PAYTABLE, Paytable
from bonus_tie.engine.paytable_review import format_review, review_paytable, review_paytables

RULE_SETS = (
    ("6 decks S17", HouseRules(decks=6, dealer=DealerRule.S17)),
    ("6 decks H17", HouseRules(decks=6, dealer=DealerRule.H17)),
    ("8 decks S17", HouseRules(decks=8, dealer=DealerRule.S17)),
)
CPU_BUDGET_SECONDS = 3.0
# Five proposals a pit boss might compare: the default, and four variations of its pays.
FIVE_PAYTABLES = (
    DEFAULT_PAYTABLE,
    Paytable(version=2, pays={**DEFAULT_PAYTABLE.pays, BonusKind.T21: 160}),
    Paytable(version=3, pays={**DEFAULT_PAYTABLE.pays, BonusKind.T17: 40, BonusKind.T18: 50}),
    Paytable(version=4, pays={**DEFAULT_PAYTABLE.pays, BonusKind.TBJ: 400, BonusKind.RS: 22}),
    Paytable(version=5, pays={**DEFAULT_PAYTABLE.pays, BonusKind.LS: 16, BonusKind.T20: 28}),
)


def main() -> None:
    quiet = "--quiet" in sys.argv[1:]
    timings = []
    for name, rules in RULE_SETS:
        cpu, wall = time.process_time(), time.perf_counter()
        review = review_paytable(paytable=DEFAULT_PAYTABLE, rules=rules)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        timings.append((name, cpu, wall, review.primary_outcomes.std_deviation))
        if not quiet:
            print(f"=== {name} ===")
            print(format_review(review))
        print(f"{name}: CPU {cpu:.2f} s, wall {wall:.2f} s\n", flush=True)
    cpu, wall = time.process_time(), time.perf_counter()
    reviews = review_paytables(paytables=FIVE_PAYTABLES, rules=RULE_SETS[0][1])
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    for review in reviews:
        print(
            f"paytable v{review.house_edge.paytable_version}: flagged {', '.join(review.flagged) or 'none'}"
        )
    for name, cpu_used, wall_used, spread in timings:
        verdict = "within" if cpu_used <= CPU_BUDGET_SECONDS else "OVER"
        print(
            f"{name:<12} CPU {cpu_used:5.2f} s  wall {wall_used:5.2f} s  "
            f"({verdict} the {CPU_BUDGET_SECONDS:.0f} s budget)  primary SD/hand {spread:.4f}"
        )
    print(f"5 paytables, {RULE_SETS[0][0]}, one call: CPU {cpu:.2f} s, wall {wall:.2f} s")


if __name__ == "__main__":
    main()
