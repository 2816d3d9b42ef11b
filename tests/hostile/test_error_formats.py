"""An API error is problem+json (with its `code`) whatever format the request asked for: `?format=`
naming a format the endpoint has (YAML on the schema) or not (CSV where there is none, a NUL in
it), a format the docs pages render as HTML, or an `Accept` header for a PDF. DRF used to render
the error with the renderer it had negotiated: the schema's 404 came back as YAML, the docs' as an
HTML page, the ReDoc page's 406 as plain text."""

import json
import re
from collections.abc import Callable

import pytest
from rest_framework.test import APIClient

from casino.services.provisioning import ProvisionedStaff

pytestmark = pytest.mark.django_db

PROBLEM = "application/problem+json"
SNAKE_CASE = re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)*")

CASES = [
    ("/api/v1/schema/?format=yaml%00", None, 404, "not_found"),
    ("/api/v1/schema/?format=csv", None, 404, "not_found"),
    ("/api/v1/schema/?format=yaml&lang=%00", None, None, None),
    ("/api/v1/schema/", "application/pdf", 406, "not_acceptable"),
    ("/api/v1/docs/?format=csv", None, 404, "not_found"),
    ("/api/v1/docs/", "application/pdf", 406, "not_acceptable"),
    ("/api/v1/redoc/", "application/pdf", 406, "not_acceptable"),
    ("/api/v1/redoc/?format=yaml", None, 404, "not_found"),
    ("/api/v1/reports/shifts/?gaming_day=2026-11-20&format=xml", None, 404, "not_found"),
    ("/api/v1/reports/shifts/?gaming_day=0001-01-01&format=pdf", None, 400, "gaming_day_out_of_range"),
    ("/api/v1/reports/shifts/?gaming_day=someday&format=pdf", None, 400, "validation_error"),
    (
        "/api/v1/reports/shifts/?gaming_day=0001-01-01&format=csv-machine",
        None,
        400,
        "gaming_day_out_of_range",
    ),
    ("/api/v1/reports/shifts/?gaming_day=2026-11-20&shift=noon", "application/pdf", 400, "validation_error"),
    ("/api/v1/ratings/?gaming_day=2026-11-20&format=csv", None, 404, "not_found"),
    ("/api/v1/ratings/?gaming_day=2026-11-20&format=yaml", None, 404, "not_found"),
    ("/api/v1/ratings/?gaming_day=2026-11-20", "application/pdf", 406, "not_acceptable"),
    ("/api/v1/rounds/999999/", "application/pdf", 406, "not_acceptable"),
    ("/api/v1/rounds/999999/?format=api", None, 404, "not_found"),
    ("/api/v1/rounds/999999/", "text/html", 406, "not_acceptable"),
    ("/api/v1/audit/events/?format=csv", None, 404, "not_found"),
    ("/api/v1/audit/events/", "text/csv", 406, "not_acceptable"),
    ("/api/v1/no-such-thing/?format=pdf", "application/pdf", 404, "not_found"),
]


@pytest.fixture
def staff(make_staff: Callable[[str], tuple[ProvisionedStaff, APIClient]]) -> APIClient:
    return make_staff("admin")[1]


@pytest.mark.parametrize(("path", "accept", "status", "code"), CASES)
def test_an_error_is_problem_json_whatever_format_was_asked(
    staff: APIClient, path: str, accept: str | None, status: int | None, code: str | None
) -> None:
    answer = staff.get(path, HTTP_ACCEPT=accept) if accept else staff.get(path)

    if status is None:  # a format the endpoint has: not an error
        assert answer.status_code == 200
        return
    assert (answer.status_code, answer["Content-Type"]) == (status, PROBLEM), answer.content[:300]
    body = json.loads(answer.content)
    assert body["status"] == status
    assert body["code"] == code
    assert SNAKE_CASE.fullmatch(body["code"])
    assert isinstance(body["detail"], str)
    assert body["detail"]
