"""Period figures printed beside a shift or daily report, read from the stored shift reports.

- Month to date and year to date, per table and per game: every stored shift from the first of
  the month (or of the year) up to and including the report's last shift, so that printing a
  day-shift report again after the swing shift is stored gives the same figures.
- The rolling 30 gaming days ending with the report's last shift, per table: a table whose hold
  over that window falls outside the expected range is flagged for investigation.

As in the roll-ups, win and its drop (the drop the win is based on) are summed over the complete
shifts (`ShiftReport.complete`: every count in); the others are counted apart
(`shifts_incomplete`), and hold is recomputed from the sums, never averaged.
"""

import datetime as dt
from collections.abc import Collection, Sequence
from typing import Any

from django.db.models import Count, Q, Sum
from django.utils import timezone

from casino.games import handles_money
from casino.models import GameKind
from kernel.gaming_day import shift_bounds
from reports.figures import expected_hold_bp, hold_basis_points, hold_outside, hold_percent_text
from reports.models import ShiftReport

ROLLING_DAYS = 30
_SHIFT_ORDER = ("day", "swing", "grave")


def last_shift_begun(*, gaming_day: dt.date, shifts: Sequence[str], now: dt.datetime) -> tuple[dt.date, str]:
    """The last of `shifts` of `gaming_day` that had begun at `now`: the last shift the figures can
    hold (a later one has nothing stored yet). When none had, the shift before the first of them."""
    begun = [shift for shift in shifts if shift_bounds(gaming_day, shift)[0] <= now]
    if begun:
        return gaming_day, max(begun, key=_SHIFT_ORDER.index)
    first = _SHIFT_ORDER.index(min(shifts, key=_SHIFT_ORDER.index))
    if first:
        return gaming_day, _SHIFT_ORDER[first - 1]
    return gaming_day - dt.timedelta(days=1), _SHIFT_ORDER[-1]


def _through(gaming_day: dt.date, last_shift: str) -> Q:
    """Every shift up to and including `last_shift` of `gaming_day`."""
    shifts = _SHIFT_ORDER[: _SHIFT_ORDER.index(last_shift) + 1]
    return Q(gaming_day__lt=gaming_day) | Q(gaming_day=gaming_day, shift__in=shifts)


def _sums(prefix: str, since: Q) -> dict[str, Any]:
    complete = since & Q(complete=True, win_cents__isnull=False)
    return {
        f"{prefix}_shifts": Count("id", filter=since),
        f"{prefix}_incomplete": Count("id", filter=since & ~Q(complete=True, win_cents__isnull=False)),
        f"{prefix}_drop": Sum("drop_cents", filter=complete, default=0),
        f"{prefix}_win": Sum("win_cents", filter=complete, default=0),
    }


def _figures(row: dict[str, Any], prefix: str) -> dict[str, Any]:
    complete = row[f"{prefix}_shifts"] - row[f"{prefix}_incomplete"]
    win = row[f"{prefix}_win"] if complete else None
    drop = row[f"{prefix}_drop"] if complete else None  # no complete shift: not known, not 0
    hold_bp = hold_basis_points(win_cents=win, drop_cents=drop or 0)
    return {
        "shifts": row[f"{prefix}_shifts"],
        "shifts_incomplete": row[f"{prefix}_incomplete"],
        "drop_cents": drop,
        "win_cents": win,
        "hold_bp": hold_bp,
        "hold_percent": hold_percent_text(hold_bp),
    }


def _game_label(game: str) -> str:
    return str(GameKind(game).label) if game in GameKind.values else game


def period_figures(
    *,
    gaming_day: dt.date,
    shifts: Sequence[str],
    table_ids: Collection[int] | None = None,
    now: dt.datetime | None = None,
) -> dict[str, Any]:
    """Month- and year-to-date per table and game, and the 30-day hold of every table (of
    `table_ids` only, when given), up to the last of `shifts` on `gaming_day` that had begun at
    `now` (`through` names it)."""
    through_day, last_shift = last_shift_begun(
        gaming_day=gaming_day, shifts=shifts, now=now or timezone.now()
    )
    month_start = gaming_day.replace(day=1)
    year_start = gaming_day.replace(month=1, day=1)
    window_start = gaming_day - dt.timedelta(days=ROLLING_DAYS - 1)
    through = _through(through_day, last_shift)
    periods = {
        "month": Q(gaming_day__gte=month_start),
        "year": Q(gaming_day__gte=year_start),
        "rolling": Q(gaming_day__gte=window_start),
    }
    aggregates: dict[str, Any] = {}
    for prefix, since in periods.items():
        aggregates.update(_sums(prefix, since))
    stored = ShiftReport.objects.filter(through, gaming_day__gte=min(year_start, window_start))
    if table_ids is not None:
        stored = stored.filter(table_id__in=list(table_ids))

    tables = []
    flagged = []
    for row in (
        stored.values("table_id", "table__name", "table__game", "pit__name")
        .annotate(**aggregates)
        .order_by("pit__name", "table__name")
    ):
        rolling = _figures(row, "rolling")
        # A points game's table takes no money: never a table to investigate for its hold.
        rolling["outside_range"] = hold_outside(
            hold_bp=rolling["hold_bp"], drop_cents=rolling["drop_cents"]
        ) and handles_money(row["table__game"])
        table = {
            "table": {"id": row["table_id"], "name": row["table__name"]},
            "pit": row["pit__name"],
            "game": _game_label(row["table__game"]),
            "month_to_date": _figures(row, "month"),
            "year_to_date": _figures(row, "year"),
            "rolling_30_days": rolling,
        }
        tables.append(table)
        if rolling["outside_range"]:
            flagged.append({"table": table["table"], "pit": table["pit"], "game": table["game"], **rolling})

    games = [
        {
            "game": _game_label(row["table__game"]),
            "month_to_date": _figures(row, "month"),
            "year_to_date": _figures(row, "year"),
        }
        for row in stored.values("table__game").annotate(**aggregates).order_by("table__game")
    ]
    low, high = expected_hold_bp()
    return {
        "through": {"gaming_day": through_day.isoformat(), "shift": last_shift},
        "month_start": month_start.isoformat(),
        "year_start": year_start.isoformat(),
        "rolling_start": window_start.isoformat(),
        "expected_hold_bp": {"low": low, "high": high},
        "tables": tables,
        "games": games,
        "hold_investigations": flagged,
    }
