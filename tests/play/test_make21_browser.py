"""A whole 3-seat Make 21 match through the player page, each seat on its own device (its own
headless Chromium, so its own seat cookie): each page updates by itself when the others move, the
clock moves for a seat that walks away, no page ever holds another seat's hand, and the end shows
the API's match score and each game's deal checked against its commitment. Screenshots of every
seat's view go to /work/notes/screens/ for review (not committed)."""

from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from audit.context import AuditActor
from casino.engine.cards import ALL_CARDS
from skill_games import services
from tests.support.api import client_with_token, listed, ok
from tests.support.browser import acting, chromium_driver
from tests.support.console import Console
from tests.support.gaming_day import Clock

pytestmark = pytest.mark.django_db(transaction=True)

SCREENS = Path("/work/notes/screens")
TURN_LIMIT_S = 30
PIT_BOSS = AuditActor(kind="system", username="tests:pit boss")

# Read in one step: the page re-renders at every answer that changed the game.
_VIEW = """
const game = document.getElementById('game');
return {
  seq: Number(game.dataset.seq), state: game.dataset.state,
  turn: (document.getElementById('turn') || {}).textContent || '',
  hand: [...document.querySelectorAll('.held[data-card]')].map((n) => n.dataset.card),
  cards: [...document.querySelectorAll('[data-card]')].map((n) => n.dataset.card),
  last: (document.getElementById('last') || {}).textContent || '',
};
"""


@pytest.fixture
def devices(chromium: WebDriver) -> Iterator[list[WebDriver]]:
    """Seat 1 on the suite's Chromium, seats 2 and 3 each on a Chromium of its own."""
    with ExitStack() as stack:
        yield [chromium, stack.enter_context(chromium_driver()), stack.enter_context(chromium_driver())]


def view(page: Console) -> dict[str, Any]:
    def shown(browser: WebDriver) -> Any:
        now = browser.execute_script(_VIEW)
        return now if now["state"] not in ("", "loading") else None

    return dict(page.wait_for(shown, "the game"))


def at_least(page: Console, seq: int) -> dict[str, Any]:
    """The page once it shows the game at `seq` or later (it polls about once a second)."""

    def caught_up(browser: WebDriver) -> Any:
        now = browser.execute_script(_VIEW)
        return now if now["seq"] >= seq and now["state"] != "loading" else None

    return dict(page.wait_for(caught_up, f"seq {seq}"))


def seated(browser: WebDriver, live_server: Any, token: str, seat: int) -> Console:
    page = Console(browser=browser, base_url=live_server.url, username=f"seat {seat}")
    page.open(f"/play/?token={token}")
    page.wait_for(lambda b: b.current_url == f"{live_server.url}/play/", "the token gone from the URL")
    page.follow("button[type=submit]")
    view(page)
    return page


def click(page: Console, css: str) -> None:
    page.wait_for(acting(lambda b: b.find_element(By.CSS_SELECTOR, css).click()), css)


def screenshot(page: Console, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.browser.save_screenshot(str(SCREENS / f"{name}.png"))


def test_three_seats_play_a_whole_match_on_their_own_devices(
    devices: list[WebDriver], live_server: Any, clock: Clock
) -> None:
    created = services.create_game(
        kind="make21",
        body={"players": 3, "games": 1, "turn_limit_s": TURN_LIMIT_S},
        user_id=None,
        actor=PIT_BOSS,
        now=timezone.now(),
        decks=[ALL_CARDS],
    )
    assert created.tokens is not None
    tokens = created.tokens
    api = {seat: client_with_token(token) for seat, token in tokens.items()}
    url = f"/api/v1/games/{created.game.pk}/"
    pages = {seat: seated(devices[seat - 1], live_server, tokens[seat], seat) for seat in (1, 2, 3)}

    idled = hidden_checked = False
    game = ok(api[1].get(url))
    while game["state"] == "playing":
        mover, seq = game["needs"]["seat"], game["seq"]
        page = pages[mover]
        now = at_least(page, seq)
        assert now["turn"] == "Yours"
        for other in {1, 2, 3} - {mover}:  # every page holds its own hand only
            others = at_least(pages[other], seq)
            hand = ok(api[mover].get(url))["hand"]
            assert not set(hand) & set(others["cards"]), (other, hand, others["cards"])
            hidden_checked = True
        if mover == 2 and not idled and seq >= 6:
            screenshot(page, "make21-seat2-before-walking-away")
            clock.advance(seconds=TURN_LIMIT_S)  # seat 2 walks away: the clock moves for it
            moved = at_least(pages[1], seq + 1)
            assert "the clock moved for them" in moved["last"]
            assert "Seat 2" in moved["last"]
            for seat in (1, 2, 3):
                screenshot(pages[seat], f"make21-seat{seat}-after-the-clock")
            idled = True
        elif ok(api[mover].get(url))["needs"]["mode"] == "set_mode":
            click(page, "#take")
        else:
            click(page, f".held[data-card='{now['hand'][0]}']")
            click(page, ".pile21[data-pile='P1']:not([aria-disabled])")
        after = at_least(page, seq + 1)
        if after["seq"] == 10:
            for seat in (1, 2, 3):
                at_least(pages[seat], 10)
                screenshot(pages[seat], f"make21-seat{seat}-mid-match")
        game = ok(api[1].get(url))
    assert idled
    assert hidden_checked

    final = ok(api[1].get(url))
    log = listed(api[1].get(f"{url}moves/"))
    assert any(record["automatic"] for record in log)
    for seat, page in pages.items():
        page.wait_for_text("the match is over")
        rows = page.browser.execute_script(
            "return [...document.querySelectorAll('#match-score tbody tr')].map((r) => [...r.cells].map((c) => c.textContent));"
        )
        assert rows == [
            [f"Seat {n}", str(total), str(total)]
            for n, total in sorted((int(k), v) for k, v in final["score"]["total"].items())
        ]
        page.wait_for(
            lambda b: "matches its commitment" in b.find_element(By.CSS_SELECTOR, "[data-check='1']").text,
            "the deal checked",
        )
        screenshot(page, f"make21-seat{seat}-end")
