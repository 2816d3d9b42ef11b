"""How staff read money and time: dollars with separators, casino local time with its zone."""

import datetime as dt

from kernel.gaming_day import casino_zone


def _sign_dollars_cents(cents: int) -> tuple[str, int, int]:
    whole, rest = divmod(abs(cents), 100)
    return ("-" if cents < 0 else ""), whole, rest


def dollars(cents: int | None) -> str:
    """`123456789` -> `$1,234,567.89`; `None` -> `-`."""
    if cents is None:
        return "-"
    sign, whole, rest = _sign_dollars_cents(cents)
    return f"{sign}${whole:,}.{rest:02d}"


def decimal_dollars(cents: int | None) -> str:
    """`-123456` -> `-1234.56`, as a spreadsheet reads dollars; `None` -> `` (nothing known)."""
    if cents is None:
        return ""
    sign, whole, rest = _sign_dollars_cents(cents)
    return f"{sign}{whole}.{rest:02d}"


def local_time(moment: dt.datetime | None, *, seconds: bool = False) -> str:
    """A moment in the casino's time zone with the zone's abbreviation: `2026-11-23 09:05 PST`."""
    if moment is None:
        return "-"
    local = moment.astimezone(casino_zone())
    return local.strftime("%Y-%m-%d %H:%M:%S %Z" if seconds else "%Y-%m-%d %H:%M %Z")
