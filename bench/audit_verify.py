"""How fast the audit chains verify (and append), on chains of realistic events.

    .venv/bin/python bench/audit_verify.py [--events 100000] [--appends 2000] [--runs 3]

Works in a scratch database, `bench_audit`, that it creates on the configured
server (the embedded one when DATABASE_URL is unset), migrates, fills, and
drops at the end, whatever happens: no other database is touched.

The bulk of the events, at 40 tables (40 chains), is built with COPY, hashing
each event with the same canonical form the service uses (`audit.chain`), its
JSON first normalised by PostgreSQL exactly as `record_event` does; then
`--appends` more events go through `record_event` itself, one transaction each,
to time real appends on top of long chains. Verification is
`audit.services.verify_chain`, the code behind `manage.py audit_verify`, the API
and the nightly task. (Concurrent appends: `bench/audit_append.py`.)
"""

import argparse
import datetime as dt
import json
import os
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-not-a-secret")

import django

django.setup()

from django.db import connection, transaction  # noqa: E402
from scratch import scratch_database  # noqa: E402

from audit.chain import FORMAT_VERSION, GENESIS_HASH, HASHED_COLUMNS, JSON_COLUMNS, chain_for, hash_event  # noqa: E402
from audit.context import AuditActor, bind_request  # noqa: E402
from audit.services import record_event, verify_chain  # noqa: E402

SCRATCH = "bench_audit"
BATCH = 10_000
EVENT_TYPES = (
    "casino.round.opened",
    "casino.round.card_reported",
    "casino.round.action",
    "casino.round.settled",
    "casino.buy_in.recorded",
    "casino.fill.approved",
)


def _admin(sql: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql)


def _event(number: int, start: dt.datetime) -> dict[str, Any]:
    table = number % 40 + 1
    staff = number % 7 == 0
    return {
        "kind": "change",
        "event_type": EVENT_TYPES[number % len(EVENT_TYPES)],
        "occurred_at": start + dt.timedelta(seconds=number),
        "recorded_at": start + dt.timedelta(seconds=number, microseconds=1234),
        "actor_kind": "user" if staff else "terminal",
        "terminal_id": None if staff else table,
        "terminal_name": "" if staff else f"T-BJ-{table:02d}",
        "user_id": 12 if staff else None,
        "username": "pat.supervisor" if staff else "",
        "role": "floor_supervisor" if staff else "",
        "dealer_id": None if staff else 100 + table,
        "dealer_badge": "" if staff else f"D{100 + table}",
        "table_id": table,
        "chain": chain_for(table_id=table),
        "table_name": f"BJ-{table:02d}",
        "subject_type": "round",
        "subject_id": str(number // 6),
        "subject_label": f"round {number // 6} at BJ-{table:02d}",
        "before": json.dumps({"state": "playing", "seq": number % 17, "seats": [1, 3, 5]}),
        "after": json.dumps(
            {"state": "settled", "seq": number % 17 + 1, "paid_cents": number * 25 % 100_000}
        ),
        "detail": "",
        "request_id": str(uuid.uuid4()),
        "idempotency_key": str(uuid.uuid4()),
        "client_address": f"10.20.{table}.{number % 250 + 1}",
    }


def build_chain(count: int) -> float:
    """COPY `count` hash-linked events in (in their tables' chains); returns the seconds it took."""
    started = time.perf_counter()
    start = dt.datetime(2026, 11, 20, 14, 0, tzinfo=dt.UTC)
    heads: dict[str, tuple[int, str]] = {}
    columns = (*HASHED_COLUMNS, "hash", "hash_format")
    copy_sql = f"COPY audit_auditevent ({', '.join(columns)}) FROM STDIN"
    with transaction.atomic(), connection.cursor() as cursor:
        for first in range(1, count + 1, BATCH):
            numbers = range(first, min(first + BATCH, count + 1))
            events = [_event(number, start) for number in numbers]
            for name in JSON_COLUMNS:  # PostgreSQL's own text form, as record_event stores and hashes it
                cursor.execute(
                    "SELECT x::jsonb::text FROM unnest(%s::text[]) AS x", [[e[name] for e in events]]
                )
                for event, (text,) in zip(events, cursor.fetchall(), strict=True):
                    event[name] = text
            with cursor.cursor.copy(copy_sql) as copy:
                for number, event in zip(numbers, events, strict=True):
                    seq, prev_hash = heads.get(event["chain"], (0, GENESIS_HASH))
                    event.update(id=number, seq=seq + 1, prev_hash=prev_hash, hash_format=FORMAT_VERSION)
                    event["hash"] = hash_event(event)
                    heads[event["chain"]] = (seq + 1, event["hash"])
                    copy.write_row([event[name] for name in columns])
        cursor.execute("SELECT setval(pg_get_serial_sequence('audit_auditevent', 'id'), %s)", [count])
    _admin("ANALYZE audit_auditevent")
    return time.perf_counter() - started


def time_appends(count: int) -> float:
    """Append `count` events through record_event, one transaction each; returns appends per second."""
    actor = AuditActor(
        kind="terminal", terminal_id=1, terminal_name="T-BJ-01", dealer_id=101, dealer_badge="D101"
    )
    now = dt.datetime.now(dt.UTC)
    started = time.perf_counter()
    for number in range(count):
        with bind_request(request_id=str(uuid.uuid4()), client_address="10.20.1.1"), transaction.atomic():
            record_event(
                event_type="casino.round.settled",
                actor=actor,
                table_id=None,
                table_name="",
                subject_type="round",
                subject_id=str(number),
                subject_label=f"round {number}",
                before={"state": "ready_to_settle"},
                after={"state": "settled", "paid_cents": number},
                occurred_at=now,
            )
    return count / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--appends", type=int, default=2_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    with scratch_database(SCRATCH):
        print(f"PostgreSQL {connection.cursor().connection.info.server_version}, database {SCRATCH}")
        built = build_chain(args.events)
        print(f"built a chain of {args.events:,} events with COPY in {built:.1f} s")
        if args.appends:
            rate = time_appends(args.appends)
            print(
                f"record_event: {args.appends:,} appends, one committed transaction each (fsync included): {rate:,.0f}/s"
            )
        total = args.events + args.appends
        timings = []
        for _ in range(args.runs):
            started = time.perf_counter()
            result = verify_chain()
            timings.append(time.perf_counter() - started)
            if not (result.ok and result.events == total):
                raise SystemExit(f"verification failed: {result.as_dict()}")
        best, median = min(timings), statistics.median(timings)
        print(
            f"verified {total:,} events in {len(result.chains)} chains, head of all chains {result.head_hash}"
        )
        print(
            f"verify: best {best:.2f} s = {total / best:,.0f} events/s; "
            f"median of {args.runs} {median:.2f} s = {total / median:,.0f} events/s "
            f"(~{1_000_000 / (total / median):.1f} s per million)"
        )


if __name__ == "__main__":
    main()
