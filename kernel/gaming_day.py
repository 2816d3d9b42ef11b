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


# --- bounds of the days and times staff type ---------------------------------------------------------
#
# One place for every date or time a person types (console URLs and forms, API query filters and
# bodies): a day outside the window is refused with a clear sentence, never stored and never turned
# into a moment (a day near the calendar's ends overflows once moved to UTC, and a year-10000 row
# cannot be read back).

FIRST_GAMING_DAY = dt.date(2000, 1, 1)
# No page or count is about a gaming day further ahead than this: the future holds no play.
GAMING_DAY_DAYS_AHEAD = 7
# A change "from a later time" typed for the current minute means now; further back is the past.
EFFECTIVE_TIME_TOLERANCE = dt.timedelta(minutes=5)
# A pit boss schedules a limit or house-rule change weeks ahead, never more than a year.
EFFECTIVE_TIME_AHEAD = dt.timedelta(days=365)
_ISO_DAY_LENGTH = len("2026-11-20")


class DayOutOfBoundsError(ValueError):
    """A typed day or time outside the window: `code` is stable, the message says what to enter."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _now() -> dt.datetime:
    from django.utils import timezone

    return timezone.now()


def gaming_day_window(*, now: dt.datetime | None = None) -> tuple[dt.date, dt.date]:
    """The first and last gaming day anyone may ask for: 2000-01-01 to a week after the current one."""
    current, _ = gaming_day_and_shift(now or _now())
    return FIRST_GAMING_DAY, current + dt.timedelta(days=GAMING_DAY_DAYS_AHEAD)


def check_gaming_day(day: dt.date, *, now: dt.datetime | None = None) -> dt.date:
    """`day` itself, or `DayOutOfBoundsError` when it is outside `gaming_day_window`."""
    first, last = gaming_day_window(now=now)
    if not first <= day <= last:
        raise DayOutOfBoundsError(
            "gaming_day_out_of_range",
            f"{day.isoformat()} is not a gaming day this casino keeps: "
            f"give a day from {first.isoformat()} to {last.isoformat()}.",
        )
    return day


def parse_gaming_day(text: str, *, now: dt.datetime | None = None) -> dt.date:
    """A gaming day written YYYY-MM-DD and inside the window, or `DayOutOfBoundsError`."""
    try:
        day = dt.date.fromisoformat(text) if len(text) == _ISO_DAY_LENGTH else None
    except ValueError:
        day = None
    if day is None:
        shown = "".join(c if c.isprintable() else "\N{REPLACEMENT CHARACTER}" for c in text[:40])
        raise DayOutOfBoundsError(
            "invalid_gaming_day", f"“{shown}” is not a gaming day: write it as YYYY-MM-DD, e.g. 2026-11-20."
        )
    return check_gaming_day(day, now=now)


def check_effective_time(moment: dt.datetime, *, now: dt.datetime) -> dt.datetime:
    """When a typed change takes effect: `moment`, or `now` when `moment` is at most
    `EFFECTIVE_TIME_TOLERANCE` ago (the minute being typed); `DayOutOfBoundsError` further back
    or more than `EFFECTIVE_TIME_AHEAD` ahead."""
    try:
        moment.astimezone(dt.UTC)  # a moment at the calendar's ends cannot be stored in UTC
    except (OverflowError, ValueError):
        moment = now + EFFECTIVE_TIME_AHEAD * 2 if moment.year > now.year else now - EFFECTIVE_TIME_AHEAD
    if moment < now - EFFECTIVE_TIME_TOLERANCE:
        raise DayOutOfBoundsError("effective_time_past", "The change takes effect now or at a later time.")
    if moment > now + EFFECTIVE_TIME_AHEAD:
        latest = (now + EFFECTIVE_TIME_AHEAD).astimezone(casino_zone())
        raise DayOutOfBoundsError(
            "effective_time_too_far",
            f"A change takes effect within a year: at the latest {latest:%Y-%m-%d %H:%M}.",
        )
    return max(moment, now)
