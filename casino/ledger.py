"""Posting money movements to the ledger: one balanced transaction per movement.

A movement is two statements: the transaction row, then its entries inserted
with their accounts looked up in the same statement (by kind at the table, the
cage's accounts house-wide, a contest's accounts by their owner)."""

import datetime as dt
import functools
from collections.abc import Sequence
from typing import Any

from django.db import connection
from django.db.models import Sum

from casino.models import (
    HOUSE_ACCOUNT_KINDS,
    OWNED_ACCOUNT_KINDS,
    Account,
    AccountKind,
    LedgerEntry,
    LedgerTransaction,
    MovementKind,
    Table,
)
from kernel.gaming_day import gaming_day_and_shift
from kernel.rows import Insert

_HOUSE_KINDS = [str(kind) for kind in HOUSE_ACCOUNT_KINDS]
TABLE_ACCOUNT_KINDS = (AccountKind.TRAY, AccountKind.WAGERS, AccountKind.DROP, AccountKind.PATRONS)


_INSERT_ENTRIES_SQL = (
    f'INSERT INTO "{LedgerEntry._meta.db_table}" ("transaction_id", "account_id", "amount_cents") '  # noqa: S608
    f'SELECT %s, account."id", entry.cents FROM (VALUES {{values}}) AS entry(kind, cents, position) '
    f'JOIN "{Account._meta.db_table}" AS account ON account."kind" = entry.kind '
    'AND (account."table_id" = %s OR (account."table_id" IS NULL AND account."owner" = \'\' '
    'AND entry.kind = ANY(%s)) OR (account."owner" <> \'\' AND account."owner" = %s)) '
    "ORDER BY entry.position"
)  # built from model metadata only; every value is a parameter


@functools.cache
def _insert_transaction() -> Insert[LedgerTransaction]:
    return Insert(
        LedgerTransaction,
        ("kind", "table", "round", "memo", "owner", "created_at", "gaming_day", "shift"),
        returning_pk=True,
    )


class UnbalancedTransactionError(ValueError):
    pass


def open_table_accounts(*, table: Table) -> None:
    for kind in TABLE_ACCOUNT_KINDS:
        Account.objects.get_or_create(kind=kind, table=table)


def open_owned_accounts(*, owner: str) -> None:
    """A contest's pool and revenue accounts, and the cage's accounts its money moves through."""
    for kind in OWNED_ACCOUNT_KINDS:
        Account.objects.get_or_create(kind=kind, owner=owner, table=None)
    for kind in HOUSE_ACCOUNT_KINDS:
        Account.objects.get_or_create(kind=kind, owner="", table=None)


def owned_balance_cents(*, owner: str, kind: AccountKind) -> int:
    total = LedgerEntry.objects.filter(account__owner=owner, account__kind=kind).aggregate(
        s=Sum("amount_cents")
    )
    return int(total["s"] or 0)


def post(
    *,
    kind: MovementKind,
    table: Table | None,
    entries: Sequence[tuple[AccountKind, int]],
    now: dt.datetime,
    round_id: int | None = None,
    memo: str = "",
    period: tuple[dt.date, str] | None = None,
    owner: str = "",
) -> LedgerTransaction:
    """Write one transaction. Entries are (account kind at this table, signed cents).

    It is stamped with the gaming day and shift of `now`, or with `period` for the
    correction of an earlier shift (the void of a slip approved then). `table` is None for the
    cage's own movements, which touch house accounts only. `round_id`: the game round it pays, if any.
    `owner`: whose owned accounts (`OWNED_ACCOUNT_KINDS`) it moves, besides the cage's."""
    entries = [(account, cents) for account, cents in entries if cents != 0]
    if sum(cents for _, cents in entries) != 0:
        raise UnbalancedTransactionError(f"{kind} entries do not sum to zero: {entries}")
    if not entries:
        raise UnbalancedTransactionError(f"{kind} moves no money")
    gaming_day, shift = period or gaming_day_and_shift(now)
    fields = (
        kind,
        table.pk if table else None,
        round_id,
        memo[:200],
        owner,
        now,
        gaming_day,
        shift,
    )
    (transaction_id,) = _insert_transaction().run([fields])
    transaction = LedgerTransaction(id=transaction_id, table=table, round_id=round_id, created_at=now)
    transaction.owner = owner
    transaction.kind, transaction.memo, transaction.gaming_day, transaction.shift = (
        kind,
        memo[:200],
        gaming_day,
        shift,
    )
    values = ", ".join(["(%s, %s::bigint, %s::int)"] * len(entries))
    params: list[Any] = []
    for position, (account_kind, cents) in enumerate(entries):
        params += [AccountKind(account_kind).value, cents, position]
    with connection.cursor() as cursor:
        cursor.execute(
            _INSERT_ENTRIES_SQL.format(values=values),
            [transaction_id, *params, table.pk if table else None, _HOUSE_KINDS, owner],
        )
        if cursor.rowcount != len(entries):
            raise UnbalancedTransactionError(f"{kind}: an account of {entries} does not exist at {table}")
    return transaction


def balance_cents(*, table: Table, kind: AccountKind) -> int:
    total = LedgerEntry.objects.filter(account__table=table, account__kind=kind).aggregate(
        s=Sum("amount_cents")
    )
    return int(total["s"] or 0)
