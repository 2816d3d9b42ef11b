"""The admin shows the audit trail read-only, to compliance only, and exports a gaming day."""

import datetime as dt

import pytest
from django.http import StreamingHttpResponse
from django.test import Client

from audit.models import AuditEvent
from tests.audit.conftest import append
from tests.support.factories import StaffProfileFactory

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.audit.urls")]

CHANGELIST = "/admin/audit/auditevent/"
EXPORT = "/admin/audit/auditevent/export/"


def _login(role: str) -> Client:
    user = StaffProfileFactory.create(role=role, user__username=f"admin-{role}", user__is_staff=True).user
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def event() -> AuditEvent:
    return append(occurred_at=dt.datetime(2026, 11, 20, 15, 0, tzinfo=dt.UTC), subject_label="round 77")


def test_compliance_sees_the_events_read_only(event) -> None:
    client = _login("compliance")

    listing = client.get(CHANGELIST)
    detail = client.get(f"{CHANGELIST}{event.pk}/change/")

    assert listing.status_code == 200
    assert b"round 77" in listing.content
    assert b"Export a gaming day" in listing.content
    assert detail.status_code == 200
    assert b'name="_save"' not in detail.content
    assert client.get(f"{CHANGELIST}add/").status_code == 403
    assert client.post(f"{CHANGELIST}{event.pk}/delete/").status_code == 403
    assert (
        client.post(CHANGELIST, {"action": "delete_selected", "_selected_action": [event.pk]}).status_code
        == 200
    )
    assert AuditEvent.objects.filter(pk=event.pk).exists()


def test_compliance_exports_a_gaming_day_and_the_export_is_recorded(settings, event) -> None:
    settings.CASINO_TIME_ZONE = "America/Los_Angeles"
    client = _login("compliance")

    form = client.get(EXPORT)
    response = client.get(EXPORT, {"gaming_day": "2026-11-20", "format": "csv"})

    assert form.status_code == 200
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="audit-2026-11-20.csv"'
    assert isinstance(response, StreamingHttpResponse)
    lines = b"".join(response.streaming_content).decode().splitlines()
    assert len(lines) == 2
    assert lines[1].startswith(f"{event.seq},{event.pk},2026-11-20,")
    assert lines[1].endswith(f",{event.hash},casino,2")
    recorded = AuditEvent.objects.get(event_type="audit.export.downloaded")
    assert (recorded.username, recorded.subject_id) == ("admin-compliance", "2026-11-20")


def test_a_bad_export_request_shows_the_form_again() -> None:
    response = _login("compliance").get(EXPORT, {"gaming_day": "someday", "format": "pdf"})

    assert response.status_code == 200
    assert b"errorlist" in response.content


def test_an_admin_role_without_superuser_cannot_see_or_export(event) -> None:
    client = _login("admin")

    assert client.get(CHANGELIST).status_code == 403
    assert client.get(EXPORT, {"gaming_day": "2026-11-20", "format": "csv"}).status_code == 403


@pytest.mark.parametrize("role", ["pit_boss", "floor_supervisor", "cage_cashier", "count_team"])
def test_floor_staff_flagged_staff_by_hand_are_sent_to_sign_in_and_export_nothing(role: str, event) -> None:
    # The admin site admits no floor role at all (casino.admin_site), whatever its is_staff flag.
    client = _login(role)

    listing = client.get(CHANGELIST)
    export = client.get(EXPORT, {"gaming_day": "2026-11-20", "format": "csv"})

    for response in (listing, export):
        assert response.status_code == 302
        assert response["Location"].startswith("/admin/login/")
    assert not AuditEvent.objects.filter(event_type="audit.export.downloaded").exists()


@pytest.mark.parametrize(
    "url",
    [
        "/admin/",
        "/admin/audit/auditevent/?q=abc",
        "/admin/audit/auditevent/?occurred_at__year=2026",
        "/admin/audit/auditevent/?q=casino",
        "/admin/audit/auditcheckpoint/",
        "/admin/audit/auditanchor/",
        "/admin/history/tablehistory/?q=abc",
        "/admin/history/userhistory/?q=1",
        "/admin/history/paytableversionhistory/",
    ],
)
def test_every_audit_admin_page_renders(url: str, event) -> None:
    assert _login("compliance").get(url).status_code == 200
