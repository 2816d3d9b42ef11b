"""The skill games' console pages in a real headless Chromium: a pit boss opens the day's games,
reads a finished game's story, re-scores it and verifies its deal."""

from collections.abc import Callable

import pytest

from kernel.gaming_day import gaming_day_and_shift
from tests.floor.games.conftest import new_match, play, play_game_out, play_out, start, total_of
from tests.support.console import Console

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_pit_boss_opens_the_days_games_a_story_and_its_re_scoring(console: Callable[..., Console]) -> None:
    finished = play_out(start("attack"))
    playing = play(start("squares"), {"move": "place", "position": 5})
    total = total_of(finished)
    boss = console("pit_boss")

    # The gaming day the games started on (casino local time), as the page's own default computes it.
    day, _ = gaming_day_and_shift(finished.game.started_at)
    boss.open(f"/floor/games/day/{day.isoformat()}/")
    boss.wait_for_text(f"Game {playing.id}")
    rows = boss.read("table#games")
    assert f"Game {finished.id} Blackjack Attack Finished Seat 1" in rows
    assert f"Game {playing.id} Blackjack Squares Playing Seat 1" in rows
    boss.screenshot("skill-games-day-pit_boss")

    boss.follow(f'a[href="/floor/games/{finished.id}/"]')
    boss.wait_for_text("Moves, in order")
    assert boss.read("#score-total") == str(total)
    assert boss.read("table#moves").count("place, column") == 52
    boss.screenshot("skill-game-story-pit_boss")

    boss.follow("#rescore-link")
    boss.wait_for_text("The recomputed score matches the stored score")
    assert "verdict ok" in (boss.attribute("#verdict", "class") or "")
    assert "differs" not in boss.read("table#score-parts")
    boss.screenshot("skill-game-rescore-pit_boss")

    boss.follow(f'a[href="/floor/games/{finished.id}/deck/"]')
    boss.wait_for_text("Verified: the revealed order and salt hash to the published commitment")
    assert boss.read("#commitment") == finished.game.commitments[0]


def test_a_pit_boss_reads_a_make21_match_its_re_scoring_and_each_deal(
    console: Callable[..., Console],
) -> None:
    game_id = new_match()
    play_game_out(game_id)
    play_game_out(game_id)  # both games over: the match is finished, each deck revealed
    boss = console("pit_boss")

    boss.open(f"/floor/games/{game_id}/")
    boss.wait_for_text("Moves, in order")
    assert "Game 2 of 2" in boss.text()
    assert "Hands (revealed)" in boss.text()
    boss.screenshot("make21-story-pit_boss")

    boss.follow("#rescore-link")
    boss.wait_for_text("each revealed deck hashes to its commitment")
    assert "verdict ok" in (boss.attribute("#verdict", "class") or "")
    boss.screenshot("make21-rescore-pit_boss")

    boss.open(f"/floor/games/{game_id}/deck/")
    boss.wait_for_text("Verified")
    assert "verdict ok" in (boss.attribute("#verdict", "class") or "")
    boss.screenshot("make21-deal-pit_boss")
