"""What the Schemathesis tests share: the checks every answer must pass, and calling the WSGI
application inside a test's database transaction."""

import json
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    is_unexpected_http_status_case,
    positive_data_acceptance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

CheckFunction = Callable[..., bool | None]

# Every answer: no 5xx, a documented status and content type, a body and headers as documented.
ANSWER_CHECKS: list[CheckFunction] = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
]
# Answers that say nothing about the request's shape: credentials, roles, ids, state, rate.
NOT_ABOUT_THE_SHAPE = frozenset({401, 403, 404, 409, 429})

# Deterministic and bounded: each operation's examples are the same on every run.
FUZZ_SETTINGS = settings(
    max_examples=8, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck), database=None
)

Refusals = Mapping[int, frozenset[str]]
SCHEMA_PATH = "/api/v1/schema/"


def api_schema(application: WSGIHandler) -> Any:
    """The API's schema as `SCHEMA_PATH` serves it, generated in the process: the schema view
    answers signed-in staff only, and there is no database to sign in with while tests are
    collected. Schemathesis calls `application` with it."""
    generated = SchemaGenerator().get_schema(request=None, public=True)
    loaded = schemathesis.openapi.from_dict(json.loads(OpenApiJsonRenderer().render(generated)))
    loaded.app = application
    loaded.location = SCHEMA_PATH
    return loaded


IDEMPOTENCY_KEY = "Idempotency-Key"


@contextmanager
def connection_kept() -> Iterator[None]:
    """Calling the WSGI app directly would close the test's connection when each request
    starts and ends; Django's own test client disconnects these handlers the same way."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def with_fresh_key(case: schemathesis.Case) -> None:
    """API.md: a key is new for each request; a well-formed request keeps the key drawn for it and
    gets a unique suffix, so that it never meets an earlier example's request under its key."""
    key = case.headers.get(IDEMPOTENCY_KEY) if case.headers else None
    if key and case.meta is not None and case.meta.generation.mode.is_positive:
        case.headers[IDEMPOTENCY_KEY] = f"{key[: 255 - 33]}-{uuid.uuid4().hex}"


def checks_for(label: str, refusals: Mapping[str, Refusals]) -> list[CheckFunction]:
    """The answer checks, and Schemathesis' `positive_data_acceptance` wherever a well-formed
    request can only be refused for who sends it or for the state it meets; where a well-formed
    request can also be refused with a 400 or 422 (`refusals`: the state of a round or table, or a
    rule between fields that JSON Schema cannot state), `well_formed_requests_are_accepted`
    instead, which allows exactly those codes."""
    if label in refusals:
        return [*ANSWER_CHECKS, well_formed_requests_are_accepted(refusals[label])]
    return [*ANSWER_CHECKS, positive_data_acceptance]


def well_formed_requests_are_accepted(refusals: Refusals) -> CheckFunction:
    def well_formed_requests_are_accepted(ctx: Any, response: Any, case: schemathesis.Case) -> bool | None:
        if (
            case.meta is None
            or not case.meta.generation.mode.is_positive
            or is_unexpected_http_status_case(case)
        ):
            return None
        status = response.status_code
        if status < 400 or status in NOT_ABOUT_THE_SHAPE:
            return None
        code = json.loads(response.content or b"{}").get("code")
        allowed = refusals.get(status, frozenset())
        assert code in allowed, (
            f"{case.operation.label}: a request the schema allows was refused with {status} {code!r} "
            f"(well-formed requests may meet only {dict(refusals)}): {response.content[:500]!r}"
        )
        return None

    return well_formed_requests_are_accepted
