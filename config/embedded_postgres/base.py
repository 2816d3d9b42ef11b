from typing import Any

from config.embedded_postgres.server import start_server
from kernel.postgresql import base


class DatabaseWrapper(base.DatabaseWrapper):
    """PostgreSQL (the kernel's backend), with the server started (or joined) on the first connection of the process."""

    def get_connection_params(self) -> dict[str, Any]:
        host, port = start_server()
        self.settings_dict["HOST"], self.settings_dict["PORT"] = host, port
        return super().get_connection_params()
