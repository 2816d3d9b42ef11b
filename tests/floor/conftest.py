"""The floor console's browser tests drive a `Console` (tests/support/console.py) through the
`console` fixture of the test-support plugin (tests/support/plugin.py)."""

from tests.support.browser import WAIT_SECONDS
from tests.support.console import SCREENSHOTS, Console, sign_in

__all__ = ["SCREENSHOTS", "WAIT_SECONDS", "Console", "sign_in"]
