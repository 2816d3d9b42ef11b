"""Shift reports as CSV (one line per table, pit and casino) and as a PDF with a chart of win
and hold by table. Both take the payload of `casino.reports.read.shift_report_payload`.

Money stays integer cents in the CSV; the PDF prints dollars formatted from the cents with
integer arithmetic. The chart alone converts to floats, to draw them.
"""

import csv
import io
from typing import Any

from casino.reports.figures import hold_percent_text
from casino.reports.house_edges import house_edge, kind_order

_FIGURE_COLUMNS: tuple[str, ...] = (
    "level",
    "gaming_day",
    "shift",
    "casino",
    "pit",
    "table",
    "tables",
    "tables_incomplete",
    "opener_cents",
    "closer_cents",
    "drop_cents",
    "markers_cents",
    "fills_cents",
    "credits_cents",
    "win_cents",
    "hold_bp",
    "hold_percent",
    "hold_outside_range",
    "rounds_settled",
    "rounds_voided",
    "hands_dealt",
    "handle_cents",
    "payouts_cents",
    "house_net_cents",
    "win_minus_house_net_cents",
    "theo_win_cents",
    "flags",
)


def csv_columns() -> tuple[str, ...]:
    """The CSV's columns: the figures, then handle, payouts and theo of each wager kind."""
    return (
        *_FIGURE_COLUMNS,
        *(
            f"{kind}_{figure}"
            for kind in kind_order()
            for figure in ("handle_cents", "payouts_cents", "theo_win_cents")
        ),
    )


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _text(value: str) -> str:
    """A name as a spreadsheet shows it, never as a formula (CSV injection)."""
    return f"'{value}" if value.startswith(_FORMULA_START) else value


def _csv_row(row: dict[str, Any], columns: tuple[str, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {name: row.get(name) for name in columns}
    out["casino"] = _text(row["casino"]["name"])
    out["pit"] = _text(row["pit"]["name"]) if "pit" in row else ""
    out["table"] = _text(row["table"]["name"]) if "table" in row else ""
    if row["level"] == "table":
        out["tables"] = 1
        out["tables_incomplete"] = 0 if row["win_cents"] is not None else 1
    out["hold_outside_range"] = "yes" if row["hold_outside_range"] else "no"
    out["flags"] = " ".join(row.get("flags", []))
    for kind in row["by_kind"]:
        for figure in ("handle_cents", "payouts_cents", "theo_win_cents"):
            out[f"{kind['kind']}_{figure}"] = kind[figure]
    return {name: "" if value is None else value for name, value in out.items() if name in columns}


def shift_report_csv(payload: dict[str, Any]) -> str:
    buffer = io.StringIO()
    columns = csv_columns()
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\r\n")
    writer.writeheader()
    for level in ("tables", "pits", "casinos"):
        for row in payload[level]:
            writer.writerow(_csv_row(row, columns))
    return buffer.getvalue()


def dollars(cents: int | None) -> str:
    if cents is None:
        return "-"
    sign = "-" if cents < 0 else ""
    whole, rest = divmod(abs(cents), 100)
    return f"{sign}${whole:,}.{rest:02d}"


def _percent(text: str | None) -> str:
    return f"{text} %" if text is not None else "-"


def _chart_png(tables: list[dict[str, Any]], *, expected_hold_bp: tuple[int, int]) -> bytes:
    """Win (bars) and hold % (points, the expected range shaded) by table, drawn with matplotlib's
    Agg canvas (no pyplot, no display, no global state)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    several_shifts = len({t["shift"] for t in tables}) > 1
    names = [f"{t['table']['name']} {t['shift']}" if several_shifts else t["table"]["name"] for t in tables]
    wins = [(t["win_cents"] or 0) / 100 for t in tables]
    holds = [t["hold_bp"] / 100 if t["hold_bp"] is not None else float("nan") for t in tables]
    figure = Figure(figsize=(10, 3.6), dpi=110)
    FigureCanvasAgg(figure)
    axis = figure.add_subplot(1, 1, 1)
    positions = list(range(len(names)))
    axis.bar(positions, wins, color=["#2e7d32" if w >= 0 else "#c62828" for w in wins], label="win ($)")
    axis.set_ylabel("win ($)")
    axis.set_xticks(
        positions, names, rotation=45 if len(names) > 8 else 0, ha="right" if len(names) > 8 else "center"
    )
    axis.axhline(0, color="#555555", linewidth=0.8)
    hold_axis = axis.twinx()
    low, high = expected_hold_bp
    hold_axis.axhspan(low / 100, high / 100, color="#1565c0", alpha=0.08, label="expected hold")
    hold_axis.plot(positions, holds, "o", color="#1565c0", label="hold %")
    hold_axis.set_ylabel("hold (%)")
    axis.set_title("Win and hold by table")
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()


def shift_report_pdf(payload: dict[str, Any]) -> bytes:
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.lib.units import cm
    from reportlab.platypus import Image, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    styles = getSampleStyleSheet()
    buffer = io.BytesIO()
    shifts = ", ".join(payload["shifts"])
    document = SimpleDocTemplate(
        buffer,
        pagesize=landscape(A4),
        leftMargin=1.2 * cm,
        rightMargin=1.2 * cm,
        topMargin=1.2 * cm,
        bottomMargin=1.2 * cm,
        title=f"Shift report {payload['gaming_day']} {shifts}",
    )
    header = [
        "Shift", "Table / pit", "Opener", "Closer", "Drop", "Fills", "Credits", "Win", "Hold",
        "Rounds", "Hands", "Handle", "House net", "Win - net", "Theo", "Flags",
    ]  # fmt: skip

    def line(row: dict[str, Any], name: str) -> list[str]:
        return [
            row["shift"],
            name,
            dollars(row["opener_cents"]),
            dollars(row["closer_cents"]),
            dollars(row["drop_cents"]),
            dollars(row["fills_cents"]),
            dollars(row["credits_cents"]),
            dollars(row["win_cents"]),
            _percent(row["hold_percent"]) + (" !" if row["hold_outside_range"] else ""),
            str(row["rounds_settled"]),
            str(row["hands_dealt"]),
            dollars(row["handle_cents"]),
            dollars(row["house_net_cents"]),
            dollars(row["win_minus_house_net_cents"]),
            dollars(row["theo_win_cents"]),
            " ".join(row.get("flags", []))
            or (f"{row['tables_incomplete']} incomplete" if row.get("tables_incomplete") else ""),
        ]

    rows = [header]
    rows += [line(t, t["table"]["name"]) for t in payload["tables"]]
    first_rollup = len(rows)
    rows += [line(p, f"Pit {p['pit']['name']}") for p in payload["pits"]]
    rows += [line(c, f"Casino {c['casino']['name']}") for c in payload["casinos"]]
    table = Table(rows, repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), "Helvetica", 7),
                ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 7),
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e0e0e0")),
                ("ALIGN", (2, 1), (-2, -1), "RIGHT"),
                ("LINEBELOW", (0, 0), (-1, 0), 0.5, colors.black),
                ("LINEABOVE", (0, first_rollup), (-1, first_rollup), 0.5, colors.black),
                ("FONT", (0, first_rollup), (-1, -1), "Helvetica-Bold", 7),
            ]
        )
    )
    low, high = payload["expected_hold_bp"]["low"], payload["expected_hold_bp"]["high"]
    story: list[Any] = [
        Paragraph(f"Shift report - gaming day {payload['gaming_day']}, {shifts}", styles["Title"]),
        Paragraph(
            "Win = drop + credits - fills + (closer - opener). Hold = win / drop, rounded half to even "
            f"to 0.01 %; '!' marks a hold outside {hold_percent_text(low)}-{hold_percent_text(high)} %. House net = handle - "
            "payouts of the rounds settled in the shift; theo = handle x house edge per wager kind.",
            styles["Normal"],
        ),
        Spacer(1, 0.3 * cm),
        table,
        Spacer(1, 0.4 * cm),
    ]
    if payload["tables"]:
        chart = _chart_png(payload["tables"], expected_hold_bp=(low, high))
        story.append(Image(io.BytesIO(chart), width=25 * cm, height=9 * cm))
    if payload["casinos"]:
        kinds = [
            ["Casino", "Shift", "Wager kind", "Wagers", "Handle", "Payouts", "House net", "Edge", "Theo"]
        ]
        for casino in payload["casinos"]:
            for kind in casino["by_kind"]:
                kinds.append(
                    [
                        casino["casino"]["name"],
                        casino["shift"],
                        kind["kind"],
                        str(kind["wagers"]),
                        dollars(kind["handle_cents"]),
                        dollars(kind["payouts_cents"]),
                        dollars(kind["house_net_cents"]),
                        f"{house_edge(kind['kind']) * 100:.3f} %",
                        dollars(kind["theo_win_cents"]),
                    ]
                )
        by_kind = Table(kinds, repeatRows=1)
        by_kind.setStyle(
            TableStyle(
                [
                    ("FONT", (0, 0), (-1, -1), "Helvetica", 7),
                    ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 7),
                    ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e0e0e0")),
                    ("ALIGN", (3, 1), (-1, -1), "RIGHT"),
                ]
            )
        )
        story += [
            Spacer(1, 0.4 * cm),
            Paragraph("Handle and payouts by wager kind", styles["Heading3"]),
            by_kind,
        ]
    document.build(story)
    return buffer.getvalue()
