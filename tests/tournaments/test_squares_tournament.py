"""An individual-deal Squares tournament (RULES.md §4): each game its own deck, revealed when it
ends; a heat never started scores -630; the rules version shown is on each entry."""

from collections.abc import Callable

import pytest

from skill_games.models import Game
from tests.support.api import ok, post
from tests.support.gaming_day import Clock
from tournaments.models import Entry

from .conftest import Run, Staff, at

pytestmark = pytest.mark.django_db


def test_individual_deals_reveal_each_game_at_its_end_and_a_no_show_scores_minus_630(
    create: Callable[..., Run], patron: Callable[..., int], staff: Staff, clock: Clock
) -> None:
    run = create(
        game="squares",
        deal="individual",
        settings={"limit_s": 60},
        heats=[{"starts_at": at(clock, 65)}],
        prizes_bp=[10000],
    )
    assert run.read()["heats"][0]["commitment"] is None  # no heat deck: each game deals its own
    run.file()
    player, absent = run.entered(patron(), nickname="Ace"), run.entered(patron())
    assert {entry.rules.version for entry in Entry.objects.filter(tournament_id=run.id)} == {1}
    run.advance(minutes=60)
    run.advance(minutes=5)

    game = ok(post(player.device, f"{run.url}games/"), 201)
    assert game["tournament"] == {"id": run.id, "heat": 1, "entry": player.number}
    run.advance(minutes=1.5)  # the game's 60 s are over: its own deck is revealed at once
    played = Game.objects.get(pk=game["id"])
    assert played.state == "finished"
    assert played.decks_revealed == 1
    assert played.score is not None
    assert run.read()["state"] == "running"  # the heat's start window is still open

    run.advance(minutes=1)
    assert run.read()["state"] == "playing_done"
    board = {row["entry"]: row for row in run.leaderboard()}
    assert board[absent.number]["score"] == -630
    assert board[absent.number]["games"] == 0
    assert board[player.number]["score"] == played.score["total"]
    assert board[player.number]["name"] == "Ace"
    assert board[absent.number]["name"] == f"Entry {absent.number}"
    assert sum(row["prize_cents"] for row in board.values()) == run.read()["pool_cents"]
