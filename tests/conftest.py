"""The suite's fixtures. The helpers that tests import are in tests/support/: the API calls
(api.py), rounds (rounds.py), a gaming day (gaming_day.py), races (races.py), the factories
(factories.py)."""

from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.core.handlers.base import BaseHandler
from django.db import connection
from django.http import HttpRequest, HttpResponseBase
from rest_framework.test import APIClient

from casino.services.provisioning import ProvisionedStaff
from tests.support.api import TableActors, client_with_token
from tests.support.factories import ProvisionedTableFactory, StaffFactory, restore_migrated_rows

# The one Chromium, the console fixture, and the `browser` and `slow` markers.
pytest_plugins = ["tests.support.plugin"]


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: Any) -> None:
    """Mark the test database as one that may be reset between transactional tests.

    The ledger and audit tables refuse TRUNCATE unless the database carries this
    setting, which only its owner can give: production databases never do.
    """
    with django_db_blocker.unblock():
        with connection.cursor() as cursor:
            cursor.execute(
                f"ALTER DATABASE {connection.settings_dict['NAME']} SET casino.allow_truncate = 'on'"
            )
        connection.close()


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


@pytest.fixture
def make_table(db: None) -> Callable[..., TableActors]:
    restore_migrated_rows()

    def make(name: str = "BJ-07", *, signed_in: bool = True, **options: Any) -> TableActors:
        provisioned = ProvisionedTableFactory.create(name=name, **options)
        actors = TableActors(provisioned=provisioned, terminal=client_with_token(provisioned.terminal_token))
        if signed_in:
            actors.sign_in()
        return actors

    return make


@pytest.fixture
def table(make_table: Callable[..., TableActors]) -> TableActors:
    return make_table()


@pytest.fixture
def make_staff(db: None) -> Callable[[str], tuple[ProvisionedStaff, APIClient]]:
    counter = iter(range(10_000))

    def make(role: str) -> tuple[ProvisionedStaff, APIClient]:
        staff = StaffFactory.create(username=f"{role}-{next(counter)}", role=role)
        return staff, client_with_token(staff.token)

    return make


@pytest.fixture
def supervisor(make_staff: Callable[[str], tuple[ProvisionedStaff, APIClient]]) -> APIClient:
    return make_staff("floor_supervisor")[1]


# --- request tally -------------------------------------------------------------------------
# Every HTTP request the suite sends (test client, Schemathesis, live server) is counted by
# status class and printed at the end, so the figures in a report come from the run itself.
REQUEST_TALLY: Counter[str] = Counter()


@pytest.fixture(scope="session", autouse=True)
def _tally_requests() -> Iterator[None]:
    original = BaseHandler.get_response

    def counted(self: BaseHandler, request: HttpRequest) -> HttpResponseBase:
        response = original(self, request)
        REQUEST_TALLY[f"{response.status_code // 100}xx"] += 1
        if request.path.startswith("/api/"):
            REQUEST_TALLY["api"] += 1
        return response

    BaseHandler.get_response = counted  # type: ignore[method-assign]
    yield
    BaseHandler.get_response = original  # type: ignore[method-assign]


def pytest_sessionfinish(session: pytest.Session) -> None:
    """A worker of a parallel run (pytest-xdist) hands its tally to the controller."""
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["request_tally"] = dict(REQUEST_TALLY)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """The controller of a parallel run adds up its workers' tallies."""
    REQUEST_TALLY.update(getattr(node, "workeroutput", {}).get("request_tally", {}))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if REQUEST_TALLY:
        total = sum(REQUEST_TALLY[k] for k in ("1xx", "2xx", "3xx", "4xx", "5xx"))
        parts = ", ".join(f"{k} {REQUEST_TALLY[k]}" for k in ("2xx", "3xx", "4xx", "5xx"))
        terminalreporter.write_line(
            f"HTTP requests sent by the suite: {total} ({REQUEST_TALLY['api']} to /api/): {parts}"
        )
