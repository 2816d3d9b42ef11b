"""Title 31 aggregation (31 CFR 1021.311/313), pure: which cash transactions go on the multiple
transaction log, and which subjects' gaming days need a currency transaction report.

A subject is a patron on file, or a single transaction by someone who is not (nothing can be
added to it). Cash-in and cash-out are aggregated separately. Everything here is computed from the
set of transactions, never incremented: the same transactions in any order give the same answer.
"""

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum


class Direction(StrEnum):
    CASH_IN = "cash_in"
    CASH_OUT = "cash_out"


@dataclass(frozen=True, slots=True)
class CashTransaction:
    source: str  # "buy_in" or "redemption"
    id: int
    subject: str  # "patron:<number>", or "<source>:<id>" for someone not on file
    direction: Direction
    gaming_day: dt.date
    amount_cents: int
    at: dt.datetime


@dataclass(frozen=True, slots=True)
class DayTotal:
    subject: str
    gaming_day: dt.date
    direction: Direction
    total_cents: int
    transactions: tuple[CashTransaction, ...]  # in time order, then by source and id


def on_mtl(amount_cents: int, *, mtl_threshold_cents: int) -> bool:
    """A cash transaction at or above the house's MTL threshold is logged."""
    return amount_cents >= mtl_threshold_cents


def over_ctr_line(total_cents: int, *, ctr_threshold_cents: int) -> bool:
    """The regulation's "more than $10,000": a total of exactly the threshold is not over it."""
    return total_cents > ctr_threshold_cents


def identification_required(*, identified: bool, day_total_cents: int, ctr_threshold_cents: int) -> bool:
    """Whether a cash transaction needs its subject identified before it is concluded
    (31 CFR 1010.312): a subject not identified whose gaming day's total in that direction,
    this transaction included, would be over the CTR line."""
    return not identified and over_ctr_line(day_total_cents, ctr_threshold_cents=ctr_threshold_cents)


def _order(transaction: CashTransaction) -> tuple[dt.datetime, str, int]:
    return (transaction.at, transaction.source, transaction.id)


def day_totals(transactions: Iterable[CashTransaction]) -> dict[tuple[str, dt.date, Direction], DayTotal]:
    """Each subject's total per gaming day and direction. A transaction seen twice counts once."""
    unique = {(t.source, t.id): t for t in transactions}
    grouped: dict[tuple[str, dt.date, Direction], list[CashTransaction]] = {}
    for transaction in unique.values():
        if isinstance(transaction.amount_cents, bool) or not isinstance(transaction.amount_cents, int):
            raise TypeError("amounts are int cents")
        key = (transaction.subject, transaction.gaming_day, transaction.direction)
        grouped.setdefault(key, []).append(transaction)
    return {
        key: DayTotal(
            subject=key[0],
            gaming_day=key[1],
            direction=key[2],
            total_cents=sum(t.amount_cents for t in members),
            transactions=tuple(sorted(members, key=_order)),
        )
        for key, members in grouped.items()
    }


def ctrs_due(
    transactions: Iterable[CashTransaction], *, ctr_threshold_cents: int
) -> dict[tuple[str, dt.date, Direction], DayTotal]:
    """The subject-days over the CTR line, each with its total and its transactions."""
    return {
        key: total
        for key, total in day_totals(transactions).items()
        if over_ctr_line(total.total_cents, ctr_threshold_cents=ctr_threshold_cents)
    }


# --- filing (31 CFR 1021.311; FinCEN's CTR instructions) -------------------------------------

CTR_FILING_DAYS = 15
_BSA_ID_DIGITS = 14


class FilingState(StrEnum):
    DUE = "due"
    OVERDUE = "overdue"
    FILED = "filed"


def ctr_due_on(gaming_day: dt.date) -> dt.date:
    """A CTR is filed within 15 calendar days after the day of the transactions: their gaming day."""
    return gaming_day + dt.timedelta(days=CTR_FILING_DAYS)


def ctr_filing_state(*, gaming_day: dt.date, filed: bool, today: dt.date) -> FilingState:
    """Filed; or due until its due date has passed (today being the casino's local date), then overdue."""
    if filed:
        return FilingState.FILED
    return FilingState.OVERDUE if today > ctr_due_on(gaming_day) else FilingState.DUE


def is_bsa_id(text: str) -> bool:
    """The BSA Identifier FinCEN's BSA E-Filing returns for an accepted report: 14 digits (all
    zeros stands for "unknown" on an amendment, never for a filed report)."""
    return len(text) == _BSA_ID_DIGITS and text.isascii() and text.isdigit() and text != "0" * _BSA_ID_DIGITS
