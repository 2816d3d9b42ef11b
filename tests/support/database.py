"""The database as only its owner could touch it: writes that bypass the triggers."""

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection, transaction
from django.db.backends.utils import CursorWrapper


@contextmanager
def as_superuser_bypassing_triggers() -> Iterator[CursorWrapper]:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        yield cursor
