"""Test support, registered as a pytest plugin by tests/conftest.py: the one headless Chromium
and its waits (browser.py), the floor console a browser test drives (console.py), the fixtures
and the `browser` and `slow` markers (plugin.py)."""
