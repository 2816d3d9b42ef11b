"""Schemathesis over the special-card game's operations, called by the terminal of a specials
table with a reported shoe, a match and a round in play: no 5xx, every answer as documented, and
a request the schema allows is accepted unless the state of the match or round refuses it."""

from collections.abc import Callable

import pytest
import schemathesis

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

schema = api_schema(application).include(path_regex="^/api/v1/specials/")

# Where a request the schema allows may still be refused with a 422 (these codes only): rules
# between fields that JSON Schema cannot state, and what the round waits for.
REFUSALS: dict[str, Refusals] = {
    "POST /api/v1/specials/matches/": {422: frozenset({"invalid_points", "duplicate_seat"})},
    "POST /api/v1/specials/rounds/{round_id}/cards/": {
        422: frozenset({"no_card_expected", "card_not_in_shoe", "ace_value_required"})
    },
    "POST /api/v1/specials/rounds/{round_id}/actions/": {
        422: frozenset(
            {
                "action_not_allowed",
                "not_your_turn",
                "no_action_expected",
                "ace_value_required",
                "invalid_ace_value",
                "special_already_used",
                "card_not_in_hand",
                "validation_error",
            }
        )
    },
}


@pytest.fixture
def round_in_play(make_specials_table: Callable[..., TableActors]) -> tuple[TableActors, dict[str, int]]:
    actors = make_specials_table("SP-FUZZ")
    match = post(actors.terminal, "/api/v1/specials/matches/", {"players": [{"seat": 1}, {"seat": 2}]}).json()
    round_ = post(actors.terminal, f"/api/v1/specials/matches/{match['id']}/rounds/").json()
    for card in ("TS", "9H", "7C"):
        round_ = post(
            actors.terminal, f"/api/v1/specials/rounds/{round_['id']}/cards/", {"card": card}
        ).json()
    return actors, {"match_id": match["id"], "round_id": round_["id"]}


@pytest.mark.django_db
@schema.parametrize()
@FUZZ_SETTINGS
def test_specials_api_never_fails_and_matches_its_schema(
    case: schemathesis.Case, round_in_play: tuple[TableActors, dict[str, int]]
) -> None:
    actors, ids = round_in_play
    if case.path_parameters and case.meta is not None and case.meta.generation.mode.is_positive:
        case.path_parameters = {name: ids.get(name, value) for name, value in case.path_parameters.items()}
    with_fresh_key(case)
    with connection_kept():
        case.call_and_validate(
            headers={"Authorization": f"Token {actors.provisioned.terminal_token}"},
            checks=checks_for(case.operation.label, REFUSALS),
        )
