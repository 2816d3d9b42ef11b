"""How long the shift reports take, on a shift with a million wagers.

    .venv/bin/python bench/shift_report.py [--tables 20] [--rounds 200000] [--runs 3] [--keep]

Works in a scratch database, `bench_reports`, that it creates on the configured server (the
embedded one when DATABASE_URL is unset), migrates, fills, and drops at the end, whatever
happens (unless `--keep`): no other database is touched.

The shift (gaming day 2026-11-20, day shift) is built with `INSERT ... SELECT generate_series`:
`--rounds` settled rounds spread over `--tables` tables, five wagers each (three primaries, a T18
and an LS, outcomes from a fixed arithmetic pattern), with their wagers, settlements, settlement
lines and the two ledger transactions of each round (wagers placed, round settled). The bulk
load runs with `session_replication_role = replica`, so the per-row balance trigger is not fired
for each of the million entries; the script checks afterwards, with one query, that every
transaction balances. The table money (opener, buy-ins, a fill, a credit, closer) goes through
the real services. Then it times `reports.services.produce_shift_reports` (the code
behind the Celery tasks and `manage.py shift_report`: every table's figures and the upsert) and
the read with the pit and casino rollups behind `GET /api/v1/reports/shifts/`.
"""

import argparse
import datetime as dt
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-not-a-secret")

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from scratch import scratch_database  # noqa: E402

from audit.context import AuditActor  # noqa: E402
from blackjack.mappers import house_rules_for, rules_to_json  # noqa: E402
from bonus_tie.models import PaytableVersion  # noqa: E402
from casino import ledger  # noqa: E402
from casino.models import AccountKind, Shoe, Table, Terminal  # noqa: E402
from casino.services.provisioning import create_staff, provision_table  # noqa: E402
from reports import services as reports  # noqa: E402
from reports.read import shift_report_payload  # noqa: E402
from table_money.services import accounting  # noqa: E402

SCRATCH = "bench_reports"
GAMING_DAY = dt.date(2026, 11, 20)
SHIFT = "day"
ACTOR = AuditActor(kind="system", username="bench")
# Per round: (seat, kind, amount in cents). Five wagers.
LINES = ((1, "primary", 1_000), (2, "primary", 2_500), (3, "primary", 500), (1, "T18", 200), (2, "LS", 500))


def _admin(sql: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql)


def _chips(cents: int) -> dict[str, int]:
    chips: dict[str, int] = {}
    for denomination in sorted(accounting.CHIP_DENOMINATIONS_CENTS, reverse=True):
        count, cents = divmod(cents, denomination)
        if count:
            chips[str(denomination)] = count
    if cents:
        raise ValueError(f"{cents} cents left over")
    return chips


def build_floor(tables: int, start: dt.datetime, *, scale: int) -> list[Table]:
    """Tables with their terminal, dealer signed in, a shoe, and the table opened for the shift."""
    supervisor = create_staff(username="bench-supervisor", role="floor_supervisor", now=start).user
    built = []
    for i in range(tables):
        provisioned = provision_table(name=f"BJ-{i + 1:02d}", decks=6, pit_name=f"Pit {i % 4 + 1}", now=start)
        Terminal.objects.filter(pk=provisioned.terminal.pk).update(
            dealer=provisioned.dealer, dealer_signed_in_at=start
        )
        Shoe.objects.create(table=provisioned.table, mode="reported", decks=6, opened_at=start)
        accounting.open_table(
            table_id=provisioned.table.pk,
            total_cents=500_000 * scale,
            chips=_chips(500_000 * scale),
            supervisor=supervisor,
            actor=ACTOR,
            now=start,
        )
        built.append(provisioned.table)
    return built


def bulk_load(rounds: int, start: dt.datetime) -> float:
    """Rounds, wagers, settlements, lines and their ledger transactions, with INSERT ... SELECT."""
    started = time.perf_counter()
    paytable = PaytableVersion.objects.get(version=1).pk
    rules = json.dumps(rules_to_json(house_rules_for(Table.objects.order_by("pk").first())))  # type: ignore[arg-type]
    step_us = 8 * 3600 * 1_000_000 // rounds
    params: dict[str, Any] = {
        "start": start,
        "step": step_us,
        "rounds": rounds,
        "paytable": paytable,
        "rules": rules,
    }
    lines = ", ".join(f"({seat}, '{kind}', {amount})" for seat, kind, amount in LINES)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute(
            """CREATE TEMP TABLE bench_tables ON COMMIT DROP AS
               SELECT (row_number() OVER (ORDER BY t.id) - 1)::int AS idx, t.id AS table_id, s.id AS shoe_id,
                      term.id AS terminal_id, term.dealer_id
                 FROM casino_table t JOIN casino_shoe s ON s.table_id = t.id
                 JOIN casino_terminal term ON term.table_id = t.id"""
        )
        cursor.execute("SELECT count(*) FROM bench_tables")
        (tables,) = cursor.fetchone()
        cursor.execute(
            f"""INSERT INTO casino_round (table_id, shoe_id, paytable_id, rules, opening, aggregate_limit_cents, seq,
                                         state, terminal_id, dealer_id, opened_at, settled_at, void_reason)
                SELECT bt.table_id, bt.shoe_id, %(paytable)s, %(rules)s::jsonb, '[]', NULL, 8, 'settled',
                       bt.terminal_id, bt.dealer_id,
                       %(start)s + (g::bigint * %(step)s) * interval '1 microsecond',
                       %(start)s + (g::bigint * %(step)s + %(step)s / 2) * interval '1 microsecond', ''
                  FROM generate_series(0, %(rounds)s - 1) AS g
                  JOIN bench_tables bt ON bt.idx = g %% {tables}""",  # noqa: S608 - a count we read
            params,
        )
        cursor.execute(
            f"""CREATE TEMP TABLE bench_lines ON COMMIT DROP AS
                SELECT o.*, CASE o.result WHEN 'push' THEN o.amount WHEN 'lose' THEN 0
                                 ELSE o.amount * CASE o.kind WHEN 'primary' THEN 2 WHEN 'T18' THEN 46 ELSE 16 END
                            END AS paid
                  FROM (SELECT r.id AS round_id, l.seat, 0 AS hand, l.kind, l.amount, r.opened_at, r.settled_at,
                               CASE WHEN l.kind = 'primary' THEN
                                        CASE WHEN (r.id * 37 + l.seat * 101) % 100 < 44 THEN 'win'
                                             WHEN (r.id * 37 + l.seat * 101) % 100 < 52 THEN 'push'
                                             ELSE 'lose' END
                                    WHEN l.kind = 'T18' THEN
                                        CASE WHEN (r.id * 13) % 1000 < 16 THEN 'win' ELSE 'lose' END
                                    ELSE CASE WHEN (r.id * 17 + 3) % 1000 < 50 THEN 'win' ELSE 'lose' END
                               END AS result
                          FROM casino_round r CROSS JOIN (VALUES {lines}) AS l (seat, kind, amount)) AS o"""  # noqa: S608 - our constants
        )
        cursor.execute(
            """INSERT INTO casino_wager (round_id, seat, hand, kind, source, amount_cents, placed_at)
               SELECT round_id, seat, hand, kind, 'open', amount, opened_at FROM bench_lines"""
        )
        cursor.execute(
            """INSERT INTO casino_settlement (round_id, wagered_cents, paid_cents, house_net_cents,
                                              aggregate_limit_applied, aggregate_reduction_cents, settled_at)
               SELECT round_id, sum(amount), sum(paid), sum(amount) - sum(paid), false, 0, max(settled_at)
                 FROM bench_lines GROUP BY round_id"""
        )
        cursor.execute(
            """INSERT INTO casino_settlementline (settlement_id, seat, hand, kind, amount_cents, result,
                                                  win_cents, paid_cents)
               SELECT s.id, l.seat, l.hand, l.kind, l.amount, l.result,
                      CASE WHEN l.result = 'win' THEN l.paid - l.amount ELSE 0 END, l.paid
                 FROM bench_lines l JOIN casino_settlement s ON s.round_id = l.round_id"""
        )
        for kind, memo, moment in (
            ("wager", "wagers placed at the open", "opened_at"),
            ("payout", "round settled", "settled_at"),
        ):
            cursor.execute(
                f"""INSERT INTO casino_ledgertransaction (kind, table_id, round_id, memo, created_at, gaming_day, shift)
                    SELECT %s, table_id, id, %s, {moment}, %s, %s FROM casino_round""",  # noqa: S608 - a column name of ours
                [kind, memo, GAMING_DAY, SHIFT],
            )
        cursor.execute(
            """INSERT INTO casino_ledgerentry (transaction_id, account_id, amount_cents)
               SELECT t.id, a.id, CASE a.kind WHEN 'patrons' THEN -s.wagered_cents ELSE s.wagered_cents END
                 FROM casino_ledgertransaction t
                 JOIN casino_settlement s ON s.round_id = t.round_id
                 JOIN casino_account a ON a.table_id = t.table_id AND a.kind IN ('patrons', 'wagers')
                WHERE t.kind = 'wager'"""
        )
        cursor.execute(
            """INSERT INTO casino_ledgerentry (transaction_id, account_id, amount_cents)
               SELECT id, account_id, cents FROM (
                   SELECT t.id, a.id AS account_id,
                          CASE a.kind WHEN 'wagers' THEN -s.wagered_cents
                                      WHEN 'patrons' THEN s.paid_cents
                                      ELSE s.house_net_cents END AS cents
                     FROM casino_ledgertransaction t
                     JOIN casino_settlement s ON s.round_id = t.round_id
                     JOIN casino_account a ON a.table_id = t.table_id AND a.kind IN ('wagers', 'patrons', 'tray')
                    WHERE t.kind = 'payout') AS e
                WHERE cents <> 0"""
        )
    for name in ("round", "wager", "settlement", "settlementline", "ledgertransaction", "ledgerentry"):
        _admin(f"ANALYZE casino_{name}")
    return time.perf_counter() - started


def table_money(tables: list[Table], start: dt.datetime, *, scale: int) -> None:
    """Buy-ins, a fill and a credit per table, then the closer the ledger expects, via the services."""
    supervisor = create_staff(username="bench-approver", role="pit_boss", now=start).user
    for i, table in enumerate(tables):
        terminal = Terminal.objects.select_related("dealer").get(table=table)
        moment = start + dt.timedelta(hours=1, minutes=i)
        for seat, cents, method in ((1, 100_000, "cash"), (2, 250_000, "marker"), (3, 50_000, "cash")):
            accounting.record_buy_in(
                terminal=terminal,
                seat=seat,
                amount_cents=cents * scale,
                method=method,
                player="",
                actor=ACTOR,
                now=moment,
            )
        for kind, cents in ((accounting.SlipKind.FILL, 500_000), (accounting.SlipKind.CREDIT, 200_000)):
            slip = accounting.request_slip(
                kind=kind,
                table_id=table.pk,
                amount_cents=cents,
                chips=_chips(cents),
                terminal=terminal,
                user=None,
                actor=ACTOR,
                now=moment,
            )
            accounting.approve_slip(kind=kind, slip_id=slip.pk, user=supervisor, actor=ACTOR, now=moment)
        tray = ledger.balance_cents(table=table, kind=AccountKind.TRAY)
        accounting.close_table(
            table_id=table.pk,
            total_cents=tray,
            chips=_chips(tray),
            supervisor=supervisor,
            actor=ACTOR,
            now=start + dt.timedelta(hours=7, minutes=50),
        )


def unbalanced_transactions() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            """SELECT count(*) FROM (SELECT transaction_id FROM casino_ledgerentry
                GROUP BY transaction_id HAVING sum(amount_cents) <> 0 OR count(*) < 2) AS bad"""
        )
        (bad,) = cursor.fetchone()
    return int(bad)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=200_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--keep", action="store_true", help="keep the scratch database (drop it yourself)")
    args = parser.parse_args()

    zone = ZoneInfo(settings.CASINO_TIME_ZONE)
    start = dt.datetime.combine(GAMING_DAY, dt.time(6, 0), tzinfo=zone)
    with scratch_database(SCRATCH, keep=args.keep):
        print(f"PostgreSQL {connection.cursor().connection.info.server_version}, database {SCRATCH}")
        # Buy-ins and banks grow with the play, for a hold in the usual range.
        scale = max(1, args.rounds * len(LINES) // (args.tables * 1_000))
        tables = build_floor(args.tables, start, scale=scale)
        loaded = bulk_load(args.rounds, start)
        table_money(tables, start, scale=scale)
        wagers = args.rounds * len(LINES)
        print(
            f"built {args.rounds:,} rounds, {wagers:,} wagers and settlement lines, "
            f"{2 * args.rounds:,} ledger transactions on {args.tables} tables in {loaded:.1f} s"
        )
        bad = unbalanced_transactions()
        if bad:
            raise SystemExit(f"{bad} ledger transactions do not balance")

        timings = []
        for _ in range(args.runs):
            started = time.perf_counter()
            rows = reports.produce_shift_reports(
                gaming_day=GAMING_DAY, shift=SHIFT, actor=ACTOR, now=dt.datetime.now(dt.UTC)
            )
            timings.append(time.perf_counter() - started)
        started = time.perf_counter()
        reports.produce_shift_reports(
            gaming_day=GAMING_DAY,
            shift=SHIFT,
            table_ids=[tables[0].pk],
            actor=ACTOR,
            now=dt.datetime.now(dt.UTC),
        )
        one_table = time.perf_counter() - started
        started = time.perf_counter()
        payload = shift_report_payload(gaming_day=GAMING_DAY, shifts=[SHIFT])
        read = time.perf_counter() - started

        [casino] = payload["casinos"]
        wins_match = all(row.win_minus_house_net_cents == 0 for row in rows)
        print(
            f"report: {len(rows)} tables, {casino['rounds_settled']:,} rounds, "
            f"{sum(k['wagers'] for k in casino['by_kind']):,} wagers, handle {casino['handle_cents']:,} c, "
            f"house net {casino['house_net_cents']:,} c, count-based win {casino['win_cents']:,} c "
            f"({'equal' if wins_match else 'NOT equal'}), hold {casino['hold_percent']} %"
        )
        print(
            f"produce_shift_reports (all {len(rows)} tables): best {min(timings):.2f} s, "
            f"median of {args.runs} {statistics.median(timings):.2f} s; "
            f"one table regenerated: {one_table:.2f} s; read with pit and casino rollups: {read:.2f} s"
        )


if __name__ == "__main__":
    main()
