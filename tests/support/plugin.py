"""The test-support plugin (registered by tests/conftest.py): the one headless Chromium, the floor
console fixture, and the `browser` and `slow` markers.

- `chromium`: the suite's one Chromium (started once per run, tests/support/browser.py), handed to
  a test with no cookies and left on about:blank after it, so that no page polls a live server
  the test no longer runs. Every browser test uses it, directly or through `console`.
- `console(role, pits=[...])`: a staff member of `role` assigned to `pits`, signed in on the
  floor console; returns their `Console` (tests/support/console.py).
- Markers: every test that uses `chromium` is marked `browser`; the tests listed in `SLOW` (more
  than about 5 s each on a quiet machine, measured with `pytest --durations`) are marked `slow`.
  `make test-fast` runs the others: `pytest -m "not browser and not slow"`.
"""

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from casino.models import Pit, StaffProfile
from tests.support.browser import GuardedChrome, chromium_driver
from tests.support.console import Console, sign_in
from tests.support.factories import StaffFactory

TESTS = Path(__file__).resolve().parents[1]

# Tests that take more than about 5 s each (`pytest --durations=80` over the whole suite on a loaded
# machine, 2026-11-27): a module's path under tests/, with the names of its slow tests (a
# parametrized test by its function's name, a test class's as `Class::method`), or "*" for every
# test of the module (those that start processes: the service, manage.py, a Celery worker).
SLOW: dict[str, tuple[str, ...]] = {
    "operators/test_run_service.py": ("*",),
    "operators/test_embedded_postgres_start.py": ("*",),
    "operators/test_readme_commands.py": ("*",),
    "operators/test_manage_py.py": ("*",),
    "casino/accounting/test_celery_worker.py": ("*",),
    "casino/accounting/test_tasks_and_command.py": (
        "test_from_the_shell_a_bad_argument_is_one_line_and_a_non_zero_exit",
    ),
    "casino/test_settings.py": (
        "test_a_missing_secret_in_production_mode_is_a_clear_startup_error",
        "test_debug_is_off_unless_asked",
        "test_debug_mode_runs_without_a_secret",
    ),
    # Hypothesis and Schemathesis, and exact figures computed over whole shoes.
    "specials/api/test_simulator.py": ("test_random_matches_agree_with_the_model",),
    "specials/api/test_schema_fuzz.py": ("*",),
    "casino/engine/test_round_properties.py": (
        "test_any_legal_round_settles_conserving_money_within_the_odds",
        "test_thousands_of_seeded_rounds_settle_conserving_money_within_the_odds",
        "TestRoundMachine::runTest",
    ),
    "bonus_tie/engine/test_primary_outcomes.py": (
        "test_six_deck_s17_das_standard_deviation_is_the_published_figure",
    ),
    "bonus_tie/engine/test_exact_figures.py": (
        "test_six_deck_s17_das_house_edge_with_re_splits_to_four_is_the_published_figure",
        "test_exact_re_splits_equal_whole_rounds_played_out",
        "test_the_dealer_distribution_adds_up_to_exactly_one",
    ),
    "compliance/test_report_documents.py": ("test_two_pdf_renders_differ_only_in_the_generated_at_line",),
    # Forty random games each through the API, held against the skill games' models.
    "skill_games/model/test_attack_model.py": ("test_forty_random_games_agree_with_the_model",),
    "skill_games/model/test_squares_model.py": ("test_forty_random_games_agree_with_the_model",),
    # Migrates the skill games back and forth on the test database.
    "skill_games/test_deal_migration.py": ("*",),
}


@pytest.fixture(scope="session")
def _chromium_process(django_db_setup: None) -> Iterator[GuardedChrome]:
    with chromium_driver() as chrome:
        yield chrome
    # Each keep-alive connection of Chromium to the live server holds a request thread, and that
    # thread a database session (CONN_MAX_AGE): they end once Chromium has quit. Wait for them, or
    # the test database cannot be dropped after the run.
    for thread in threading.enumerate():
        if "process_request_thread" in thread.name:
            thread.join(timeout=30)


@pytest.fixture
def chromium(_chromium_process: GuardedChrome) -> Iterator[GuardedChrome]:
    _chromium_process.get("about:blank")
    yield _chromium_process
    _chromium_process.delete_all_cookies()
    _chromium_process.get("about:blank")


@pytest.fixture
def console(chromium: GuardedChrome, live_server: Any) -> Callable[..., Console]:
    counter = iter(range(1000))

    def make(role: str, *, pits: tuple[Pit, ...] = ()) -> Console:
        username = f"{role}-{next(counter)}"
        password = f"{role}-pass-2026"
        staff = StaffFactory.create(username=username, role=role, password=password)
        StaffProfile.objects.get(user_id=staff.user.pk).pits.set(pits)
        return sign_in(chromium, live_server.url, username, password)

    return make


def _slow_names(item: pytest.Item) -> tuple[str, ...]:
    try:
        module = Path(str(item.path)).resolve().relative_to(TESTS).as_posix()
    except ValueError:
        return ()
    return SLOW.get(module, ())


def _starts_processes(item: pytest.Item) -> bool:
    return "*" in _slow_names(item)


# A wrapper: this runs before every other plugin's hook, so before `-m` deselects and before
# pytest-django sorts the tests into database tests, then transactional ones, then the rest; its
# sort is stable, so within each group the order given here holds.
@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> Iterator[None]:
    # The modules that start processes first, each kept whole (its module fixtures set up once):
    # pytest-xdist's workers then begin with the few long tests and end on short ones they share
    # out, instead of one worker running a service test for minutes while the other waits.
    items.sort(key=lambda item: not _starts_processes(item))
    for item in items:
        if "chromium" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
        names = _slow_names(item)
        function = getattr(item, "originalname", item.name)
        in_class = f"{item.parent.name}::{function}" if getattr(item, "cls", None) and item.parent else ""
        if "*" in names or function in names or in_class in names:
            item.add_marker(pytest.mark.slow)
    # A name in SLOW that its module no longer defines would leave a slow test in `make test-fast`.
    modules = {Path(str(item.path)).resolve(): item for item in items if isinstance(item, pytest.Function)}
    for path, item in modules.items():
        for name in _slow_names(item):
            if name != "*" and not hasattr(item.module, name.split("::")[0]):
                raise pytest.UsageError(
                    f"tests/support/plugin.py SLOW names {name}, which tests/{path.relative_to(TESTS)} does not define"
                )
    return (yield)
