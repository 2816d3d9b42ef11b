import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.core.handlers.base import BaseHandler
from django.db import connection
from django.http import HttpRequest, HttpResponseBase
from django.utils import timezone
from rest_framework.test import APIClient

from bonus_tie.engine.paytable import DEFAULT_PAYS
from bonus_tie.models import PaytableVersion
from casino.models import Account, AccountKind, Table
from casino.services.provisioning import ProvisionedStaff, ProvisionedTable, create_staff, provision_table

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


def client_with_token(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def post(client: APIClient, url: str, body: dict[str, Any] | None = None, *, key: str | None = None) -> Any:
    """POST JSON with a fresh Idempotency-Key (or the one given)."""
    return client.post(url, body or {}, format="json", HTTP_IDEMPOTENCY_KEY=key or str(uuid.uuid4()))


@dataclass
class TableActors:
    provisioned: ProvisionedTable
    terminal: APIClient

    @property
    def table(self) -> Table:
        return self.provisioned.table

    def sign_in(self) -> None:
        response = post(
            self.terminal,
            "/api/v1/terminal/sign-in/",
            {"badge": self.provisioned.dealer.badge, "pin": self.provisioned.dealer_pin},
        )
        assert response.status_code == 200, response.json()


def restore_migrated_rows() -> None:
    """Rows the migrations create, which a transactional test's TRUNCATE removes."""
    now = timezone.now()
    PaytableVersion.objects.get_or_create(
        version=1,
        defaults={"pays": {str(k): v for k, v in DEFAULT_PAYS.items()}, "status": "approved",
                  "proposed_at": now, "approved_at": now},
    )  # fmt: skip
    Account.objects.get_or_create(kind=AccountKind.CAGE, table=None)


@pytest.fixture
def make_table(db: None) -> Callable[..., TableActors]:
    restore_migrated_rows()

    def make(name: str = "BJ-07", *, signed_in: bool = True, **options: Any) -> TableActors:
        provisioned = provision_table(name=name, decks=options.pop("decks", 6), now=timezone.now(), **options)
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
        staff = create_staff(username=f"{role}-{next(counter)}", role=role, now=timezone.now())
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


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if REQUEST_TALLY:
        total = sum(REQUEST_TALLY[k] for k in ("1xx", "2xx", "3xx", "4xx", "5xx"))
        parts = ", ".join(f"{k} {REQUEST_TALLY[k]}" for k in ("2xx", "3xx", "4xx", "5xx"))
        terminalreporter.write_line(
            f"HTTP requests sent by the suite: {total} ({REQUEST_TALLY['api']} to /api/): {parts}"
        )
