"""The filing PDF of a report document: landscape A4, the header and "Page N of M" on every page,
PROVISIONAL in red on a provisional report, the figures of the complete tables with their pit and
casino roll-ups (columns: the definition's `pdf` figures), the incomplete tables apart, the win and
hold chart, each table's inventories and slips, handle by wager kind, the period figures and the
sign-off lines. Money as staff read it (kernel.formatting). Written in reportlab's invariant mode
(no creation date, a fixed document id), so the same document gives the same bytes.
"""

import io
from typing import Any

from kernel.documents import paged_canvas, paragraph_text
from kernel.formatting import dollars
from reports.definition import KIND_FIGURES, Figure, RollUp, Section, Unit, pdf_columns
from reports.documents.chart import win_and_hold_png
from reports.documents.wording import (
    drop_basis,
    incomplete_reason,
    is_complete,
    percent,
    slip_status,
    status_line,
    theo_edge,
)
from reports.figures import hold_percent_text

SIGN_OFF_ROLES = ("Pit boss", "Shift manager", "Revenue audit")
MIN_LAST_COLUMN_WIDTH = 60  # points: a fitted table's last column is never narrower


def _fitted(
    rows: list[list[Any]], style: list[Any], *, width: float, bold_from: int | None
) -> tuple[list[list[Any]], list[float]]:
    """The rows with their last column's cells wrapped (as paragraphs) into the width the other
    columns leave it on the page, and the column widths: a long last cell (the flags) breaks onto
    more lines instead of running off the page."""
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph, Table, TableStyle

    natural = Table([row[:-1] for row in rows])
    natural.setStyle(TableStyle(style))
    natural.wrap(width, 0)
    widths = [float(w) for w in natural._colWidths]
    widths.append(max(width - sum(widths), MIN_LAST_COLUMN_WIDTH))
    plain = ParagraphStyle("cell", fontName="Helvetica", fontSize=7, leading=8.5)
    bold = ParagraphStyle("cell-bold", parent=plain, fontName="Helvetica-Bold")

    def cell_style(index: int) -> ParagraphStyle:
        return bold if index == 0 or (bold_from is not None and index >= bold_from) else plain

    wrapped = [[*row[:-1], Paragraph(paragraph_text(row[-1]), cell_style(i))] for i, row in enumerate(rows)]
    return wrapped, widths


def _grid(
    rows: list[list[str]], *, right_from: int, bold_from: int | None = None, width: float | None = None
) -> Any:
    """A table of rows under a header row; with `width`, fitted to it (`_fitted`)."""
    from reportlab.lib import colors
    from reportlab.platypus import Table, TableStyle

    style = [
        ("FONT", (0, 0), (-1, -1), "Helvetica", 7),
        ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 7),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e0e0e0")),
        ("ALIGN", (right_from, 1), (-1, -1), "RIGHT"),
        ("LINEBELOW", (0, 0), (-1, 0), 0.5, colors.black),
    ]
    if bold_from is not None and bold_from < len(rows):
        style += [
            ("LINEABOVE", (0, bold_from), (-1, bold_from), 0.5, colors.black),
            ("FONT", (0, bold_from), (-1, -1), "Helvetica-Bold", 7),
        ]
    if width is None:
        table = Table(rows, repeatRows=1, hAlign="LEFT")
    else:
        cells, widths = _fitted(rows, style, width=width, bold_from=bold_from)
        table = Table(cells, colWidths=widths, repeatRows=1, hAlign="LEFT")
        style.append(("VALIGN", (0, 0), (-1, -1), "TOP"))
    table.setStyle(TableStyle(style))
    return table


def _cell(row: dict[str, Any], figure: Figure) -> str:
    if figure.key == "drop_cents":
        basis = drop_basis(row) if row["drop_cents"] is not None else ""
        return dollars(row["drop_cents"]) + (f" ({basis})" if basis else "")
    if figure.unit is Unit.CENTS:
        return dollars(row.get(figure.key))
    if figure.unit is Unit.PERCENT:
        return percent(row[figure.key]) + (" !" if row["hold_outside_range"] else "")
    if figure.unit is Unit.FLAGS:
        return "; ".join(flag.replace("_", " ") for flag in row.get("flags", [])) or (
            f"{row['tables_incomplete']} incomplete" if row.get("tables_incomplete") else ""
        )
    return "-" if row[figure.key] is None else str(row[figure.key])


def _figure_line(row: dict[str, Any], name: str) -> list[str]:
    return [row["shift"], name, *(_cell(row, figure) for figure in pdf_columns())]


def _figure_header() -> list[str]:
    return [
        "Shift",
        "Table / pit",
        *(f"{f.label} (basis)" if f.key == "drop_cents" else f.label for f in pdf_columns()),
    ]


def _period_line(figures: dict[str, Any]) -> list[str]:
    incomplete = figures["shifts_incomplete"]
    return [
        f"{figures['shifts']}" + (f" ({incomplete} incomplete)" if incomplete else ""),
        dollars(figures["drop_cents"]),
        dollars(figures["win_cents"]),
        percent(figures["hold_percent"]),
    ]


def _table_details(document: dict[str, Any], table: dict[str, Any], styles: Any) -> list[Any]:
    from reportlab.lib.units import cm
    from reportlab.platypus import KeepTogether, Paragraph, Spacer

    key = (table["table"]["id"], table["shift"])
    counts: dict[str, dict[int, int]] = {}
    totals: dict[str, int] = {}
    for inventory in document["inventories"]:
        if (inventory["table"]["id"], inventory["shift"]) == key:
            counts[inventory["kind"]] = {c["denomination_cents"]: c["count"] for c in inventory["chips"]}
            totals[inventory["kind"]] = inventory["total_cents"]
    parts: list[Any] = [
        Paragraph(
            paragraph_text(
                f"{table['table']['name']} ({table['pit']['name']}), {table['shift']} shift: "
                f"win {dollars(table['win_cents'])}, hold {percent(table['hold_percent'])}"
                + ("" if is_complete(table) else f" - incomplete ({incomplete_reason(table)})")
            ),
            styles["Heading4"],
        )
    ]
    denominations = sorted({d for chips in counts.values() for d in chips}, reverse=True)
    if denominations:
        rows = [["Denomination", "Opener chips", "Opener value", "Closer chips", "Closer value"]]
        for denomination in denominations:
            line = [dollars(denomination)]
            for kind in ("opener", "closer"):
                if kind in counts:
                    count = counts[kind].get(denomination, 0)
                    line += [f"{count:,}", dollars(denomination * count)]
                else:
                    line += ["-", "-"]
            rows.append(line)
        rows.append(["Total", "", dollars(totals.get("opener")), "", dollars(totals.get("closer"))])
        parts.append(_grid(rows, right_from=0, bold_from=len(rows) - 1))
    else:
        parts.append(Paragraph("No opener or closer counted.", styles["Normal"]))
    slips = [s for s in document["slips"] if (s["table"]["id"], s["shift"]) == key]
    if slips:
        rows = [["Slip", "Amount", "Status", "Void reason"]]
        rows += [
            [
                f"{slip['kind'].capitalize()} #{slip['number']}",
                dollars(slip["amount_cents"]),
                slip_status(slip),
                slip["void_reason"] or "",
            ]
            for slip in slips
        ]
        parts += [Spacer(1, 0.15 * cm), _grid(rows, right_from=1)]
    return [KeepTogether(parts), Spacer(1, 0.3 * cm)]


# The incomplete tables' counts (what the pit counted), printed apart from the roll-ups.
_INCOMPLETE_COUNTS = tuple(
    f for f in pdf_columns() if f.section is Section.COUNT and f.rolls_up is RollUp.SUM
)
_THEO_EDGE = "Theo / handle"  # printed before the theo of each wager kind


def _kind_header() -> list[str]:
    return [
        label
        for f in KIND_FIGURES
        if f.pdf
        for label in ([_THEO_EDGE, f.label] if f.key == "theo_win_cents" else [f.label])
    ]


def _kind_cells(kind: dict[str, Any]) -> list[str]:
    cells = []
    for f in KIND_FIGURES:
        if f.key == "theo_win_cents":
            # Theo / priced handle: unpriced handle (no report for its terms yet) is apart.
            priced = kind["handle_cents"] - kind.get("unpriced_handle_cents", 0)
            cells.append(
                "unpriced"
                if priced <= 0 < kind["handle_cents"]
                else theo_edge(kind["theo_win_cents"], priced)
            )
        if f.pdf:
            value = kind.get(f.key, 0)  # a payload stored before a figure was added has none
            cells.append(dollars(value) if f.unit is Unit.CENTS else str(value))
    return cells


def _no_hold_to_investigate(document: dict[str, Any]) -> str:
    """Said only of the holds that are known: a provisional report's open or uncounted tables
    have none yet."""
    if document["provisional"]:
        return (
            "No table's known hold is outside the expected range. This report is provisional: "
            "tables not yet closed and counted have no hold yet and are not in this check."
        )
    return "Every table's hold is within the expected range."


def _sign_off(styles: Any) -> list[Any]:
    from reportlab.lib.units import cm
    from reportlab.platypus import KeepTogether, Paragraph, Spacer, Table, TableStyle

    rows = [[role, "Name", "", "Signature", "", "Date", ""] for role in SIGN_OFF_ROLES]
    table = Table(
        rows,
        colWidths=[3.2 * cm, 1.2 * cm, 6 * cm, 1.8 * cm, 6 * cm, 1.1 * cm, 3.5 * cm],
        rowHeights=0.9 * cm,
    )
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), "Helvetica", 8),
                ("FONT", (0, 0), (0, -1), "Helvetica-Bold", 8),
                ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
                *(("LINEBELOW", (column, 0), (column, -1), 0.5, "black") for column in (2, 4, 6)),
            ]
        )
    )
    return [KeepTogether([Spacer(1, 0.4 * cm), Paragraph("Sign-off", styles["Heading3"]), table])]


def _figures_story(part: dict[str, Any], title: str, styles: Any, *, width: float) -> list[Any]:
    """The figures of the complete tables with their roll-ups, then the incomplete tables apart."""
    from reportlab.lib.units import cm
    from reportlab.platypus import Paragraph, Spacer

    complete = [t for t in part["tables"] if is_complete(t)]
    incomplete = [t for t in part["tables"] if not is_complete(t)]
    story: list[Any] = [Paragraph(paragraph_text(title), styles["Heading3"])] if title else []
    rows = [_figure_header()]
    rows += [_figure_line(t, t["table"]["name"]) for t in complete]
    first_rollup = len(rows)
    # "Pit total: Pit 1", never "Pit Pit 1": a pit's or casino's own name may already say what it is.
    rows += [_figure_line(p, f"Pit total: {p['pit']['name']}") for p in part["pits"]]
    rows += [_figure_line(c, f"Casino total: {c['casino']['name']}") for c in part["casinos"]]
    story += [_grid(rows, right_from=2, bold_from=first_rollup, width=width), Spacer(1, 0.3 * cm)]
    if incomplete:
        heading = "Incomplete tables (not in the roll-ups)"
        story.append(
            Paragraph(paragraph_text(f"{title}: {heading.lower()}" if title else heading), styles["Heading4"])
        )
        rows = [["Shift", "Table", "Pit", "Missing", *(f.label for f in _INCOMPLETE_COUNTS)]]
        rows += [
            [
                t["shift"],
                t["table"]["name"],
                t["pit"]["name"],
                incomplete_reason(t),
                *(dollars(t[f.key]) for f in _INCOMPLETE_COUNTS),
            ]
            for t in incomplete
        ]
        story += [_grid(rows, right_from=4), Spacer(1, 0.3 * cm)]
    return story


def _tournaments_story(lines: list[dict[str, Any]], styles: Any) -> list[Any]:
    """Each tournament on its own line: its revenue is never offset against another's nor the
    tables' (their win and hold above do not include it)."""
    from reportlab.lib.units import cm
    from reportlab.platypus import Paragraph, Spacer

    rows = [["Tournament", "Game", "Entries", "Fees", "Added money", "Overlay", "Revenue", "Prizes paid"]]
    rows += [
        [
            f"{line['tournament']['id']} {line['tournament']['name']}",
            line["tournament"]["game"],
            str(line["entries"]),
            dollars(line["fees_cents"]),
            dollars(line["added_cents"]),
            dollars(line["overlay_cents"]),
            dollars(line["revenue_cents"]),
            dollars(line["prizes_paid_cents"]),
        ]
        for line in lines
    ]
    return [
        Paragraph(
            "Tournaments (results approved this gaming day): revenue per tournament", styles["Heading3"]
        ),
        _grid(rows, right_from=2),
        Spacer(1, 0.3 * cm),
    ]


def shift_report_pdf(document: dict[str, Any]) -> bytes:
    """The filing PDF of a report document."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
    from reportlab.lib.units import cm
    from reportlab.platypus import Image, Paragraph, SimpleDocTemplate, Spacer

    styles = getSampleStyleSheet()
    header = document["header"]
    report = document["report"]
    shifts = ", ".join(report["shifts"])
    subtitle = (
        f"{header['title']} - gaming day {report['gaming_day']}, "
        f"{'shifts' if len(report['shifts']) > 1 else 'shift'} {shifts} - "
        f"time zone {header['time_zone']}"
    )
    buffer = io.BytesIO()
    pdf = SimpleDocTemplate(
        buffer,
        pagesize=landscape(A4),
        leftMargin=1.2 * cm,
        rightMargin=1.2 * cm,
        topMargin=2.6 * cm,
        bottomMargin=1.2 * cm,
        title=f"{header['title']} {report['gaming_day']} {shifts}",
        author=header["licensee"],
        invariant=1,
    )
    low, high = report["expected_hold_bp"]["low"], report["expected_hold_bp"]["high"]
    story: list[Any] = []
    if document["provisional"]:
        banner = ParagraphStyle(
            "provisional", parent=styles["Heading2"], textColor=colors.HexColor("#c62828")
        )
        story.append(Paragraph(paragraph_text(status_line(document)), banner))
    story += [
        Paragraph(
            "Win = drop + credits - fills + (closer - opener). Hold = win / drop, rounded half to even "
            f"to 0.01 %; '!' marks a hold outside {hold_percent_text(low)}-{hold_percent_text(high)} %. "
            "Pit and casino roll-ups add the complete tables only; tables with a count missing are "
            "listed apart. Theo = handle x house edge per wager kind; handle whose terms have no paytable "
            "report yet is unpriced: listed apart, not in theo.",
            styles["Normal"],
        ),
        Spacer(1, 0.3 * cm),
    ]
    if "daily" in report:
        story += _figures_story(
            report["daily"], "Gaming day: tables, pits and casino", styles, width=pdf.width
        )
    story += _figures_story(report, "By shift" if "daily" in report else "", styles, width=pdf.width)
    if report.get("tournaments"):
        story += _tournaments_story(report["tournaments"], styles)
    if report["tables"]:
        chart = win_and_hold_png(report["tables"], expected_hold_bp=(low, high))
        story.append(Image(io.BytesIO(chart), width=25 * cm, height=9 * cm))
    if report["tables"]:
        story.append(Paragraph("Tables: inventories by denomination and slips", styles["Heading3"]))
        for table in report["tables"]:
            story += _table_details(document, table, styles)
    if report["casinos"]:
        kinds = [["Casino", "Shift", "Wager kind", *_kind_header()]]
        for casino in report["casinos"]:
            for kind in casino["by_kind"]:
                kinds.append([casino["casino"]["name"], casino["shift"], kind["kind"], *_kind_cells(kind)])
        story += [
            Paragraph("Handle and payouts by wager kind", styles["Heading3"]),
            _grid(kinds, right_from=3),
        ]
    period = document["period"]
    if period is not None:
        through = f"{period['through']['gaming_day']} {period['through']['shift']}"
        story.append(
            Paragraph(
                paragraph_text(
                    f"Month to date (from {period['month_start']}) and year to date (from "
                    f"{period['year_start']}) through {through}"
                ),
                styles["Heading3"],
            )
        )
        heading = ["Shifts", "Drop", "Win", "Hold"]
        rows = [["Table", "Pit", "Game", *(f"MTD {h}" for h in heading), *(f"YTD {h}" for h in heading)]]
        rows += [
            [
                t["table"]["name"],
                t["pit"],
                t["game"],
                *_period_line(t["month_to_date"]),
                *_period_line(t["year_to_date"]),
            ]
            for t in period["tables"]
        ]
        first_game = len(rows)
        rows += [
            ["All tables", "", g["game"], *_period_line(g["month_to_date"]), *_period_line(g["year_to_date"])]
            for g in period["games"]
        ]
        story += [_grid(rows, right_from=3, bold_from=first_game)]
        window = f"the 30 gaming days from {period['rolling_start']} through {through}"
        story.append(
            Paragraph(paragraph_text(f"Hold over {window}: tables to investigate"), styles["Heading3"])
        )
        if period["hold_investigations"]:
            rows = [["Table", "Pit", "Game", "Shifts", "Drop", "Win", "Hold", "Expected"]]
            expected = f"{hold_percent_text(low)}-{hold_percent_text(high)} %"
            rows += [
                [f["table"]["name"], f["pit"], f["game"], *_period_line(f), expected]
                for f in period["hold_investigations"]
            ]
            story.append(_grid(rows, right_from=3))
        else:
            story.append(Paragraph(_no_hold_to_investigate(document), styles["Normal"]))
    story += _sign_off(styles)
    pdf.build(
        story,
        canvasmaker=paged_canvas(header, provisional=document["provisional"], subtitle=subtitle),
    )
    return buffer.getvalue()
