"""`Idempotency-Key` on every POST (API.md, Idempotency).

The key, the change and the stored response commit in one transaction, so a
request either happened once with its response saved, or did not happen at
all (Brandur Leach's one-request-one-transaction model). A transaction-scoped
advisory lock on (sender, key) makes a twin that arrives while the first is
still running answer 409 at once instead of queueing behind it. Taking that lock
and reading a stored answer is one statement (`idempotency_claim`, migration
kernel 0002).
"""

import functools
import hashlib
import json
from collections.abc import Callable
from typing import Any

from django.db import connection, transaction
from django.http import HttpResponse
from django.utils import timezone
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from kernel.models import IdempotencyRecord
from kernel.problems import ProblemError
from kernel.rows import Insert

HEADER = "Idempotency-Key"
MAX_KEY_LENGTH = 255

Handler = Callable[..., Response]
Wrapped = Callable[..., HttpResponse]


@functools.cache
def _insert_record() -> Insert[IdempotencyRecord]:
    fields = (
        "scope",
        "key",
        "method",
        "path",
        "request_hash",
        "response_status",
        "response_body",
        "created_at",
    )
    return Insert(IdempotencyRecord, fields)


def _fingerprint(request: Request) -> str:
    body = json.dumps(request.data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(f"{request.method} {request.path}\n{body}".encode()).hexdigest()


def _lock_id(scope: str, key: str) -> int:
    digest = hashlib.sha256(f"{scope}\x00{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def _key_from(request: Request) -> str:
    key = request.headers.get(HEADER)
    if key is None or key == "":
        raise ProblemError(
            status_code=400, code="idempotency_key_required", detail=f"Every POST needs an {HEADER} header."
        )
    if len(key) > MAX_KEY_LENGTH or not key.isprintable():
        raise ProblemError(
            status_code=400,
            code="invalid_idempotency_key",
            detail=f"{HEADER} must be printable and at most {MAX_KEY_LENGTH} characters.",
        )
    return key


def idempotent(handler: Handler) -> Wrapped:
    """Wrap a view's `post`: replay, refuse reuse, and run the change exactly once."""

    @functools.wraps(handler)
    def wrapper(view: Any, request: Request, *args: Any, **kwargs: Any) -> HttpResponse:
        key = _key_from(request)
        fingerprint = _fingerprint(request)
        scope = request.user.scope  # type: ignore[union-attr]  # authenticated by then: a Principal
        with transaction.atomic(durable=True):
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT * FROM idempotency_claim(%s, %s, %s)", [_lock_id(scope, key), scope, key]
                )
                acquired, stored_hash, stored_status, stored_body = cursor.fetchone()
            if not acquired:
                raise ProblemError(
                    status_code=409,
                    code="request_in_progress",
                    detail="A request with this Idempotency-Key is still being processed; retry shortly.",
                )
            if stored_hash is not None:
                if stored_hash != fingerprint:
                    raise ProblemError(
                        status_code=422,
                        code="idempotency_key_reused",
                        detail="This Idempotency-Key was already used with a different request.",
                    )
                return _answer(stored_body.encode(), status=stored_status, replayed=True)
            response = handler(view, request, *args, **kwargs)
            # Rendered once: stored and sent as the same bytes, which a replay sends again.
            rendered = JSONRenderer().render(response.data)
            _insert_record().run(
                [
                    (
                        scope,
                        key,
                        request.method or "POST",
                        request.path[:255],
                        fingerprint,
                        response.status_code,
                        rendered.decode(),
                        timezone.now(),
                    )
                ]
            )
            return _answer(rendered, status=response.status_code, replayed=False)

    return wrapper


def _answer(body: bytes, *, status: int, replayed: bool) -> HttpResponse:
    response = HttpResponse(body, status=status, content_type="application/json")
    if replayed:
        response["Idempotent-Replayed"] = "true"
    return response
