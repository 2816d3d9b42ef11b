"""Races with real concurrent connections: threads released together, each on its own database
connection, and another connection holding a lock while a test's request waits for it."""

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connection, transaction

THREADS = 8


def race(call: Callable[[int], Any], threads: int = THREADS) -> list[Any]:
    """`call(i)` in `threads` threads released together by a barrier: their results, in order."""
    barrier = threading.Barrier(threads)
    results: list[Any] = [None] * threads

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = call(i)
        finally:
            connection.close()

    workers = [threading.Thread(target=run, args=(i,)) for i in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return results


@contextmanager
def advisory_lock_held(lock_id: int) -> Iterator[None]:
    """Another connection holds the transaction-level advisory lock `lock_id` (a first submission
    still running) until the block ends."""
    taken, release = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [lock_id])
                taken.set()
                release.wait(30)
        finally:
            connection.close()

    worker = threading.Thread(target=hold)
    worker.start()
    try:
        assert taken.wait(30)
        yield
    finally:
        release.set()
        worker.join()
