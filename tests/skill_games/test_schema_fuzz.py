"""Schemathesis over the skill games' operations: the creation called by a pit boss, a game's reads
and moves by its seat's device, on a game of Squares and a match of Make 21 (its first seat, to
move) in play: no 5xx, every answer as documented, and a request the schema allows is accepted
unless the game's rules refuse it."""

from collections.abc import Callable

import pytest
import schemathesis
from rest_framework.test import APIClient

from casino.services.provisioning import ProvisionedStaff
from config.wsgi import application
from tests.schema import fuzzing
from tests.support.api import ok, post

schema = fuzzing.api_schema(application).include(path_regex="^/api/v1/games/")

# Where a request the schema allows may still be refused with a 422 (these codes only): settings
# the game does not take, and the moves the game's rules refuse.
REFUSALS: dict[str, fuzzing.Refusals] = {
    "POST /api/v1/games/": {422: frozenset({"invalid_game_settings"})},
    "POST /api/v1/games/{game_id}/moves/": {
        422: frozenset({"move_not_allowed", "not_your_turn", "card_not_in_hand"})
    },
}


@pytest.fixture(params=[{"game": "squares"}, {"game": "make21", "players": 2}], ids=["squares", "make21"])
def game_in_play(
    make_staff: Callable[[str], tuple[ProvisionedStaff, APIClient]], request: pytest.FixtureRequest
) -> dict[str, object]:
    boss, client = make_staff("pit_boss")
    created = ok(post(client, "/api/v1/games/", request.param), 201)
    return {"id": created["id"], "seat": created["seats"][0]["token"], "boss": boss.token}


@pytest.mark.django_db
@schema.parametrize()
@fuzzing.FUZZ_SETTINGS
def test_skill_games_api_never_fails_and_matches_its_schema(
    case: schemathesis.Case, game_in_play: dict[str, object]
) -> None:
    label = case.operation.label
    if case.path_parameters and case.meta is not None and case.meta.generation.mode.is_positive:
        case.path_parameters = {"game_id": game_in_play["id"]}
    fuzzing.with_fresh_key(case)
    token = game_in_play["boss"] if label == "POST /api/v1/games/" else game_in_play["seat"]
    with fuzzing.connection_kept():
        case.call_and_validate(
            headers={"Authorization": f"Token {token}"}, checks=fuzzing.checks_for(label, REFUSALS)
        )
