"""Posting money movements to the ledger: one balanced transaction per movement."""

import datetime as dt
from collections.abc import Sequence

from django.db.models import Sum

from casino.gaming_day import gaming_day_and_shift
from casino.models import Account, AccountKind, LedgerEntry, LedgerTransaction, MovementKind, Round, Table

TABLE_ACCOUNT_KINDS = (AccountKind.TRAY, AccountKind.WAGERS, AccountKind.DROP, AccountKind.PATRONS)


class UnbalancedTransactionError(ValueError):
    pass


def open_table_accounts(*, table: Table) -> None:
    for kind in TABLE_ACCOUNT_KINDS:
        Account.objects.get_or_create(kind=kind, table=table)


def post(
    *,
    kind: MovementKind,
    table: Table,
    entries: Sequence[tuple[AccountKind, int]],
    now: dt.datetime,
    round: Round | None = None,
    memo: str = "",
    period: tuple[dt.date, str] | None = None,
) -> LedgerTransaction:
    """Write one transaction. Entries are (account kind at this table, signed cents).

    It is stamped with the gaming day and shift of `now`, or with `period` for the
    correction of an earlier shift (the void of a slip approved then)."""
    entries = [(account, cents) for account, cents in entries if cents != 0]
    if sum(cents for _, cents in entries) != 0:
        raise UnbalancedTransactionError(f"{kind} entries do not sum to zero: {entries}")
    if not entries:
        raise UnbalancedTransactionError(f"{kind} moves no money")
    accounts = {
        account.kind: account
        for account in Account.objects.filter(
            table=table, kind__in={k for k, _ in entries if k != AccountKind.CAGE}
        )
    }
    if any(k == AccountKind.CAGE for k, _ in entries):
        accounts[AccountKind.CAGE] = Account.objects.get(kind=AccountKind.CAGE, table=None)
    gaming_day, shift = period or gaming_day_and_shift(now)
    transaction = LedgerTransaction.objects.create(
        kind=kind,
        table=table,
        round=round,
        memo=memo[:200],
        created_at=now,
        gaming_day=gaming_day,
        shift=shift,
    )
    LedgerEntry.objects.bulk_create(
        LedgerEntry(transaction=transaction, account=accounts[account_kind], amount_cents=cents)
        for account_kind, cents in entries
    )
    return transaction


def balance_cents(*, table: Table, kind: AccountKind) -> int:
    total = LedgerEntry.objects.filter(account__table=table, account__kind=kind).aggregate(
        s=Sum("amount_cents")
    )
    return int(total["s"] or 0)
