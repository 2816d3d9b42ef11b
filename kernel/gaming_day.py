"""Gaming day and shift of a moment, cut in the casino's time zone (DESIGN.md, Shift reports).

Defaults: the gaming day starts at 06:00; shifts are day 06-14, swing 14-22 and
grave 22-06. A moment before 06:00 belongs to the previous gaming day's grave shift.
"""

import datetime as dt
from zoneinfo import ZoneInfo

from django.conf import settings

SHIFTS: tuple[tuple[str, int], ...] = (("day", 0), ("swing", 8), ("grave", 16))  # hours after day start
SHIFT_HOURS = 8


def _day_start() -> dt.time:
    hours, minutes = settings.GAMING_DAY_STARTS.split(":")
    return dt.time(int(hours), int(minutes))


def casino_zone() -> ZoneInfo:
    return ZoneInfo(settings.CASINO_TIME_ZONE)


def gaming_day_and_shift(moment: dt.datetime) -> tuple[dt.date, str]:
    local = moment.astimezone(casino_zone())
    start = _day_start()
    day = local.date()
    day_start = dt.datetime.combine(day, start, tzinfo=local.tzinfo)
    if local < day_start:
        day -= dt.timedelta(days=1)
        day_start = dt.datetime.combine(day, start, tzinfo=local.tzinfo)
    hours_in = (local.replace(tzinfo=None) - day_start.replace(tzinfo=None)).total_seconds() / 3600
    shift = next(name for name, offset in reversed(SHIFTS) if hours_in >= offset)
    return day, shift


def shift_bounds(day: dt.date, shift: str) -> tuple[dt.datetime, dt.datetime]:
    """The [start, end) of a shift as aware datetimes."""
    offset = dict(SHIFTS)[shift]
    start = dt.datetime.combine(day, _day_start(), tzinfo=casino_zone()) + dt.timedelta(hours=offset)
    return start, start + dt.timedelta(hours=SHIFT_HOURS)
