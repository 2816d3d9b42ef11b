"""The browser fixture refuses an element held across a navigation, at once and with both pages
named, and the waits find again what the page replaced."""

from typing import Any

import pytest
from selenium.webdriver.common.by import By

from tests.support.browser import ElementUsedAfterNavigation, GuardedChrome, wait_until
from tests.support.console import Console

FIRST = "data:text/html,<h1>First</h1><p id=line>one</p>"
SECOND = "data:text/html,<h1>Second</h1><p id=line>two</p>"


def test_an_element_held_across_a_navigation_fails_naming_both_pages(chromium: GuardedChrome) -> None:
    chromium.get(FIRST)
    line = chromium.find_element(By.ID, "line")
    assert line.text == "one"

    chromium.get(SECOND)

    with pytest.raises(ElementUsedAfterNavigation) as used:
        _ = line.text
    assert str(used.value).startswith(f"element found on {FIRST} used after navigation to {SECOND}")
    with pytest.raises(ElementUsedAfterNavigation):
        line.click()
    with pytest.raises(ElementUsedAfterNavigation):
        line.get_attribute("id")  # read through a script, which the driver checks too
    assert isinstance(used.value, AssertionError)


def test_an_element_found_again_on_the_new_page_works(chromium: GuardedChrome) -> None:
    chromium.get(FIRST)
    assert chromium.find_element(By.ID, "line").text == "one"

    chromium.get(SECOND)

    assert chromium.find_element(By.ID, "line").text == "two"
    assert chromium.find_element(By.TAG_NAME, "h1").find_element(By.XPATH, "..").tag_name == "body"


def test_a_reload_of_the_same_address_is_a_new_document(chromium: GuardedChrome) -> None:
    chromium.get(FIRST)
    line = chromium.find_element(By.ID, "line")

    chromium.refresh()

    with pytest.raises(ElementUsedAfterNavigation, match=f"used after navigation to {FIRST}"):
        _ = line.text


@pytest.mark.django_db(transaction=True)
def test_an_element_held_across_a_form_post_fails(chromium: GuardedChrome, live_server: Any) -> None:
    page = Console(browser=chromium, base_url=live_server.url, username="nobody")
    page.open("/floor/login/")
    username = chromium.find_element(By.NAME, "username")
    username.send_keys("nobody")
    page.type_into("[name=password]", "wrong-password")

    page.follow("button[type=submit]")  # no such user: the page comes back with the error

    with pytest.raises(ElementUsedAfterNavigation, match="/floor/login/ used after navigation to"):
        username.send_keys("boss")
    page.type_into("[name=username]", "boss")  # found again: works
    assert page.attribute("[name=username]", "value") == "boss"
    assert page.attribute("[name=password]", "value") == ""


def test_a_wait_reports_an_element_found_before_it_instead_of_timing_out(chromium: GuardedChrome) -> None:
    chromium.get(FIRST)
    line = chromium.find_element(By.ID, "line")
    chromium.get(SECOND)

    with pytest.raises(ElementUsedAfterNavigation, match="found before the wait"):
        wait_until(chromium, lambda _: line.text == "two", timeout=10)


def test_a_wait_finds_again_what_a_swap_replaced_and_reports_what_it_held(chromium: GuardedChrome) -> None:
    chromium.get(FIRST)
    line = chromium.find_element(By.ID, "line")
    # As htmx swaps the live floor's pit map: the same document, the element replaced.
    chromium.execute_script(
        "setTimeout(() => { document.getElementById('line').outerHTML = '<p id=line>swapped</p>'; }, 300)"
    )

    assert wait_until(chromium, lambda b: b.find_element(By.ID, "line").text == "swapped")
    with pytest.raises(ElementUsedAfterNavigation, match="found before the wait"):
        wait_until(chromium, lambda _: line.text == "swapped", timeout=10)
