"""Who may do what with a skill game (API.md "Skill games"): seat tokens hashed at rest and acting
on their own game only (`403 other_game`), staff reading every game, practice games created by
a pit boss or an admin, settings refused with `invalid_game_settings`, idempotent retries."""

import hashlib
from collections.abc import Callable

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from rest_framework.test import APIClient

from audit.models import AuditEvent
from casino.services.provisioning import ProvisionedStaff
from kernel.keys import split_prefix
from skill_games.models import Game, Seat
from tests.skill_games.conftest import GAMES, Played, deck_with
from tests.support.api import client_with_token, ok, post, problem
from tests.support.gaming_day import Clock

pytestmark = pytest.mark.django_db
StaffMaker = Callable[[str], tuple[ProvisionedStaff, APIClient]]


def test_a_seat_token_is_stored_only_as_its_hash(start: Callable[..., Played]) -> None:
    game = start("attack")
    seat = Seat.objects.get(game_id=game.id)
    assert seat.key_hash == hashlib.sha256(game.token.encode()).hexdigest()
    assert seat.key_prefix == split_prefix(game.token)
    stored = [str(value) for value in Seat.objects.filter(pk=seat.pk).values().get().values()]
    stored += [str(event.after) for event in AuditEvent.objects.all()]
    assert not any(game.token in value for value in stored)
    forged = client_with_token(game.token[:-1] + ("y" if game.token.endswith("x") else "x"))
    problem(forged.get(game.url), 401, "authentication_failed")


def test_a_seat_token_acts_on_its_own_game_only(start: Callable[..., Played]) -> None:
    mine, other = start("attack"), start("squares")

    problem(mine.seat.get(other.url), 403, "other_game")
    problem(mine.seat.get(f"{other.url}moves/"), 403, "other_game")
    problem(post(mine.seat, f"{other.url}moves/", {"move": "place", "position": 1}), 403, "other_game")
    problem(post(mine.seat, GAMES, {"game": "attack"}), 403, "other_game")
    problem(mine.seat.get(f"{GAMES}999999/"), 403, "other_game")
    assert Game.objects.get(pk=other.id).seq == 0


def test_practice_games_are_created_by_a_pit_boss_or_an_admin(
    make_staff: StaffMaker, start: Callable[..., Played], table: object
) -> None:
    _, admin = make_staff("admin")
    ok(post(admin, GAMES, {"game": "squares", "limit_s": 7200}), 201)
    for role in ("floor_supervisor", "compliance", "cage_cashier"):
        problem(post(make_staff(role)[1], GAMES, {"game": "attack"}), 403, "role_not_allowed")
    terminal = table.terminal  # type: ignore[attr-defined]
    problem(post(terminal, GAMES, {"game": "attack"}), 403, "role_not_allowed")
    problem(terminal.get(start("attack").url), 403, "role_not_allowed")


def test_staff_read_every_game_and_its_log_but_do_not_move(
    make_staff: StaffMaker, start: Callable[..., Played]
) -> None:
    game = start("attack", deck_with("KH"))
    ok(game.move({"move": "place", "column": 1}))
    _, compliance = make_staff("compliance")

    as_staff, as_seat = game.read(compliance), game.read()
    assert {k: v for k, v in as_staff.items() if k != "server_time"} == {
        k: v for k, v in as_seat.items() if k != "server_time"
    }
    assert game.log(compliance) == game.log()
    problem(post(compliance, f"{game.url}moves/", {"move": "undo"}), 403, "seat_only")
    problem(compliance.get(f"{GAMES}999999/"), 404, "not_found")
    problem(compliance.get(f"{GAMES}999999/moves/"), 404, "not_found")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game": "squares", "limit_s": 59}, "limit_s"),
        ({"game": "squares", "limit_s": 7201}, "limit_s"),
        ({"game": "attack", "limit_s": 600}, "limit_s"),
        ({"game": "squares", "players": 3}, "players"),
        ({"game": "attack", "turn_limit_s": 60}, "turn_limit_s"),
    ],
)
def test_settings_a_game_does_not_take_are_invalid_game_settings(
    pit_boss: APIClient, body: dict[str, object], field: str
) -> None:
    refused = problem(post(pit_boss, GAMES, body), 422, "invalid_game_settings")
    assert refused["errors"][0]["field"] == field
    assert not Game.objects.exists()


def test_a_game_that_is_not_registered_is_a_validation_error(pit_boss: APIClient) -> None:
    problem(post(pit_boss, GAMES, {"game": "poker", "players": 3}), 400, "validation_error")
    problem(post(pit_boss, GAMES, {}), 400, "validation_error")


def test_a_retried_move_is_answered_again_and_played_once(start: Callable[..., Played], clock: Clock) -> None:
    game = start("squares")
    first = game.move({"move": "place", "position": 5}, key="move-1")
    clock.advance(seconds=3)
    again = game.move({"move": "place", "position": 5}, key="move-1")

    assert again.status_code == first.status_code == 200
    assert again.content == first.content
    assert again["Idempotent-Replayed"] == "true"
    assert Game.objects.get(pk=game.id).seq == 1
    problem(game.move({"move": "place", "position": 6}, key="move-1"), 422, "idempotency_key_reused")
    problem(
        game.seat.post(f"{game.url}moves/", {"move": "cash_in"}, format="json"),
        400,
        "idempotency_key_required",
    )


def test_a_retried_creation_creates_one_game(pit_boss: APIClient) -> None:
    first = post(pit_boss, GAMES, {"game": "attack"}, key="create-1")
    again = post(pit_boss, GAMES, {"game": "attack"}, key="create-1")
    assert again.content == first.content
    assert Game.objects.count() == 1


def test_rescore_game_recomputes_the_score_from_the_log(
    start: Callable[..., Played], clock: Clock, capsys: pytest.CaptureFixture[str]
) -> None:
    game = start("squares", deck_with("6S 7H 8D 7C 8S 6H 8C 6D 7S"), limit_s=60)
    for position in range(1, 10):
        ok(game.move({"move": "place", "position": position}))
    ok(game.move({"move": "cash_in"}))
    clock.advance(seconds=61)
    assert game.read()["score"] == {"squares": [126, -126, -126, -126, -126], "total": -378}

    call_command("rescore_game", str(game.id))

    out = capsys.readouterr().out
    assert '"total": -378' in out
    assert "commitment holds: yes" in out
    assert "matches: yes" in out
    with connection.cursor() as cursor:  # a superuser, past the row's guard: what re-scoring catches
        cursor.execute("SET LOCAL session_replication_role = replica")
        Game.objects.filter(pk=game.id).update(score={"squares": [], "total": 0})
        cursor.execute("SET LOCAL session_replication_role = origin")
    with pytest.raises(CommandError, match="does not match"):
        call_command("rescore_game", str(game.id))
    with pytest.raises(CommandError, match="No game"):
        call_command("rescore_game", "999999")


@pytest.mark.parametrize("game_id", ["abc", "0", "-3", str(2**63), "1e3", "\x00"])
def test_rescore_game_refuses_a_malformed_id_in_one_plain_line(game_id: str) -> None:
    with pytest.raises(CommandError) as refused:
        call_command("rescore_game", game_id)

    message = str(refused.value)
    assert message.startswith("Error: argument game_id: ")
    assert len(message.splitlines()) == 1
