"""Test support. Registered as a pytest plugin by tests/conftest.py: the one headless Chromium and
its waits (browser.py), the floor console a browser test drives (console.py), the fixtures and the
`browser` and `slow` markers (plugin.py). Imported by the tests: the API calls (api.py), rounds
(rounds.py), special-card matches (specials.py), a gaming day and its fixed clock (gaming_day.py),
races (races.py), the factories of the house's rows (factories.py), process waits (processes.py)
and writes that bypass the triggers (database.py)."""
