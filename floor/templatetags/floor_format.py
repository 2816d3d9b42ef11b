"""Template filters for staff pages: `{{ cents|dollars }}`, `{{ moment|local_time }}`,
`{{ moment|local_time_seconds }}`, `{{ chips|chip_rows }}` (a denomination table's rows)."""

import datetime as dt
from collections.abc import Mapping

from django import template

from kernel import formatting

register = template.Library()


@register.filter
def dollars(cents: int | None) -> str:
    return formatting.dollars(cents)


@register.filter
def local_time(moment: dt.datetime | None) -> str:
    return formatting.local_time(moment)


@register.filter
def local_time_seconds(moment: dt.datetime | None) -> str:
    return formatting.local_time(moment, seconds=True)


@register.filter
def chip_rows(chips: Mapping[str, int] | None) -> list[dict[str, int]]:
    """Chips keyed by denomination in cents (`{"2500": 4}`) as rows, largest denomination first:
    denomination, count and value, the two money fields in cents for `dollars`."""
    rows = [
        {"denomination_cents": int(denomination), "count": count, "value_cents": int(denomination) * count}
        for denomination, count in (chips or {}).items()
    ]
    return sorted(rows, key=lambda row: -row["denomination_cents"])
