"""The filing CSV: the header, then sections, each a title, a header row, a units row (USD, %,
count) and its rows; money in plain decimal dollars. The figure columns and their units are the
definition's (`reports.definition.filing_columns`)."""

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

from kernel.documents import spreadsheet_text
from reports.definition import FILING_UNITS, Figure, Unit, filing_columns
from reports.documents.wording import (
    decimal_dollars,
    drop_basis,
    flags_text,
    incomplete_reason,
    is_complete,
    slip_status,
    tables_of,
    yes_no,
)
from reports.figures import hold_percent_text

# Which row it is, before the figures.
_ROW_COLUMNS: tuple[tuple[str, str], ...] = (
    ("level", ""),
    ("shift", ""),
    ("casino", ""),
    ("pit", ""),
    ("table", ""),
    ("tables", "count"),
    ("tables_incomplete", "count"),
)
_PERIOD: tuple[tuple[str, str], ...] = (
    ("shifts", "count"),
    ("shifts_incomplete", "count"),
    ("drop", "USD"),
    ("win", "USD"),
    ("hold", "%"),
)


def figure_columns() -> tuple[tuple[str, str], ...]:
    """The figure sections' columns with their units: the row's, then the definition's."""
    return (
        *_ROW_COLUMNS,
        *((figure.column, FILING_UNITS.get(figure.unit, "")) for figure in filing_columns()),
    )


def _cell(row: dict[str, Any], figure: Figure) -> str:
    if figure.unit is Unit.CENTS:
        return decimal_dollars(row.get(figure.key))
    if figure.unit is Unit.PERCENT:
        return str(row[figure.key] or "")
    if figure.unit is Unit.YES_NO:
        return yes_no(row[figure.key])
    if figure.unit is Unit.FLAGS:
        return flags_text(row)
    if figure.key == "drop_basis":
        return drop_basis(row) if row.get("drop_cents") is not None else ""
    return "" if row[figure.key] is None else str(row[figure.key])


def _figures_row(row: dict[str, Any]) -> list[str]:
    tables, incomplete = tables_of(row)
    return [
        row["level"],
        row["shift"],
        spreadsheet_text(row["casino"]["name"]),
        spreadsheet_text(row["pit"]["name"]) if "pit" in row else "",
        spreadsheet_text(row["table"]["name"]) if "table" in row else "",
        str(tables),
        str(incomplete),
        *(_cell(row, figure) for figure in filing_columns()),
    ]


def _period_cells(figures: dict[str, Any]) -> list[str]:
    return [
        str(figures["shifts"]),
        str(figures["shifts_incomplete"]),
        decimal_dollars(figures["drop_cents"]),
        decimal_dollars(figures["win_cents"]),
        figures["hold_percent"] or "",
    ]


TOURNAMENT_COLUMNS = (
    ("tournament", ""),
    ("name", ""),
    ("game", ""),
    ("entries", "count"),
    ("fees", "USD"),
    ("added_money", "USD"),
    ("overlay", "USD"),
    ("revenue", "USD"),
    ("prizes_paid", "USD"),
)


def _section(
    writer: Any, title: str, columns: Sequence[tuple[str, str]], rows: Iterable[Sequence[Any]]
) -> None:
    writer.writerow([f"[{title}]"])
    writer.writerow([name for name, _ in columns])
    writer.writerow([unit for _, unit in columns])
    writer.writerows(rows)
    writer.writerow([])


def _figure_sections(writer: Any, part: dict[str, Any], *, part_name: str) -> None:
    complete = [t for t in part["tables"] if is_complete(t)]
    incomplete = [t for t in part["tables"] if not is_complete(t)]
    _section(
        writer,
        f"{part_name}: complete tables, pit and casino roll-ups",
        figure_columns(),
        [_figures_row(row) for row in [*complete, *part["pits"], *part["casinos"]]],
    )
    _section(
        writer,
        f"{part_name}: incomplete tables (not in the roll-ups)",
        [*figure_columns(), ("missing", "")],
        [[*_figures_row(t), incomplete_reason(t)] for t in incomplete],
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
            ["status", "Provisional" if document["provisional"] else "Final"],
            ["provisional_reasons", spreadsheet_text("; ".join(document["provisional_reasons"]))],
            [],
        ]
    )
    if "daily" in report:
        _figure_sections(writer, report["daily"], part_name="Gaming day")
    _figure_sections(writer, report, part_name="Shifts")
    if report.get("tournaments"):
        _section(
            writer,
            "Tournaments: each its own revenue (fees - added money - overlay), not offset against another "
            "nor the tables",
            TOURNAMENT_COLUMNS,
            [
                [
                    line["tournament"]["id"],
                    spreadsheet_text(line["tournament"]["name"]),
                    line["tournament"]["game"],
                    line["entries"],
                    decimal_dollars(line["fees_cents"]),
                    decimal_dollars(line["added_cents"]),
                    decimal_dollars(line["overlay_cents"]),
                    decimal_dollars(line["revenue_cents"]),
                    decimal_dollars(line["prizes_paid_cents"]),
                ]
                for line in report["tournaments"]
            ],
        )
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
                slip_status(slip),
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
