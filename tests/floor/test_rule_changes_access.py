"""Rule-change pages through Django's test client: who may request, approve and reject, and what
bad input gets (a clear error, nothing recorded)."""

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser
from django.test import Client
from django.utils import timezone

from audit.context import AuditActor
from casino.models import Pit, RuleChangeStatus, StaffProfile, TableLimit, TableRuleChange
from casino.services.provisioning import ProvisionedTable
from casino.services.rule_changes import current_settings, request_rule_change
from kernel.gaming_day import casino_zone
from tests.support.factories import ProvisionedTableFactory, StaffFactory

pytestmark = pytest.mark.django_db

LIST = "/floor/rule-changes/"


@pytest.fixture
def mine() -> ProvisionedTable:
    return ProvisionedTableFactory.create(name="BJ-MINE", pit_name="Pit 1")


@pytest.fixture
def elsewhere() -> ProvisionedTable:
    return ProvisionedTableFactory.create(name="BJ-ELSEWHERE", pit_name="Pit 2")


@pytest.fixture
def staff(mine: ProvisionedTable) -> Callable[..., AbstractUser]:
    counter = iter(range(100))

    def make(role: str, *, pits: tuple[Pit, ...] | None = None) -> AbstractUser:
        made = StaffFactory.create(username=f"{role}-{next(counter)}", role=role)
        StaffProfile.objects.get(user_id=made.user.pk).pits.set(
            pits if pits is not None else (mine.table.pit,)
        )
        return made.user

    return make


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def pending_change(table: ProvisionedTable, requester: AbstractUser) -> TableRuleChange:
    now = timezone.now()
    return request_rule_change(
        table_id=table.table.pk,
        limits={"primary": (2_500, 250_000)},
        rules={},
        reason="High-limit weekend",
        effective_at=now,
        user=requester,
        actor=AuditActor(kind="user", user_id=requester.pk, username=requester.username),
        now=now,
    )


def form_body(table: ProvisionedTable, **typed: str) -> dict[str, str]:
    """The request form as the console fills it in (the current values), with `typed` changed."""
    current = current_settings(table.table)
    body = {"effective": "now", "reason": "High-limit weekend"}
    for kind, (low, high) in current["limits"].items():
        body[f"limit_{kind}_min"] = f"{low / 100:.2f}"
        body[f"limit_{kind}_max"] = f"{high / 100:.2f}"
    for field, value in current["rules"].items():
        if isinstance(value, bool):
            body[f"rule_{field}"] = "yes" if value else "no"
        else:
            body[f"rule_{field}"] = "" if value is None else str(value)
    return {**body, **typed}


def test_a_supervisor_may_request_but_not_approve(
    mine: ProvisionedTable, staff: Callable[..., AbstractUser]
) -> None:
    supervisor = staff("floor_supervisor")
    change = pending_change(mine, staff("pit_boss"))
    client = signed_in(supervisor)

    assert client.get(f"{LIST}new/?table={mine.table.pk}").status_code == 200
    page = client.get(f"{LIST}{change.pk}/")
    assert page.status_code == 200
    assert b'id="approve"' not in page.content
    assert client.post(f"{LIST}{change.pk}/approve/").status_code == 403
    assert client.post(f"{LIST}{change.pk}/reject/", {"reason": "no"}).status_code == 403
    change.refresh_from_db()
    assert change.status == RuleChangeStatus.PENDING


def test_the_requester_is_refused_the_approval_even_by_a_direct_post(
    mine: ProvisionedTable, staff: Callable[..., AbstractUser]
) -> None:
    boss = staff("pit_boss")
    change = pending_change(mine, boss)
    client = signed_in(boss)

    assert b'id="approve"' not in client.get(f"{LIST}{change.pk}/").content
    refused = client.post(f"{LIST}{change.pk}/approve/")

    assert refused.status_code == 403
    assert "another pit boss approves it" in refused.content.decode()
    change.refresh_from_db()
    assert change.status == RuleChangeStatus.PENDING
    assert TableLimit.objects.get(table=mine.table, kind="primary").max_cents == 100_000


def test_another_pits_changes_and_tables_are_not_found(
    mine: ProvisionedTable, elsewhere: ProvisionedTable, staff: Callable[..., AbstractUser]
) -> None:
    theirs = pending_change(elsewhere, staff("pit_boss", pits=(elsewhere.table.pit,)))
    client = signed_in(staff("pit_boss"))

    assert client.get(f"{LIST}{theirs.pk}/").status_code == 404
    assert client.post(f"{LIST}{theirs.pk}/approve/").status_code == 404
    assert client.get(f"{LIST}new/?table={elsewhere.table.pk}").status_code == 404
    assert "BJ-ELSEWHERE" not in client.get(LIST).content.decode()
    theirs.refresh_from_db()
    assert theirs.status == RuleChangeStatus.PENDING


def test_compliance_reads_every_change_and_acts_on_none(
    mine: ProvisionedTable, staff: Callable[..., AbstractUser]
) -> None:
    change = pending_change(mine, staff("floor_supervisor"))
    client = signed_in(staff("compliance", pits=()))

    listing = client.get(LIST)
    assert listing.status_code == 200
    assert "BJ-MINE" in listing.content.decode()
    assert "Request a change" not in listing.content.decode()
    assert b'id="approve"' not in client.get(f"{LIST}{change.pk}/").content
    assert client.get(f"{LIST}new/?table={mine.table.pk}").status_code == 403
    assert client.post(f"{LIST}{change.pk}/approve/").status_code == 403
    change.refresh_from_db()
    assert change.status == RuleChangeStatus.PENDING


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ({"limit_primary_max": "lots"}, "is not an amount in dollars"),
        ({"limit_primary_min": "-5"}, "cannot be negative"),
        ({"limit_primary_min": "5.001"}, "fraction of a cent"),
        ({"limit_primary_min": "0"}, "the minimum is more than $0.00"),
        ({"limit_primary_max": "4.00"}, "is below the minimum $5.00"),
        ({"limit_T17_max": "600.00"}, "more than half the primary maximum ($500.00)"),
        ({"rule_penetration_percent": "99"}, "less than or equal to 95"),
        ({"rule_aggregate_limit_cents": "0"}, "The aggregate limit is more than $0.00"),
        ({"reason": ""}, "Give the reason for the change."),
        ({"effective": "later", "effective_at_local": ""}, "Give the time the change takes effect."),
        ({}, "Nothing to change"),
    ],
)
def test_bad_input_is_refused_with_a_clear_error_and_records_nothing(
    mine: ProvisionedTable, staff: Callable[..., AbstractUser], typed: dict[str, str], message: str
) -> None:
    client = signed_in(staff("floor_supervisor"))

    response = client.post(f"{LIST}new/?table={mine.table.pk}", form_body(mine, **typed))

    assert response.status_code == 400
    assert message in response.content.decode()
    assert TableRuleChange.objects.count() == 0


def test_a_later_time_is_read_as_casino_local_time(
    mine: ProvisionedTable, staff: Callable[..., AbstractUser]
) -> None:
    client = signed_in(staff("floor_supervisor"))
    tomorrow = (timezone.now().astimezone(casino_zone()) + dt.timedelta(days=1)).replace(
        hour=18, minute=30, second=0, microsecond=0
    )
    typed = {
        "limit_primary_min": "25",
        "rule_surrender": "yes",
        "effective": "later",
        "effective_at_local": tomorrow.strftime("%Y-%m-%dT%H:%M"),
    }

    response = client.post(f"{LIST}new/?table={mine.table.pk}", form_body(mine, **typed))

    change = TableRuleChange.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"{LIST}{change.pk}/"
    assert change.effective_at == tomorrow
    assert change.changes == {"limits": {"primary": [2_500, 100_000]}, "rules": {"surrender": True}}


def test_a_rejection_needs_a_reason(mine: ProvisionedTable, staff: Callable[..., AbstractUser]) -> None:
    change = pending_change(mine, staff("floor_supervisor"))
    client = signed_in(staff("pit_boss"))

    without = client.post(f"{LIST}{change.pk}/reject/", {"reason": " "})
    assert without.status_code == 400
    assert "Give the reason for rejecting the change." in without.content.decode()
    change.refresh_from_db()
    assert change.status == RuleChangeStatus.PENDING

    rejected = client.post(f"{LIST}{change.pk}/reject/", {"reason": "Not this weekend"}, follow=True)
    assert "Rejected" in rejected.content.decode()
    change.refresh_from_db()
    assert (change.status, change.rejection_reason) == (RuleChangeStatus.REJECTED, "Not this weekend")


def test_signed_out_visitors_go_to_sign_in(client: Any) -> None:
    response = client.get(LIST)
    assert response.status_code == 302
    assert response["Location"].startswith("/floor/login/")
