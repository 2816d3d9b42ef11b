"""Running the odds work one dealer up card at a time, serially or through the caller's pool.

The engine starts no processes itself: a caller that wants parallel work passes a `map`-like
callable (e.g. `concurrent.futures.ProcessPoolExecutor(...).map`); the task functions and
their arguments are module-level and picklable for that.
"""

from collections.abc import Callable, Iterable
from typing import Protocol, TypeVar

_T = TypeVar("_T")
_R = TypeVar("_R")

Progress = Callable[[int, int], None]
"""Called as progress(done, total) after each finished task."""

# Up cards, the slowest first, so that parallel workers finish together.
UP_CARD_WORK_ORDER: tuple[int, ...] = (2, 3, 1, 4, 5, 6, 7, 8, 9, 10)


class TaskMap(Protocol):
    """`map`-like: applies a picklable function to every item, results in item order."""

    def __call__(self, fn: Callable[[_T], _R], items: Iterable[_T], /) -> Iterable[_R]: ...


def run_tasks(
    fn: Callable[[_T], _R], items: list[_T], *, task_map: TaskMap | None, progress: Progress | None
) -> list[_R]:
    """`fn` over `items` (through `task_map` when given), reporting progress after each result."""
    results: list[_R] = []
    for result in map(fn, items) if task_map is None else task_map(fn, items):
        results.append(result)
        if progress is not None:
            progress(len(results), len(items))
    return results
