"""Event filters take any RFC 3339 offset, as the schema's `date-time` allows, even one beyond
what PostgreSQL takes (its offsets stop at 15:59): the moment is compared in UTC."""

from collections.abc import Callable
from urllib.parse import quote

import pytest
from rest_framework.test import APIClient

from casino.services.provisioning import ProvisionedStaff

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("since", "until"),
    [
        ("2026-11-20T20:13:00+20:13", "2026-11-21T00:00:00Z"),
        ("2026-11-19T00:00:00Z", "2026-11-19T23:59:00-23:59"),
    ],
)
def test_a_far_offset_is_a_moment_like_any_other(
    make_staff: Callable[[str], tuple[ProvisionedStaff, APIClient]], since: str, until: str
) -> None:
    _, compliance = make_staff("compliance")

    response = compliance.get(f"/api/v1/audit/events/?since={quote(since)}&until={quote(until)}")

    assert response.status_code == 200, response.content
    assert response.json()["results"] == []
