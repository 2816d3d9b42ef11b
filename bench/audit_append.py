"""How fast audit events append when tables write at the same time: one chain per table.

    .venv/bin/python bench/audit_append.py [--tables 1,4,16] [--seconds 5] [--one-chain]

Each table has a writer thread with its own database connection; every append
is `record_event` in its own committed transaction (fsync included), as a
request's would be. Prints appends per second for each number of tables, and
with `--one-chain` also for the same number of writers all on one table (one
chain, so they take turns). Works in a scratch database, `bench_audit_append`,
that it creates on the configured server (the embedded one when DATABASE_URL is
unset), migrates, and drops at the end, whatever happens: no other database is
touched.
"""

import argparse
import datetime as dt
import os
import sys
import threading
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-not-a-secret")

import django

django.setup()

from django.db import connection, connections, transaction  # noqa: E402
from scratch import scratch_database  # noqa: E402

from audit.context import AuditActor, bind_request  # noqa: E402
from audit.services import record_event, verify_chain  # noqa: E402

SCRATCH = "bench_audit_append"


def _writer(
    *,
    table_id: int,
    ready: threading.Barrier,
    go: threading.Event,
    deadline: list[float],
    counts: list[int],
    slot: int,
) -> None:
    actor = AuditActor(
        kind="terminal",
        terminal_id=table_id,
        terminal_name=f"T-BJ-{table_id:02d}",
        dealer_id=100 + table_id,
        dealer_badge=f"D{100 + table_id}",
    )
    try:
        connection.ensure_connection()
        ready.wait(timeout=60)
        go.wait(timeout=60)
        done = 0
        while time.perf_counter() < deadline[0]:
            now = dt.datetime.now(dt.UTC)
            with bind_request(request_id=str(uuid.uuid4()), client_address="10.20.1.1"), transaction.atomic():
                record_event(
                    event_type="casino.round.settled",
                    actor=actor,
                    table_id=table_id,
                    table_name=f"BJ-{table_id:02d}",
                    subject_type="round",
                    subject_id=str(done),
                    subject_label=f"round {done} at BJ-{table_id:02d}",
                    before={"state": "ready_to_settle"},
                    after={"state": "settled", "paid_cents": done * 25},
                    occurred_at=now,
                )
            done += 1
        counts[slot] = done
    finally:
        connections.close_all()


def run(*, writers: int, seconds: float, one_chain: bool, first_table: int) -> float:
    """`writers` threads appending for `seconds`; returns appends per second (all threads)."""
    counts = [0] * writers
    ready, go, deadline = threading.Barrier(writers + 1), threading.Event(), [0.0]
    threads = [
        threading.Thread(
            target=_writer,
            kwargs={
                "table_id": first_table if one_chain else first_table + slot,
                "ready": ready,
                "go": go,
                "deadline": deadline,
                "counts": counts,
                "slot": slot,
            },
        )
        for slot in range(writers)
    ]
    for thread in threads:
        thread.start()
    ready.wait(timeout=60)  # every writer connected
    started = time.perf_counter()
    deadline[0] = started + seconds
    go.set()
    for thread in threads:
        thread.join()
    return sum(counts) / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--tables", default="1,4,16", help="Numbers of tables writing at once (default 1,4,16)."
    )
    parser.add_argument("--seconds", type=float, default=5.0, help="Seconds per run (default 5).")
    parser.add_argument(
        "--one-chain", action="store_true", help="Also run the same numbers of writers on one table."
    )
    args = parser.parse_args()
    sizes = [int(size) for size in args.tables.split(",")]

    with scratch_database(SCRATCH):
        print(
            f"PostgreSQL {connection.cursor().connection.info.server_version}, database {SCRATCH}, "
            f"{os.cpu_count()} CPUs, {args.seconds:g} s per run, one committed transaction per append"
        )
        connection.close()
        first_table = 1
        for size in sizes:
            rate = run(writers=size, seconds=args.seconds, one_chain=False, first_table=first_table)
            first_table += size
            print(
                f"{size:>3} tables at once, one chain each: {rate:>8,.0f} appends/s ({rate / size:,.0f} per table)"
            )
        if args.one_chain:
            for size in sizes:
                rate = run(writers=size, seconds=args.seconds, one_chain=True, first_table=first_table)
                first_table += 1
                print(f"{size:>3} writers on one table's chain:    {rate:>8,.0f} appends/s")
        with transaction.atomic():
            result = verify_chain()
        print(f"verified: ok={result.ok}, {result.events:,} events in {len(result.chains)} chains")
        if not result.ok:
            raise SystemExit(f"verification failed: {result.as_dict()}")


if __name__ == "__main__":
    main()
