"""What the documents of a report say alike: money (kernel.formatting's dollars; plain decimal
dollars for a spreadsheet), percentages, why a table is incomplete, a slip's status, the status
line and which drop the win rests on."""

from typing import Any

from kernel.formatting import dollars
from reports.figures import fixed_point_text, ratio_units
from reports.read import MISSING_COUNTS

# Theo / handle is printed as a percentage to 0.001 %.
_EDGE_PLACES = 3


def decimal_dollars(cents: int | None) -> str:
    """Cents as plain decimal dollars for a spreadsheet: `-123456` -> `-1234.56`; None -> ``.
    The dollars staff read (kernel.formatting) without the dollar sign and the separators."""
    if cents is None:
        return ""
    return dollars(cents).replace("$", "", 1).replace(",", "")


def theo_edge(theo_cents: int, handle_cents: int) -> str:
    """Theo / handle as a percentage to 0.001 %, half to even: the edge the rounds were played at
    on average (each round's theo comes from the paytable report it used)."""
    if handle_cents <= 0:
        return "-"
    units = ratio_units(part=abs(theo_cents), whole=handle_cents, per_one=100 * 10**_EDGE_PLACES)
    return f"{fixed_point_text(units, places=_EDGE_PLACES, negative=theo_cents < 0)} %"


def percent(text: str | None) -> str:
    return f"{text} %" if text is not None else "-"


def yes_no(value: object) -> str:
    return "yes" if value else "no"


def flags_text(row: dict[str, Any]) -> str:
    return " ".join(row.get("flags", []))


def is_complete(table: dict[str, Any]) -> bool:
    """A table's win is known (opener and closer counted), unless the payload says otherwise."""
    return bool(table.get("complete", table["win_cents"] is not None))


def incomplete_reason(table: dict[str, Any]) -> str:
    flags = table.get("flags", [])
    reasons = [text for flag, text in MISSING_COUNTS.items() if flag in flags]
    return ", ".join(reasons) or " ".join(flags) or "win unknown"


def tables_of(row: dict[str, Any]) -> tuple[int, int]:
    """How many tables a row stands for, and how many of them are incomplete."""
    if row["level"] == "table":
        return 1, 0 if is_complete(row) else 1
    return row["tables"], row["tables_incomplete"]


def status_line(document: dict[str, Any]) -> str:
    if document["provisional"]:
        why = "; ".join(document["provisional_reasons"])
        return f"PROVISIONAL: {why}" if why else "PROVISIONAL"
    return "Final"


def slip_status(slip: dict[str, Any]) -> str:
    if slip["status"] == "void":
        return "VOID (approved, reversed)" if slip["approved"] else "VOID"
    return str(slip["status"])


def drop_basis(row: dict[str, Any]) -> str:
    """Which drop the win is based on, where the payload says (tables; roll-ups may not)."""
    if row.get("drop_basis"):
        return str(row["drop_basis"])
    if row.get("counted_drop_cents") is not None:
        return "counted"
    return "estimated" if "counted_drop_cents" in row else ""
