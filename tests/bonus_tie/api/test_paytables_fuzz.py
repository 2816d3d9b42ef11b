"""Schemathesis on the paytable endpoints, each called by the staff who may call it, on a flagged
proposal with its report (v2) and one still computing (v3): no 5xx, every answer as documented
(status, content type, body, headers), and a request the schema allows is accepted unless its
caller or the state it meets refuses it."""

import json
from collections.abc import Callable
from typing import Any

import pytest
import schemathesis
from drf_spectacular.generators import SchemaGenerator

from config.wsgi import application
from tests.bonus_tie.conftest import DEFAULT, Staff, compute, propose
from tests.schema.fuzzing import FUZZ_SETTINGS, Refusals, checks_for, connection_kept, with_fresh_key

URLCONF = "tests.bonus_tie.api.urls"


def _paytable_schema() -> dict[str, Any]:
    raw = SchemaGenerator(urlconf=URLCONF).get_schema(request=None, public=True)
    raw["paths"] = {path: ops for path, ops in raw["paths"].items() if path.startswith("/api/v1/paytables/")}
    return dict(json.loads(json.dumps(raw, default=str)))


schema = schemathesis.openapi.from_dict(_paytable_schema())
schema.app = application

# Where a request the schema allows may still be refused with a 400 or 422 (positive_data_acceptance
# is off there, and these codes are all that is allowed): an override reason is needed exactly when
# the version's report flags a bet.
REFUSALS: dict[str, Refusals] = {
    "POST /api/v1/paytables/{version}/approve/": {
        422: frozenset({"paytable_flagged", "override_not_needed"})
    },
}


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
@FUZZ_SETTINGS
def test_paytable_api_never_fails_and_matches_its_schema(
    case: schemathesis.Case, tokens: dict[str, str]
) -> None:
    label = case.operation.label
    if case.path_parameters and case.meta is not None and case.meta.generation.mode.is_positive:
        # Well-formed requests act on the proposals: the flagged one is approved, the other rejected.
        case.path_parameters = {"version": 3 if label.endswith("/reject/") else 2}
    with_fresh_key(case)
    with connection_kept():
        case.call_and_validate(
            headers={"Authorization": f"Token {tokens.get(label, tokens['other'])}"},
            checks=checks_for(label, REFUSALS),
        )
