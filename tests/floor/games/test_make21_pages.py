"""A Make 21 match on the console: the day's list with each seat's cards collected, the story with
the public board only (hands once their game's deck is revealed), and the deal and re-score pages
checking each game's deck as it is revealed, while the next ones stay secret."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client

from skill_games.models import Game
from tests.floor.games.conftest import new_match, page, play_game_out
from tests.support.gaming_day import Clock

pytestmark = pytest.mark.django_db


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
