"""Template filters of the player page and the board: `{{ moment|casino_clock }}` (`14:05`, the
casino's local time, as a patron reads a wall clock) and `{{ cents|dollars }}`."""

import datetime as dt

from django import template

from kernel import formatting
from kernel.gaming_day import casino_zone

register = template.Library()


def casino_hhmm(moment: dt.datetime) -> str:
    return moment.astimezone(casino_zone()).strftime("%H:%M")


@register.filter
def casino_clock(moment: dt.datetime | None) -> str:
    return "" if moment is None else casino_hhmm(moment)


@register.filter
def dollars(cents: int | None) -> str:
    return formatting.dollars(cents)
