"""What a filed report holds: `report_document` gathers, beside the payload of
`reports.read.shift_report_payload`, the header (licensee, property, time zone, generated at and
by, version and the SHA-256 of the figures), the per-denomination openers and closers, the
numbered fill and credit slips with their voids, the month- and year-to-date figures and the
30-day hold investigations (`reports.period`), and whether the report is provisional.

A document's figures are everything but its generated-at moment, so two renders of the same
figures differ only in the generated-at line.
"""

import datetime as dt
from collections.abc import Collection, Sequence
from typing import Any

from django.conf import settings

from casino.models import TableInventory
from kernel.documents import figures_sha256
from kernel.gaming_day import casino_zone, shift_bounds
from reports.documents.wording import incomplete_reason, is_complete
from reports.period import period_figures
from table_money.models import ChipSlip

# The layout of the document; printed with the figures' hash as the report's version when the
# payload carries no version of its own.
DOCUMENT_FORMAT = 2
SCHEDULED_JOB = "scheduled job"


def _without_generated_at(value: Any) -> Any:
    """The figures of a payload: the moments its rows were stored are not figures."""
    if isinstance(value, dict):
        return {k: _without_generated_at(v) for k, v in value.items() if k != "generated_at"}
    if isinstance(value, list):
        return [_without_generated_at(v) for v in value]
    return value


def _inventories(*, gaming_day: dt.date, shifts: Sequence[str]) -> list[dict[str, Any]]:
    rows = (
        TableInventory.objects.filter(gaming_day=gaming_day, shift__in=list(shifts))
        .select_related("table")
        .order_by("table__name", "shift", "kind")
    )
    return [
        {
            "table": {"id": row.table_id, "name": row.table.name},
            "shift": row.shift,
            "kind": row.kind,
            "total_cents": row.total_cents,
            "chips": [
                {"denomination_cents": int(denomination), "count": int(count)}
                for denomination, count in sorted(row.chips.items(), key=lambda item: -int(item[0]))
            ],
        }
        for row in rows
    ]


def _slips(*, gaming_day: dt.date, shifts: Sequence[str]) -> list[dict[str, Any]]:
    rows = (
        ChipSlip.objects.filter(gaming_day=gaming_day, shift__in=list(shifts))
        .select_related("table", "void")
        .order_by("kind", "number")
    )
    slips = []
    for slip in rows:
        void = getattr(slip, "void", None)
        slips.append(
            {
                "kind": slip.kind,
                "number": slip.number,
                "table": {"id": slip.table_id, "name": slip.table.name},
                "shift": slip.shift,
                "amount_cents": slip.amount_cents,
                "status": slip.status,
                "approved": slip.approved_at is not None,
                "void_reason": void.reason if void is not None else None,
            }
        )
    return slips


def _provisional_reasons(payload: dict[str, Any], *, now: dt.datetime) -> list[str]:
    """Why the report is not final: a shift not ended, a table with a count missing, or a table
    whose stored figures say they are provisional."""
    day = dt.date.fromisoformat(payload["gaming_day"])
    reasons = []
    for shift in payload["shifts"]:
        _, end = shift_bounds(day, shift)
        if end > now:
            reasons.append(f"the {shift} shift has not ended")
    for table in payload["tables"]:
        name = f"{table['table']['name']} {table['shift']}"
        if not is_complete(table):
            reasons.append(f"{name}: {incomplete_reason(table)}")
        elif table.get("provisional"):
            reasons.append(f"{name}: figures stored before the shift ended")
    return reasons


def report_document(
    payload: dict[str, Any],
    *,
    generated_by: str | None,
    generated_at: dt.datetime,
    table_ids: Collection[int] | None = None,
) -> dict[str, Any]:
    """The payload and what a filed report prints beside it, read from the database (of
    `table_ids` only, when given: the payload is then theirs too)."""
    gaming_day = dt.date.fromisoformat(payload["gaming_day"])
    shifts = list(payload["shifts"])

    def ours(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [row for row in rows if table_ids is None or row["table"]["id"] in table_ids]

    return assemble_document(
        payload,
        inventories=ours(_inventories(gaming_day=gaming_day, shifts=shifts)),
        slips=ours(_slips(gaming_day=gaming_day, shifts=shifts)),
        period=period_figures(gaming_day=gaming_day, shifts=shifts, table_ids=table_ids, now=generated_at)
        if shifts
        else None,
        generated_by=generated_by,
        generated_at=generated_at,
    )


def assemble_document(
    payload: dict[str, Any],
    *,
    inventories: list[dict[str, Any]],
    slips: list[dict[str, Any]],
    period: dict[str, Any] | None,
    generated_by: str | None,
    generated_at: dt.datetime,
) -> dict[str, Any]:
    """A document from its parts, with its header: the figures' hash, whether it is provisional
    (as the payload says, or worked out from its shifts and tables) and who generated it when."""
    if "provisional" in payload:
        provisional = bool(payload["provisional"])
        reasons = [str(reason) for reason in payload.get("provisional_reasons", [])]
    else:
        reasons = _provisional_reasons(payload, now=generated_at)
        provisional = bool(reasons)
    figures = {
        "report": _without_generated_at(payload),
        "inventories": inventories,
        "slips": slips,
        "period": period,
        "provisional": provisional,
        "provisional_reasons": reasons,
    }
    digest = figures_sha256(figures)
    zone = casino_zone()
    return {
        "header": {
            "licensee": settings.CASINO_LICENSEE,
            "property": settings.CASINO_PROPERTY,
            "title": "Daily report" if len(payload["shifts"]) > 1 else "Shift report",
            "time_zone": zone.key,
            "generated_at": generated_at.astimezone(zone).strftime("%Y-%m-%d %H:%M:%S %Z"),
            "generated_by": generated_by or SCHEDULED_JOB,
            "version": str(payload.get("version") or f"{DOCUMENT_FORMAT}-{digest[:12]}"),
            "figures_sha256": digest,
        },
        **figures,
    }
