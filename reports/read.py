"""Reading stored shift reports, with the pit and casino rollups and the daily report computed on
read from the stored table rows.

- Rollups (per shift and pit, per shift and casino) are sums over the **complete** tables only
  (opener and closer counted and, where the casino counts per shift, the soft count signed); the
  incomplete ones are listed apart (`incomplete_tables`) and counted in `tables_incomplete`.
  Hold is recomputed from the sums, never averaged (`rollup`, a pure function of the table rows).
- The drop the win is based on (`drop_basis`) is the counted drop when the count team's signed
  count exists, else the estimated drop (buy-ins typed at the terminals); both are shown, with
  their difference (`drop_difference_cents` = counted - estimated).
- Which rows: a shift that has ended is read from its stored rows (stored at or after its end); a
  shift under way, or one whose rows were stored before it ended or not at all, is computed on
  request from the live figures (no stored row needed); a shift that has not begun has no rows.
- Provisional: the one rule of `reports.status` over the shifts asked for and their tables (a
  shift not begun or not ended, a table with no opener, no closer, no soft count, or slips
  pending), with its reasons. Figures nobody can know yet are null, never 0: a roll-up with no
  complete table, a gaming day's closer and win while shifts of it are still to come.
- The daily report (when all three shifts are asked for) is per table, pit and casino over the
  gaming day: each table's shifts summed; when the casino counts once per gaming day its counted
  drop is the day's complete soft count.
"""

import datetime as dt
from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from typing import Any

from django.conf import settings
from django.db.models import Case, IntegerField, Prefetch, QuerySet, Value, When
from django.utils import timezone

from casino.games import handles_money
from casino.models import Table
from kernel.gaming_day import shift_bounds
from reports.definition import FIGURE, FIGURES, KIND_FIGURES, RollUp, Section
from reports.figures import (
    compute_shift_figures,
    expected_hold_bp,
    hold_basis_points,
    hold_outside,
    hold_percent_text,
    tables_with_activity,
    unsaved_lines,
    unsaved_report,
)
from reports.house_edges import kind_sort_key
from reports.models import ShiftReport, ShiftReportLine
from reports.status import MISSING_COUNTS, SHIFT_ORDER, ShiftClock, Status, TableState, report_status
from reports.tournaments import tournament_day_lines
from table_money.models import WHOLE_DAY
from table_money.selectors import counted_drops

DAILY = "daily"
# A report row's fields that say which table and shift it is, not what was counted or played.
_ROW_IDENTITY = frozenset({"id", "table", "pit", "gaming_day", "shift"})


def _api_order() -> tuple[str, ...]:
    """The figures of a table row in the API: the stored row's fields in the model's order, each
    figure worked out on read right after the stored one it `follows`."""
    order: list[str] = []
    for field in ShiftReport._meta.concrete_fields:
        if field.name not in _ROW_IDENTITY:
            order += [field.name, *(figure.key for figure in FIGURES if figure.follows == field.name)]
    return tuple(order)


def _sums_first(keys: Iterable[str]) -> tuple[str, ...]:
    keys = tuple(keys)
    summed = tuple(key for key in keys if FIGURE[key].rolls_up is RollUp.SUM)
    return summed + tuple(key for key in keys if key not in summed)


API_ORDER = _api_order()
# Summed over the complete tables of a rollup (and over the shifts of a table's day).
SUMMED = tuple(key for key in API_ORDER if FIGURE[key].rolls_up is RollUp.SUM)
_ROLLED_UP = [key for key in API_ORDER if FIGURE[key].rolls_up is not RollUp.NONE]
# A roll-up: the count summed, then the win and hold worked out from it; then the rest, likewise.
ROLLUP_ORDER = _sums_first(k for k in _ROLLED_UP if FIGURE[k].section is Section.COUNT) + _sums_first(
    k for k in _ROLLED_UP if FIGURE[k].section is not Section.COUNT
)
# A table's gaming day: its shifts' figures summed, then the others (it was stored at no one moment).
DAILY_ORDER = _sums_first(key for key in API_ORDER if key != "generated_at")
_KIND_SUMMED = tuple(figure.key for figure in KIND_FIGURES if figure.rolls_up is RollUp.SUM)


def _shift_rank() -> Case:
    return Case(
        *(When(shift=name, then=Value(i)) for i, name in enumerate(SHIFT_ORDER)),
        default=Value(len(SHIFT_ORDER)),
        output_field=IntegerField(),
    )


def list_shift_reports(*, gaming_day: dt.date, shifts: Sequence[str]) -> QuerySet[ShiftReport]:
    return (
        ShiftReport.objects.filter(gaming_day=gaming_day, shift__in=list(shifts))
        .select_related("table", "pit", "pit__casino")
        .prefetch_related(Prefetch("lines", queryset=ShiftReportLine.objects.order_by("pk")))
        .annotate(shift_rank=_shift_rank())
        .order_by("shift_rank", "pit__casino__name", "pit__name", "table__name")
    )


def _kind_payload(kind: str, sums: dict[str, int], edge: Any = None, *, line: bool = False) -> dict[str, Any]:
    """A wager kind's figures; a table's `line` adds its house edge and whether any of its handle
    is priced (`house_edge` null and `priced` false: none is; never a zero edge)."""
    values: dict[str, Any] = {
        **sums,
        "house_net_cents": sums["handle_cents"] - sums["payouts_cents"],
        "house_edge": None if edge is None else str(edge),
    }
    payload = {
        "kind": kind,
        **{f.key: values[f.key] for f in KIND_FIGURES if f.rolls_up is not RollUp.NONE or line},
    }
    if line:
        payload["priced"] = edge is not None
    return payload


def _difference(counted: int | None, estimated: int) -> int | None:
    return counted - estimated if counted is not None else None


def table_payload(
    report: ShiftReport, *, now: dt.datetime | None = None, lines: Sequence[ShiftReportLine] | None = None
) -> dict[str, Any]:
    """A table row of the API; `lines`: the per-kind lines of a row not stored (else its own)."""
    ended = shift_bounds(report.gaming_day, report.shift)[1] <= (now or timezone.now())
    values: dict[str, Any] = {figure.key: getattr(report, figure.key) for figure in FIGURES if figure.stored}
    values.update(
        flags=list(report.flags),
        generated_at=report.generated_at.isoformat(),
        hold_percent=hold_percent_text(report.hold_bp),
        drop_difference_cents=_difference(report.counted_drop_cents, report.estimated_drop_cents),
        provisional=report.provisional or not ended,
    )
    return {
        "level": "table",
        "gaming_day": report.gaming_day.isoformat(),
        "shift": report.shift,
        "casino": {"id": report.pit.casino_id, "name": report.pit.casino.name},
        "pit": {"id": report.pit_id, "name": report.pit.name},
        "table": {"id": report.table_id, "name": report.table.name},
        **{key: values[key] for key in API_ORDER},
        "shift_ended": ended,
        "by_kind": [
            _kind_payload(
                line.kind, {key: getattr(line, key) for key in _KIND_SUMMED}, line.house_edge, line=True
            )
            for line in sorted(
                report.lines.all() if lines is None else lines, key=lambda line: kind_sort_key(line.kind)
            )
        ],
    }


def incomplete_reasons(table: dict[str, Any]) -> list[str]:
    """Why a table row is left out of the rollups, in words."""
    reasons = [text for flag, text in MISSING_COUNTS.items() if flag in table["flags"]]
    return reasons or ["win unknown"]


def _kinds_summed(tables: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    sums: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(_KIND_SUMMED, 0))
    for table in tables:
        for kind in table["by_kind"]:
            row = sums[kind["kind"]]
            for key in _KIND_SUMMED:
                row[key] += kind.get(key) or 0  # a payload stored before a figure was added has none
    return [_kind_payload(kind, sums[kind]) for kind in sorted(sums, key=kind_sort_key)]


def _drop_basis(complete: Sequence[dict[str, Any]]) -> str:
    bases = {table["drop_basis"] for table in complete}
    return bases.pop() if len(bases) == 1 else ("mixed" if bases else "estimated")


def rollup(level: str, tables: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The pit or casino rollup of table rows of one shift (or of one gaming day): every figure
    summed over the complete tables, the others listed apart. Pure: it reads only `tables`."""
    first = tables[0]
    complete = [t for t in tables if t["complete"]]
    win = sum(t["win_cents"] for t in complete) if complete else None
    drop = sum(t["drop_cents"] for t in complete) if complete else 0
    hold_bp = hold_basis_points(win_cents=win, drop_cents=drop)
    counted = [t for t in complete if t["counted_drop_cents"] is not None]
    # No complete table: nothing is known, and nothing is shown as 0.
    values: dict[str, Any] = {
        key: sum(t.get(key) or 0 for t in complete) if complete else None for key in SUMMED
    }
    values.update(
        win_cents=win,
        hold_bp=hold_bp,
        hold_percent=hold_percent_text(hold_bp),
        hold_outside_range=hold_outside(hold_bp=hold_bp, drop_cents=drop),
        win_minus_house_net_cents=sum(t["win_minus_house_net_cents"] for t in complete) if complete else None,
        counted_drop_cents=sum(t["counted_drop_cents"] for t in counted) if counted else None,
        drop_difference_cents=sum(t["drop_difference_cents"] for t in counted) if counted else None,
        drop_basis=_drop_basis(complete),
        provisional=any(t["provisional"] for t in tables),
    )
    payload: dict[str, Any] = {
        "level": level,
        "gaming_day": first["gaming_day"],
        "shift": first["shift"],
        "casino": first["casino"],
    }
    if level == "pit":
        payload["pit"] = first["pit"]
    payload.update(
        {
            "tables": len(tables),
            "tables_incomplete": len(tables) - len(complete),
            **{key: values[key] for key in ROLLUP_ORDER},
            "incomplete_tables": [
                {"table": t["table"], "pit": t["pit"], "reasons": incomplete_reasons(t)}
                for t in tables
                if not t["complete"]
            ],
            "by_kind": _kinds_summed(complete),
        }
    )
    return payload


def rollups(tables: Sequence[dict[str, Any]], *, level: str) -> list[dict[str, Any]]:
    """Rollups of table rows per shift and pit, or per shift and casino, in report order."""
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = defaultdict(list)
    for table in tables:
        key: tuple[Any, ...] = (table["shift"], table["casino"]["name"], table["casino"]["id"])
        if level == "pit":
            key += (table["pit"]["name"], table["pit"]["id"])
        groups[key].append(table)
    order = (*SHIFT_ORDER, DAILY)
    return [
        rollup(level, groups[key])
        for key in sorted(groups, key=lambda k: (order.index(k[0]) if k[0] in order else len(order), *k[1:]))
    ]


def _daily_table(
    shifts: dict[str, dict[str, Any]], *, day_count: int | None, per_day: bool, now: dt.datetime
) -> dict[str, Any]:
    """One table's gaming day from its stored shift rows (`shifts`: by shift name)."""
    rows = [shifts[name] for name in SHIFT_ORDER if name in shifts]
    first = rows[0]
    flags = sorted({flag for row in rows for flag in row["flags"]} - {"idle"})
    day_end = shift_bounds(dt.date.fromisoformat(first["gaming_day"]), SHIFT_ORDER[-1])[1]
    to_come = len(rows) < len(SHIFT_ORDER) and day_end > now
    if len(rows) < len(SHIFT_ORDER):
        # Shifts of a day under way are still to come; after it, a shift without a row is missing.
        flags.append("shifts_to_come" if to_come else "shift_not_reported")
    if per_day:
        counted = day_count
        flags = [flag for flag in flags if flag != "no_soft_count"]
        idle = all("idle" in row["flags"] for row in rows)
        if counted is None and not idle:
            flags.append("no_soft_count")
    else:
        # An idle shift needs no count: the day is counted once every shift in play is.
        counted_rows = [row["counted_drop_cents"] for row in rows if "idle" not in row["flags"]]
        counted = (
            sum(c for c in counted_rows if c is not None)
            if counted_rows and all(c is not None for c in counted_rows)
            else None
        )
    estimated = sum(row["estimated_drop_cents"] for row in rows)
    sums = {key: sum(row[key] or 0 for row in rows) for key in SUMMED}
    counts_known = all(row["win_cents"] is not None for row in rows)
    drop = counted if counted is not None else estimated
    win: int | None = None
    if counts_known:
        # Each shift's win less its own drop, plus the day's drop: the same sum whichever drop.
        win = sum(row["win_cents"] - row["drop_cents"] for row in rows) + drop
    complete = counts_known and not set(MISSING_COUNTS) & set(flags)
    if to_come:
        win = None  # shifts of the day are still to come: its win and last closer are not known yet
    hold_bp = hold_basis_points(win_cents=win, drop_cents=drop)
    values: dict[str, Any] = {
        **sums,
        # The day's first opener and last closer (a table closed early is idle in later shifts).
        "opener_cents": next((row["opener_cents"] for row in rows if row["opener_cents"] is not None), None),
        "closer_cents": None
        if to_come
        else next((row["closer_cents"] for row in reversed(rows) if row["closer_cents"] is not None), None),
        "drop_cents": drop,
        "win_cents": win,
        "hold_bp": hold_bp,
        "hold_percent": hold_percent_text(hold_bp),
        "hold_outside_range": hold_outside(hold_bp=hold_bp, drop_cents=drop),
        "win_minus_house_net_cents": win - sums["house_net_cents"] if win is not None else None,
        "flags": flags,
        "counted_drop_cents": counted,
        "drop_difference_cents": _difference(counted, estimated),
        "drop_basis": "counted" if counted is not None else "estimated",
        "complete": complete,
        "provisional": not complete or day_end > now or any(row["provisional"] for row in rows),
    }
    return {
        "level": "table",
        "gaming_day": first["gaming_day"],
        "shift": DAILY,
        "shifts": [row["shift"] for row in rows],
        "casino": first["casino"],
        "pit": first["pit"],
        "table": first["table"],
        **{key: values[key] for key in DAILY_ORDER},
        "by_kind": _kinds_summed(rows),
    }


def _daily(
    gaming_day: dt.date, tables: Sequence[dict[str, Any]], *, now: dt.datetime, status: Status
) -> dict[str, Any]:
    per_day = str(getattr(settings, "CASINO_SOFT_COUNT_PER", "shift")) == "day"
    day_counts = counted_drops(gaming_day=gaming_day, shift=WHOLE_DAY) if per_day else {}
    by_table: dict[int, dict[str, dict[str, Any]]] = defaultdict(dict)
    for table in tables:
        by_table[table["table"]["id"]][table["shift"]] = table
    daily_tables = [
        _daily_table(shifts, day_count=day_counts.get(table_id), per_day=per_day, now=now)
        for table_id, shifts in by_table.items()
    ]
    daily_tables.sort(key=lambda t: (t["casino"]["name"], t["pit"]["name"], t["table"]["name"]))
    return {
        "gaming_day": gaming_day.isoformat(),
        "tables": daily_tables,
        "pits": rollups(daily_tables, level="pit"),
        "casinos": rollups(daily_tables, level="casino"),
        "provisional": status.provisional or any(t["provisional"] for t in daily_tables),
    }


def _live_reports(
    *, gaming_day: dt.date, shift: str, now: dt.datetime
) -> list[tuple[ShiftReport, list[ShiftReportLine]]]:
    """A shift's report rows computed now from the live figures, not stored, in report order. While
    the shift runs, a table with nothing recorded yet has no row: its figures are to come, not 0."""
    running = shift_bounds(gaming_day, shift)[1] > now
    figures = [
        f
        for f in compute_shift_figures(gaming_day=gaming_day, shift=shift, now=now)
        if not (running and "idle" in f.flags)
    ]
    tables = Table.objects.select_related("pit", "pit__casino").in_bulk([f.table_id for f in figures])
    rows = []
    for table_figures in figures:
        report = unsaved_report(table_figures, now=now)
        report.table = tables[table_figures.table_id]
        report.pit = report.table.pit
        rows.append((report, unsaved_lines(table_figures)))
    rows.sort(key=lambda row: (row[0].pit.casino.name, row[0].pit.name, row[0].table.name))
    return rows


def shift_tables(
    *, gaming_day: dt.date, shift: str, now: dt.datetime, table_ids: Collection[int] | None = None
) -> tuple[ShiftClock, list[dict[str, Any]]]:
    """Where a shift stands and its table rows (of `table_ids` only, when given): stored once it
    has ended (and its rows were stored after its end), computed now while it runs or when nothing
    was stored after its end, none before it begins."""
    start, end = shift_bounds(gaming_day, shift)
    clock = ShiftClock(shift=shift, begun=start <= now, ended=end <= now)
    if not clock.begun:
        return clock, []
    rows: list[tuple[ShiftReport, Sequence[ShiftReportLine] | None]] = []
    if clock.ended:
        stored = list(list_shift_reports(gaming_day=gaming_day, shifts=[shift]))
        # Stored after the end for every table with activity (not one row regenerated early).
        if (
            stored
            and all(report.generated_at >= end for report in stored)
            and tables_with_activity(gaming_day=gaming_day, shift=shift)
            <= {report.table_id for report in stored}
        ):
            rows = [(report, None) for report in stored]
    if not rows:
        rows = list(_live_reports(gaming_day=gaming_day, shift=shift, now=now))
    return clock, [
        table_payload(report, now=now, lines=lines)
        for report, lines in rows
        if table_ids is None or report.table_id in table_ids
    ]


def status_of(clocks: Sequence[ShiftClock], tables: Sequence[dict[str, Any]]) -> Status:
    """The report's status by the one rule (reports.status), from its shifts and table rows."""
    return report_status(
        shifts=clocks,
        tables=[
            TableState(name=t["table"]["name"], shift=t["shift"], flags=tuple(t["flags"])) for t in tables
        ],
    )


def shift_report_payload(
    *,
    gaming_day: dt.date,
    shifts: Sequence[str],
    now: dt.datetime | None = None,
    table_ids: Collection[int] | None = None,
) -> dict[str, Any]:
    """Everything the API, the CSV and the PDF show for a gaming day's shifts (and, for all three
    shifts, the daily report under `daily`): of every table, or of `table_ids` only (a pit's
    console page), its roll-ups and status then theirs alone."""
    now = now or timezone.now()
    clocks: list[ShiftClock] = []
    tables: list[dict[str, Any]] = []
    for shift in (s for s in SHIFT_ORDER if s in shifts):
        clock, rows = shift_tables(gaming_day=gaming_day, shift=shift, now=now, table_ids=table_ids)
        clocks.append(clock)
        tables += rows
    status = status_of(clocks, tables)
    low, high = expected_hold_bp()
    # A points game's table takes no money: never a hold outlier.
    money_tables = {
        table.pk
        for table in Table.objects.filter(pk__in={t["table"]["id"] for t in tables}).only("id", "game")
        if handles_money(table.game)
    }
    payload: dict[str, Any] = {
        "gaming_day": gaming_day.isoformat(),
        "shifts": [s for s in SHIFT_ORDER if s in shifts],
        "expected_hold_bp": {"low": low, "high": high},
        "soft_count_per": str(getattr(settings, "CASINO_SOFT_COUNT_PER", "shift")),
        "provisional": status.provisional,
        "provisional_reasons": list(status.reasons),
        "tables": tables,
        "pits": rollups(tables, level="pit"),
        "casinos": rollups(tables, level="casino"),
        "hold_outliers": [
            {
                "shift": t["shift"],
                "table": t["table"],
                "pit": t["pit"],
                "hold_bp": t["hold_bp"],
                "hold_percent": t["hold_percent"],
            }
            for t in tables
            if t["hold_outside_range"] and t["table"]["id"] in money_tables
        ],
    }
    if set(SHIFT_ORDER) <= set(shifts) and tables:
        payload["daily"] = _daily(gaming_day, tables, now=now, status=status)
    if set(SHIFT_ORDER) <= set(shifts) and table_ids is None:
        # Beside the tables, never in their figures: each tournament on its own line.
        lines = tournament_day_lines(gaming_day=gaming_day)
        if lines:
            payload["tournaments"] = lines
    return payload
