"""`/healthz`: is the database reachable, and is the Celery broker?"""

from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from config.celery import app as celery_app


def _database_ok() -> tuple[bool, str]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:
        return False, type(exc).__name__
    return True, "ok"


def _broker_ok() -> tuple[bool, str]:
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as exc:
        return False, type(exc).__name__
    return True, "ok"


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    checks = {"database": _database_ok(), "broker": _broker_ok()}
    healthy = all(ok for ok, _ in checks.values())
    body = {"status": "ok" if healthy else "unavailable", "checks": {k: v for k, (_, v) in checks.items()}}
    return JsonResponse(body, status=200 if healthy else 503)
