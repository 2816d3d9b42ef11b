"""Schemathesis on the paytable endpoints, as the staff who may call them: no 5xx, ever, and
every answer matches the schema (status code, content type, body)."""

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from config.wsgi import application
from tests.bonus_tie.conftest import DEFAULT, Staff, compute, propose

URLCONF = "tests.bonus_tie.api.urls"


def _paytable_schema() -> dict[str, Any]:
    raw = SchemaGenerator(urlconf=URLCONF).get_schema(request=None, public=True)
    raw["paths"] = {path: ops for path, ops in raw["paths"].items() if path.startswith("/api/v1/paytables/")}
    return dict(json.loads(json.dumps(raw, default=str)))


schema = schemathesis.openapi.from_dict(_paytable_schema())
schema.app = application


@contextmanager
def _connection_kept() -> Iterator[None]:
    """Calling the WSGI app directly would close the test's connection at each request."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def tokens(staff: Callable[[str], Staff]) -> dict[str, str]:
    """A proposal with a flagged report (v2) and one still computing (v3) to act on."""
    pit_boss, compliance = staff("pit_boss"), staff("compliance")
    compute(propose(pit_boss, DEFAULT).version)
    propose(pit_boss)
    return {"POST /api/v1/paytables/": pit_boss.token, "other": compliance.token}


@pytest.mark.django_db
@pytest.mark.urls(URLCONF)
@schema.parametrize()
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
def test_paytable_api_never_fails_and_matches_its_schema(
    case: schemathesis.Case, tokens: dict[str, str]
) -> None:
    token = tokens.get(f"{case.method.upper()} {case.path}", tokens["other"])
    with _connection_kept():
        case.call_and_validate(
            headers={"Authorization": f"Token {token}"},
            # Well-formed requests that break a rule (pays, flags, decided versions) are refused
            # with a documented 4xx by design.
            excluded_checks=[positive_data_acceptance],
        )
