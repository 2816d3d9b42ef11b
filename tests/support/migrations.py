"""Moving a test database along the migration graph, for the tests of a data migration."""

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate(target: list[tuple[str, str]]) -> None:
    """Apply or unapply migrations until the database stands at `target`."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)


def latest() -> list[tuple[str, str]]:
    """The last migration of every app: where a test database stands, and where a test that moved
    it back must leave it. Moving one app back also unapplies the other apps' migrations that
    depend on it, so bringing back that app alone would leave their tables missing."""
    executor = MigrationExecutor(connection)
    return list(executor.loader.graph.leaf_nodes())
