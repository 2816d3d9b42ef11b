"""A signed-in staff member's browser, as the browser tests drive it.

Each method finds what it reads or acts on in the step that reads or acts, and tries again when
the page changes under it: a test never holds an element across a navigation or an htmx swap
(the live floor replaces its pit map every 5 s). `follow(css)` clicks a link or a form's button
and waits until the page it opens is loaded; `wait_for_text` waits for what the test checks,
never for a fixed time. `screenshot(name)` saves the page for review into `.local/screenshots/`
(ignored by git).
"""

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import Select

from tests.support.browser import (
    acting,
    body_text,
    click_and_wait_for_new_page,
    wait_for_load,
    wait_for_text,
    wait_until,
)

SCREENSHOTS = Path(__file__).resolve().parents[2] / ".local" / "screenshots"

T = TypeVar("T")


@dataclass
class Console:
    browser: WebDriver
    base_url: str
    username: str

    def open(self, path: str) -> None:
        """Load `path` and wait until the page is loaded."""
        self.browser.get(f"{self.base_url}{path}")
        wait_for_load(self.browser)

    def wait_for(self, condition: Callable[[WebDriver], T], what: str = "") -> T:
        return wait_until(self.browser, condition, what=what)

    def wait_for_text(self, text: str) -> str:
        """Wait until the page shows `text`; return the page's text then."""
        return wait_for_text(self.browser, text)

    def text(self) -> str:
        return body_text(self.browser)

    def read(self, css: str) -> str:
        """The text of what `css` finds, once it is on the page."""
        return self.wait_for(lambda b: (str(b.find_element(By.CSS_SELECTOR, css).text),), css)[0]

    def attribute(self, css: str, name: str) -> str | None:
        """An attribute (or property) of what `css` finds, once it is on the page."""
        return self.wait_for(lambda b: (b.find_element(By.CSS_SELECTOR, css).get_attribute(name),), css)[0]

    def heading(self) -> str:
        return self.read("h1")

    def find(self, css: str) -> WebElement:
        """What `css` finds, once it is on the page: for a page that stays (no htmx polling), to be
        read before the next navigation."""
        return self.wait_for(lambda b: b.find_element(By.CSS_SELECTOR, css), css)

    def click(self, css: str) -> None:
        """Click what `css` finds on this page (a radio, an option, a disclosure): no navigation."""
        self.wait_for(acting(lambda b: b.find_element(By.CSS_SELECTOR, css).click()), css)

    def follow(self, css: str) -> None:
        """Click a link or a form's button and wait until the page it opens is loaded."""
        click_and_wait_for_new_page(self.browser, css)

    def type_into(self, css: str, text: str) -> None:
        """Replace the value of the field `css` finds with `text`."""

        def typed(browser: WebDriver) -> bool:
            field = browser.find_element(By.CSS_SELECTOR, css)
            field.clear()
            field.send_keys(text)
            return True

        self.wait_for(typed, css)

    def select(self, css: str, visible_text: str) -> None:
        """Choose the option showing `visible_text` in the list `css` finds."""
        self.wait_for(
            acting(
                lambda b: Select(b.find_element(By.CSS_SELECTOR, css)).select_by_visible_text(visible_text)
            )
        )

    def select_value(self, css: str, value: str) -> None:
        """Choose the option of value `value` in the list `css` finds."""
        self.wait_for(acting(lambda b: Select(b.find_element(By.CSS_SELECTOR, css)).select_by_value(value)))

    def screenshot(self, name: str) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        self.browser.save_screenshot(str(path))
        return path


def sign_in(
    chrome: WebDriver, base_url: str, username: str, password: str, *, path: str = "/floor/login/"
) -> Console:
    """Sign in on the floor console's page (or the admin site's, `path="/admin/login/"`) and wait
    for the page it lands on, before the test navigates on (or the two page loads race)."""
    chrome.delete_all_cookies()
    console = Console(browser=chrome, base_url=base_url, username=username)
    console.open(path)
    console.type_into("[name=username]", username)
    console.type_into("[name=password]", password)
    console.follow("[type=submit]")
    console.wait_for(lambda b: path not in b.current_url)
    return console


def admin_log_in(chrome: WebDriver, base_url: str, username: str, password: str) -> Console:
    return sign_in(chrome, base_url, username, password, path="/admin/login/")
