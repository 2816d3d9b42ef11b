"""Moving a test database along the migration graph, for the tests of a data migration."""

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate(target: list[tuple[str, str]]) -> None:
    """Apply or unapply migrations until the database stands at `target`."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)


def latest(app: str) -> list[tuple[str, str]]:
    """The last migrations of `app`."""
    executor = MigrationExecutor(connection)
    return [key for key in executor.loader.graph.leaf_nodes() if key[0] == app]
