"""A Make 21 match on the console: the day's list with each seat's cards collected, the story with
the public board only (hands once their game's deck is revealed), and the deal and re-score pages
checking each game's deck as it is revealed, while the next ones stay secret."""

from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from casino.engine.cards import ALL_CARDS
from make21.engine.game import Make21State
from skill_games import selectors, services
from skill_games.models import Game
from tests.floor.games.conftest import SYSTEM, page
from tests.support.gaming_day import Clock

pytestmark = pytest.mark.django_db

SECOND_DECK = tuple(reversed(ALL_CARDS))


def new_match() -> int:
    snapshot = services.create_game(
        kind="make21",
        body={"players": 2, "games": 2},
        user_id=None,
        actor=SYSTEM,
        now=timezone.now(),
        decks=(ALL_CARDS, SECOND_DECK),
    )
    return snapshot.game.pk


def play_game_out(game_id: int) -> Make21State:
    """The seats in turn take a set-mode pile that faces them, else play their first card on P1,
    until the game in play ends."""
    snapshot = selectors.get_game_snapshot(game_id=game_id, now=timezone.now())
    assert snapshot is not None
    current: Make21State = snapshot.state
    game_no = current.game_no
    while not current.finished and current.game_no == game_no:
        seat = current.to_move
        assert seat is not None
        body: dict[str, Any] = (
            {"move": "take"}
            if current.facing
            else {"move": "play", "cards": [str(current.hand(seat)[0])], "pile": "P1"}
        )
        current = services.play_move(
            game_id=game_id, seat=seat, body=body, expected_seq=None, actor=SYSTEM, now=timezone.now()
        ).state
    return current


def test_a_match_with_its_first_game_over_shows_that_deck_and_keeps_the_next_secret(
    pit_boss: Client, clock: Clock
) -> None:
    game_id = new_match()
    before = page(pit_boss, f"/floor/games/{game_id}/")
    assert "Hands (revealed)" not in before
    assert "Game 1 of 2" in before
    play_game_out(game_id)
    game = Game.objects.get(pk=game_id)
    assert game.decks_revealed == 1

    story = page(pit_boss, f"/floor/games/{game_id}/")
    deal = page(pit_boss, f"/floor/games/{game_id}/deck/")
    rescored = page(pit_boss, f"/floor/games/{game_id}/rescore/")

    assert "Decks, one a game" in story
    assert "Game 2 of 2 · dealer seat 1" in story
    assert "1 of 2 decks are revealed" in story
    assert story.count("Hands (revealed)") > 20  # every step of game 1
    assert 'id="revealed-deck"' in story
    assert '<p class="verdict ok" id="verdict">' in deal
    assert 'id="not-revealed-2"' in deal
    assert 'id="order-2"' not in deal
    assert game.commitments[1] in deal
    assert game.salts[0] in deal
    for html in (story, deal, rescored):
        assert game.salts[1] not in html
    assert "No final score is stored yet" in rescored
    assert "mismatch" not in rescored
    assert rescored.count("SHA-256 of the revealed order") == 1


def test_a_finished_match_re_scores_and_verifies_every_deck(pit_boss: Client, clock: Clock) -> None:
    game_id = new_match()
    play_game_out(game_id)
    final = play_game_out(game_id)
    assert final.finished
    game = Game.objects.get(pk=game_id)
    assert (game.state, game.decks_revealed, game.end_reason) == ("finished", 2, "played")

    rescored = page(pit_boss, f"/floor/games/{game_id}/rescore/")
    deal = page(pit_boss, f"/floor/games/{game_id}/deck/")
    day = page(pit_boss, "/floor/games/day/2026-11-20/")
    out = StringIO()
    call_command("rescore_game", str(game_id), stdout=out)

    assert "each revealed deck hashes to its commitment" in rescored
    assert "mismatch" not in rescored
    assert '<p class="verdict ok" id="verdict">' in deal
    assert '<p class="verdict ok" id="verdict-2">' in deal
    assert "not-revealed" not in deal
    assert game.salts[1] in deal
    assert game.score is not None
    totals = game.score["total"]
    assert f"seat 1: {totals['1']}, seat 2: {totals['2']}" in day
    assert "commitment holds: yes" in out.getvalue()
    assert "matches: yes" in out.getvalue()
