"""The admin's skill-game pages: a game with its seats and log, read-only, and nothing the rules
keep hidden (the deck order and salt until the reveal, a seat token's hash ever)."""

import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client

from skill_games.models import Game, Seat
from tests.skill_games.conftest import Played, deck_with
from tests.support.factories import StaffFactory
from tests.support.gaming_day import Clock

pytestmark = pytest.mark.django_db


def admin_client() -> Client:
    client = Client()
    client.force_login(User.objects.get(pk=StaffFactory.create(username="site-admin", role="admin").user.pk))
    return client


def page_of(game: Played) -> str:
    response = admin_client().get(f"/admin/skill_games/game/{game.id}/change/")
    assert response.status_code == 200
    return response.content.decode()


def test_a_game_in_play_shows_its_log_but_not_its_deck(start: Callable[..., Played]) -> None:
    game = start("attack", deck_with("KH AS QD"))
    game.move({"move": "place", "column": 1})
    row = Game.objects.get(pk=game.id)

    html = page_of(game)

    assert row.commitments[0] in html
    assert "hidden until the reveal" in html
    assert row.salts[0] not in html
    assert " ".join(row.decks[0][:4]) not in html
    # The card after the current one, not yet face up (as a word: a random CSRF token may hold "QD").
    assert re.search(r"\bQD\b", html) is None
    assert Seat.objects.get(game_id=game.id).key_hash not in html
    assert "&quot;column&quot;: 1" in html  # the move, as logged


def test_a_finished_game_shows_its_revealed_deck(start: Callable[..., Played], clock: Clock) -> None:
    game = start("attack")
    clock.advance(seconds=301)
    game.read()  # the deadline acts
    row = Game.objects.get(pk=game.id)
    assert row.revealed_at is not None

    html = page_of(game)

    assert " ".join(row.decks[0]) in html
    assert row.salts[0] in html


def test_the_admin_changes_nothing(start: Callable[..., Played]) -> None:
    game = start("attack")
    client = admin_client()

    changed = client.post(f"/admin/skill_games/game/{game.id}/change/", {"kind": "squares"})
    added = client.get("/admin/skill_games/game/add/")

    assert changed.status_code == 403
    assert added.status_code == 403
    assert Game.objects.get(pk=game.id).kind == "attack"
