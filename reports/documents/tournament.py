"""The tournament report as documents (`reports.tournaments.tournament_report`): a filing CSV
(decimal dollars under a units row) and a filing PDF (dollars, the filing header and "Page N of M"
on every page, `kernel.documents.paged_canvas`). Times in casino local time. Both carry the SHA-256
of the report's figures; names are shown as written (`kernel.documents`)."""

import csv
import datetime as dt
import io
from typing import Any

from django.conf import settings

from kernel.documents import figures_sha256, paged_canvas, paragraph_text, spreadsheet_text
from kernel.formatting import dollars, local_time
from kernel.gaming_day import casino_zone
from reports.documents.wording import decimal_dollars

CSV_UNITS = "dollars; times in casino local time"

MONEY_LINES = (
    ("Buy-ins", "buy_ins_cents"),
    ("Fees", "fees_cents"),
    ("Added money", "added_cents"),
    ("Overlay", "overlay_cents"),
    ("Pool", "pool_cents"),
    ("Prizes paid", "prizes_paid_cents"),
    ("Refunded", "refunded_cents"),
    ("Pool still owed", "pool_balance_cents"),
    ("Revenue (fees - added money - overlay)", "revenue_cents"),
)


def _moment(value: Any) -> str:
    """An ISO moment or a datetime, in casino local time; "-" for none."""
    if value is None:
        return "-"
    moment = dt.datetime.fromisoformat(value) if isinstance(value, str) else value
    return local_time(moment, seconds=True)


def _figures(report: dict[str, Any]) -> dict[str, Any]:
    """The report as JSON text (moments as ISO strings): what the hash covers."""

    def plain(value: Any) -> Any:
        if isinstance(value, dict):
            return {key: plain(item) for key, item in value.items()}
        if isinstance(value, list | tuple):
            return [plain(item) for item in value]
        if isinstance(value, dt.datetime | dt.date):
            return value.isoformat()
        return value

    return dict(plain(report))


def report_header(report: dict[str, Any], *, generated_at: dt.datetime, generated_by: str) -> dict[str, Any]:
    digest = figures_sha256(_figures(report))
    return {
        "licensee": settings.CASINO_LICENSEE,
        "property": settings.CASINO_PROPERTY,
        "generated_at": generated_at.astimezone(casino_zone()).strftime("%Y-%m-%d %H:%M:%S %Z"),
        "generated_by": generated_by,
        "version": f"{report['format']}-{digest[:12]}",
        "figures_sha256": digest,
    }


def _title(report: dict[str, Any]) -> str:
    tournament = report["tournament"]
    return f"Tournament report: {tournament['id']} {tournament['name']}"


def _settings_lines(report: dict[str, Any]) -> list[tuple[str, str]]:
    tournament, values = report["tournament"], report["settings"]
    filing, rules = report["filing"], report["rules"]
    lines = [
        ("Tournament", f"{tournament['id']} {tournament['name']}"),
        ("Game", tournament["game"]),
        ("State", tournament["state"]),
        ("Created", f"{_moment(tournament['created_at'])} by {tournament['created_by']}"),
        ("Filing reference", filing["reference"] if filing else "not filed"),
        ("Filed on", str(filing["filed_on"]) if filing else "-"),
        ("Posted rules", f"version {rules['version']}, SHA-256 {rules['sha256']}" if rules else "-"),
        ("Buy-in", dollars(values["buy_in_cents"])),
        ("Fee", dollars(values["fee_cents"])),
        ("Added money", dollars(values["added_cents"])),
        ("Guaranteed pool", dollars(values["guarantee_cents"])),
        ("Maximum entries", str(values["max_entries"])),
        ("Re-entries per patron", str(values["reentries"])),
        ("Registration closes", _moment(values["registration_closes_at"])),
        ("Registration closed", _moment(tournament["registration_closed_at"])),
        ("Deal", values["deal"]),
        ("Start window", f"{values['start_window_s']} s"),
        ("Prizes", " / ".join(f"{bp / 100:g} %" for bp in values["prizes_bp"])),
    ]
    results = report["results"]
    if results is not None:
        lines += [
            ("Results proposed", f"{_moment(results['proposed_at'])} by {results['proposed_by']}"),
            (
                "Results approved",
                f"{_moment(results['approved_at'])} by {results['approved_by']}"
                if results["approved_at"]
                else "not yet",
            ),
        ]
    cancellation = report["cancellation"]
    if cancellation is not None:
        lines += [
            (
                "Cancellation requested",
                f"{_moment(cancellation['requested_at'])} by {cancellation['requested_by']}: "
                f"{cancellation['reason']}",
            ),
            (
                "Cancellation approved",
                f"{_moment(cancellation['approved_at'])} by {cancellation['approved_by']}"
                if cancellation["approved_at"]
                else "not yet",
            ),
        ]
    return lines


def _reveal_text(heat: dict[str, Any]) -> str:
    if heat["reveal"] is not None:
        return f"order {' '.join(heat['reveal']['order'])}; salt {heat['reveal']['salt']}"
    if heat["commitment"] is None:
        return "-"
    return "withheld until the heat is closed"


def tournament_report_csv(report: dict[str, Any], *, generated_at: dt.datetime, generated_by: str) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = report_header(report, generated_at=generated_at, generated_by=generated_by)
    writer.writerow([spreadsheet_text(_title(report))])
    writer.writerow(
        ["Licensee", spreadsheet_text(header["licensee"]), "Property", spreadsheet_text(header["property"])]
    )
    writer.writerow(["Generated", header["generated_at"], "by", spreadsheet_text(generated_by)])
    writer.writerow(["Version", header["version"], "figures_sha256", header["figures_sha256"]])
    writer.writerow(["Units", CSV_UNITS])
    writer.writerow([])
    writer.writerow(["Settings"])
    for label, value in _settings_lines(report):
        writer.writerow([label, spreadsheet_text(value)])
    writer.writerow([])
    writer.writerow(["Money"])
    for label, key in MONEY_LINES:
        writer.writerow([label, decimal_dollars(report["money"][key])])
    writer.writerow([])
    writer.writerow(["Entries"])
    writer.writerow(
        ["entry", "patron", "re-entry", "paid with", "buy-in", "fee", "time", "cashier", "rules", "refunded"]
    )
    for entry in report["entries"]:
        writer.writerow(
            [
                entry["number"],
                entry["patron"],
                entry["reentry"],
                entry["paid_with"],
                decimal_dollars(entry["buy_in_cents"]),
                decimal_dollars(entry["fee_cents"]),
                _moment(entry["at"]),
                spreadsheet_text(entry["cashier"] or ""),
                entry["rules_version"],
                "yes" if entry["refunded"] else "no",
            ]
        )
    writer.writerow([])
    writer.writerow(["Prizes"])
    writer.writerow(["place", "entry", "patron", "amount", "paid with", "paid at", "paid by"])
    for prize in report["prizes"]:
        writer.writerow(
            [
                prize["place"],
                prize["entry"],
                prize["patron"],
                decimal_dollars(prize["amount_cents"]),
                prize["paid_with"] or "",
                _moment(prize["paid_at"]) if prize["paid_at"] else "",
                spreadsheet_text(prize["paid_by"] or ""),
            ]
        )
    writer.writerow([])
    writer.writerow(["Heat scores"])
    heats = [heat["heat"] for heat in report["heats"]]
    writer.writerow(["entry", *(f"heat {number}" for number in heats), "total"])
    for line in report["heat_scores"]:
        writer.writerow(
            [
                line["entry"],
                *("" if s["score"] is None else s["score"] for s in line["scores"]),
                line["total"],
            ]
        )
    writer.writerow([])
    writer.writerow(["Heats"])
    writer.writerow(["heat", "starts", "window closes", "opened", "closed", "commitment", "reveal"])
    for heat in report["heats"]:
        writer.writerow(
            [
                heat["heat"],
                _moment(heat["starts_at"]),
                _moment(heat["window_closes_at"]),
                _moment(heat["opened_at"]),
                _moment(heat["closed_at"]),
                heat["commitment"] or "",
                _reveal_text(heat),
            ]
        )
    return out.getvalue()


def tournament_report_pdf(report: dict[str, Any], *, generated_at: dt.datetime, generated_by: str) -> bytes:
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.lib.units import cm
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    styles = getSampleStyleSheet()
    cell = styles["BodyText"].clone("cell", fontSize=7.5, leading=9)
    buffer = io.BytesIO()
    document = SimpleDocTemplate(
        buffer,
        pagesize=landscape(A4),
        leftMargin=1.5 * cm,
        rightMargin=1.5 * cm,
        topMargin=2.6 * cm,
        bottomMargin=1.5 * cm,
        title=_title(report),
        invariant=1,
    )
    grid = TableStyle(
        [
            ("FONT", (0, 0), (-1, -1), "Helvetica", 8),
            ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 8),
            ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
            ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#eef1f6")),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ]
    )
    plain = TableStyle([("FONT", (0, 0), (-1, -1), "Helvetica", 8), ("VALIGN", (0, 0), (-1, -1), "TOP")])

    def text(value: Any) -> Paragraph:
        return Paragraph(paragraph_text(value), cell)

    def section(
        title: str,
        rows: list[list[Any]],
        *,
        empty: str,
        style: TableStyle = grid,
        widths: list[float] | None = None,
    ) -> list[Any]:
        parts: list[Any] = [Spacer(1, 0.3 * cm), Paragraph(paragraph_text(title), styles["Heading3"])]
        if len(rows) <= 1 and style is grid:
            return [*parts, Paragraph(paragraph_text(empty), styles["Normal"])]
        table = Table(
            rows, style=style, repeatRows=1 if style is grid else 0, colWidths=widths, hAlign="LEFT"
        )
        return [*parts, table]

    header = report_header(report, generated_at=generated_at, generated_by=generated_by)
    story: list[Any] = [Paragraph(paragraph_text(_title(report)), styles["Heading1"])]
    story += section(
        "Settings and filing",
        [[label, text(value)] for label, value in _settings_lines(report)],
        empty="",
        style=plain,
        widths=[5 * cm, 20 * cm],
    )
    story += section(
        "Money",
        [[label, dollars(report["money"][key])] for label, key in MONEY_LINES],
        empty="",
        style=plain,
    )
    entries: list[list[Any]] = [
        ["Entry", "Patron", "Re-entry", "Paid with", "Buy-in", "Fee", "Time", "Cashier", "Refunded"]
    ]
    entries += [
        [
            str(entry["number"]),
            str(entry["patron"]),
            str(entry["reentry"]),
            entry["paid_with"],
            dollars(entry["buy_in_cents"]),
            dollars(entry["fee_cents"]),
            _moment(entry["at"]),
            text(entry["cashier"] or ""),
            "yes" if entry["refunded"] else "no",
        ]
        for entry in report["entries"]
    ]
    story += section("Entries", entries, empty="No entry.")
    prizes: list[list[Any]] = [["Place", "Entry", "Patron", "Amount", "Paid with", "Paid at", "Paid by"]]
    prizes += [
        [
            str(prize["place"]),
            str(prize["entry"]),
            str(prize["patron"]),
            dollars(prize["amount_cents"]),
            prize["paid_with"] or "not paid",
            _moment(prize["paid_at"]) if prize["paid_at"] else "-",
            text(prize["paid_by"] or "-"),
        ]
        for prize in report["prizes"]
    ]
    story += section("Prizes", prizes, empty="No prize.")
    heat_numbers = [heat["heat"] for heat in report["heats"]]
    scores: list[list[Any]] = [["Entry", *(f"Heat {number}" for number in heat_numbers), "Total"]]
    scores += [
        [
            str(line["entry"]),
            *("-" if s["score"] is None else str(s["score"]) for s in line["scores"]),
            str(line["total"]),
        ]
        for line in report["heat_scores"]
    ]
    story += section("Heat scores", scores, empty="No entry.")
    heats: list[list[Any]] = [["Heat", "Starts", "Opened", "Closed", "Commitment and reveal"]]
    heats += [
        [
            str(heat["heat"]),
            _moment(heat["starts_at"]),
            _moment(heat["opened_at"]),
            _moment(heat["closed_at"]),
            text(f"commitment {heat['commitment'] or '-'}; {_reveal_text(heat)}"),
        ]
        for heat in report["heats"]
    ]
    story += section(
        "Heats", heats, empty="No heat.", widths=[1.2 * cm, 3.8 * cm, 3.8 * cm, 3.8 * cm, 14 * cm]
    )
    story += [
        Spacer(1, 0.6 * cm),
        Paragraph("Reviewed by: ______________________  Date: ____________", styles["Normal"]),
    ]
    document.build(story, canvasmaker=paged_canvas(header, provisional=False, subtitle=_title(report)))
    return buffer.getvalue()
