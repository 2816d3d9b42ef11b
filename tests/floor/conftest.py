"""The floor console's browser tests drive a `Console` (tests/support/console.py) through the
`console` fixture of the test-support plugin (tests/support/plugin.py).

The names below are those that browser tests written before tests/support imported from here;
the fixtures are the plugin's own (one Chromium for the whole run)."""

from tests.support.browser import WAIT_SECONDS
from tests.support.console import SCREENSHOTS, Console, sign_in
from tests.support.plugin import chromium, console

__all__ = ["SCREENSHOTS", "WAIT_SECONDS", "Console", "chromium", "console", "sign_in"]
