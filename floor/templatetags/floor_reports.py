"""Template filters of the Reports page: a figure that is not known yet is a dash, never $0.00."""

from typing import Any

from django import template

from kernel import formatting
from reports.status import lacking

register = template.Library()
MISSING = "—"


@register.filter
def known_dollars(cents: int | None) -> str:
    return MISSING if cents is None else formatting.dollars(cents)


@register.filter
def known_percent(text: str | None) -> str:
    return MISSING if text is None else f"{text} %"


@register.filter
def drop_text(row: dict[str, Any]) -> str:
    """The drop and the drop it rests on ("$1,700.00 estimated"), a dash when not known."""
    if row.get("drop_cents") is None:
        return MISSING
    basis = row.get("drop_basis") or ""
    return f"{formatting.dollars(row['drop_cents'])} {basis}".strip()


@register.filter
def table_state(row: dict[str, Any]) -> str:
    """A table row's state in words: idle, done, or what it lacks."""
    missing = lacking(row.get("flags", []))
    if missing:
        return ", ".join(missing)
    return "idle" if "idle" in row.get("flags", []) else "closed and counted"
