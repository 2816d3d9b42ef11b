"""Shift and daily reports as documents: a filing PDF, a filing CSV, and the machine CSV.

`report_document` gathers, beside the payload of `reports.read.shift_report_payload`,
what a filed report prints: the header (licensee, property, time zone, generated at and by,
version and the SHA-256 of the figures), the per-denomination openers and closers, the numbered
fill and credit slips with their voids, the month- and year-to-date figures and the 30-day hold
investigations (`reports.period`), and whether the report is provisional.
`shift_report_pdf` and `shift_report_csv` render such a document and touch no database.

Money stays integer cents until it is printed: the PDF shows dollars ("$1,234.56"), the filing
CSV plain decimal dollars ("1234.56") under a units row; the machine CSV keeps the cents and
basis points of the API. Only the chart converts to floats, to draw them.

A document's figures are everything but its generated-at moment, so two renders of the same
figures differ only in the generated-at line (the PDF is written in reportlab's invariant mode:
no creation date, a fixed document id).
"""

import csv
import datetime as dt
import hashlib
import io
import json
from collections.abc import Iterable, Sequence
from decimal import ROUND_HALF_EVEN, Decimal
from typing import Any

from django.conf import settings

from casino.models import ChipSlip, TableInventory
from kernel.documents import paragraph_text, spreadsheet_text
from kernel.formatting import dollars
from kernel.gaming_day import casino_zone, shift_bounds
from reports.figures import hold_percent_text
from reports.house_edges import kind_order
from reports.period import period_figures

# The layout of the document; printed with the figures' hash as the report's version when the
# payload carries no version of its own.
DOCUMENT_FORMAT = 2
SCHEDULED_JOB = "scheduled job"
SIGN_OFF_ROLES = ("Pit boss", "Shift manager", "Revenue audit")
_MISSING_COUNT_FLAGS = {
    "no_opener": "no opener",
    "no_closer": "no closer",
    "no_soft_count": "no soft count",
    "shift_not_reported": "a shift has no report",
}

# --- the machine CSV (cents and basis points, one line per table, pit and casino) ----------------

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
    """The machine CSV's columns: the figures, then handle, payouts and theo of each wager kind."""
    return (
        *_FIGURE_COLUMNS,
        *(
            f"{kind}_{figure}"
            for kind in kind_order()
            for figure in ("handle_cents", "payouts_cents", "theo_win_cents")
        ),
    )


def _machine_row(row: dict[str, Any], columns: tuple[str, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {name: row.get(name) for name in columns}
    out["casino"] = spreadsheet_text(row["casino"]["name"])
    out["pit"] = spreadsheet_text(row["pit"]["name"]) if "pit" in row else ""
    out["table"] = spreadsheet_text(row["table"]["name"]) if "table" in row else ""
    if row["level"] == "table":
        out["tables"] = 1
        out["tables_incomplete"] = 0 if _is_complete(row) else 1
    out["hold_outside_range"] = "yes" if row["hold_outside_range"] else "no"
    out["flags"] = " ".join(row.get("flags", []))
    for kind in row["by_kind"]:
        for figure in ("handle_cents", "payouts_cents", "theo_win_cents"):
            out[f"{kind['kind']}_{figure}"] = kind[figure]
    return {name: "" if value is None else value for name, value in out.items() if name in columns}


def shift_report_machine_csv(payload: dict[str, Any]) -> str:
    """The API's figures as they are stored: cents and basis points, no units row."""
    buffer = io.StringIO()
    columns = csv_columns()
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\r\n")
    writer.writeheader()
    for level in ("tables", "pits", "casinos"):
        for row in payload[level]:
            writer.writerow(_machine_row(row, columns))
    return buffer.getvalue()


# --- the document ----------------------------------------------------------------------------------


def _is_complete(table: dict[str, Any]) -> bool:
    """A table's win is known (opener and closer counted), unless the payload says otherwise."""
    return bool(table.get("complete", table["win_cents"] is not None))


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
        if not _is_complete(table):
            reasons.append(f"{name}: {_incomplete_reason(table)}")
        elif table.get("provisional"):
            reasons.append(f"{name}: figures stored before the shift ended")
    return reasons


def figures_sha256(figures: dict[str, Any]) -> str:
    """SHA-256 of the figures in canonical JSON (sorted keys, no spaces): what the report says,
    not the bytes of a document that prints the hash."""
    canonical = json.dumps(figures, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canonical.encode("ascii")).hexdigest()


def report_document(
    payload: dict[str, Any], *, generated_by: str | None, generated_at: dt.datetime
) -> dict[str, Any]:
    """The payload and what a filed report prints beside it, read from the database."""
    gaming_day = dt.date.fromisoformat(payload["gaming_day"])
    shifts = list(payload["shifts"])
    return assemble_document(
        payload,
        inventories=_inventories(gaming_day=gaming_day, shifts=shifts),
        slips=_slips(gaming_day=gaming_day, shifts=shifts),
        period=period_figures(gaming_day=gaming_day, shifts=shifts) if shifts else None,
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


# --- shared wording ----------------------------------------------------------------------------------


def decimal_dollars(cents: int | None) -> str:
    """Cents as plain decimal dollars for a spreadsheet: `-123456` -> `-1234.56`; None -> ``."""
    if cents is None:
        return ""
    sign = "-" if cents < 0 else ""
    whole, rest = divmod(abs(cents), 100)
    return f"{sign}{whole}.{rest:02d}"


def _theo_edge(theo_cents: int, handle_cents: int) -> str:
    """Theo / handle as a percentage to 0.001 %: the edge the rounds were played at on average (each
    round's theo comes from the paytable report it used)."""
    if handle_cents <= 0:
        return "-"
    edge = (Decimal(theo_cents) * 100 / Decimal(handle_cents)).quantize(Decimal("0.001"), ROUND_HALF_EVEN)
    return f"{edge} %"


def _percent(text: str | None) -> str:
    return f"{text} %" if text is not None else "-"


def _incomplete_reason(table: dict[str, Any]) -> str:
    flags = table.get("flags", [])
    reasons = [text for flag, text in _MISSING_COUNT_FLAGS.items() if flag in flags]
    return ", ".join(reasons) or " ".join(flags) or "win unknown"


def _status_line(document: dict[str, Any]) -> str:
    if document["provisional"]:
        why = "; ".join(document["provisional_reasons"])
        return f"PROVISIONAL: {why}" if why else "PROVISIONAL"
    return "Final"


def _slip_status(slip: dict[str, Any]) -> str:
    if slip["status"] == "void":
        return "VOID (approved, reversed)" if slip["approved"] else "VOID"
    return str(slip["status"])


def _drop_basis(row: dict[str, Any]) -> str:
    """Which drop the win is based on, where the payload says (tables; roll-ups may not)."""
    if row.get("drop_basis"):
        return str(row["drop_basis"])
    if row.get("counted_drop_cents") is not None:
        return "counted"
    return "estimated" if "counted_drop_cents" in row else ""


# --- the filing CSV --------------------------------------------------------------------------------

_FIGURES: tuple[tuple[str, str], ...] = (
    ("level", ""),
    ("shift", ""),
    ("casino", ""),
    ("pit", ""),
    ("table", ""),
    ("tables", "count"),
    ("tables_incomplete", "count"),
    ("opener", "USD"),
    ("closer", "USD"),
    ("drop", "USD"),
    ("drop_counted", "USD"),
    ("drop_estimated", "USD"),
    ("drop_basis", ""),
    ("drop_counted_minus_estimated", "USD"),
    ("markers", "USD"),
    ("fills", "USD"),
    ("credits", "USD"),
    ("win", "USD"),
    ("hold", "%"),
    ("hold_outside_range", "yes/no"),
    ("rounds_settled", "count"),
    ("rounds_voided", "count"),
    ("hands_dealt", "count"),
    ("handle", "USD"),
    ("payouts", "USD"),
    ("house_net", "USD"),
    ("win_minus_house_net", "USD"),
    ("theo_win", "USD"),
    ("flags", ""),
)
_MONEY = {
    "opener": "opener_cents",
    "closer": "closer_cents",
    "drop": "drop_cents",
    "drop_counted": "counted_drop_cents",
    "drop_estimated": "estimated_drop_cents",
    "drop_counted_minus_estimated": "drop_difference_cents",
    "markers": "markers_cents",
    "fills": "fills_cents",
    "credits": "credits_cents",
    "win": "win_cents",
    "handle": "handle_cents",
    "payouts": "payouts_cents",
    "house_net": "house_net_cents",
    "win_minus_house_net": "win_minus_house_net_cents",
    "theo_win": "theo_win_cents",
}
_PERIOD: tuple[tuple[str, str], ...] = (
    ("shifts", "count"),
    ("shifts_incomplete", "count"),
    ("drop", "USD"),
    ("win", "USD"),
    ("hold", "%"),
)


def _figures_row(row: dict[str, Any]) -> list[str]:
    values: dict[str, Any] = {
        "level": row["level"],
        "shift": row["shift"],
        "casino": spreadsheet_text(row["casino"]["name"]),
        "pit": spreadsheet_text(row["pit"]["name"]) if "pit" in row else "",
        "table": spreadsheet_text(row["table"]["name"]) if "table" in row else "",
        "tables": 1 if row["level"] == "table" else row["tables"],
        "tables_incomplete": (0 if _is_complete(row) else 1)
        if row["level"] == "table"
        else row["tables_incomplete"],
        "drop_basis": _drop_basis(row),
        "hold": row["hold_percent"] or "",
        "hold_outside_range": "yes" if row["hold_outside_range"] else "no",
        "rounds_settled": row["rounds_settled"],
        "rounds_voided": row["rounds_voided"],
        "hands_dealt": row["hands_dealt"],
        "flags": " ".join(row.get("flags", [])),
        **{column: decimal_dollars(row.get(key)) for column, key in _MONEY.items()},
    }
    return [str(values[name]) for name, _ in _FIGURES]


def _period_cells(figures: dict[str, Any]) -> list[str]:
    return [
        str(figures["shifts"]),
        str(figures["shifts_incomplete"]),
        decimal_dollars(figures["drop_cents"]),
        decimal_dollars(figures["win_cents"]),
        figures["hold_percent"] or "",
    ]


def _section(
    writer: Any, title: str, columns: Sequence[tuple[str, str]], rows: Iterable[Sequence[Any]]
) -> None:
    writer.writerow([f"[{title}]"])
    writer.writerow([name for name, _ in columns])
    writer.writerow([unit for _, unit in columns])
    writer.writerows(rows)
    writer.writerow([])


def _figure_sections(writer: Any, part: dict[str, Any], *, part_name: str) -> None:
    complete = [t for t in part["tables"] if _is_complete(t)]
    incomplete = [t for t in part["tables"] if not _is_complete(t)]
    _section(
        writer,
        f"{part_name}: complete tables, pit and casino roll-ups",
        _FIGURES,
        [_figures_row(row) for row in [*complete, *part["pits"], *part["casinos"]]],
    )
    _section(
        writer,
        f"{part_name}: incomplete tables (not in the roll-ups)",
        [*_FIGURES, ("missing", "")],
        [[*_figures_row(t), _incomplete_reason(t)] for t in incomplete],
    )


def shift_report_csv(document: dict[str, Any]) -> str:
    """The filing CSV: the header, then sections, each a title, a header row, a units row
    (USD, %, count) and its rows; money in decimal dollars."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    header = document["header"]
    report = document["report"]
    writer.writerows(
        [
            ["report", header["title"]],
            ["licensee", spreadsheet_text(header["licensee"])],
            ["property", spreadsheet_text(header["property"])],
            ["gaming_day", report["gaming_day"]],
            ["shifts", " ".join(report["shifts"])],
            ["time_zone", header["time_zone"]],
            ["generated_at", header["generated_at"]],
            ["generated_by", spreadsheet_text(header["generated_by"])],
            ["report_version", header["version"]],
            ["figures_sha256", header["figures_sha256"]],
            ["status", _status_line(document)],
            [],
        ]
    )
    if "daily" in report:
        _figure_sections(writer, report["daily"], part_name="Gaming day")
    _figure_sections(writer, report, part_name="Shifts")
    _section(
        writer,
        "Inventories by denomination",
        [
            ("table", ""),
            ("shift", ""),
            ("kind", ""),
            ("denomination", "USD"),
            ("chips", "count"),
            ("value", "USD"),
        ],
        [
            [
                spreadsheet_text(inventory["table"]["name"]),
                inventory["shift"],
                inventory["kind"],
                decimal_dollars(chip["denomination_cents"]),
                chip["count"],
                decimal_dollars(chip["denomination_cents"] * chip["count"]),
            ]
            for inventory in document["inventories"]
            for chip in inventory["chips"]
        ],
    )
    _section(
        writer,
        "Fill and credit slips",
        [
            ("kind", ""),
            ("number", ""),
            ("table", ""),
            ("shift", ""),
            ("amount", "USD"),
            ("status", ""),
            ("void_reason", ""),
        ],
        [
            [
                slip["kind"],
                slip["number"],
                spreadsheet_text(slip["table"]["name"]),
                slip["shift"],
                decimal_dollars(slip["amount_cents"]),
                _slip_status(slip),
                spreadsheet_text(slip["void_reason"] or ""),
            ]
            for slip in document["slips"]
        ],
    )
    period = document["period"]
    if period is not None:
        by_table_columns = [("table", ""), ("pit", ""), ("game", "")]
        period_columns = [
            *((f"mtd_{name}", unit) for name, unit in _PERIOD),
            *((f"ytd_{name}", unit) for name, unit in _PERIOD),
        ]
        _section(
            writer,
            f"Month to date (from {period['month_start']}) and year to date (from {period['year_start']})"
            f" through {period['through']['gaming_day']} {period['through']['shift']}",
            [*by_table_columns, *period_columns],
            [
                [
                    spreadsheet_text(t["table"]["name"]),
                    spreadsheet_text(t["pit"]),
                    t["game"],
                    *_period_cells(t["month_to_date"]),
                    *_period_cells(t["year_to_date"]),
                ]
                for t in period["tables"]
            ],
        )
        _section(
            writer,
            "Month and year to date by game",
            [("game", ""), *period_columns],
            [
                [g["game"], *_period_cells(g["month_to_date"]), *_period_cells(g["year_to_date"])]
                for g in period["games"]
            ],
        )
        low, high = period["expected_hold_bp"]["low"], period["expected_hold_bp"]["high"]
        _section(
            writer,
            f"Hold over the 30 gaming days from {period['rolling_start']} outside "
            f"{hold_percent_text(low)}-{hold_percent_text(high)} %: to investigate",
            [("table", ""), ("pit", ""), ("game", ""), *_PERIOD],
            [
                [
                    spreadsheet_text(f["table"]["name"]),
                    spreadsheet_text(f["pit"]),
                    f["game"],
                    *_period_cells(f),
                ]
                for f in period["hold_investigations"]
            ],
        )
    return buffer.getvalue()


# --- the filing PDF --------------------------------------------------------------------------------


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
    figure.savefig(buffer, format="png", metadata={"Software": None})
    return buffer.getvalue()


def _page_canvas(header: dict[str, Any], *, provisional: bool, subtitle: str) -> type:
    """A canvas that holds its pages back until the last, to print "Page N of M" and the header
    on each."""
    from reportlab.lib import colors
    from reportlab.pdfgen.canvas import Canvas

    class PagedCanvas(Canvas):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._held_pages: list[dict[str, Any]] = []

        def showPage(self) -> None:
            self._held_pages.append(dict(self.__dict__))
            self._startPage()

        def save(self) -> None:
            total = len(self._held_pages)
            for number, state in enumerate(self._held_pages, start=1):
                self.__dict__.update(state)
                self._draw_header(number, total)
                super().showPage()
            super().save()

        def _draw_header(self, number: int, total: int) -> None:
            width, height = self._pagesize
            left, right, top = 34.0, width - 34.0, height - 28.0
            self.saveState()
            self.setFont("Helvetica-Bold", 10)
            self.drawString(left, top, f"{header['licensee']} - {header['property']}")
            self.setFont("Helvetica", 9)
            self.drawRightString(right, top, f"Page {number} of {total}")
            self.drawString(left, top - 12, subtitle)
            self.drawString(
                left,
                top - 24,
                f"Generated at {header['generated_at']} by {header['generated_by']}",
            )
            self.setFont("Helvetica", 7)
            self.drawString(
                left,
                top - 35,
                f"Report version {header['version']}   Figures SHA-256 {header['figures_sha256']}",
            )
            if provisional:
                self.setFillColor(colors.HexColor("#c62828"))
                self.setFont("Helvetica-Bold", 22)
                self.drawRightString(right, top - 30, "PROVISIONAL")
            self.setStrokeColor(colors.black)
            self.setLineWidth(0.5)
            self.line(left, top - 41, right, top - 41)
            self.restoreState()

    return PagedCanvas


def _grid(rows: list[list[str]], *, right_from: int, bold_from: int | None = None) -> Any:
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
    table = Table(rows, repeatRows=1, hAlign="LEFT")
    table.setStyle(TableStyle(style))
    return table


def _figure_line(row: dict[str, Any], name: str) -> list[str]:
    drop = dollars(row["drop_cents"])
    basis = _drop_basis(row)
    if basis:
        drop += f" ({basis})"
    return [
        row["shift"],
        name,
        dollars(row["opener_cents"]),
        dollars(row["closer_cents"]),
        drop,
        dollars(row.get("estimated_drop_cents")),
        dollars(row.get("drop_difference_cents")),
        dollars(row["fills_cents"]),
        dollars(row["credits_cents"]),
        dollars(row["win_cents"]),
        _percent(row["hold_percent"]) + (" !" if row["hold_outside_range"] else ""),
        str(row["rounds_settled"]),
        str(row["hands_dealt"]),
        dollars(row["handle_cents"]),
        dollars(row["house_net_cents"]),
        dollars(row["theo_win_cents"]),
        " ".join(row.get("flags", []))
        or (f"{row['tables_incomplete']} incomplete" if row.get("tables_incomplete") else ""),
    ]


_FIGURE_HEADER = [
    "Shift", "Table / pit", "Opener", "Closer", "Drop (basis)", "Est. drop", "Counted - est.",
    "Fills", "Credits", "Win",
    "Hold", "Rounds", "Hands", "Handle", "House net", "Theo", "Flags",
]  # fmt: skip


def _period_line(figures: dict[str, Any]) -> list[str]:
    incomplete = figures["shifts_incomplete"]
    return [
        f"{figures['shifts']}" + (f" ({incomplete} incomplete)" if incomplete else ""),
        dollars(figures["drop_cents"]),
        dollars(figures["win_cents"]),
        _percent(figures["hold_percent"]),
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
                f"win {dollars(table['win_cents'])}, hold {_percent(table['hold_percent'])}"
                + ("" if _is_complete(table) else f" - incomplete ({_incomplete_reason(table)})")
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
                _slip_status(slip),
                slip["void_reason"] or "",
            ]
            for slip in slips
        ]
        parts += [Spacer(1, 0.15 * cm), _grid(rows, right_from=1)]
    return [KeepTogether(parts), Spacer(1, 0.3 * cm)]


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


def _figures_story(part: dict[str, Any], title: str, styles: Any) -> list[Any]:
    """The figures of the complete tables with their roll-ups, then the incomplete tables apart."""
    from reportlab.lib.units import cm
    from reportlab.platypus import Paragraph, Spacer

    complete = [t for t in part["tables"] if _is_complete(t)]
    incomplete = [t for t in part["tables"] if not _is_complete(t)]
    story: list[Any] = [Paragraph(paragraph_text(title), styles["Heading3"])] if title else []
    rows = [_FIGURE_HEADER]
    rows += [_figure_line(t, t["table"]["name"]) for t in complete]
    first_rollup = len(rows)
    rows += [_figure_line(p, f"Pit {p['pit']['name']}") for p in part["pits"]]
    rows += [_figure_line(c, f"Casino {c['casino']['name']}") for c in part["casinos"]]
    story += [_grid(rows, right_from=2, bold_from=first_rollup), Spacer(1, 0.3 * cm)]
    if incomplete:
        heading = "Incomplete tables (not in the roll-ups)"
        story.append(
            Paragraph(paragraph_text(f"{title}: {heading.lower()}" if title else heading), styles["Heading4"])
        )
        rows = [["Shift", "Table", "Pit", "Missing", "Opener", "Closer", "Drop", "Fills", "Credits"]]
        rows += [
            [
                t["shift"],
                t["table"]["name"],
                t["pit"]["name"],
                _incomplete_reason(t),
                dollars(t["opener_cents"]),
                dollars(t["closer_cents"]),
                dollars(t["drop_cents"]),
                dollars(t["fills_cents"]),
                dollars(t["credits_cents"]),
            ]
            for t in incomplete
        ]
        story += [_grid(rows, right_from=4), Spacer(1, 0.3 * cm)]
    return story


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
        story.append(Paragraph(paragraph_text(_status_line(document)), banner))
    story += [
        Paragraph(
            "Win = drop + credits - fills + (closer - opener). Hold = win / drop, rounded half to even "
            f"to 0.01 %; '!' marks a hold outside {hold_percent_text(low)}-{hold_percent_text(high)} %. "
            "Pit and casino roll-ups add the complete tables only; tables with a count missing are "
            "listed apart. Theo = handle x house edge per wager kind.",
            styles["Normal"],
        ),
        Spacer(1, 0.3 * cm),
    ]
    if "daily" in report:
        story += _figures_story(report["daily"], "Gaming day: tables, pits and casino", styles)
    story += _figures_story(report, "By shift" if "daily" in report else "", styles)
    if report["tables"]:
        chart = _chart_png(report["tables"], expected_hold_bp=(low, high))
        story.append(Image(io.BytesIO(chart), width=25 * cm, height=9 * cm))
    if report["tables"]:
        story.append(Paragraph("Tables: inventories by denomination and slips", styles["Heading3"]))
        for table in report["tables"]:
            story += _table_details(document, table, styles)
    if report["casinos"]:
        kinds = [
            [
                "Casino",
                "Shift",
                "Wager kind",
                "Wagers",
                "Handle",
                "Payouts",
                "House net",
                "Theo / handle",
                "Theo",
            ]
        ]
        for casino in report["casinos"]:
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
                        _theo_edge(kind["theo_win_cents"], kind["handle_cents"]),
                        dollars(kind["theo_win_cents"]),
                    ]
                )
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
            story.append(Paragraph("Every table's hold is within the expected range.", styles["Normal"]))
    story += _sign_off(styles)
    pdf.build(
        story,
        canvasmaker=_page_canvas(header, provisional=document["provisional"], subtitle=subtitle),
    )
    return buffer.getvalue()
