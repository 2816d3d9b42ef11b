"""The board and the player page in a real headless Chromium: the board on the wall updates by
itself while the heat's games end, and a patron scans the slip's link, waits for the heat (the page
looks again by itself), starts the heat's game and sees it. Screenshots go to .local/screenshots/
for review (not committed)."""

from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from audit.context import AuditActor
from tests.support.api import client_with_token, new_patron, ok, post
from tests.support.console import Console
from tests.support.gaming_day import Clock
from tournaments import services

from .conftest import Run, Staff

pytestmark = pytest.mark.django_db(transaction=True)

DIRECTOR = AuditActor(kind="system", username="tests:director")
_ROWS = """
return [...document.querySelectorAll('#standings tbody tr[data-entry]')].map((row) => ({
  entry: Number(row.dataset.entry), name: row.querySelector('.name').textContent,
  score: row.querySelector('.pts').textContent, games: Number(row.querySelector('.games').textContent),
}));
"""


def board_rows(browser: WebDriver) -> list[dict[str, Any]]:
    return list(browser.execute_script(_ROWS))


def test_the_board_updates_by_itself_while_games_end(
    chromium: WebDriver, live_server: Any, create: Callable[..., Run], staff: Staff, clock: Clock
) -> None:
    run = create()
    run.file()
    entries = [
        run.entered(new_patron(staff.cashier, f"Guest {name}"), nickname=name)
        for name in ("Ace High", "Lucky Lou", "")
    ]
    run.advance(minutes=65)  # heat 1 starts: entry 1 starts now, the others a minute later
    first = ok(post(entries[0].device, f"{run.url}games/"), 201)
    seat = first["seats"][0]["token"]
    ok(post(client_with_token(seat), f"/api/v1/games/{first['id']}/moves/", {"move": "place", "column": 1}))
    run.advance(minutes=1)
    for entry in entries[1:]:
        ok(post(entry.device, f"{run.url}games/"), 201)

    key = services.new_display_key(tournament_id=run.id, actor=DIRECTOR, now=timezone.now())
    board = Console(browser=chromium, base_url=live_server.url, username="tv")
    board.open(f"/board/{run.id}/?key={key}")
    board.wait_for(lambda b: [row["games"] for row in board_rows(b)] == [0, 0, 0], "no game ended yet")
    assert "Friday Attack" in board.read("h1")
    assert "Heat 1 of 2" in board.read("#heat")
    assert {row["name"] for row in board_rows(chromium)} == {"Ace High", "Lucky Lou", "Entry 3"}

    run.advance(minutes=4)  # entry 1's five minutes are over: its game ends on the server's clock

    def one_ended(browser: WebDriver) -> list[dict[str, Any]] | None:
        rows = board_rows(browser)
        return rows if {row["entry"]: row["games"] for row in rows} == {1: 1, 2: 0, 3: 0} else None

    ended = board.wait_for(one_ended, "entry 1's game on the board") or []
    assert ended[0]["entry"] == 1
    assert ended[0]["name"] == "Ace High"
    board.screenshot("tournament-board-one-game-ended")

    run.advance(minutes=1)  # the other two end
    board.wait_for(lambda b: [row["games"] for row in board_rows(b)] == [1, 1, 1], "every game on the board")
    board.wait_for(lambda b: "Heat 2 starts at 11:20" in b.find_element(By.ID, "heat").text, "heat 2 next")
    assert "Guest" not in board.text()
    board.screenshot("tournament-board-heat-1-over")


def test_a_patron_scans_the_slip_waits_and_starts_the_heat(
    chromium: WebDriver,
    live_server: Any,
    create: Callable[..., Run],
    patron: Callable[..., int],
    clock: Clock,
) -> None:
    run = create()
    run.file()
    entry = run.entered(patron())
    run.advance(minutes=60)  # registration closes
    run.advance(minutes=(5 * 60 - 2) / 60)  # two seconds before heat 1

    page = Console(browser=chromium, base_url=live_server.url, username="player")
    page.open(f"/play/?token={entry.token}")
    page.wait_for(lambda b: b.current_url == f"{live_server.url}/play/", "the token gone from the URL")
    page.follow("button[type=submit]")
    page.wait_for_text("Heat 1 starts at 11:05")
    page.screenshot("tournament-player-waiting")

    run.advance(minutes=2 / 60)  # heat 1 starts: the page looks again by itself
    page.wait_for(lambda b: b.find_element(By.ID, "start").is_displayed(), "the Start button")
    page.screenshot("tournament-player-start")
    page.follow("#start")
    page.wait_for(
        lambda b: b.find_element(By.ID, "game").get_attribute("data-state") == "playing", "the heat's game"
    )
    assert page.read("#cards-left")
    assert not page.find("#standing-link").is_displayed()  # shown once the game is over
    page.screenshot("tournament-player-game")
    assert entry.token not in chromium.page_source
