"""Schemathesis over every operation of /api/v1/schema/ but the paytables (their own test), each
called by whoever may call it, on a table that is open, with a shoe, a round in play and pending
slips: no 5xx, every answer as documented (status, content type, body, headers), and a request
the schema allows is accepted unless its caller or the state it meets refuses it."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
import schemathesis
from rest_framework.test import APIClient

from casino.services.provisioning import ProvisionedStaff
from config.wsgi import application
from tests.schema.fuzzing import (
    FUZZ_SETTINGS,
    Refusals,
    api_schema,
    checks_for,
    connection_kept,
    with_fresh_key,
)
from tests.support.api import TableActors, post

schema = api_schema(application).exclude(path_regex="^/api/v1/paytables/")

# Who calls each operation; the terminal (with its dealer signed in) calls the rest.
SUPERVISOR_CALLS = {
    "POST /api/v1/rounds/{round_id}/void/",
    "POST /api/v1/fills/{slip_id}/approve/",
    "POST /api/v1/fills/{slip_id}/void/",
    "POST /api/v1/credits/{slip_id}/approve/",
    "POST /api/v1/credits/{slip_id}/void/",
    "POST /api/v1/tables/{table_id}/open/",
    "POST /api/v1/tables/{table_id}/close/",
}
COMPLIANCE_CALLS = {"GET /api/v1/reports/shifts/", "GET /api/v1/audit/events/", "GET /api/v1/audit/verify/",
                    "GET /api/v1/patrons/{number}/ratings/", "GET /api/v1/ratings/",
                    "GET /api/v1/title31/"}  # fmt: skip
# What an identification must say beyond what JSON Schema states (patrons.identification): codes,
# formats and dates that make sense, an identifying document.
IDENTIFICATION_REFUSALS = frozenset(
    {
        "identification_incomplete",
        "name_required",
        "invalid_identification",
        "invalid_identification_type",
        "invalid_country",
        "invalid_state",
        "invalid_zip_code",
        "invalid_tin",
        "tin_type_required",
        "invalid_date_of_birth",
        "identification_expired",
        "invalid_expiry",
    }
)

# Where a request the schema allows may still be refused with a 400 or 422 (positive_data_acceptance
# is off there, and these codes are all that is allowed):
REFUSALS: dict[str, Refusals] = {
    # The table's own deck count (a shoe holds the table's decks).
    "POST /api/v1/shoes/": {422: frozenset({"invalid_deck_count"})},
    # The table's limits, and rules between seats and wagers that JSON Schema cannot state
    # (seats and kinds told apart by a property, a primary in every seat).
    "POST /api/v1/rounds/": {
        422: frozenset(
            {
                "duplicate_seat",
                "duplicate_wager_kind",
                "primary_required",
                "below_table_minimum",
                "above_table_maximum",
                "left_side_limit",
                "right_side_limit",
                "unknown_patron",
            }
        )
    },
    # A patron is named by a number on file.
    "POST /api/v1/buy-ins/": {422: frozenset({"unknown_patron"})},
    "POST /api/v1/patrons/": {422: IDENTIFICATION_REFUSALS},
    "POST /api/v1/patrons/{number}/identify/": {422: IDENTIFICATION_REFUSALS},
    "POST /api/v1/cage/redemptions/": {
        422: frozenset({"unknown_patron", "patron_or_description_required", "chips_do_not_add_up"})
    },
    # What the round waits for: a card only when one is needed, and one still in the shoe.
    "POST /api/v1/rounds/{round_id}/cards/": {422: frozenset({"no_card_expected", "card_not_in_shoe"})},
    # Whose turn it is and what is allowed now; insurance up to half the primary.
    "POST /api/v1/rounds/{round_id}/actions/": {
        422: frozenset({"action_not_allowed", "not_your_turn", "no_action_expected", "invalid_amount"})
    },
    # The chips must add up to the amount: a sum JSON Schema cannot state.
    "POST /api/v1/fills/": {422: frozenset({"chips_do_not_add_up"})},
    "POST /api/v1/credits/": {422: frozenset({"chips_do_not_add_up"})},
    "POST /api/v1/tables/{table_id}/open/": {422: frozenset({"chips_do_not_add_up"})},
    "POST /api/v1/tables/{table_id}/close/": {422: frozenset({"chips_do_not_add_up"})},
    # A credit takes no more than the tray holds.
    "POST /api/v1/credits/{slip_id}/approve/": {422: frozenset({"credit_exceeds_tray"})},
    # Only cursors the API issued are valid; `until` may not come before `since`.
    "GET /api/v1/audit/events/": {400: frozenset({"invalid_cursor", "invalid_filter"})},
    # A gaming day the casino keeps, from 2000-01-01 to a week ahead: JSON Schema bounds no date.
    "GET /api/v1/reports/shifts/": {400: frozenset({"gaming_day_out_of_range"})},
    "GET /api/v1/ratings/": {400: frozenset({"gaming_day_out_of_range"})},
    "GET /api/v1/title31/": {400: frozenset({"gaming_day_out_of_range"})},
}


@dataclass
class Floor:
    """An open table with a reported shoe, a round in play and a pending fill and credit."""

    actors: TableActors
    tokens: dict[str, str]
    ids: dict[str, int]

    def token_for(self, label: str) -> str:
        if label in SUPERVISOR_CALLS:
            return self.tokens["supervisor"]
        if label in COMPLIANCE_CALLS:
            return self.tokens["compliance"]
        return self.tokens["terminal"]

    def path_ids(self, label: str) -> dict[str, int]:
        slip = "credit" if "/credits/" in label else "fill"
        return {
            "round_id": self.ids["round"],
            "shoe_id": self.ids["shoe"],
            "table_id": self.ids["table"],
            "slip_id": self.ids[slip],
        }


def _created(response: Any) -> int:
    assert response.status_code in (200, 201), response.content
    return int(response.json()["id"])


@pytest.fixture
def floor(
    make_table: Callable[..., TableActors],
    make_staff: Callable[[str], tuple[ProvisionedStaff, APIClient]],
) -> Floor:
    actors = make_table("FUZZ-1")
    supervisor, supervisor_client = make_staff("floor_supervisor")
    compliance, _ = make_staff("compliance")
    table_id = actors.table.pk
    bank = {"total_cents": 1_000_000, "chips": {"100000": 5, "10000": 50}}
    assert post(supervisor_client, f"/api/v1/tables/{table_id}/open/", bank).status_code == 201
    shoe = _created(post(actors.terminal, "/api/v1/shoes/", {"mode": "reported"}))
    seats = [{"seat": 1, "wagers": [{"kind": "primary", "amount_cents": 1_000}]}]
    round_id = _created(post(actors.terminal, "/api/v1/rounds/", {"seats": seats}))
    slip = {"amount_cents": 10_000, "chips": {"10000": 1}}
    fill = _created(post(actors.terminal, "/api/v1/fills/", slip))
    credit = _created(post(actors.terminal, "/api/v1/credits/", slip))
    return Floor(
        actors=actors,
        tokens={
            "terminal": actors.provisioned.terminal_token,
            "supervisor": supervisor.token,
            "compliance": compliance.token,
        },
        ids={"table": table_id, "shoe": shoe, "round": round_id, "fill": fill, "credit": credit},
    )


@pytest.mark.django_db
@schema.parametrize()
@FUZZ_SETTINGS
def test_api_never_fails_and_matches_its_schema(case: schemathesis.Case, floor: Floor) -> None:
    label = case.operation.label
    if case.path_parameters and case.meta is not None and case.meta.generation.mode.is_positive:
        # Well-formed requests act on the floor's own rows; random ids would only find nothing.
        ids = floor.path_ids(label)
        case.path_parameters = {name: ids.get(name, value) for name, value in case.path_parameters.items()}
    with_fresh_key(case)
    with connection_kept():
        case.call_and_validate(
            headers={"Authorization": f"Token {floor.token_for(label)}"},
            checks=checks_for(label, REFUSALS),
        )
