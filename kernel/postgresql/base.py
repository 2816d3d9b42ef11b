"""Django's PostgreSQL backend, with server-side binding and prepared statements for the
dealer terminal's calls (`prepared_statements()`).

Every terminal call sends the same few statements. Bound on the server and prepared after their
first use on a connection, PostgreSQL parses and plans each of them once per connection instead
of once per call, and psycopg sends the values as they are instead of quoting them into the SQL
text. The rest of the service keeps Django's default, client-side binding: django-pghistory's
context puts a `SELECT set_config(...)` in front of each statement of a staff request, two
statements in one call, which only client-side binding can send.

If the connection is replaced during a call (a failed health check), the call simply runs with
the default binding. Behind a connection pooler, use session pooling (or one that keeps prepared
statements per client, as PgBouncer 1.21 and later do).
"""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connection
from django.db.backends.postgresql import base, operations
from django.db.backends.postgresql.base import (  # type: ignore[attr-defined]  # psycopg 3 only, unstubbed
    Cursor,
    ServerBindingCursor,
)
from psycopg import errors

# Prepare a statement the second time a connection sends it: one-off statements stay unprepared.
PREPARE_THRESHOLD = 1


class DatabaseOperations(operations.DatabaseOperations):
    def last_executed_query(self, cursor: Any, sql: str, params: Any) -> str:
        # Django reads the SQL text psycopg sent, which a server-bound (and prepared) statement
        # does not have: compose it from the statement and its values instead (tests, DEBUG).
        if isinstance(cursor, ServerBindingCursor):
            try:
                return str(self.compose_sql(sql, params))
            except errors.DataError:
                return sql
        return super().last_executed_query(cursor, sql, params)


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations


@contextmanager
def prepared_statements() -> Iterator[None]:
    """Run the block's statements bound on the server, prepared from their second use."""
    connection.ensure_connection()
    raw = connection.connection
    raw.cursor_factory = ServerBindingCursor
    raw.prepare_threshold = PREPARE_THRESHOLD
    try:
        yield
    finally:
        raw.cursor_factory = Cursor
        raw.prepare_threshold = None
