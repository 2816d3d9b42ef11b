"""Reading stored shift reports, with the pit and casino rollups computed on read.

Rollups are database aggregates over the stored table rows (grouped by shift and pit, or shift
and casino): sums of every money figure; win and its drop over the tables whose win is known
(`tables_incomplete` counts the others); hold recomputed from those sums, never averaged.
"""

import datetime as dt
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from django.db.models import Case, Count, IntegerField, Prefetch, Q, QuerySet, Sum, Value, When

from casino.models import ShiftReport, ShiftReportLine
from casino.reports.figures import expected_hold_bp, hold_basis_points, hold_outside, hold_percent_text
from casino.reports.house_edges import kind_sort_key

SHIFT_ORDER = ("day", "swing", "grave")

_SUMMED = (
    "opener_cents",
    "closer_cents",
    "drop_cents",
    "markers_cents",
    "fills_cents",
    "credits_cents",
    "rounds_settled",
    "rounds_voided",
    "hands_dealt",
    "handle_cents",
    "payouts_cents",
    "house_net_cents",
    "theo_win_cents",
)


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


def _kind_payload(
    kind: str, wagers: int, handle: int, paid: int, theo: int, edge: Any = None
) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "kind": kind,
        "wagers": wagers,
        "handle_cents": handle,
        "payouts_cents": paid,
        "house_net_cents": handle - paid,
        "theo_win_cents": theo,
    }
    if edge is not None:
        payload["house_edge"] = str(edge)
    return payload


def table_payload(report: ShiftReport) -> dict[str, Any]:
    return {
        "level": "table",
        "gaming_day": report.gaming_day.isoformat(),
        "shift": report.shift,
        "casino": {"id": report.pit.casino_id, "name": report.pit.casino.name},
        "pit": {"id": report.pit_id, "name": report.pit.name},
        "table": {"id": report.table_id, "name": report.table.name},
        "opener_cents": report.opener_cents,
        "closer_cents": report.closer_cents,
        "drop_cents": report.drop_cents,
        "markers_cents": report.markers_cents,
        "fills_cents": report.fills_cents,
        "credits_cents": report.credits_cents,
        "win_cents": report.win_cents,
        "hold_bp": report.hold_bp,
        "hold_percent": hold_percent_text(report.hold_bp),
        "hold_outside_range": report.hold_outside_range,
        "rounds_settled": report.rounds_settled,
        "rounds_voided": report.rounds_voided,
        "hands_dealt": report.hands_dealt,
        "handle_cents": report.handle_cents,
        "payouts_cents": report.payouts_cents,
        "house_net_cents": report.house_net_cents,
        "win_minus_house_net_cents": report.win_minus_house_net_cents,
        "theo_win_cents": report.theo_win_cents,
        "flags": list(report.flags),
        "generated_at": report.generated_at.isoformat(),
        "by_kind": [
            _kind_payload(
                line.kind,
                line.wagers,
                line.handle_cents,
                line.payouts_cents,
                line.theo_win_cents,
                line.house_edge,
            )
            for line in sorted(report.lines.all(), key=lambda line: kind_sort_key(line.kind))
        ],
    }


def _rollup_payload(level: str, row: dict[str, Any], kinds: list[dict[str, Any]]) -> dict[str, Any]:
    win = row["sum_win"] if row["n_complete"] else None
    hold_bp = hold_basis_points(win_cents=win, drop_cents=row["sum_complete_drop"])
    payload: dict[str, Any] = {
        "level": level,
        "gaming_day": row["gaming_day"].isoformat(),
        "shift": row["shift"],
        "casino": {"id": row["pit__casino_id"], "name": row["pit__casino__name"]},
    }
    if level == "pit":
        payload["pit"] = {"id": row["pit_id"], "name": row["pit__name"]}
    payload.update(
        {
            "tables": row["n_tables"],
            "tables_incomplete": row["n_tables"] - row["n_complete"],
            **{name: row[f"sum_{name}"] for name in _SUMMED[:6]},
            "win_cents": win,
            "hold_bp": hold_bp,
            "hold_percent": hold_percent_text(hold_bp),
            "hold_outside_range": hold_outside(hold_bp),
            **{name: row[f"sum_{name}"] for name in _SUMMED[6:]},
            "win_minus_house_net_cents": row["sum_win_minus_house_net"] if row["n_complete"] else None,
            "by_kind": kinds,
        }
    )
    return payload


def _rollups(base: QuerySet[ShiftReport], *, level: str) -> list[dict[str, Any]]:
    group = ["gaming_day", "shift", "pit__casino_id", "pit__casino__name"]
    if level == "pit":
        group += ["pit_id", "pit__name"]
    complete = Q(win_cents__isnull=False)
    rows = (
        base.values(*group)
        .annotate(
            n_tables=Count("id"),
            n_complete=Count("id", filter=complete),
            sum_win=Sum("win_cents", filter=complete, default=0),
            sum_complete_drop=Sum("drop_cents", filter=complete, default=0),
            sum_win_minus_house_net=Sum("win_minus_house_net_cents", filter=complete, default=0),
            **{f"sum_{name}": Sum(name, default=0) for name in _SUMMED},
            shift_rank=_shift_rank(),
        )
        .order_by("shift_rank", "pit__casino__name", *(["pit__name"] if level == "pit" else []))
    )
    line_group = ["report__shift", "report__pit__casino_id"] + (["report__pit_id"] if level == "pit" else [])
    kinds: dict[tuple[Any, ...], list[dict[str, Any]]] = defaultdict(list)
    for line in (
        ShiftReportLine.objects.filter(report__in=base.values("pk"))
        .values(*line_group, "kind")
        .annotate(w=Sum("wagers"), h=Sum("handle_cents"), p=Sum("payouts_cents"), t=Sum("theo_win_cents"))
        .order_by()
    ):
        kinds[tuple(line[g] for g in line_group)].append(
            _kind_payload(line["kind"], line["w"], line["h"], line["p"], line["t"])
        )
    result = []
    for row in rows:
        key = (row["shift"], row["pit__casino_id"]) + ((row["pit_id"],) if level == "pit" else ())
        result.append(_rollup_payload(level, row, sorted(kinds[key], key=lambda k: kind_sort_key(k["kind"]))))
    return result


def shift_report_payload(*, gaming_day: dt.date, shifts: Sequence[str]) -> dict[str, Any]:
    """Everything the API, the CSV and the PDF show for a gaming day's shifts."""
    reports = list_shift_reports(gaming_day=gaming_day, shifts=shifts)
    tables = [table_payload(report) for report in reports]
    base = ShiftReport.objects.filter(gaming_day=gaming_day, shift__in=list(shifts))
    low, high = expected_hold_bp()
    return {
        "gaming_day": gaming_day.isoformat(),
        "shifts": [s for s in SHIFT_ORDER if s in shifts],
        "expected_hold_bp": {"low": low, "high": high},
        "tables": tables,
        "pits": _rollups(base, level="pit"),
        "casinos": _rollups(base, level="casino"),
        "hold_outliers": [
            {
                "shift": t["shift"],
                "table": t["table"],
                "pit": t["pit"],
                "hold_bp": t["hold_bp"],
                "hold_percent": t["hold_percent"],
            }
            for t in tables
            if t["hold_outside_range"]
        ],
    }
