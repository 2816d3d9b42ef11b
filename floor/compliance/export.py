"""A gaming day's MTL and CTR worksheets as files: CSV (dollars as decimals under a units row)
and PDF. Both print each patron's identification (`identification_text`), each CTR's filing state,
and the SHA-256 of the day's figures (`title31_figures`); the PDF has "Page N of M" on every page.
Both render a `ComplianceDay` and touch no database; names are shown as written, never run as a
formula or read as markup (`kernel.documents`)."""

import csv
import datetime as dt
import io
from typing import Any

from django.conf import settings

from floor.compliance.day import ComplianceDay, identification_text, patron_label
from kernel.documents import figures_sha256, paged_canvas, paragraph_text, spreadsheet_text
from kernel.formatting import dollars, local_time
from kernel.gaming_day import casino_zone
from table_money.engine.title31 import ctr_due_on, ctr_filing_state

CSV_UNITS = "dollars; times in casino local time"
DOCUMENT_FORMAT = "title31-2"


def _filing(line: Any, *, today: dt.date) -> dict[str, str]:
    worksheet = line.worksheet
    filing = getattr(worksheet, "filing", None)
    return {
        "state": ctr_filing_state(
            gaming_day=worksheet.gaming_day, filed=filing is not None, today=today
        ).value,
        "due_on": ctr_due_on(worksheet.gaming_day).isoformat(),
        "filed_on": filing.filed_on.isoformat() if filing else "",
        "bsa_id": filing.bsa_id if filing else "",
    }


def _filing_text(filing: dict[str, str]) -> str:
    if filing["filed_on"]:
        return f"filed {filing['filed_on']}, BSA ID {filing['bsa_id']}"
    if filing["state"] == "overdue":
        return f"OVERDUE (due {filing['due_on']})"
    return f"due {filing['due_on']}"


def title31_figures(day: ComplianceDay, *, today: dt.date) -> dict[str, Any]:
    """What the day's documents say, as the hash covers it (not who generated them, nor when)."""
    return {
        "gaming_day": day.gaming_day.isoformat(),
        "licensee": settings.CASINO_LICENSEE,
        "property": settings.CASINO_PROPERTY,
        "ctr": [
            {
                "id": line.worksheet.pk,
                "revision": line.worksheet.revision,
                "direction": line.worksheet.direction,
                "patron": line.who,
                "identification": identification_text(line.worksheet.patron),
                "total_cents": line.worksheet.total_cents,
                "transactions": line.worksheet.transactions,
                **_filing(line, today=today),
            }
            for line in day.ctrs
        ],
        "mtl": [
            {
                "id": entry.pk,
                "direction": entry.direction,
                "patron": patron_label(entry),
                "identification": identification_text(entry.patron) if entry.patron else "",
                "amount_cents": entry.amount_cents,
                "at": entry.occurred_at.isoformat(),
                "location": entry.where,
                "employee": entry.employee,
            }
            for entry in day.mtl
        ],
    }


def _header(day: ComplianceDay, *, generated_at: dt.datetime, generated_by: str) -> dict[str, Any]:
    zone = casino_zone()
    digest = figures_sha256(title31_figures(day, today=generated_at.astimezone(zone).date()))
    return {
        "licensee": settings.CASINO_LICENSEE,
        "property": settings.CASINO_PROPERTY,
        "generated_at": generated_at.astimezone(zone).strftime("%Y-%m-%d %H:%M:%S %Z"),
        "generated_by": generated_by,
        "version": f"{DOCUMENT_FORMAT}-{digest[:12]}",
        "figures_sha256": digest,
    }


def _decimal_dollars(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    whole, rest = divmod(abs(cents), 100)
    return f"{sign}{whole}.{rest:02d}"


def compliance_csv(day: ComplianceDay, *, generated_at: dt.datetime, generated_by: str) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["Title 31 records", f"gaming day {day.gaming_day.isoformat()}"])
    writer.writerow(
        [
            "Licensee",
            spreadsheet_text(settings.CASINO_LICENSEE),
            "Property",
            spreadsheet_text(settings.CASINO_PROPERTY),
        ]
    )
    writer.writerow(
        ["Generated", local_time(generated_at, seconds=True), "by", spreadsheet_text(generated_by)]
    )
    header = _header(day, generated_at=generated_at, generated_by=generated_by)
    writer.writerow(["Version", header["version"], "figures_sha256", header["figures_sha256"]])
    writer.writerow(["Units", CSV_UNITS])
    writer.writerow([])
    writer.writerow(
        [
            "record",
            "direction",
            "patron",
            "identified",
            "amount",
            "location",
            "time",
            "employee",
            "revision",
            "identification",
            "filing_state",
            "due_on",
            "filed_on",
            "bsa_id",
        ]
    )
    today = generated_at.astimezone(casino_zone()).date()
    for entry in day.mtl:
        writer.writerow(
            [
                "MTL",
                entry.direction,
                spreadsheet_text(patron_label(entry)),
                "yes" if entry.patron is not None and entry.patron.is_identified else "no",
                _decimal_dollars(entry.amount_cents),
                spreadsheet_text(entry.where),
                local_time(entry.occurred_at, seconds=True),
                spreadsheet_text(entry.employee),
                "",
                spreadsheet_text(identification_text(entry.patron) if entry.patron else ""),
                "",
                "",
                "",
                "",
            ]
        )
    for line in day.ctrs:
        worksheet = line.worksheet
        writer.writerow(
            [
                "CTR",
                worksheet.direction,
                spreadsheet_text(line.who),
                "no" if line.needs_identification else "yes",
                _decimal_dollars(worksheet.total_cents),
                spreadsheet_text("; ".join(sorted({t["location"] for t in worksheet.transactions}))),
                local_time(worksheet.created_at, seconds=True),
                "",
                str(worksheet.revision),
                spreadsheet_text(identification_text(worksheet.patron)),
                *_filing(line, today=today).values(),
            ]
        )
    return out.getvalue()


def compliance_pdf(day: ComplianceDay, *, generated_at: dt.datetime, generated_by: str) -> bytes:
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
    from reportlab.lib.units import cm
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    styles = getSampleStyleSheet()
    cell = ParagraphStyle("cell", parent=styles["Normal"], fontSize=8, leading=10)  # as the grid's text
    buffer = io.BytesIO()
    document = SimpleDocTemplate(
        buffer,
        pagesize=landscape(A4),
        leftMargin=1.5 * cm,
        rightMargin=1.5 * cm,
        topMargin=2.6 * cm,
        bottomMargin=1.5 * cm,
        title=f"Title 31 records, gaming day {day.gaming_day.isoformat()}",
        invariant=1,
    )
    grid = TableStyle(
        [
            ("FONT", (0, 0), (-1, -1), "Helvetica", 8),
            ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 8),
            ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
            ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#eef1f6")),
            ("ALIGN", (3, 1), (3, -1), "RIGHT"),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ]
    )
    header = _header(day, generated_at=generated_at, generated_by=generated_by)
    today = generated_at.astimezone(casino_zone()).date()
    story = [
        Paragraph(f"Title 31 records, gaming day {day.gaming_day.isoformat()}", styles["Heading1"]),
        Paragraph(
            paragraph_text(
                f"Generated {local_time(generated_at, seconds=True)} by {generated_by}. "
                f"MTL threshold {dollars(settings.CASINO_MTL_THRESHOLD_CENTS)}; "
                f"CTR for more than {dollars(settings.CASINO_CTR_THRESHOLD_CENTS)} per patron, gaming day and direction."
            ),
            styles["Normal"],
        ),
        Spacer(1, 0.4 * cm),
        Paragraph("Currency transaction report worksheets", styles["Heading3"]),
    ]
    ctr_rows: list[list[Any]] = [
        ["Direction", "Patron", "Identification", "Total", "Transactions", "Revision", "Filing"]
    ]
    for line in day.ctrs:
        worksheet = line.worksheet
        filing = _filing(line, today=today)
        ctr_rows.append(
            [
                worksheet.get_direction_display(),
                Paragraph(paragraph_text(line.who), cell),
                Paragraph(paragraph_text(identification_text(worksheet.patron)), cell),
                dollars(worksheet.total_cents),
                Paragraph(
                    "<br/>".join(
                        paragraph_text(
                            f"{dollars(t['amount_cents'])} at {t['location']}"
                            + (f": {t['description']}" if t.get("description") else "")
                            + ", "
                            f"{local_time(dt.datetime.fromisoformat(t['at']))}"
                        )
                        for t in worksheet.transactions
                    ),
                    cell,
                ),
                str(worksheet.revision),
                Paragraph(paragraph_text(_filing_text(filing)), cell),
            ]
        )
    if len(ctr_rows) == 1:
        story.append(Paragraph("No CTR this gaming day.", styles["Normal"]))
    else:
        story.append(
            Table(
                ctr_rows,
                style=grid,
                repeatRows=1,
                colWidths=[1.8 * cm, 4.5 * cm, 6.5 * cm, 2.4 * cm, 6.2 * cm, 1.4 * cm, 3.8 * cm],
            )
        )
    story += [Spacer(1, 0.4 * cm), Paragraph("Multiple transaction log", styles["Heading3"])]
    mtl_rows: list[list[Any]] = [["Time", "Direction", "Patron", "Amount", "Location", "Employee"]]
    for entry in day.mtl:
        mtl_rows.append(
            [
                local_time(entry.occurred_at, seconds=True),
                entry.get_direction_display(),
                Paragraph(paragraph_text(patron_label(entry)), cell),
                dollars(entry.amount_cents),
                Paragraph(paragraph_text(entry.where), cell),
                entry.employee,
            ]
        )
    if len(mtl_rows) == 1:
        story.append(
            Paragraph("No transaction at or above the MTL threshold this gaming day.", styles["Normal"])
        )
    else:
        mtl_grid = TableStyle([*grid.getCommands(), ("ALIGN", (3, 1), (3, -1), "RIGHT")])
        story.append(Table(mtl_rows, style=mtl_grid, repeatRows=1))
    story += [
        Spacer(1, 0.6 * cm),
        Paragraph("Reviewed by (compliance): ______________________  Date: ____________", styles["Normal"]),
    ]
    document.build(
        story,
        canvasmaker=paged_canvas(
            header, provisional=False, subtitle=f"Title 31 records, gaming day {day.gaming_day.isoformat()}"
        ),
    )
    return buffer.getvalue()
