"""Prewritten statements for the few queries every terminal call runs.

Compiling an ORM query with joins costs more CPU than PostgreSQL spends running
it, and a terminal call runs two of them (who is calling; lock the round). For
those, the SQL is written once from the models' metadata (`Columns`) and each
row is turned back into instances the way the ORM would (`Columns.build`), so
the rest of the code sees ordinary model instances. `Insert` and `Update` write
the same way.
"""

import functools
from collections.abc import Sequence
from typing import Any, Generic, TypeVar

from django.db import connection, models
from django.db.models import Field, Model

M = TypeVar("M", bound=Model)


# Fields whose Python values psycopg sends as they are: preparing them for the database is a
# no-op that costs a few calls per value (integers, text, booleans, keys, aware datetimes).
_SENT_AS_IS = (
    models.IntegerField,
    models.CharField,
    models.TextField,
    models.BooleanField,
    models.ForeignKey,
    models.DateTimeField,
)


def _preparers(fields: Sequence[Any]) -> list[Any]:
    """Per field, what turns a value into its database form (None: the value as it is)."""
    return [
        None if isinstance(field, _SENT_AS_IS) else functools.partial(_prepare, field) for field in fields
    ]


def _prepare(field: Any, value: Any) -> Any:
    return field.get_db_prep_save(value, connection)


def _prepared(preparers: Sequence[Any], values: Sequence[Any]) -> list[Any]:
    return [
        value if prepare is None else prepare(value) for prepare, value in zip(preparers, values, strict=True)
    ]


class Columns(Generic[M]):
    """Every concrete column of a model under a table alias, in a fixed order."""

    def __init__(self, model: type[M], alias: str) -> None:
        self.model = model
        self.alias = alias
        self.fields: list[Field[Any, Any]] = list(model._meta.concrete_fields)
        self.attnames = [field.attname for field in self.fields]
        self._converters = [
            (position, field) for position, field in enumerate(self.fields) if hasattr(field, "from_db_value")
        ]

    @property
    def table(self) -> str:
        return f'"{self.model._meta.db_table}" AS "{self.alias}"'

    @property
    def sql(self) -> str:
        return ", ".join(f'"{self.alias}"."{field.column}"' for field in self.fields)

    def __len__(self) -> int:
        return len(self.fields)

    def build(self, values: Sequence[Any]) -> M | None:
        """The instance a row's slice of values describes; None for a LEFT JOIN that found none."""
        if values[0] is None:
            return None
        values = list(values)
        for position, field in self._converters:
            values[position] = field.from_db_value(values[position], None, connection)
        return self.model.from_db(connection.alias, self.attnames, values)


def split_row(row: Sequence[Any], *parts: Columns[Any]) -> list[Any]:
    """One instance (or None) per `Columns`, from a row that selected them in that order."""
    built, start = [], 0
    for part in parts:
        built.append(part.build(row[start : start + len(part)]))
        start += len(part)
    return built


class Insert(Generic[M]):
    """An INSERT of some fields of a model, any number of rows in one statement.

    The rows travel as one array per column (`INSERT ... SELECT * FROM unnest(...)`), so the
    statement's text and its number of values are the same however many rows it inserts: psycopg
    converts it once, and PostgreSQL prepares and plans it once per connection.
    """

    def __init__(
        self, model: type[M], fields: Sequence[str] | None = None, *, returning_pk: bool = False
    ) -> None:
        """`fields` by name; every concrete field but the primary key when None."""
        if fields is None:
            fields = [field.name for field in model._meta.concrete_fields if not field.primary_key]
        self.fields = [model._meta.get_field(name) for name in fields]
        returning = f' RETURNING "{model._meta.pk.column}"' if returning_pk else ""
        self._returning = bool(returning_pk)
        columns = ", ".join(f'"{field.column}"' for field in self.fields)  # type: ignore[union-attr]
        arrays = ", ".join(f"%s::{field.db_type(connection)}[]" for field in self.fields)  # type: ignore[union-attr]
        self._sql = (
            f'INSERT INTO "{model._meta.db_table}" ({columns}) SELECT * FROM unnest({arrays}){returning}'  # noqa: S608  (model metadata only)
        )
        self._preparers = _preparers(self.fields)

    def row_of(self, instance: M) -> list[Any]:
        """An unsaved instance's values of the inserted fields."""
        return [getattr(instance, field.attname) for field in self.fields]  # type: ignore[union-attr]

    def statement(self, rows: Sequence[Sequence[Any]]) -> tuple[str, list[Any]]:
        """The SQL and parameters that insert the rows (at least one)."""
        prepared = [_prepared(self._preparers, row) for row in rows]
        return self._sql, [list(column) for column in zip(*prepared, strict=True)]

    def run(self, rows: Sequence[Sequence[Any]]) -> list[Any]:
        """Insert the rows; their primary keys, in order, if the statement returns them."""
        if not rows:
            return []
        with connection.cursor() as cursor:
            cursor.execute(*self.statement(rows))
            return [pk for (pk,) in cursor.fetchall()] if self._returning else []


class Update(Generic[M]):
    """An UPDATE of some fields of one row of a model, by primary key."""

    def __init__(self, model: type[M], fields: Sequence[str]) -> None:
        self.fields = [model._meta.get_field(name) for name in fields]
        assignments = ", ".join(f'"{field.column}" = %s' for field in self.fields)  # type: ignore[union-attr]
        self._sql = f'UPDATE "{model._meta.db_table}" SET {assignments} WHERE "{model._meta.pk.column}" = %s'  # noqa: S608
        self._preparers = _preparers(self.fields)

    def statement(self, pk: Any, values: Sequence[Any]) -> tuple[str, list[Any]]:
        return self._sql, [*_prepared(self._preparers, values), pk]

    def run(self, pk: Any, values: Sequence[Any]) -> None:
        with connection.cursor() as cursor:
            cursor.execute(*self.statement(pk, values))


def run_together(statements: Sequence[tuple[str, Sequence[Any]]]) -> None:
    """Several INSERT and UPDATE statements sent as one (data-modifying WITH clauses), so they
    cost one round trip. They run on one snapshot: none may depend on what another writes, and
    no two may change the same row."""
    if not statements:
        return
    *first, (last_sql, _) = statements
    clauses = ", ".join(f'"write_{position}" AS ({sql})' for position, (sql, _) in enumerate(first))
    sql = f"WITH {clauses} {last_sql}" if first else last_sql
    with connection.cursor() as cursor:
        cursor.execute(sql, [param for _, params in statements for param in params])
