"""A scratch database for the benches that run Django in their own process."""

from collections.abc import Iterator
from contextlib import contextmanager

from django.core.management import call_command
from django.db import connection, connections


def _admin(sql: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql)


@contextmanager
def scratch_database(name: str, *, keep: bool = False) -> Iterator[None]:
    """Django's default connection on a new database `name` on the same server, migrated; the
    database is dropped afterwards, whatever happens, unless `keep`."""
    home = connection.settings_dict["NAME"]
    _admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    _admin(f"CREATE DATABASE {name}")
    connection.close()
    connection.settings_dict["NAME"] = name
    try:
        call_command("migrate", verbosity=0)
        yield
    finally:
        connections.close_all()
        connection.settings_dict["NAME"] = home
        if not keep:
            _admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        connection.close()
