"""Whether a report is final or provisional, decided in one place.

A **shift** report is final only when the shift has ended and every table of it is done: its
session closed (a closer counted), its drop counted (the count team's complete soft count, where the
casino counts per shift) and no fill or credit slip left pending. Until then it is provisional, and
`shift_status` says why, in words: the shift has not begun or not ended, then each table with what
it lacks ("BJ-01 day: no closer", "BJ-02 day: no soft count", "BJ-03 day: slips pending").

A **gaming day** is final only when each of its three shifts is. **Month to date** is provisional
while its last gaming day is.

Pure Python: no Django. The readers (reports.read, the console) pass in what the clock and the
figures say.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

SHIFT_ORDER = ("day", "swing", "grave")

# What a table lacks, by the flag its figures carry, in the order the reasons name them.
MISSING_COUNTS: dict[str, str] = {
    "no_opener": "no opener",
    "no_closer": "no closer",
    "no_soft_count": "no soft count",
    "shift_not_reported": "a shift has no report",
    "shifts_to_come": "shifts still to come",
}
# A table is not done while one of these holds, though its counts may all be in.
NOT_DONE: dict[str, str] = {**MISSING_COUNTS, "slips_pending": "slips pending"}


@dataclass(frozen=True, slots=True)
class ShiftClock:
    """Where one shift stands at the moment the report is read."""

    shift: str
    begun: bool
    ended: bool


@dataclass(frozen=True, slots=True)
class TableState:
    """One table of a shift (or of a gaming day: `shift` is "daily"), as its figures flag it."""

    name: str
    shift: str
    flags: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Status:
    provisional: bool
    reasons: tuple[str, ...]

    @property
    def label(self) -> str:
        return "Provisional" if self.provisional else "Final"


def lacking(flags: Iterable[str]) -> list[str]:
    """What a table lacks, in words, from its flags (empty: it is done)."""
    present = set(flags)
    return [text for flag, text in NOT_DONE.items() if flag in present]


def report_status(*, shifts: Sequence[ShiftClock], tables: Iterable[TableState]) -> Status:
    """The status of a report over `shifts` (one shift, or the three of a gaming day) and the
    tables in it: final only when every shift has ended and no table lacks anything."""
    reasons: list[str] = []
    for clock in sorted(shifts, key=lambda c: SHIFT_ORDER.index(c.shift)):
        if not clock.begun:
            reasons.append(f"the {clock.shift} shift has not begun")
        elif not clock.ended:
            reasons.append(f"the {clock.shift} shift has not ended")
    for table in tables:
        missing = lacking(table.flags)
        if missing:
            reasons.append(f"{table.name} {table.shift}: {' and '.join(missing)}")
    unique = tuple(dict.fromkeys(reasons))
    return Status(provisional=bool(unique), reasons=unique)


def period_status(*, last_day: Status, through: str) -> Status:
    """Month to date: provisional while its last gaming day (`through`) is."""
    if not last_day.provisional:
        return Status(provisional=False, reasons=())
    return Status(provisional=True, reasons=tuple(f"{through}: {reason}" for reason in last_day.reasons))
