"""A headless Chromium for the browser tests that refuses an element held across a navigation,
and the waits that find and act in one step.

Every element the driver finds is stamped with the document it was found in: a token that the
page's `document` gets at the first find on it (a new document has none). Before any command on
an element, the driver checks that the window still shows that document. If it does not, the
test held the element across a navigation (a click that submits a form, a `get`, a reload) and
fails at once with an `ElementUsedAfterNavigation` (an AssertionError) that names both pages,
instead of failing only when the machine is slow ("Node with given id does not belong to the
document").

`wait_until` finds and acts in one step and tries again when the page changes under it (a form
posted, an htmx swap of the live floor); an element found before the wait and used inside it is
reported, not retried. Implicit waits stay off: every test waits for what it checks.
"""

import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar, cast

import pytest
from selenium import webdriver
from selenium.common.exceptions import (
    NoSuchElementException,
    StaleElementReferenceException,
    TimeoutException,
    WebDriverException,
)
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.remote.command import Command
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

# Generous: a loaded two-core machine can take seconds to answer; each wait ends as soon as the
# page shows what the test waits for.
WAIT_SECONDS = 30
PAGE_LOAD_SECONDS = 120

T = TypeVar("T")

_TOKEN = "__browserTestDocument"
# The document's token, given at the first look: a new document (a navigation, a reload) has none.
_TOKEN_OF = f"const token = (d) => d.{_TOKEN} || (d.{_TOKEN} = Date.now().toString(36) + Math.random().toString(36).slice(2));"
_STAMP = _TOKEN_OF + "return arguments[0].map((e) => [token(e.ownerDocument), e.ownerDocument.URL]);"
_CURRENT = _TOKEN_OF + "return [token(document), document.URL, document.readyState];"


class ElementUsedAfterNavigation(AssertionError):
    """A test used an element found on a document the window no longer shows."""

    def __init__(self, message: str, found_serial: int) -> None:
        super().__init__(message)
        self.found_serial = found_serial


class DocumentBoundElement(WebElement):
    """An element that knows the document it was found in; the driver checks it before each use."""

    document = ""
    found_on = ""
    serial = -1

    def _execute(self, command: str, params: dict[str, Any] | None = None) -> Any:
        parent = cast(GuardedChrome, self._parent)
        return parent.using([self], lambda: super(DocumentBoundElement, self)._execute(command, params))


def _elements_in(value: Any) -> list[DocumentBoundElement]:
    if isinstance(value, DocumentBoundElement):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list | tuple):
        return [element for item in value for element in _elements_in(item)]
    return []


class GuardedChrome(webdriver.Chrome):
    """Chrome whose elements fail loudly when used on a document other than their own."""

    _web_element_cls = DocumentBoundElement
    finds = 0  # elements stamped so far: a wait tells the elements it found from older ones

    def _raw_script(self, script: str, *args: Any) -> Any:
        # Past this class's checks: the guard's own scripts.
        return WebDriver.execute(self, Command.W3C_EXECUTE_SCRIPT, {"script": script, "args": list(args)})[
            "value"
        ]

    def document(self) -> tuple[str, str, str]:
        """The current document's token, its URL and its readyState."""
        token, url, state = self._raw_script(_CURRENT)
        return str(token), str(url), str(state)

    def execute(self, driver_command: Any, params: dict[str, Any] | None = None) -> Any:
        response = super().execute(driver_command, params)
        found = [element for element in _elements_in(response.get("value")) if not element.document]
        if found:
            try:
                stamps = self._raw_script(_STAMP, found)
            except WebDriverException as error:
                raise StaleElementReferenceException(
                    "the page changed while the element was found"
                ) from error
            for element, (token, url) in zip(found, stamps, strict=True):
                element.document, element.found_on, element.serial = token, url, self.finds
                self.finds += 1
        return response

    def execute_script(self, script: Any, *args: Any) -> Any:
        return self.using(
            _elements_in(args), lambda: super(GuardedChrome, self).execute_script(script, *args)
        )

    def using(self, elements: list[DocumentBoundElement], command: Callable[[], T]) -> T:
        if not elements:
            return command()
        self._check(elements)
        try:
            return command()
        except WebDriverException as error:
            self._check(elements)  # the page changed between the check and the command
            if isinstance(error, StaleElementReferenceException):
                error.found_serial = min(element.serial for element in elements)  # type: ignore[attr-defined]
            raise

    def _check(self, elements: list[DocumentBoundElement]) -> None:
        token, url, _ = self.document()
        for element in elements:
            if element.document != token:
                raise ElementUsedAfterNavigation(
                    f"element found on {element.found_on} used after navigation to {url}: "
                    "find it again on the new page (the waits of tests/support/browser.py do)",
                    element.serial,
                )


def wait_until(
    driver: WebDriver, condition: Callable[[WebDriver], T], *, timeout: float = WAIT_SECONDS, what: str = ""
) -> T:
    """Wait until `condition(driver)` returns a true value, and return it.

    The condition finds what it reads or clicks, in the one step: when the page changes under it
    (the element is gone, or the page was replaced), it is tried again. An element found before
    the wait and used inside it fails the test: it goes stale at any moment.
    """

    def attempt(browser: WebDriver) -> T | bool:
        first = getattr(browser, "finds", 0)
        try:
            return condition(browser)
        except (ElementUsedAfterNavigation, StaleElementReferenceException) as error:
            if getattr(error, "found_serial", first) < first:
                raise ElementUsedAfterNavigation(
                    f"an element found before the wait was used inside it and the page changed: {error}",
                    getattr(error, "found_serial", -1),
                ) from error
            return False
        except NoSuchElementException:
            return False

    try:
        return cast(T, WebDriverWait(driver, timeout, poll_frequency=0.1).until(attempt))
    except TimeoutException as error:
        raise TimeoutException(
            f"waited {timeout} s on {driver.current_url} for {what or condition}"
        ) from error


def body_text(driver: WebDriver) -> str:
    """The page's visible text, read in one retrying step."""
    return wait_until(
        driver, lambda b: (str(b.find_element("tag name", "body").text),), what="the page's text"
    )[0]


def wait_for_text(driver: WebDriver, text: str) -> str:
    """Wait until the page shows `text`; return the page's text then."""

    def shown(browser: WebDriver) -> tuple[str] | None:
        page = str(browser.find_element("tag name", "body").text)
        return (page,) if text in page else None

    found = wait_until(driver, shown, what=repr(text))
    assert found is not None
    return found[0]


def acting(action: Callable[[WebDriver], None]) -> Callable[[WebDriver], bool]:
    """A wait condition that does `action` (finding what it acts on) and is then met."""

    def act(browser: WebDriver) -> bool:
        action(browser)
        return True

    return act


def _loaded(driver: WebDriver, unlike: str = "") -> bool:
    """Whether the window shows a loaded document other than the one of token `unlike`."""
    try:
        token, _url, state = cast(GuardedChrome, driver).document()
    except WebDriverException:  # the old page is unloading as the script runs
        return False
    return token != unlike and state == "complete"


def wait_for_load(driver: WebDriver) -> None:
    """Wait until the current page is loaded."""
    wait_until(driver, _loaded, what="the page to load")


def click_and_wait_for_new_page(driver: WebDriver, css: str) -> None:
    """Click what `css` finds (a link, a form's button) and wait until the page it opens is loaded."""
    before = cast(GuardedChrome, driver).document()[0]
    wait_until(
        driver, acting(lambda b: b.find_element("css selector", css).click()), what=f"a click on {css}"
    )
    wait_until(driver, lambda b: _loaded(b, unlike=before), what=f"the page {css} opens")


CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1400,1000",
)


@contextmanager
def chromium_driver() -> Iterator[GuardedChrome]:
    """A headless Chromium with a profile of its own (two test runs on one machine must not share
    one) and explicit waits only."""
    chromium_path, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    if chromium_path is None or driver_path is None:
        pytest.fail("chromium and chromedriver are required: `make test` installs them (Debian packages)")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium_path
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    with tempfile.TemporaryDirectory(prefix="casino-test-chromium-", ignore_cleanup_errors=True) as profile:
        options.add_argument(f"--user-data-dir={profile}")
        chrome = GuardedChrome(service=Service(executable_path=driver_path), options=options)
        try:
            chrome.implicitly_wait(0)
            chrome.set_page_load_timeout(PAGE_LOAD_SECONDS)
            chrome.set_script_timeout(WAIT_SECONDS)
            yield chrome
        finally:
            chrome.quit()
