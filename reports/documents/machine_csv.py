"""The machine CSV: the API's figures as they are stored, cents and basis points, one line per
table, pit and casino, no units row. Its figure columns are the definition's `machine` ones."""

import csv
import io
from typing import Any

from kernel.documents import spreadsheet_text
from reports.definition import KIND_FIGURES, Figure, Unit, machine_columns, machine_kind_columns
from reports.documents.wording import flags_text, tables_of, yes_no
from reports.house_edges import kind_order

# Which row it is, before the figures.
ROW_COLUMNS = ("level", "gaming_day", "shift", "casino", "pit", "table", "tables", "tables_incomplete")


def csv_columns() -> tuple[str, ...]:
    """The machine CSV's columns: the row's, the figures, then the machine figures of each wager kind."""
    return (
        *ROW_COLUMNS,
        *(figure.key for figure in machine_columns()),
        *machine_kind_columns(kind_order()),
    )


def _cell(row: dict[str, Any], figure: Figure) -> Any:
    if figure.unit is Unit.YES_NO:
        return yes_no(row[figure.key])
    if figure.unit is Unit.FLAGS:
        return flags_text(row)
    return row.get(figure.key)


def _machine_row(row: dict[str, Any], columns: tuple[str, ...]) -> dict[str, Any]:
    tables, incomplete = tables_of(row)
    out: dict[str, Any] = {
        "level": row.get("level"),
        "gaming_day": row.get("gaming_day"),
        "shift": row.get("shift"),
        "casino": spreadsheet_text(row["casino"]["name"]),
        "pit": spreadsheet_text(row["pit"]["name"]) if "pit" in row else "",
        "table": spreadsheet_text(row["table"]["name"]) if "table" in row else "",
        "tables": tables,
        "tables_incomplete": incomplete,
        **{figure.key: _cell(row, figure) for figure in machine_columns()},
    }
    for kind in row["by_kind"]:
        for figure in KIND_FIGURES:
            if figure.machine:
                out[f"{kind['kind']}_{figure.key}"] = kind[figure.key]
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
