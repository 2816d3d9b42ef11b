"""The embedded database's start in a fresh process on new data: threads that connect first all at
once get the one server (the library's start is not thread-safe on its own), a forked child joins
it with its own handle, and the server stops when the process exits."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import psutil
from django.conf import settings

from tests.support.processes import still_running, wait_for

SCRIPT = textwrap.dedent(
    """
    import json, os, sys, threading
    from config.embedded_postgres.server import start_server

    together = threading.Barrier(8)
    answers, failures = [], []

    def first_connection():
        together.wait()
        try:
            answers.append(start_server())
        except BaseException as exc:
            failures.append(repr(exc))

    threads = [threading.Thread(target=first_connection) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    pgdata = os.environ["EMBEDDED_PGDATA"]
    child = os.fork()
    if child == 0:
        start_server()
        handles = json.load(open(os.path.join(pgdata, ".handle_pids.json")))
        os._exit(0 if os.getpid() in handles else 1)
    _, status = os.waitpid(child, 0)
    handles = json.load(open(os.path.join(pgdata, ".handle_pids.json")))
    postmaster = int(open(os.path.join(pgdata, "postmaster.pid")).read().split()[0])
    print(json.dumps({
        "answers": sorted(set(map(tuple, answers))), "failures": failures,
        "child_joined": os.waitstatus_to_exitcode(status) == 0, "handles": handles,
        "pid": os.getpid(), "postmaster": postmaster,
    }))
    """
)


def test_concurrent_first_connections_share_one_start_and_the_server_stops_at_exit(tmp_path: Path) -> None:
    pgdata = tmp_path / "pgdata"
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    done = subprocess.run(  # noqa: S603 - our own interpreter
        [sys.executable, "-c", SCRIPT],
        cwd=settings.BASE_DIR,
        env={**env, "EMBEDDED_PGDATA": str(pgdata)},
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.splitlines()[-1])

    assert seen["failures"] == []
    assert len(seen["answers"]) == 1  # eight threads, one server: the same socket and port
    assert seen["child_joined"]
    assert seen["pid"] in seen["handles"]
    # The child ended with os._exit, as gunicorn's and Celery's do, leaving its handle listed:
    # the server stops all the same when the parent exits.
    assert not (pgdata / "postmaster.pid").exists()
    wait_for("the server to exit", lambda: gone(seen["postmaster"]), timeout=10)


def gone(pid: int) -> bool:
    try:
        return not still_running(psutil.Process(pid))
    except psutil.NoSuchProcess:
        return True
