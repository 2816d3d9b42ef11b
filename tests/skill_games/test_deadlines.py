"""The clock acts by itself (RULES.md §3, API.md): after `ends_at` the game reads finished without
any request, a move then is `409 time_up`, and the deadline is applied exactly once, however the
beat task and the requests race for it."""

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone

from audit.context import AuditActor
from audit.models import AuditEvent
from config.celery import app, setup_periodic_tasks
from skill_games import services
from skill_games.models import Game, GameState
from skill_games.tasks import finish_due_games
from tests.skill_games.conftest import Played, deck_with
from tests.support.api import client_with_token, ok, post, problem
from tests.support.factories import StaffFactory
from tests.support.gaming_day import Clock
from tests.support.races import race

SYSTEM = AuditActor(kind="system", username="test")


def ended_events(game_id: int) -> list[str]:
    return list(
        AuditEvent.objects.filter(subject_type="skill_game", subject_id=str(game_id))
        .exclude(event_type="skill_games.game.created")
        .order_by("id")
        .values_list("event_type", flat=True)
    )


@pytest.mark.django_db
def test_a_move_at_the_deadline_is_time_up_and_the_game_ends_with_its_points(
    start: Callable[..., Played], clock: Clock
) -> None:
    game = start("attack", deck_with("KH AS"))
    clock.advance(seconds=10)
    ok(game.move({"move": "place", "column": 1}))
    ok(game.move({"move": "place", "column": 1}))  # Catch 21: 50
    clock.advance(seconds=290)  # exactly 300.0 s

    refused = problem(game.move({"move": "place", "column": 1, "expected_seq": 0}), 409, "time_up")

    assert refused["status"] == 409
    read = game.read()
    assert read["state"] == "finished"
    assert read["needs"] is None
    assert read["score"]["total"] == 50
    assert (read["score"]["no_bust_bonus"], read["score"]["time_bonus"]) == (0, 0)
    assert read["reveal"]["commitment"] == game.created["commitment"]
    row = Game.objects.get(pk=game.id)
    assert row.finished_at == dt.datetime(2026, 11, 20, 18, 5, tzinfo=dt.UTC)  # the deadline's time
    assert row.end_reason == "time_up"
    assert ended_events(game.id) == ["skill_games.game.ended", "skill_games.game.revealed"]
    problem(game.move({"move": "undo"}), 409, "time_up")  # and again, nothing more happens
    assert ended_events(game.id) == ["skill_games.game.ended", "skill_games.game.revealed"]


@pytest.mark.django_db
def test_a_move_a_millisecond_before_the_deadline_counts(start: Callable[..., Played], clock: Clock) -> None:
    game = start("attack", deck_with("KH AS"))
    clock.advance(seconds=299, milliseconds=999)
    answer = ok(game.move({"move": "place", "column": 2}))
    assert answer["state"] == "playing"
    assert game.log()[0]["elapsed_s"] == 299.999


@pytest.mark.django_db
def test_the_beat_task_finishes_a_due_game_without_any_request(
    start: Callable[..., Played], clock: Clock
) -> None:
    game = start("squares", limit_s=60)
    ok(game.move({"move": "place", "position": 5}))
    clock.advance(seconds=59)
    assert finish_due_games() == {"games": []}
    clock.advance(seconds=1)

    assert finish_due_games() == {"games": [game.id]}

    row = Game.objects.get(pk=game.id)
    assert row.state == GameState.FINISHED
    assert row.score == {"squares": [-126] * 5, "total": -630}
    assert finish_due_games() == {"games": []}
    assert ended_events(game.id) == ["skill_games.game.ended", "skill_games.game.revealed"]
    assert game.read()["score"]["total"] == -630


@pytest.mark.django_db
def test_the_beat_schedule_runs_the_deadline_task_every_few_seconds() -> None:
    setup_periodic_tasks(app)
    entry = app.conf.beat_schedule["skill-games-finish-due-games"]
    assert entry["task"] == finish_due_games.name == "skill_games.tasks.finish_due_games"
    assert entry["schedule"] <= 5


@pytest.mark.django_db(transaction=True)
def test_the_deadline_acts_once_when_the_beat_task_and_requests_race(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    started = timezone.now() - dt.timedelta(seconds=301)
    boss = StaffFactory.create(username="boss-race", role="pit_boss")
    snapshot = services.create_game(
        kind="attack", body={}, user_id=boss.user.pk, actor=SYSTEM, now=started, deck=deck_with("KH")
    )
    game_id, token = snapshot.game.pk, (snapshot.tokens or {})[1]
    seat, staff = client_with_token(token), client_with_token(boss.token)

    def call(i: int) -> Any:
        if i % 4 == 0:
            return finish_due_games()
        if i % 4 == 1:
            return staff.get(f"/api/v1/games/{game_id}/").status_code
        return post(seat, f"/api/v1/games/{game_id}/moves/", {"move": "place", "column": 1}).status_code

    results = race(call)

    assert sorted(r for r in results if isinstance(r, int)) == [200, 200] + [409] * 4
    acted = [game for r in results if isinstance(r, dict) for game in r["games"]]
    assert acted in ([], [game_id])  # the task acted, or a request held the row and acted first
    row = Game.objects.get(pk=game_id)
    assert row.state == GameState.FINISHED
    assert row.seq == 0
    assert ended_events(game_id) == ["skill_games.game.ended", "skill_games.game.revealed"]
    assert ok(staff.get(f"/api/v1/games/{game_id}/"))["state"] == "finished"


@pytest.mark.django_db(transaction=True)
def test_two_moves_racing_on_one_seq_are_one_move_and_one_stale_game() -> None:
    boss = StaffFactory.create(username="boss-race-2", role="pit_boss")
    snapshot = services.create_game(
        kind="squares", body={}, user_id=boss.user.pk, actor=SYSTEM, now=timezone.now()
    )
    seat = client_with_token((snapshot.tokens or {})[1])
    url = f"/api/v1/games/{snapshot.game.pk}/moves/"

    results = race(
        lambda i: post(seat, url, {"move": "place", "position": i + 1, "expected_seq": 0}), threads=4
    )

    assert sorted(r.status_code for r in results) == [200, 409, 409, 409]
    assert {r.json()["code"] for r in results if r.status_code == 409} == {"stale_game"}
    assert Game.objects.get(pk=snapshot.game.pk).seq == 1
