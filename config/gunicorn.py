"""Gunicorn settings for the web server (`gunicorn -c config/gunicorn.py config.wsgi`).

A request spends about half its time waiting for PostgreSQL, so each worker
process runs a few threads (gthread): the processes use the cores, the threads
fill the database waits. Every thread keeps its own persistent database
connection (`DJANGO_CONN_MAX_AGE`), so workers x threads must stay below the
server's `max_connections`, with room for Celery and the operators. Terminals
keep their connection open between calls (keep-alive), which saves a TCP and
TLS handshake per call behind a load balancer.

Production: one worker per core plus one, 4 threads each, behind a reverse proxy
or load balancer that terminates TLS; scale out by adding hosts, which share
nothing but PostgreSQL.
"""

import multiprocessing
import os

bind = os.environ.get("BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() + 1))
threads = int(os.environ.get("WEB_THREADS", "4"))
# gthread, answering the requests gunicorn itself refuses as problem+json (config/gunicorn_worker.py).
worker_class = "config.gunicorn_worker.ProblemJsonThreadWorker"
# gunicorn's own limits, stated here because they are part of the API's edge: a longer request
# line is 414 `request_line_too_long`, more or larger header fields 431 `headers_too_large`.
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190
keepalive = int(os.environ.get("WEB_KEEPALIVE_SECONDS", "30"))
timeout = 30
graceful_timeout = 20
accesslog = os.environ.get("WEB_ACCESS_LOG", "-") or None
# No control socket: gunicorn's default path ($HOME/.gunicorn/gunicorn.ctl) is one per user, so
# two servers on one host (a run and a test, blue and green) would share it; nothing here uses it.
control_socket_disable = True


def post_worker_init(worker: object) -> None:
    """Join the embedded database (when used) before the worker's threads take their first
    requests, rather than in whichever of them connects first."""
    from config.embedded_postgres.server import start_server_if_configured

    start_server_if_configured()
