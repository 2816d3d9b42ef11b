"""The floor console in a real headless Chromium.

`console` signs a staff member in and gives the test a `Console` to drive: `open(path)` waits
for the page's heading, `screenshot(name)` saves the page for review into `.local/screenshots/`
(ignored by git). Tests wait for what they check (`wait_for_text`), never for a fixed time.
"""

import shutil
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

from casino.models import Pit, StaffProfile
from casino.services.provisioning import create_staff

SCREENSHOTS = Path(__file__).resolve().parents[2] / ".local" / "screenshots"
# Generous: a loaded two-core machine can take seconds to answer; the wait ends as soon as the
# page shows what the test waits for.
WAIT_SECONDS = 30


@pytest.fixture(scope="session")
def chromium() -> Iterator[WebDriver]:
    chromium_path, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    if chromium_path is None or driver_path is None:
        pytest.fail("chromium and chromedriver are required: `make test` installs them (Debian packages)")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium_path
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--no-first-run", "--window-size=1400,1000"):  # fmt: skip
        options.add_argument(flag)
    # A profile of its own, so that two test runs on one machine do not share a Chromium.
    with tempfile.TemporaryDirectory(prefix="casino-floor-chromium-", ignore_cleanup_errors=True) as profile:
        options.add_argument(f"--user-data-dir={profile}")
        chrome = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
        yield chrome
        chrome.quit()


@dataclass
class Console:
    browser: WebDriver
    base_url: str
    username: str

    def open(self, path: str) -> None:
        self.browser.get(f"{self.base_url}{path}")
        self.wait_for(lambda b: b.find_elements(By.TAG_NAME, "h1"))

    def wait_for(self, condition: Callable[[WebDriver], Any]) -> Any:
        # A page that is replaced while the condition reads it leaves a stale element: read again.
        return WebDriverWait(
            self.browser, WAIT_SECONDS, ignored_exceptions=(StaleElementReferenceException,)
        ).until(condition)

    def wait_for_text(self, text: str) -> None:
        self.wait_for(lambda b: text in b.find_element(By.TAG_NAME, "body").text)

    def find(self, css: str) -> WebElement:
        return self.browser.find_element(By.CSS_SELECTOR, css)

    def heading(self) -> str:
        return self.find("h1").text

    def text(self) -> str:
        return self.browser.find_element(By.TAG_NAME, "body").text

    def screenshot(self, name: str) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        self.browser.save_screenshot(str(path))
        return path


def sign_in(chrome: WebDriver, base_url: str, username: str, password: str) -> Console:
    chrome.delete_all_cookies()
    chrome.get(f"{base_url}/floor/login/")
    WebDriverWait(chrome, WAIT_SECONDS).until(lambda b: b.find_elements(By.NAME, "username"))
    chrome.find_element(By.NAME, "username").send_keys(username)
    chrome.find_element(By.NAME, "password").send_keys(password)
    chrome.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    # The sign-in lands before the test navigates on, or the two page loads race.
    WebDriverWait(chrome, WAIT_SECONDS).until(lambda b: "/floor/login/" not in b.current_url)
    return Console(browser=chrome, base_url=base_url, username=username)


@pytest.fixture
def console(chromium: WebDriver, live_server: Any) -> Iterator[Callable[..., Console]]:
    """`console(role, pits=[...])` creates a staff member of `role` assigned to `pits` and signs
    them in; it returns the `Console`. The browser leaves the test's last page at the end (the
    floor page polls the server, which must not outlive the test)."""
    counter = iter(range(1000))

    def make(role: str, *, pits: tuple[Pit, ...] = ()) -> Console:
        username = f"{role}-{next(counter)}"
        password = f"{role}-pass-2026"
        staff = create_staff(username=username, role=role, password=password, now=timezone.now())
        StaffProfile.objects.get(user_id=staff.user.pk).pits.set(pits)
        return sign_in(chromium, live_server.url, username, password)

    yield make
    chromium.get("about:blank")
