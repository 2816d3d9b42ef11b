"""The player page in a real headless Chromium: a whole Blackjack Attack game played with the
keyboard and a whole Blackjack Squares game with the mouse, on known decks, each ending on the
score the API gives, with the deal's commitment and reveal. Screenshots go to /work/notes/screens/
for review (not committed)."""

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from tests.play.conftest import Dealt
from tests.skill_games.conftest import deck_with
from tests.support.api import client_with_token, ok
from tests.support.browser import CHROMIUM_FLAGS, acting
from tests.support.console import Console
from tests.support.gaming_day import Clock

pytestmark = pytest.mark.django_db(transaction=True)

SCREENS = Path("/work/notes/screens")
DESKTOP = next(flag for flag in CHROMIUM_FLAGS if flag.startswith("--window-size=")).split("=")[1]

# Read in one step: the page re-renders its board at every answer (about once a second).
_BOARD = """
const game = document.getElementById('game');
const ids = (css, key) => [...document.querySelectorAll(css)].map((node) => Number(node.dataset[key]));
return {
  seq: Number(game.dataset.seq), state: game.dataset.state,
  legal: ids('.column:not(.blocked)', 'column'), blocked: ids('.column.blocked', 'column'),
  place: ids('.cell[data-action=place]', 'position'), swap: ids('.cell[data-action=swap]', 'position'),
  undo: !!document.querySelector('#undo:not([disabled])'), cash: !!document.querySelector('#cash-in:not([disabled])'),
  mustBust: !!document.getElementById('must-bust'),
  message: document.getElementById('message').hidden ? '' : document.getElementById('message').textContent,
};
"""


def board(page: Console) -> dict[str, Any]:
    def shown(browser: WebDriver) -> Any:
        return browser.execute_script(_BOARD) if _shown(browser) else None

    return dict(page.wait_for(shown, "the board"))


def _shown(browser: WebDriver) -> bool:
    return bool(browser.execute_script("return document.getElementById('game').dataset.state !== 'loading';"))


def after(page: Console, seq: int) -> dict[str, Any]:
    """The board once the game has moved past `seq`."""

    def moved(browser: WebDriver) -> Any:
        now = browser.execute_script(_BOARD) if _shown(browser) else None
        return now if now is not None and now["seq"] > seq else None

    return dict(page.wait_for(moved, f"a move after seq {seq}"))


def screenshot(browser: WebDriver, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SCREENS / f"{name}.png"))


@pytest.fixture
def window(chromium: WebDriver) -> Iterator[Callable[[int, int], None]]:
    """Resize the one Chromium of the suite; its size is restored after the test."""
    yield lambda width, height: chromium.set_window_size(width, height)
    width, height = DESKTOP.split(",")
    chromium.set_window_size(int(width), int(height))


def seated(chromium: WebDriver, live_server: Any, game: Dealt) -> Console:
    """The player scans the link (the form comes prefilled), presses Play and gets the game."""
    page = Console(browser=chromium, base_url=live_server.url, username="player")
    page.open(f"/play/?token={game.token}")
    assert page.attribute("#token", "value") == game.token
    page.wait_for(lambda b: b.current_url == f"{live_server.url}/play/", "the token gone from the URL")
    page.follow("button[type=submit]")
    assert chromium.current_url == f"{live_server.url}/play/"
    board(page)
    return page


def press(browser: WebDriver, key: str) -> None:
    ActionChains(browser).send_keys(key).perform()


def click(page: Console, css: str) -> None:
    page.wait_for(acting(lambda b: b.find_element(By.CSS_SELECTOR, css).click()), css)


def api_game(game: Dealt) -> dict[str, Any]:
    return ok(client_with_token(game.token).get(f"/api/v1/games/{game.id}/"))


def score_rows(page: Console) -> list[list[str]]:
    """The end screen's score table, row by row: the part, its count, its points."""
    script = "return [...document.querySelectorAll('table.score tr')].map((r) => [...r.cells].map((c) => c.textContent));"

    def rows(browser: WebDriver) -> Any:
        return browser.execute_script(script) or None

    return list(page.wait_for(rows, "the score table"))


def check_the_end(page: Console, game: Dealt) -> dict[str, Any]:
    """The end screen: the API's score and the deal's commitment, order and salt."""
    page.wait_for_text("game over")
    final = api_game(game)
    assert final["state"] == "finished"
    assert page.read("#final-score") == str(final["score"]["total"])
    assert page.read("#commitment") == final["commitment"]
    assert page.read("#order") == ",".join(final["reveal"]["order"])
    assert page.read("#salt") == final["reveal"]["salt"]
    page.wait_for(lambda b: "match the commitment" in b.find_element(By.ID, "checked").text, "the check")
    assert "SHA-256" in page.text()
    return final


def test_a_whole_attack_game_with_the_keyboard(
    chromium: WebDriver, live_server: Any, deal: Callable[..., Dealt], window: Callable[[int, int], None]
) -> None:
    # RULES.md §3.1: columns TH QS, 9C KD, 8S TC, 7D QH (20, 19, 18, 17), then 5H fits nowhere.
    game = deal("attack", deck_with("TH 9C 8S 7D QS KD TC QH 5H"))
    window(1024, 768)
    page = seated(chromium, live_server, game)
    assert page.read("#current") == "10\n♥"
    assert re.fullmatch(r"[0-5]:[0-5]\d", page.read("#clock"))
    assert page.read("#cards-left") == "52"

    now = board(page)
    for key in "12341234":
        press(chromium, key)
        now = after(page, now["seq"])
    assert now["mustBust"]
    assert now["legal"] == [1, 2, 3, 4]
    assert "it must bust" in page.read("#must-bust")
    screenshot(chromium, "attack-must-bust-1024x768")

    press(chromium, "2")  # busts column 2
    now = after(page, now["seq"])
    refused = undone = False
    while now["state"] == "playing":
        if now["blocked"] and not refused:  # a column the card cannot go on: the server says why
            press(chromium, str(now["blocked"][0]))
            message = str(page.wait_for(lambda b: b.execute_script(_BOARD)["message"] or "", "the refusal"))
            assert message.startswith("That move is not allowed:")
            assert board(page)["seq"] == now["seq"]
            screenshot(chromium, "attack-refused-1024x768")
            window(390, 844)
            page.wait_for(lambda b: b.execute_script("return window.innerWidth < 640;"), "a phone's width")
            screenshot(chromium, "attack-phone")
            window(1024, 768)
            refused = True
        if now["undo"] and not undone and now["seq"] >= 20:
            press(chromium, "u")
            now = after(page, now["seq"])
            undone = True
            screenshot(chromium, "attack-mid-game-1024x768")
        press(chromium, str(now["legal"][0]))
        now = after(page, now["seq"])
    assert refused
    assert undone

    final = check_the_end(page, game)
    assert page.read("#how") == "The deck is played out."
    assert final["score"]["no_bust_bonus"] == 0
    assert final["score"]["time_bonus"] > 0
    score = final["score"]

    def part(label: str, field: str, points: int) -> list[str]:
        times = "\N{MULTIPLICATION SIGN}"
        return [label, f"{score[field]} {times} {points}", str(score[field] * points)]

    assert score_rows(page) == [
        part("Catch 21", "catch_21", 50),
        part("Black Jack Attack", "black_jack_attack", 75),
        part("Five Card Charlie", "five_card_charlie", 100),
        part("Streak plays", "streak_plays", 25),
        ["No-Bust bonus", "", "0"],
        ["Time bonus", "", str(score["time_bonus"])],
        ["Score", "", str(score["total"])],
    ]
    screenshot(chromium, "attack-end-1024x768")


def test_a_whole_squares_game_with_the_mouse(
    chromium: WebDriver, live_server: Any, deal: Callable[..., Dealt], window: Callable[[int, int], None]
) -> None:
    # RULES.md §3.2: the first square is six lines of 21 (126).
    game = deal("squares", deck_with("6S 7H 8D 7C 8S 6H 8C 6D 7S"))
    window(390, 844)  # a phone
    page = seated(chromium, live_server, game)
    assert page.read("#swaps-left") == "7"
    assert page.read("#square") == "1 of 5"

    now = board(page)
    swapped = False
    while now["state"] == "playing":
        if now["cash"]:
            click(page, "#cash-in")
        elif now["swap"] and not swapped and now["seq"] >= 12:  # in the second square
            screenshot(chromium, "squares-mid-game-phone")
            click(page, f".cell[data-position='{now['swap'][0]}']")
            swapped = True
            now = after(page, now["seq"])
            assert page.read("#swaps-left") == "6"
            window(1024, 768)
            continue
        else:
            click(page, f".cell[data-position='{now['place'][0]}']")
        now = after(page, now["seq"])
        if now["seq"] == 9:
            assert page.read("[data-line=row1] .value") == "+21"
            assert page.read("[data-line=col3] .total") == "21"
        if now["seq"] == 10:
            assert page.read("#cashed") == "126"
            assert page.read("#square") == "2 of 5"
            screenshot(chromium, "squares-second-square-phone")
    assert swapped

    final = check_the_end(page, game)
    assert page.read("#how") == "All five squares are cashed in."
    assert final["score"]["squares"][0] == 126
    squares = [
        [f"Square {n}", "", str(points)] for n, points in enumerate(final["score"]["squares"], start=1)
    ]
    assert score_rows(page) == [*squares, ["Score", "", str(final["score"]["total"])]]
    screenshot(chromium, "squares-end-1024x768")


def test_the_deadline_ends_the_game_on_the_page_by_itself(
    chromium: WebDriver, live_server: Any, deal: Callable[..., Dealt], clock: Clock
) -> None:
    """The clock shown is the server's; at 0:00 the page shows the end without any move."""
    game = deal("attack", deck_with("KH AS 5C"))
    page = seated(chromium, live_server, game)
    now = board(page)
    for key in "11":  # KH, AS: Catch 21, 50
        press(chromium, key)
        now = after(page, now["seq"])
    clock.advance(seconds=240)
    page.wait_for(lambda b: b.find_element(By.ID, "clock").text in ("1:00", "0:59"), "a minute left")

    clock.advance(seconds=60)

    final = check_the_end(page, game)
    assert page.read("#how") == "Time is up: the points so far count, with no bonus."
    assert final["score"]["total"] == 50
    assert score_rows(page)[-3:] == [
        ["No-Bust bonus", "", "0"],
        ["Time bonus", "", "0"],
        ["Score", "", "50"],
    ]
    screenshot(chromium, "attack-time-up")
