"""A device's poll (API.md "Skill games", `GET /api/v1/games/{id}/`): the answer's weak ETag names
what it shows, and a poll that sends it back is `304 Not Modified` while nothing has changed, from
the game's row alone; a move, the clock's end or another caller gives a new answer and a new tag."""

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tests.skill_games.conftest import Played, deck_with
from tests.support.api import ok
from tests.support.gaming_day import Clock

pytestmark = pytest.mark.django_db


def conditional(client: APIClient, game: Played, tag: str) -> Any:
    return client.get(game.url, HTTP_IF_NONE_MATCH=tag)


def test_an_unchanged_game_is_not_modified_and_its_log_is_not_read(start: Callable[..., Played]) -> None:
    game = start("attack", deck_with("KH AS"))
    first = game.seat.get(game.url)
    tag = first["ETag"]
    assert tag.startswith('W/"')

    with CaptureQueriesContext(connection) as queries:
        again = conditional(game.seat, game, tag)

    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == tag
    assert not [q for q in queries.captured_queries if "skill_games_move" in q["sql"]]


def test_a_move_changes_the_answer_and_its_tag(start: Callable[..., Played]) -> None:
    game = start("attack", deck_with("KH AS"))
    tag = game.seat.get(game.url)["ETag"]
    ok(game.move({"move": "place", "column": 1}))

    after = conditional(game.seat, game, tag)

    assert after.status_code == 200
    assert after.json()["seq"] == 1
    assert after.json()["board"]["current"] == "AS"
    assert after["ETag"] != tag
    assert conditional(game.seat, game, after["ETag"]).status_code == 304


def test_a_moves_answer_is_the_games_answer_with_its_tag(start: Callable[..., Played]) -> None:
    game = start("attack", deck_with("KH AS"))
    key = "move-1"

    moved = game.move({"move": "place", "column": 1}, key=key)
    again = game.move({"move": "place", "column": 1}, key=key)  # a retry: the stored answer

    assert moved.status_code == 200
    assert moved["Content-Location"] == game.url
    assert conditional(game.seat, game, moved["ETag"]).status_code == 304
    assert again.json() == moved.json()
    assert again["Idempotent-Replayed"] == "true"
    assert "ETag" not in again  # the game may have moved on since


def test_the_clock_ending_the_game_changes_the_answer(start: Callable[..., Played], clock: Clock) -> None:
    game = start("attack")
    tag = game.seat.get(game.url)["ETag"]
    clock.advance(seconds=300)

    ended = conditional(game.seat, game, tag)

    assert ended.status_code == 200
    assert ended.json()["state"] == "finished"
    assert ended.json()["reveal"] is not None


def test_staff_and_the_seat_get_different_tags(start: Callable[..., Played], pit_boss: APIClient) -> None:
    game = start("attack")
    seat_tag = game.seat.get(game.url)["ETag"]

    staff = conditional(pit_boss, game, seat_tag)

    assert staff.status_code == 200
    assert staff["ETag"] != seat_tag
    assert conditional(pit_boss, game, staff["ETag"]).status_code == 304


@pytest.mark.parametrize("sent", ['"g1.0.playing.seat1"', "W/", "garbage,,", 'W/"x" , W/"y"', "\x7f" * 300])
def test_a_tag_that_names_nothing_gets_the_whole_game(start: Callable[..., Played], sent: str) -> None:
    game = start("attack")

    answer = conditional(game.seat, game, sent)

    assert answer.status_code == 200
    assert answer.json()["id"] == game.id
