"""Settling a round: the settle endpoint through Django's full request stack, against raw SQL.

    .venv/bin/python bench/settle_vs_raw.py [--project-dir DIR] [--rounds 200] [--tables 20]
        [--seats 3] [--warmup 10] [--database-url URL] [--keep]

Both sides run in this one process, single-threaded, against the same scratch database on the
same PostgreSQL server, each on its own persistent connection, and are interleaved round by
round so that both see the same database as it grows:

- settle: `POST /api/v1/rounds/{id}/settle/` through Django's test client, in-process: the WSGI
  handler, every middleware, DRF, token authentication, the Idempotency-Key layer, the settle
  service (locks, replay of the round's events, the rules engine, the ORM writes, the audit
  append) and the rendering of the round. No HTTP server and no socket, so neither gunicorn nor
  a new database connection per request is counted: the comparison is of the work of the
  request itself with the work of the SQL it needs.
- raw: one psycopg transaction doing the equivalent SQL: the terminal looked up by its key
  prefix, the idempotency advisory lock and key lookup, the table (NOWAIT), round and shoe rows
  locked, the round's events and wagers and its paytable and the table's accounts read, the
  settlement and its lines inserted, the ledger transaction and its entries inserted (balanced,
  checked at commit by the deferred trigger), the round and shoe updated, one audit event
  appended to the hash chain as the project's own writer appends it (its chain lock, the head,
  the hash computed with the project's `audit.chain`; one chain or one per table, whichever the
  checkout has), the idempotency record (with a response body of the same shape) inserted,
  commit. Its amounts come from a trivial rule, not the rules engine: it measures the database
  work, not the rules.

Rounds are prepared beforehand, `--tables` at a time (one open round per table), through the
same API: electronic shoes, `--seats` seats with a primary and bonus wagers each, actions chosen
from `needs` until the round needs only settling; half of each batch is then settled by each
side. Table and column names come from the project's models and the database's
information_schema, so the raw side follows schema changes between checkouts (`--project-dir`).
It prints the time per call of both (mean, median, p95, and the CPU of this process and of each
side's PostgreSQL backend), and "settle runs at X% of the raw transaction" (raw/settle, mean
wall time). One warm-up settle (not timed) runs under a profiler hook that lists the project's
modules whose code it runs: the module count a settle request passes through. The scratch database (`bench_settle_<pid>` on postgres://postgres@127.0.0.1:5432,
or `--database-url`) is created, migrated, and dropped at the end unless `--keep`.
"""

import argparse
import datetime as dt
import hashlib
import importlib
import io
import json
import math
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
import uuid
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg import sql
from psycopg.rows import dict_row

DEFAULT_SERVER = "postgres://postgres@127.0.0.1:5432"
API = "/api/v1"
CHAIN_LOCK_FALLBACK = (0x61756469, 0x74636861)
CLK_TCK = os.sysconf("SC_CLK_TCK")
MODEL_NAMES = (
    "Table", "Terminal", "Dealer", "Round", "Shoe", "RoundEvent", "Wager", "Settlement", "SettlementLine",
    "LedgerTransaction", "LedgerEntry", "Account", "IdempotencyRecord", "AuditEvent", "PaytableVersion",
)  # fmt: skip


def _fail(message: str) -> SystemExit:
    return SystemExit(f"settle_vs_raw.py: {message}")


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))


@contextmanager
def scratch_database(url: str, *, keep: bool) -> Iterator[None]:
    """A new database for the run (never an existing one), dropped at the end unless `keep`."""
    name = urlsplit(url).path.lstrip("/")
    with psycopg.connect(with_database(url, "postgres"), autocommit=True) as admin:
        if admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            raise _fail(f"database {name} already exists; name a new one with --database-url")
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield
    finally:
        if keep:
            print(f"kept database {name}")
        else:
            with psycopg.connect(with_database(url, "postgres"), autocommit=True) as admin:
                admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def setup_django(project: Path, database_url: str, broker_dir: str) -> str:
    """Import the target checkout's Django project in this process; returns its settings module."""
    settings_module = (
        "config.settings" if (project / "config" / "settings.py").exists() else "casino.settings"
    )
    sys.path.insert(0, str(project))
    os.environ["DJANGO_SETTINGS_MODULE"] = settings_module
    os.environ["DATABASE_URL"] = database_url
    os.environ["DJANGO_SECRET_KEY"] = secrets.token_urlsafe(48)
    os.environ["DJANGO_DEBUG"] = "0"
    os.environ["DJANGO_LOG_LEVEL"] = "ERROR"
    os.environ["DJANGO_ALLOWED_HOSTS"] = "localhost"
    os.environ["CELERY_BROKER_DIR"] = broker_dir
    os.environ.pop("DJANGO_DEMO", None)
    warnings.filterwarnings("ignore", message="No directory at", category=UserWarning)
    import django

    django.setup()
    return settings_module


def backend_cpu(pid: int) -> float:
    """CPU seconds (user + system) of a PostgreSQL backend on this machine; 0 when not visible."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = text[text.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


# --- the schema, as the checkout under test has it ------------------------------------------------


@dataclass(frozen=True)
class Column:
    name: str
    data_type: str
    required: bool  # NOT NULL, no default, not an identity column


class Layout:
    """Table and column names from the project's models and information_schema."""

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        from django.apps import apps

        self.conn = conn
        found: dict[str, list[Any]] = {}
        for model in apps.get_models():
            if model.__name__ in MODEL_NAMES and not model._meta.proxy:
                found.setdefault(model.__name__, []).append(model)
        self.tables: dict[str, str] = {}
        for name in MODEL_NAMES:
            models = sorted(found.get(name, []), key=lambda m: m._meta.app_label not in ("casino", "audit"))
            if not models:
                raise _fail(f"no model named {name} in this checkout")
            self.tables[name] = models[0]._meta.db_table
        self.columns: dict[str, dict[str, Column]] = {}
        rows = conn.execute(
            "SELECT table_name, column_name, data_type, is_nullable, column_default, is_identity "
            "FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND table_name = ANY(%s) ORDER BY table_name, ordinal_position",
            [list(self.tables.values())],
        ).fetchall()
        for table, column, data_type, nullable, default, identity in rows:
            required = nullable == "NO" and default is None and identity == "NO"
            self.columns.setdefault(table, {})[column] = Column(column, data_type, required)

    def t(self, model: str) -> sql.Identifier:
        return sql.Identifier(self.tables[model])

    def insert(self, model: str, known: list[str], *, returning: str | None = "id") -> "Insert":
        return Insert(self, self.tables[model], known, returning)


def _filler(column: Column) -> Callable[[], Any]:
    """A value for a NOT NULL column this script does not know (added by a later schema)."""
    kind = column.data_type
    if kind in ("smallint", "integer", "bigint", "numeric", "real", "double precision"):
        return lambda: 0
    if kind == "boolean":
        return lambda: False
    if kind in ("text", "character varying", "character"):
        return lambda: ""
    if kind.startswith("timestamp"):
        return lambda: dt.datetime.now(dt.UTC)
    if kind == "date":
        return lambda: dt.datetime.now(dt.UTC).date()
    if kind in ("json", "jsonb"):
        return lambda: "{}"
    if kind == "ARRAY":
        return lambda: []
    if kind == "uuid":
        return uuid.uuid4
    raise _fail(f"cannot fill the required column {column.name} ({kind})")


class Insert:
    """An INSERT of the columns this script knows that the table has, plus fillers for new ones."""

    def __init__(self, layout: Layout, table: str, known: list[str], returning: str | None) -> None:
        columns = layout.columns[table]
        self.names = [name for name in known if name in columns]
        self.fillers = {
            name: _filler(column) for name, column in columns.items() if column.required and name not in known
        }
        self.table = table
        self.json = {
            name for name in [*self.names, *self.fillers] if columns[name].data_type in ("json", "jsonb")
        }
        self.returning = returning
        self.conn = layout.conn
        self._sql: dict[int, str] = {}

    def _statement(self, rows: int) -> str:
        if rows not in self._sql:
            names = [*self.names, *self.fillers]
            one = sql.SQL("({})").format(
                sql.SQL(", ").join(sql.SQL("%s::jsonb" if n in self.json else "%s") for n in names)
            )
            statement = sql.SQL("INSERT INTO {} ({}) VALUES {}").format(
                sql.Identifier(self.table),
                sql.SQL(", ").join(map(sql.Identifier, names)),
                sql.SQL(", ").join([one] * rows),
            )
            if self.returning:
                statement += sql.SQL(" RETURNING {}").format(sql.Identifier(self.returning))
            self._sql[rows] = statement.as_string(self.conn)  # rendered once, not on every call
        return self._sql[rows]

    def run(self, cur: psycopg.Cursor[Any], rows: list[dict[str, Any]]) -> Any:
        params: list[Any] = []
        for row in rows:
            params += [row[name] for name in self.names]
            params += [fill() for fill in self.fillers.values()]
        cur.execute(self._statement(len(rows)), params)
        if self.returning:
            found = cur.fetchone()
            return found[self.returning] if isinstance(found, dict) else found[0]  # type: ignore[index]
        return None


# --- the raw side ----------------------------------------------------------------------------------


@dataclass
class Prepared:
    round_id: int
    table_id: int
    terminal_token: str
    seq: int
    events: int = 0


class RawSettle:
    """One round settled by hand-written SQL, in one transaction."""

    def __init__(self, conn: psycopg.Connection[Any], layout: Layout) -> None:
        self.conn = conn
        self.layout = layout
        lay = layout
        self.audit = AuditAppend(conn, layout)
        gaming_day = _optional_module("kernel.gaming_day") or _optional_module("casino.gaming_day")
        self.gaming_day_and_shift: Callable[[dt.datetime], tuple[dt.date, str]] = getattr(
            gaming_day, "gaming_day_and_shift", lambda now: (now.date(), "day")
        )
        self.q_terminal = sql.SQL(
            "SELECT t.id, t.table_id, t.name, t.key_hash, t.dealer_id, d.badge FROM {} t "
            "LEFT JOIN {} d ON d.id = t.dealer_id WHERE t.key_prefix = %s"
        ).format(lay.t("Terminal"), lay.t("Dealer"))
        self.q_idem = sql.SQL("SELECT 1 FROM {} WHERE scope = %s AND key = %s").format(
            lay.t("IdempotencyRecord")
        )
        self.q_lock_table = sql.SQL("SELECT * FROM {} WHERE id = %s FOR UPDATE NOWAIT").format(lay.t("Table"))
        self.q_lock_round = sql.SQL("SELECT * FROM {} WHERE id = %s FOR UPDATE").format(lay.t("Round"))
        self.q_lock_shoe = sql.SQL("SELECT * FROM {} WHERE id = %s FOR UPDATE").format(lay.t("Shoe"))
        self.q_events = sql.SQL("SELECT * FROM {} WHERE round_id = %s ORDER BY number").format(
            lay.t("RoundEvent")
        )
        self.q_wagers = sql.SQL("SELECT * FROM {} WHERE round_id = %s ORDER BY id").format(lay.t("Wager"))
        self.q_paytable = sql.SQL("SELECT * FROM {} WHERE id = %s").format(lay.t("PaytableVersion"))
        self.q_accounts = sql.SQL("SELECT id, kind FROM {} WHERE table_id = %s AND kind = ANY(%s)").format(
            lay.t("Account")
        )
        self.settlement = lay.insert(
            "Settlement",
            ["round_id", "wagered_cents", "paid_cents", "house_net_cents", "aggregate_limit_applied",
             "aggregate_reduction_cents", "settled_at"],
        )  # fmt: skip
        self.lines = lay.insert(
            "SettlementLine",
            ["settlement_id", "seat", "hand", "kind", "amount_cents", "result", "win_cents", "paid_cents"],
            returning=None,
        )
        self.transaction = lay.insert(
            "LedgerTransaction", ["kind", "table_id", "round_id", "memo", "created_at", "gaming_day", "shift"]
        )
        self.entries = lay.insert(
            "LedgerEntry", ["transaction_id", "account_id", "amount_cents"], returning=None
        )
        self.u_round = sql.SQL(
            "UPDATE {} SET seq = seq + 1, state = 'settled', settled_at = %s WHERE id = %s"
        ).format(lay.t("Round"))
        self.u_shoe = sql.SQL(
            "UPDATE {} SET closed_at = %s WHERE id = %s AND cut_card_reached AND closed_at IS NULL"
        ).format(lay.t("Shoe"))
        for name, value in list(vars(self).items()):  # rendered once, not on every call
            if isinstance(value, sql.Composed):
                setattr(self, name, value.as_string(conn))
        self.idempotency = lay.insert(
            "IdempotencyRecord",
            [
                "scope",
                "key",
                "method",
                "path",
                "request_hash",
                "response_status",
                "response_body",
                "created_at",
            ],
            returning=None,
        )

    def settle(self, prepared: Prepared) -> None:
        now = dt.datetime.now(dt.UTC)
        key = str(uuid.uuid4())
        path = f"{API}/rounds/{prepared.round_id}/settle/"
        body = {"expected_seq": prepared.seq}
        with self.conn.transaction(), self.conn.cursor(row_factory=dict_row) as cur:
            prefix = prepared.terminal_token.partition(".")[0]
            terminal = cur.execute(self.q_terminal, [prefix]).fetchone()
            if (
                terminal is None
                or terminal["key_hash"] != hashlib.sha256(prepared.terminal_token.encode()).hexdigest()
            ):
                raise _fail("raw side: terminal token does not match")
            scope = f"terminal:{terminal['id']}"
            lock = int.from_bytes(
                hashlib.sha256(f"{scope}\x00{key}".encode()).digest()[:8], "big", signed=True
            )
            cur.execute("SELECT pg_try_advisory_xact_lock(%s)", [lock])
            if cur.execute(self.q_idem, [scope, key]).fetchone() is not None:
                raise _fail("raw side: idempotency key already used")
            table = cur.execute(self.q_lock_table, [prepared.table_id]).fetchone()
            round_ = cur.execute(self.q_lock_round, [prepared.round_id]).fetchone()
            if table is None or round_ is None:
                raise _fail(f"raw side: round {prepared.round_id} or its table is gone")
            if round_["seq"] != prepared.seq or round_["state"] != "ready_to_settle":
                raise _fail(
                    f"raw side: round {prepared.round_id} is {round_['state']} at seq {round_['seq']}"
                )
            shoe = cur.execute(self.q_lock_shoe, [round_["shoe_id"]]).fetchone()
            events = cur.execute(self.q_events, [prepared.round_id]).fetchall()
            wagers = cur.execute(self.q_wagers, [prepared.round_id]).fetchall()
            cur.execute(self.q_paytable, [round_["paytable_id"]]).fetchone()
            accounts = {
                row["kind"]: row["id"]
                for row in cur.execute(
                    self.q_accounts, [table["id"], ["wagers", "patrons", "tray"]]
                ).fetchall()
            }
            lines = _lines(wagers, odd=prepared.round_id % 2 == 1)
            wagered = sum(line["amount_cents"] for line in lines)
            paid = sum(line["paid_cents"] for line in lines)
            settlement_id = self.settlement.run(
                cur,
                [{"round_id": prepared.round_id, "wagered_cents": wagered, "paid_cents": paid,
                  "house_net_cents": wagered - paid, "aggregate_limit_applied": False,
                  "aggregate_reduction_cents": 0, "settled_at": now}],
            )  # fmt: skip
            self.lines.run(cur, [{**line, "settlement_id": settlement_id} for line in lines])
            gaming_day, shift = self.gaming_day_and_shift(now)
            transaction_id = self.transaction.run(
                cur,
                [{"kind": "payout", "table_id": table["id"], "round_id": prepared.round_id,
                  "memo": "round settled", "created_at": now, "gaming_day": gaming_day, "shift": shift}],
            )  # fmt: skip
            moves = [("wagers", -wagered), ("patrons", paid), ("tray", wagered - paid)]
            self.entries.run(
                cur,
                [{"transaction_id": transaction_id, "account_id": accounts[kind], "amount_cents": cents}
                 for kind, cents in moves if cents],
            )  # fmt: skip
            cur.execute(self.u_round, [now, prepared.round_id])
            cur.execute(self.u_shoe, [now, shoe["id"] if shoe else round_["shoe_id"]])
            after = {"seq": prepared.seq + 1, "wagered_cents": wagered, "paid_cents": paid,
                     "house_net_cents": wagered - paid, "aggregate_limit_applied": False,
                     "aggregate_reduction_cents": 0, "paytable_version": 1}  # fmt: skip
            self.audit.append(cur, terminal, table, prepared, key=key, now=now, after=after)
            response = {
                "id": prepared.round_id, "table": table["id"], "shoe": round_["shoe_id"], "seq": prepared.seq + 1,
                "state": "settled", "needs": None, "cards": [e.get("card") for e in events],
                "seats": [{"seat": w["seat"], "hand": w["hand"], "kind": w["kind"],
                           "amount_cents": w["amount_cents"]} for w in wagers],
                "settlement": {"wagered_cents": wagered, "paid_cents": paid, "lines": lines},
            }  # fmt: skip
            fingerprint = json.dumps(body, sort_keys=True, separators=(",", ":"))
            self.idempotency.run(
                cur,
                [{"scope": scope, "key": key, "method": "POST", "path": path,
                  "request_hash": hashlib.sha256(f"POST {path}\n{fingerprint}".encode()).hexdigest(),
                  "response_status": 200, "response_body": json.dumps(response), "created_at": now}],
            )  # fmt: skip


class AuditAppend:
    """One event appended to the project's audit hash chain the way its own writer appends it.

    What varies between checkouts is found at run time: the hashed columns, the hash function and
    format from `audit.chain`; the chain lock from `audit.services`; one chain or one per table
    (a `chain` column); a head function in the database (`audit_chain_head`) or a plain read of
    the head under the lock. The chain stays verifiable (checked at the end of the run)."""

    def __init__(self, conn: psycopg.Connection[Any], layout: Layout) -> None:
        chain = _optional_module("audit.chain")
        services = _optional_module("audit.services")
        self.table = layout.tables["AuditEvent"]
        columns = layout.columns[self.table]
        self.partitioned = "chain" in columns
        self.chain_for: Callable[..., str] | None = getattr(chain, "chain_for", None)
        self.hashed: tuple[str, ...] = tuple(getattr(chain, "HASHED_COLUMNS", ()))
        self.hash_event: Callable[[dict[str, Any]], str] | None = getattr(chain, "hash_event", None)
        self.genesis: str = getattr(chain, "GENESIS_HASH", "0" * 64)
        self.format_version = getattr(chain, "FORMAT_VERSION", 1)
        self.single_lock: tuple[int, int] | None = getattr(services, "CHAIN_LOCK", None)
        self.lock_class: int = getattr(services, "CHAIN_LOCK_CLASS", CHAIN_LOCK_FALLBACK[0])
        self.lock_key: Callable[[int | None], int] = getattr(
            services, "_lock_key", lambda table_id: table_id or 0
        )
        found = conn.execute(
            "SELECT EXISTS (SELECT 1 FROM pg_proc WHERE proname = 'audit_chain_head')"
        ).fetchone()
        conn.commit()
        self.head_function = bool(found and found[0])
        events = sql.Identifier(self.table)
        if self.head_function:
            self.q_prepare = sql.SQL(
                "SELECT head.head_seq AS seq, head.head_hash AS hash, nextval(pg_get_serial_sequence(%s, 'id')) AS id, "
                "%s::jsonb::text AS before, %s::jsonb::text AS after FROM audit_chain_head(%s, %s, %s) AS head"
            ).as_string(conn)
        else:
            self.q_prepare = sql.SQL(
                "SELECT pg_advisory_xact_lock(%s, %s) AS locked, nextval(pg_get_serial_sequence(%s, 'id')) AS id, "
                "%s::jsonb::text AS before, %s::jsonb::text AS after"
            ).as_string(conn)
        where = sql.SQL("WHERE chain = %s ") if self.partitioned else sql.SQL("")
        self.q_head = sql.SQL("SELECT seq, hash FROM {} {}ORDER BY seq DESC LIMIT 1").format(events, where)
        self.q_head_text = self.q_head.as_string(conn)
        known = list(self.hashed) or [c for c in columns if c not in ("hash", "hash_format")]
        self.insert = layout.insert("AuditEvent", [*known, "hash", "hash_format"], returning=None)

    def append(
        self,
        cur: psycopg.Cursor[Any],
        terminal: dict[str, Any],
        table: dict[str, Any],
        prepared: Prepared,
        *,
        key: str,
        now: dt.datetime,
        after: dict[str, Any],
    ) -> None:
        table_id = table["id"]
        chain = self.chain_for(table_id=table_id) if self.chain_for else f"table:{table_id}"
        before_json, after_json = json.dumps({"seq": prepared.seq}), json.dumps(after)
        if self.head_function:
            lock = (self.lock_class, self.lock_key(table_id))
            row = cur.execute(self.q_prepare, [self.table, before_json, after_json, *lock, chain]).fetchone()
            assert row is not None  # noqa: S101
            head = row if row["seq"] is not None else None
        else:
            lock = self.single_lock or (self.lock_class, self.lock_key(table_id))
            row = cur.execute(self.q_prepare, [*lock, self.table, before_json, after_json]).fetchone()
            assert row is not None  # noqa: S101
            head = cur.execute(self.q_head_text, [chain] if self.partitioned else []).fetchone()
        seq, prev_hash = (head["seq"] + 1, head["hash"]) if head else (1, self.genesis)
        name = table.get("name", "")
        event: dict[str, Any] = {
            "id": row["id"], "chain": chain, "seq": seq, "prev_hash": prev_hash, "kind": "change",
            "event_type": "casino.round.settled", "occurred_at": now, "recorded_at": dt.datetime.now(dt.UTC),
            "actor_kind": "terminal", "terminal_id": terminal["id"], "terminal_name": terminal["name"],
            "user_id": None, "username": "", "role": "", "dealer_id": terminal["dealer_id"],
            "dealer_badge": terminal["badge"] or "", "table_id": table_id, "table_name": name,
            "subject_type": "round", "subject_id": str(prepared.round_id),
            "subject_label": f"round {prepared.round_id} at {name}", "before": row["before"],
            "after": row["after"], "detail": "", "request_id": str(uuid.uuid4()), "idempotency_key": key,
            "client_address": "127.0.0.1",
        }  # fmt: skip
        for column in self.insert.names:
            event.setdefault(column, None)
        if self.hash_event is not None and self.hashed:
            event["hash"] = self.hash_event(event)
        else:
            event["hash"] = hashlib.sha256(
                json.dumps(event, default=str, sort_keys=True).encode()
            ).hexdigest()
        event["hash_format"] = self.format_version
        self.insert.run(cur, [event])


def _lines(wagers: list[dict[str, Any]], *, odd: bool) -> list[dict[str, Any]]:
    """One settlement line per (seat, hand, kind), with amounts from a trivial rule (not the engine)."""
    stakes: dict[tuple[int, int, str], int] = {}
    for wager in wagers:
        slot = (wager["seat"], wager["hand"], wager["kind"])
        stakes[slot] = stakes.get(slot, 0) + wager["amount_cents"]
    lines = []
    for (seat, hand, kind), amount in sorted(stakes.items()):
        win = amount if kind == "primary" and odd else 0
        paid = amount + win if kind == "primary" else 0
        result = "win" if win else ("push" if paid else "lose")
        lines.append({"seat": seat, "hand": hand, "kind": kind, "amount_cents": amount, "result": result,
                      "win_cents": win, "paid_cents": paid})  # fmt: skip
    return lines


def _optional_module(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


# --- preparing rounds through the API ---------------------------------------------------------------


@dataclass
class Api:
    client: Any
    token: str
    calls: int = 0

    def post(self, path: str, body: Any = None) -> tuple[int, Any]:
        self.calls += 1
        response = self.client.post(
            path,
            data=json.dumps(body if body is not None else {}),
            content_type="application/json",
            headers={"Authorization": f"Token {self.token}", "Idempotency-Key": str(uuid.uuid4())},
        )
        return response.status_code, json.loads(response.content) if response.content else None


@dataclass
class Seat:
    token: str
    badge: str
    pin: str
    table_id: int = 0
    api: Api | None = None


@dataclass
class Floor:
    tables: list[Seat] = field(default_factory=list)


def provision(count: int, tag: str) -> Floor:
    """Tables with terminal and dealer, through the project's `provision_table` command."""
    from django.core.management import call_command, get_commands, load_command_class

    # Checkouts whose provision_table creates no pit or casino unless asked are asked to.
    parser = load_command_class(get_commands()["provision_table"], "provision_table").create_parser("", "")
    asks = any("--create-pit" in action.option_strings for action in parser._actions)
    place = (
        ["--casino", "Bench casino", "--create-casino", "--pit", "Bench pit", "--create-pit"] if asks else []
    )
    floor = Floor()
    for i in range(count):
        out = io.StringIO()
        name = f"SETTLE-{tag}-{i + 1:03d}"
        call_command("provision_table", "--name", name, "--decks", "6", *place, stdout=out)
        text = out.getvalue()
        made = json.loads(text[text.index("{") :])
        floor.tables.append(Seat(made["terminal_token"], made["dealer"]["badge"], made["dealer"]["pin"]))
    return floor


def sign_in(floor: Floor, client: Any) -> None:
    for seat in floor.tables:
        seat.api = Api(client, seat.token)
        status, body = seat.api.post(f"{API}/terminal/sign-in/", {"badge": seat.badge, "pin": seat.pin})
        if status != 200:
            raise _fail(f"sign-in answered {status}: {body}")
        response = client.get(f"{API}/terminal/", headers={"Authorization": f"Token {seat.token}"})
        seat.table_id = json.loads(response.content)["table"]["id"]
        status, body = seat.api.post(f"{API}/shoes/", {"mode": "electronic", "decks": 6})
        if status != 201:
            raise _fail(f"opening a shoe answered {status}: {body}")


def seats_for(rng: random.Random, count: int) -> list[dict[str, Any]]:
    seats = []
    for seat in sorted(rng.sample(range(1, 8), count)):
        primary = rng.choice((1_000, 2_500, 5_000, 10_000))
        wagers = [{"kind": "primary", "amount_cents": primary}]
        wagers.append({"kind": rng.choice(("LS", "T17", "T18", "T19")), "amount_cents": primary // 4})
        wagers.append({"kind": rng.choice(("RS", "T20", "T21", "TBJ")), "amount_cents": primary // 4})
        seats.append({"seat": seat, "player": None, "wagers": wagers})
    return seats


def choose(round_: dict[str, Any], need: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    if need["kind"] == "insurance":
        return {"seat": need["seat"], "hand": 0, "action": "decline_insurance"}
    allowed = need["allowed"]
    hand = next(s for s in round_["seats"] if s["seat"] == need["seat"])["hands"][need["hand"]]
    if "split" in allowed and rng.random() < 0.5:
        action = "split"
    elif "double" in allowed and hand["total"] in (10, 11) and not hand["soft"]:
        action = "double"
    elif (
        hand["total"] < 12
        or (hand["soft"] and hand["total"] < 18)
        or (hand["total"] < 17 and rng.random() < 0.5)
    ):
        action = "hit"
    else:
        action = "stand"
    if action not in allowed:
        action = "stand" if "stand" in allowed else allowed[0]
    return {"seat": need["seat"], "hand": need["hand"], "action": action, "expected_seq": round_["seq"]}


def prepare_round(seat: Seat, rng: random.Random, seat_count: int) -> Prepared:
    """Open a round at the table and play it until it needs only settling."""
    api = seat.api
    assert api is not None  # noqa: S101
    status, round_ = api.post(f"{API}/rounds/", {"seats": seats_for(rng, seat_count)})
    if status == 409 and round_.get("code") == "no_open_shoe":  # the cut card closed the last one
        api.post(f"{API}/shoes/", {"mode": "electronic", "decks": 6})
        status, round_ = api.post(f"{API}/rounds/", {"seats": seats_for(rng, seat_count)})
    if status != 201:
        raise _fail(f"opening a round answered {status}: {round_}")
    events = 0
    while round_["needs"] and round_["needs"]["kind"] != "settle":
        need = round_["needs"]
        if need["kind"] not in ("action", "insurance"):
            raise _fail(f"unexpected need {need}")
        status, round_ = api.post(f"{API}/rounds/{round_['id']}/actions/", choose(round_, need, rng))
        if status != 200:
            raise _fail(f"action answered {status}: {round_}")
        events += 1
    if not round_["needs"]:
        raise _fail(f"round {round_['id']} ended without a settle: {round_['state']}")
    cards = len(round_["dealer"]["cards"]) + sum(len(h["cards"]) for s in round_["seats"] for h in s["hands"])
    return Prepared(round_["id"], seat.table_id, seat.token, round_["seq"], events=events + cards)


# --- timing ---------------------------------------------------------------------------------------


@dataclass
class Side:
    name: str
    wall: list[float] = field(default_factory=list)
    cpu: float = 0.0
    backend: float = 0.0
    counted: int = 0


def timed(side: Side, run: Callable[[], None], backend_pid: int, *, count: bool) -> None:
    backend_before, cpu_before = backend_cpu(backend_pid), time.process_time()
    started = time.perf_counter()
    run()
    elapsed = time.perf_counter() - started
    cpu, backend = time.process_time() - cpu_before, backend_cpu(backend_pid) - backend_before
    if count:
        side.wall.append(elapsed)
        side.cpu += cpu
        side.backend += backend
        side.counted += 1


def _api_settle(seat: Seat, prepared: Prepared) -> Callable[[], None]:
    api = seat.api
    assert api is not None  # noqa: S101
    path = f"{API}/rounds/{prepared.round_id}/settle/"

    def settle() -> None:
        status, body = api.post(path, {"expected_seq": prepared.seq})
        if status != 200:
            raise _fail(f"settle answered {status}: {body}")

    return settle


def project_modules_of(run: Callable[[], None], project: Path) -> list[str]:
    """The project's modules (not its virtualenv, not this bench) whose code runs during `run()`."""
    seen: set[str] = set()
    venv, bench = project / ".venv", project / "bench"

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event == "call":
            seen.add(frame.f_code.co_filename)

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    modules = []
    for filename in seen:
        path = Path(filename)
        outside = path.is_relative_to(venv) or path.is_relative_to(bench)
        if path.is_relative_to(project) and not outside and path.suffix == ".py":
            modules.append(".".join(path.relative_to(project).with_suffix("").parts))
    return sorted(modules)


def _raw_settle(raw: "RawSettle", prepared: Prepared) -> Callable[[], None]:
    return lambda: raw.settle(prepared)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))]


def main() -> None:
    here = Path(__file__).resolve().parent.parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--project-dir", type=Path, default=here, help="checkout to measure (default: %(default)s)"
    )
    parser.add_argument("--rounds", type=int, default=200, help="timed rounds per side")
    parser.add_argument("--tables", type=int, default=20, help="rounds prepared at a time (one per table)")
    parser.add_argument("--seats", type=int, default=3, choices=range(1, 8), help="seats per round")
    parser.add_argument("--warmup", type=int, default=10, help="first settles per side not counted")
    parser.add_argument("--database-url", default=None, help=f"default: {DEFAULT_SERVER}/bench_settle_<pid>")
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    project = args.project_dir.resolve()
    if not (project / "manage.py").exists():
        parser.error(f"no manage.py in {project}")
    database_url = args.database_url or f"{DEFAULT_SERVER}/bench_settle_{os.getpid()}"
    with (
        tempfile.TemporaryDirectory(prefix="bench-settle-broker-") as broker_dir,
        scratch_database(database_url, keep=args.keep),
    ):
        settings_module = setup_django(project, database_url, broker_dir)
        from django.core.management import call_command
        from django.db import connection
        from django.test import Client, override_settings

        call_command("migrate", verbosity=0)
        # Dealer PINs hashed fast: nothing here times a sign-in.
        with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
            run(args, project, settings_module, database_url, Client(HTTP_HOST="localhost"), connection)
        connection.close()


def run(
    args: argparse.Namespace,
    project: Path,
    settings_module: str,
    database_url: str,
    client: Any,
    connection: Any,
) -> None:
    tag = secrets.token_hex(3)
    rng = random.Random(args.seed)
    floor = provision(args.tables, tag)
    sign_in(floor, client)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid(), version()")
        django_pid, version = cursor.fetchone()
    raw_conn = psycopg.connect(database_url)
    try:
        raw_pid = int(raw_conn.execute("SELECT pg_backend_pid()").fetchone()[0])  # type: ignore[index]
        raw_conn.commit()
        layout = Layout(raw_conn)
        raw_conn.commit()
        raw = RawSettle(raw_conn, layout)
        api_side, raw_side = Side("settle endpoint"), Side("raw transaction")
        print(f"project {project} ({settings_module}), {version.split(',')[0]}")
        print(f"tables: {', '.join(f'{m}={t}' for m, t in layout.tables.items())}")
        audit = raw.audit
        print(
            f"audit append: {'one chain per table' if audit.partitioned else 'one chain'}, "
            f"{'head from audit_chain_head()' if audit.head_function else 'head read under the chain lock'}, "
            f"hash format {audit.format_version}"
        )
        per_side = args.rounds + args.warmup
        seen = {"api": 0, "raw": 0}
        traced: list[str] = []
        events, prepared_rounds, prep_time, batch_number = 0, 0, 0.0, 0
        while min(seen.values()) < per_side:
            started = time.perf_counter()
            batch = [(prepare_round(seat, rng, args.seats), seat) for seat in floor.tables]
            prep_time += time.perf_counter() - started
            for i, (prepared, seat) in enumerate(batch):
                events += prepared.events
                prepared_rounds += 1
                side = "api" if (i + batch_number) % 2 == 0 else "raw"
                if seen[side] >= per_side:
                    side = "raw" if side == "api" else "api"
                count = seen[side] >= args.warmup
                seen[side] += 1
                if side == "api" and not count and seen["api"] == args.warmup:  # the last warm-up one
                    traced = project_modules_of(_api_settle(seat, prepared), project)
                elif side == "api":
                    timed(api_side, _api_settle(seat, prepared), django_pid, count=count)
                else:
                    timed(raw_side, _raw_settle(raw, prepared), raw_pid, count=count)
            batch_number += 1
        prep_calls = sum(seat.api.calls for seat in floor.tables if seat.api) - seen["api"]
        report(args, api_side, raw_side, events / prepared_rounds, prep_time, prep_calls, prepared_rounds)
        if traced:
            packages = sorted({name.split(".")[0] for name in traced})
            print(
                f"\na settle request runs code in {len(traced)} of the project's modules ({', '.join(packages)}):"
            )
            print("  " + " ".join(traced))
        verify = getattr(_optional_module("audit.services"), "verify_chain", None)
        if verify is not None:
            result = verify()
            print(
                f"audit chain after both sides: {'intact' if result.ok else 'BROKEN'}, {result.events} events"
            )
    finally:
        raw_conn.close()


def report(
    args: argparse.Namespace,
    api: Side,
    raw: Side,
    events: float,
    prep_time: float,
    prep_calls: int,
    rounds: int,
) -> None:
    print(
        f"{rounds} rounds of {args.seats} seats (primary + 2 bonus wagers each), {events:.1f} cards and "
        f"actions per round on average, prepared through the API beforehand, {args.tables} at a time "
        f"({prep_time:.1f} s, about {prep_calls} calls)"
    )
    print(
        "settle: POST /api/v1/rounds/{id}/settle/ via django.test.Client in-process (full Django + DRF stack, "
        "no HTTP server), persistent connection"
    )
    print("raw: one psycopg transaction doing the equivalent SQL work, persistent connection\n")
    print(
        f"  {'per call, ms':<18} {'calls':>6} {'mean':>8} {'p50':>8} {'p95':>8} {'python CPU':>11} {'PG backend CPU':>15}"
    )
    for side in (api, raw):
        ms = [1000 * v for v in side.wall]
        n = max(side.counted, 1)
        print(
            f"  {side.name:<18} {side.counted:>6} {statistics.fmean(ms):>8.2f} {percentile(ms, 50):>8.2f} "
            f"{percentile(ms, 95):>8.2f} {1000 * side.cpu / n:>11.2f} {1000 * side.backend / n:>15.2f}"
        )
    ratio = statistics.fmean(raw.wall) / statistics.fmean(api.wall)
    median_ratio = statistics.median(raw.wall) / statistics.median(api.wall)
    print(
        f"\nsettle runs at {100 * ratio:.1f}% of the raw transaction "
        f"(raw/settle, mean wall time per call; {100 * median_ratio:.1f}% on medians)"
    )


if __name__ == "__main__":
    main()
