"""The report figures come from one definition (reports.definition): the stored rows agree with it,
every document's columns are the definition's, in its order, and the win is worked out by one
function, which the floor uses too. No database: the documents are rendered from payloads."""

import ast
import csv
import dataclasses
import datetime as dt
import io
from pathlib import Path
from typing import Any

from django.conf import settings as django_settings
from django.db import models

from reports.api.views import CasinoRollupOutput, KindOutput, TableReportOutput
from reports.definition import (
    FIGURE,
    FIGURES,
    KIND_FIGURES,
    RollUp,
    Unit,
    filing_columns,
    machine_columns,
    pdf_columns,
    stored_keys,
)
from reports.export import (
    assemble_document,
    csv_columns,
    shift_report_csv,
    shift_report_machine_csv,
    shift_report_pdf,
)
from reports.figures import KindFigures, TableFigures
from reports.house_edges import kind_order
from reports.models import ShiftReport, ShiftReportLine
from reports.read import API_ORDER, DAILY_ORDER, ROLLUP_ORDER, SUMMED, rollup
from tests.support.report_documents import pdf_page_texts

ROW_IDENTITY = {"id", "table", "pit", "gaming_day", "shift"}
FIELD_OF_UNIT = {
    Unit.CENTS: models.BigIntegerField,
    Unit.BASIS_POINTS: models.IntegerField,
    Unit.COUNT: models.IntegerField,
    Unit.YES_NO: models.BooleanField,
    Unit.TEXT: models.CharField,
    Unit.MOMENT: models.DateTimeField,
    Unit.EDGE: models.DecimalField,
}
GENERATED_AT = dt.datetime(2026, 11, 21, 15, 0, tzinfo=dt.UTC)


def figure_fields(model: type[models.Model]) -> "dict[str, models.Field[Any, Any]]":
    return {
        field.name: field
        for field in model._meta.concrete_fields
        if field.name not in ROW_IDENTITY
        and not (model is ShiftReportLine and field.name in {"report", "kind"})
    }


def test_the_definition_names_every_stored_field_of_a_shift_report_with_its_unit() -> None:
    fields = figure_fields(ShiftReport)

    assert set(fields) == set(stored_keys())
    for key, field in fields.items():
        figure = FIGURE[key]
        assert field.null == figure.nullable, key
        if figure.unit is Unit.FLAGS:
            assert field.get_internal_type() == "ArrayField", key
        else:
            assert type(field) is FIELD_OF_UNIT[figure.unit], key


def test_the_definition_names_every_stored_field_of_a_wager_kind_line() -> None:
    fields = figure_fields(ShiftReportLine)

    assert set(fields) == set(stored_keys(KIND_FIGURES))
    for figure in KIND_FIGURES:
        assert type(fields[figure.key]) is FIELD_OF_UNIT[figure.unit], figure.key


def test_the_computed_figures_carry_every_stored_figure() -> None:
    computed = {field.name for field in dataclasses.fields(TableFigures)}
    assert set(stored_keys()) - {"generated_at"} <= computed
    kinds = {field.name for field in dataclasses.fields(KindFigures)} | {"house_net_cents"}
    assert set(stored_keys(KIND_FIGURES)) <= kinds


def test_figures_worked_out_on_read_follow_a_stored_one_and_every_key_is_defined_once() -> None:
    assert len(FIGURE) == len(FIGURES)
    for figure in FIGURES:
        assert figure.stored != bool(figure.follows), figure.key
        if figure.follows:
            assert FIGURE[figure.follows].stored


def test_the_api_mirrors_the_stored_row_in_the_models_order() -> None:
    stored_order = [name for name in figure_fields(ShiftReport)]

    assert [key for key in API_ORDER if FIGURE[key].stored] == stored_order
    assert set(API_ORDER) == set(FIGURE)
    assert API_ORDER.index("hold_percent") == API_ORDER.index("hold_bp") + 1
    assert API_ORDER.index("drop_difference_cents") == API_ORDER.index("counted_drop_cents") + 1


def test_the_roll_ups_sum_the_summed_figures_and_recompute_the_others() -> None:
    rolled_up = {figure.key for figure in FIGURES if figure.rolls_up is not RollUp.NONE}

    assert set(SUMMED) == {figure.key for figure in FIGURES if figure.rolls_up is RollUp.SUM}
    assert set(ROLLUP_ORDER) == rolled_up
    assert set(DAILY_ORDER) == set(API_ORDER) - {"generated_at"}


def _table(name: str, *, win_cents: int) -> dict[str, Any]:
    return {
        "level": "table",
        "gaming_day": "2026-11-20",
        "shift": "day",
        "casino": {"id": 1, "name": "Main casino"},
        "pit": {"id": 1, "name": "Main pit"},
        "table": {"id": len(name), "name": name},
        **dict.fromkeys(API_ORDER, 0),
        "win_cents": win_cents,
        "drop_cents": 10_000,
        "counted_drop_cents": None,
        "drop_difference_cents": None,
        "drop_basis": "estimated",
        "flags": [],
        "complete": True,
        "provisional": False,
        "by_kind": [
            {"kind": "primary", "wagers": 2, "handle_cents": 500, "payouts_cents": 300, "theo_win_cents": 3}
        ],
    }


def test_a_roll_up_has_the_figures_of_the_definition_summed_or_recomputed() -> None:
    tables = [_table("BJ-01", win_cents=1_500), _table("BJ-02", win_cents=500)]

    pit = rollup("pit", tables)

    head = ["level", "gaming_day", "shift", "casino", "pit", "tables", "tables_incomplete"]
    assert list(pit) == [*head, *ROLLUP_ORDER, "incomplete_tables", "by_kind"]
    assert (pit["drop_cents"], pit["win_cents"], pit["hold_bp"], pit["hold_percent"]) == (
        20_000,
        2_000,
        1_000,
        "10.00",
    )
    kind_keys = [f.key for f in KIND_FIGURES if f.rolls_up is not RollUp.NONE]
    assert pit["by_kind"] == [
        {"kind": "primary", **dict(zip(kind_keys, [4, 1_000, 600, 400, 6, 0], strict=True))}
    ]


def test_the_api_schema_lists_the_figures_of_the_definition() -> None:
    rolled_up = [key for key in API_ORDER if FIGURE[key].rolls_up is not RollUp.NONE]

    for serializer in (TableReportOutput(), CasinoRollupOutput()):
        fields = list(serializer.fields)
        assert fields[:3] == ["gaming_day", "shift", "casino"]
        assert fields[3 : 3 + len(rolled_up)] == rolled_up
        for key in rolled_up:
            # A roll-up with no complete table knows none of its sums: null, never 0.
            summed = FIGURE[key].rolls_up is RollUp.SUM and isinstance(serializer, CasinoRollupOutput)
            assert serializer.fields[key].allow_null == (FIGURE[key].nullable or summed), key
    assert list(KindOutput().fields) == ["kind", *(figure.key for figure in KIND_FIGURES), "priced"]


def _empty_document() -> dict[str, Any]:
    payload = {
        "gaming_day": "2026-11-20",
        "shifts": ["day"],
        "expected_hold_bp": {"low": 1_000, "high": 2_000},
        "provisional": False,
        "tables": [],
        "pits": [],
        "casinos": [],
        "hold_outliers": [],
    }
    return assemble_document(
        payload, inventories=[], slips=[], period=None, generated_by=None, generated_at=GENERATED_AT
    )


def test_the_machine_csv_columns_are_the_definitions_machine_figures() -> None:
    header = next(
        csv.reader(io.StringIO(shift_report_machine_csv({"tables": [], "pits": [], "casinos": []})))
    )

    row = ["level", "gaming_day", "shift", "casino", "pit", "table", "tables", "tables_incomplete"]
    kinds = [f"{kind}_{f.key}" for kind in kind_order() for f in KIND_FIGURES if f.machine]
    assert header == list(csv_columns()) == [*row, *(figure.key for figure in machine_columns()), *kinds]


def test_the_filing_csv_columns_and_units_are_the_definitions() -> None:
    lines = list(csv.reader(io.StringIO(shift_report_csv(_empty_document()))))

    title = lines.index(["[Shifts: complete tables, pit and casino roll-ups]"])
    header, units = lines[title + 1], lines[title + 2]
    row = ["level", "shift", "casino", "pit", "table", "tables", "tables_incomplete"]
    assert header == [*row, *(figure.column for figure in filing_columns())]
    expected_units = {Unit.CENTS: "USD", Unit.PERCENT: "%", Unit.COUNT: "count", Unit.YES_NO: "yes/no"}
    assert units == ["", "", "", "", "", "count", "count"] + [
        expected_units.get(figure.unit, "") for figure in filing_columns()
    ]
    incomplete = lines.index(["[Shifts: incomplete tables (not in the roll-ups)]"])
    assert lines[incomplete + 1] == [*header, "missing"]


def test_the_pdf_figure_columns_are_the_definitions_labels() -> None:
    text = pdf_page_texts(shift_report_pdf(_empty_document()))[0]

    labels = [f"{f.label} (basis)" if f.key == "drop_cents" else f.label for f in pdf_columns()]
    assert " ".join(["Shift", "Table / pit", *labels]) in text.splitlines()


def _subtractions_of_fills(path: Path) -> list[str]:
    """The functions of a module that subtract a fills figure from anything."""
    found = []
    tree = ast.parse(path.read_text())
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef):
            continue
        for node in ast.walk(function):
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub):
                right = ast.unparse(node.right)
                if "fills" in right:
                    found.append(f"{path.relative_to(django_settings.BASE_DIR)}:{function.name}")
    return found


def test_the_win_is_worked_out_by_one_function_which_the_floor_uses() -> None:
    base = Path(django_settings.BASE_DIR)
    sources = [*sorted((base / "reports").rglob("*.py")), *sorted((base / "floor").rglob("*.py"))]

    found = [place for path in sources for place in _subtractions_of_fills(path)]

    assert found == ["reports/figures.py:table_win_cents"]
    floor = ast.parse((base / "floor" / "live" / "figures.py").read_text())
    called = {ast.unparse(node.func) for node in ast.walk(floor) if isinstance(node, ast.Call)}
    assert "table_win_cents" in called
