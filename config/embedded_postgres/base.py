from typing import Any

from django.db.backends.postgresql import base

from config.embedded_postgres.server import start_server


class DatabaseWrapper(base.DatabaseWrapper):
    """PostgreSQL, with the server started (or joined) on the first connection of the process."""

    def get_connection_params(self) -> dict[str, Any]:
        host, port = start_server()
        self.settings_dict["HOST"], self.settings_dict["PORT"] = host, port
        return super().get_connection_params()
