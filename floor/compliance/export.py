"""A gaming day's MTL and CTR worksheets as files: CSV (dollars as decimals under a units row)
and PDF. Both render a `ComplianceDay` and touch no database; names are shown as written, never
run as a formula or read as markup (`kernel.documents`)."""

import csv
import datetime as dt
import io

from django.conf import settings

from floor.compliance.day import ComplianceDay, patron_label
from kernel.documents import paragraph_text, spreadsheet_text
from kernel.formatting import dollars, local_time

CSV_UNITS = "dollars; times in casino local time"


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
    writer.writerow(["Units", CSV_UNITS])
    writer.writerow([])
    writer.writerow(
        ["record", "direction", "patron", "identified", "amount", "location", "time", "employee", "revision"]
    )
    for entry in day.mtl:
        writer.writerow(
            [
                "MTL",
                entry.direction,
                spreadsheet_text(patron_label(entry)),
                "yes" if entry.patron is not None and entry.patron.is_identified else "no",
                _decimal_dollars(entry.amount_cents),
                spreadsheet_text(entry.location),
                local_time(entry.occurred_at, seconds=True),
                spreadsheet_text(entry.employee),
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
            ]
        )
    return out.getvalue()


def compliance_pdf(day: ComplianceDay, *, generated_at: dt.datetime, generated_by: str) -> bytes:
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.lib.units import cm
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    styles = getSampleStyleSheet()
    buffer = io.BytesIO()
    document = SimpleDocTemplate(
        buffer,
        pagesize=landscape(A4),
        leftMargin=1.5 * cm,
        rightMargin=1.5 * cm,
        topMargin=1.5 * cm,
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
    story = [
        Paragraph(
            paragraph_text(f"{settings.CASINO_LICENSEE} - {settings.CASINO_PROPERTY}"), styles["Heading2"]
        ),
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
    ctr_rows = [["Direction", "Patron", "Identification", "Total", "Transactions", "Revision"]]
    for line in day.ctrs:
        worksheet = line.worksheet
        ctr_rows.append(
            [
                worksheet.get_direction_display(),
                line.who,
                "NEEDED" if line.needs_identification else "on file",
                dollars(worksheet.total_cents),
                Paragraph(
                    "<br/>".join(
                        paragraph_text(
                            f"{dollars(t['amount_cents'])} at {t['location']}, "
                            f"{local_time(dt.datetime.fromisoformat(t['at']))}"
                        )
                        for t in worksheet.transactions
                    ),
                    styles["Normal"],
                ),
                str(worksheet.revision),
            ]
        )
    if len(ctr_rows) == 1:
        story.append(Paragraph("No CTR this gaming day.", styles["Normal"]))
    else:
        story.append(Table(ctr_rows, style=grid, repeatRows=1))
    story += [Spacer(1, 0.4 * cm), Paragraph("Multiple transaction log", styles["Heading3"])]
    mtl_rows = [["Time", "Direction", "Patron", "Amount", "Location", "Employee"]]
    for entry in day.mtl:
        mtl_rows.append(
            [
                local_time(entry.occurred_at, seconds=True),
                entry.get_direction_display(),
                patron_label(entry),
                dollars(entry.amount_cents),
                entry.location,
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
    document.build(story)
    return buffer.getvalue()
