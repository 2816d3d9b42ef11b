"""`Idempotency-Key` on every POST (API.md, Idempotency).

The key, the change and the stored response commit in one transaction, so a
request either happened once with its response saved, or did not happen at
all (Brandur Leach's one-request-one-transaction model). A transaction-scoped
advisory lock on (sender, key) makes a twin that arrives while the first is
still running answer 409 at once instead of queueing behind it. Taking that lock
and reading a stored answer is one statement (`idempotency_claim`, migration
kernel 0002).

The money forms of the staff console use the same store and the same lock through
`record_form_once`, with the key their page was rendered with (below).
"""

import dataclasses
import functools
import hashlib
import json
from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, OperationalError, connection, transaction
from django.http import HttpResponse
from django.utils import timezone
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from kernel.forms import SUBMISSION_KEY_FIELD
from kernel.models import IdempotencyRecord
from kernel.problems import ProblemError
from kernel.rows import Insert

HEADER = "Idempotency-Key"
MAX_KEY_LENGTH = 255
# Headers of the first answer that describe it as it was then (a skill game's ETag and the game it
# is a view of). A replay sends the stored body alone: by then the game may have moved on.
FIRST_ANSWER_HEADERS = ("ETag", "Content-Location")

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
            answer = _answer(rendered, status=response.status_code, replayed=False)
            for name in FIRST_ANSWER_HEADERS:
                if name in response:
                    answer[name] = response[name]
            return answer

    return wrapper


def _answer(body: bytes, *, status: int, replayed: bool) -> HttpResponse:
    response = HttpResponse(body, status=status, content_type="application/json")
    if replayed:
        response["Idempotent-Replayed"] = "true"
    return response


# --- console forms -------------------------------------------------------------------------------
# A money form of the console carries a one-time key from its render (`kernel.forms`). The key is
# claimed in the kernel's idempotency store under the signed-in user and the form's purpose, in the
# same durable transaction as the change, so a crash leaves neither a claimed key without its
# record nor a record without its key. Unlike a terminal's twin (409 at once), a twin of a form
# waits for the first to finish: a double click then lands on "already recorded", not on an error.

FORM_LOCK_WAIT_MS = 15_000
LOCK_NOT_AVAILABLE = "55P03"  # the SQLSTATE of a lock_timeout
_IGNORED_FORM_FIELDS = frozenset({"csrfmiddlewaretoken", SUBMISSION_KEY_FIELD})


@dataclasses.dataclass(frozen=True)
class FormOutcome:
    """What a recorded form said and where it pointed: stored, and shown again on a repeat."""

    message: str
    location: str


@dataclasses.dataclass(frozen=True)
class FormRecorded:
    outcome: FormOutcome
    replayed: bool  # the key was already recorded: nothing new was
    same_request: bool = True  # a replay of the same entries (False: the key came with others)


class FormStillRunningError(Exception):
    """The first submission of this key is still being recorded after the wait."""


def form_scope(*, user_id: int, purpose: str) -> str:
    return f"form:{user_id}:{purpose}"[:64]


def form_fingerprint(*, path: str, data: Any) -> str:
    """The entries of a POSTed form (not its CSRF token or key), as one stable hash."""
    items = sorted(
        (name, value)
        for name in data
        if name not in _IGNORED_FORM_FIELDS
        for value in (data.getlist(name) if hasattr(data, "getlist") else [data[name]])
    )
    body = json.dumps(items, separators=(",", ":"), default=str)
    return hashlib.sha256(f"POST {path}\n{body}".encode()).hexdigest()


def _stored_form_outcome(scope: str, key: str) -> tuple[str, FormOutcome] | None:
    stored = (
        IdempotencyRecord.objects.filter(scope=scope, key=key).only("request_hash", "response_body").first()
    )
    if stored is None:
        return None
    body = json.loads(stored.response_body)
    return stored.request_hash, FormOutcome(message=str(body["message"]), location=str(body["location"]))


def _wait_for_form_key(lock_id: int) -> None:
    """Take the key's transaction lock, waiting at most FORM_LOCK_WAIT_MS for a twin to finish."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('lock_timeout')")
        (previous,) = cursor.fetchone()
        cursor.execute("SELECT set_config('lock_timeout', %s, true)", [f"{FORM_LOCK_WAIT_MS}ms"])
        try:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [lock_id])
        except OperationalError as waited:
            if getattr(waited.__cause__, "sqlstate", None) != LOCK_NOT_AVAILABLE:
                raise
            raise FormStillRunningError from waited
        cursor.execute("SELECT set_config('lock_timeout', %s, true)", [previous])


def record_form_once(
    *,
    user_id: int,
    purpose: str,
    key: str,
    path: str,
    fingerprint: str,
    record: Callable[[], FormOutcome],
) -> FormRecorded:
    """Run `record` (one service call) once for this user's key of this form, or replay its outcome.

    The claim of the key, the change `record` makes and the stored outcome commit in one durable
    transaction. A twin with the same key waits for the first: if the first committed, the twin
    answers its outcome and records nothing; if it rolled back (a refusal raised by `record`,
    which propagates), the twin runs on its own.
    """
    scope = form_scope(user_id=user_id, purpose=purpose)
    try:
        with transaction.atomic(durable=True):
            _wait_for_form_key(_lock_id(scope, key))
            stored = _stored_form_outcome(scope, key)
            if stored is not None:
                return FormRecorded(outcome=stored[1], replayed=True, same_request=stored[0] == fingerprint)
            outcome = record()
            body = json.dumps({"message": outcome.message, "location": outcome.location})
            _insert_record().run([(scope, key, "POST", path[:255], fingerprint, 302, body, timezone.now())])
            return FormRecorded(outcome=outcome, replayed=False)
    except IntegrityError:
        # The unique key is the last line of defence: had a twin got past the lock, its change
        # rolled back with its claim; answer what the first recorded.
        stored = _stored_form_outcome(scope, key)
        if stored is None:
            raise
        return FormRecorded(outcome=stored[1], replayed=True, same_request=stored[0] == fingerprint)
