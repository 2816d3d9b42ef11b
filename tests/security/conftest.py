"""Staff accounts and clients for the security tests: real sign-ins through the real forms."""

import itertools
from collections.abc import Callable

import pytest
from django.test import Client

from casino.services.provisioning import ProvisionedStaff
from tests.support.factories import StaffFactory

_names = itertools.count(1)
PASSWORD = "right-horse-battery-2026"


@pytest.fixture
def staff_member(db: None) -> Callable[..., ProvisionedStaff]:
    def make(role: str = "pit_boss", *, username: str | None = None) -> ProvisionedStaff:
        return StaffFactory.create(
            username=username or f"{role}-{next(_names)}", role=role, password=PASSWORD
        )

    return make


def from_address(address: str) -> Client:
    """A browser at `address` (the audit trail and the throttle read REMOTE_ADDR)."""
    return Client(REMOTE_ADDR=address)


def sign_in(client: Client, username: str, password: str, *, path: str = "/floor/login/") -> int:
    """POST the sign-in form; the status of the answer (302 when signed in)."""
    return client.post(path, {"username": username, "password": password}).status_code


def signed_in(client: Client) -> bool:
    return "_auth_user_id" in client.session
