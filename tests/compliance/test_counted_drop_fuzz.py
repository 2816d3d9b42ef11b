"""Schemathesis over the soft-count operations, called by members of the count team once the day
shift has ended, with a count entered by another member waiting for its second, blind count: no
5xx, every answer as documented, and a well-formed request accepted unless it names a bill that
does not exist, a shift the casino does not count by, a period not yet ended, a table not open in
it, a correction without its reason (or a reason without a correction), or a gaming day before
2000."""

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
import schemathesis
from rest_framework.test import APIClient

from casino.services.provisioning import ProvisionedStaff
from config.wsgi import application
from tests.compliance.counted_drop_support import record_count
from tests.schema.fuzzing import (
    FUZZ_SETTINGS,
    Refusals,
    api_schema,
    checks_for,
    connection_kept,
    with_fresh_key,
)
from tests.support.api import TableActors
from tests.support.gaming_day import CASINO_ZONE, Clock, day_shift_clock

schema = api_schema(application).include(path_regex="^/api/v1/soft-counts/")

REFUSALS: dict[str, Refusals] = {
    # Bills are the denominations in circulation, the shift one of the casino's, the period begun,
    # the gaming day one the casino keeps (from 2000-01-01): rules JSON Schema does not state.
    "POST /api/v1/soft-counts/": {
        400: frozenset({"gaming_day_out_of_range"}),
        422: frozenset(
            {
                "unknown_denomination",
                "invalid_shift",
                "count_period_in_future",
                "count_period_running",
                "table_not_open_in_shift",
                "reason_without_correction",
                "correction_reason_required",
                "correction_of_another_table",
            }
        ),
    },
    # A tally names only bills in circulation, like the count it adds to.
    "POST /api/v1/soft-counts/{count_id}/tallies/": {422: frozenset({"unknown_denomination"})},
}


@pytest.fixture(autouse=True)
def clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Clock:
    """14:30, the day shift ended; the live server runs in this process and reads the same clock."""
    return day_shift_clock(monkeypatch, settings, at=dt.datetime(2026, 11, 20, 14, 30, tzinfo=CASINO_ZONE))


@pytest.fixture
def count_room(
    make_table: Callable[..., TableActors],
    make_staff: Callable[[str], tuple[ProvisionedStaff, APIClient]],
) -> tuple[str, int, int]:
    """The token of the member who calls, the table, and a count another member entered."""
    actors = make_table("FUZZ-1")
    _, entering = make_staff("count_team")
    calling, _ = make_staff("count_team")
    response = record_count(
        entering, actors.table, gaming_day="2026-11-20", currency={"10000": 3}, not_open_confirmed=True
    )
    assert response.status_code == 201, response.content
    return calling.token, actors.table.pk, int(response.json()["id"])


@pytest.mark.django_db
@schema.parametrize()
@FUZZ_SETTINGS
def test_soft_count_calls_never_fail_and_match_their_schema(
    case: schemathesis.Case, count_room: tuple[str, int, int]
) -> None:
    token, table_id, count_id = count_room
    label = case.operation.label
    if case.meta is not None and case.meta.generation.mode.is_positive:
        if case.path_parameters:
            case.path_parameters = {"count_id": count_id}
        if isinstance(case.body, dict) and "table" in case.body:
            case.body["table"] = table_id
    with_fresh_key(case)
    with connection_kept():
        case.call_and_validate(
            headers={"Authorization": f"Token {token}"}, checks=checks_for(label, REFUSALS)
        )
