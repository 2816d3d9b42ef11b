"""A gaming day's Title 31 records as the compliance page and its exports show them: the MTL in
time order, the latest revision of each CTR worksheet, and the worksheets still waiting for the
patron's identification. Also the CTR alerts of the live floor (`floor.live.figures`)."""

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import QuerySet

from kernel.formatting import dollars
from patrons.identification import masked_number
from patrons.models import Patron
from table_money.models import CashDirection, CtrWorksheet, MtlEntry
from table_money.selectors import latest_ctr_worksheets, list_mtl_entries


@dataclass(frozen=True)
class CtrLine:
    worksheet: CtrWorksheet
    needs_identification: bool  # as the patron stands now: nobody on file, or not identified

    @property
    def who(self) -> str:
        return patron_label(self.worksheet)


@dataclass(frozen=True)
class ComplianceDay:
    gaming_day: dt.date
    mtl: tuple[MtlEntry, ...]
    ctrs: tuple[CtrLine, ...]

    @property
    def flagged(self) -> tuple[CtrLine, ...]:
        return tuple(line for line in self.ctrs if line.needs_identification)

    def mtl_total_cents(self, direction: str) -> int:
        return sum(entry.amount_cents for entry in self.mtl if entry.direction == direction)


def patron_label(record: MtlEntry | CtrWorksheet) -> str:
    """The patron as the record was written under (an MTL entry keeps its description), and the
    name they were identified under since, when it differs."""
    patron = record.patron
    if patron is None:
        return f"Not on file: {record.description}"
    described = record.description or patron.name
    if described == patron.name:
        return f"Patron {patron.number} {described}"
    return f"Patron {patron.number} {described} (identified since as {patron.name})"


def identification_text(patron: Patron | None) -> str:
    """The patron's current identification as the Title 31 documents print it: name, document
    (its number masked but for the last four characters), address; or what is missing."""
    if patron is None:
        return "NEEDED (not on file)"
    current = patron.current_identification
    if current is None:
        return "NEEDED"
    document = f"{current.get_id_type_display()} {masked_number(current.id_number)}"
    issuer = " ".join(part for part in (current.id_issuer_state, current.id_issuer_country) if part)
    address = ", ".join(
        part
        for part in (
            current.street,
            current.city,
            f"{current.state} {current.zip_code}".strip(),
            current.country,
        )
        if part
    )
    parts = [
        f"{current.last_name}, {current.first_name} {current.middle_name}".strip().rstrip(","),
        f"{document} ({issuer})" if issuer else document,
        address or "address missing",
    ]
    return "; ".join(parts)


def latest_worksheets(*, gaming_day: dt.date) -> QuerySet[CtrWorksheet]:
    return latest_ctr_worksheets().filter(gaming_day=gaming_day)


def _needs_identification(worksheet: CtrWorksheet) -> bool:
    return worksheet.patron is None or not worksheet.patron.is_identified


def compliance_day(*, gaming_day: dt.date) -> ComplianceDay:
    mtl = list_mtl_entries(gaming_day=gaming_day)
    worksheets = sorted(
        latest_worksheets(gaming_day=gaming_day),
        key=lambda w: (w.direction, -w.total_cents, w.subject_key),
    )
    return ComplianceDay(
        gaming_day=gaming_day,
        mtl=tuple(mtl),
        ctrs=tuple(CtrLine(w, needs_identification=_needs_identification(w)) for w in worksheets),
    )


def ctr_alerts_by_table(*, gaming_day: dt.date, table_names: Iterable[str]) -> dict[str, list[str]]:
    """The cash-in CTRs of the gaming day, as alerts on the cards of the tables where their cash
    came in (one query)."""
    names = set(table_names)
    alerts: dict[str, list[str]] = defaultdict(list)
    if not names:
        return alerts
    for worksheet in latest_worksheets(gaming_day=gaming_day).filter(direction=CashDirection.CASH_IN):
        tables = sorted({t["location"] for t in worksheet.transactions} & names)
        flag = " Identification needed before filing." if _needs_identification(worksheet) else ""
        for name in tables:
            alerts[name].append(
                f"CTR: {patron_label(worksheet)} has bought in {dollars(worksheet.total_cents)} cash "
                f"this gaming day (over the CTR line).{flag}"
            )
    return alerts
