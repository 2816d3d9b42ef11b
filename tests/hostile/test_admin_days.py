"""The admin's own typed days go through the same bound (`kernel.gaming_day`): the shift-report PDF
link and the audit trail's export of a gaming day refuse a day at the calendar's ends with a clear
sentence, where the end of gaming day 9999-12-31 used to overflow into a 500."""

import importlib
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.http import StreamingHttpResponse
from django.test import Client
from django.urls import clear_url_caches

import config.urls
from audit.models import AuditEvent
from casino.services.provisioning import ProvisionedStaff
from tests.support.factories import StaffProfileFactory

pytestmark = pytest.mark.django_db

ABSURD_DAYS = ["0001-01-01", "9999-12-31", "1999-12-31"]


@pytest.fixture(autouse=True)
def admin_urls() -> Iterator[None]:
    importlib.reload(config.urls)  # the admin's URLs include pages registered after the first import
    clear_url_caches()
    yield
    clear_url_caches()


@pytest.mark.parametrize("day", ABSURD_DAYS)
def test_the_admin_shift_pdf_of_a_day_outside_the_window_is_a_clear_400(
    make_staff: Callable[[str], tuple[ProvisionedStaff, Any]], day: str
) -> None:
    staff, _ = make_staff("admin")  # the admin site's shift reports are the admin's alone
    client = Client()
    assert client.login(username=staff.user.get_username(), password=staff.password)

    answer = client.get(f"/admin/reports/shiftreport/pdf/{day}/day/")

    assert answer.status_code == 400
    assert answer.content.decode().startswith(
        f"{day} is not a gaming day this casino keeps: give a day from 2000-01-01"
    )


@pytest.mark.parametrize("day", ABSURD_DAYS)
def test_the_audit_export_of_a_day_outside_the_window_shows_the_form_again(day: str) -> None:
    user = StaffProfileFactory.create(
        role="compliance", user__username="admin-compliance-days", user__is_staff=True
    ).user
    client = Client()
    client.force_login(user)
    events = AuditEvent.objects.count()

    answer = client.get("/admin/audit/auditevent/export/", {"gaming_day": day, "format": "csv"})

    assert answer.status_code == 200
    assert not isinstance(answer, StreamingHttpResponse)
    assert f"{day} is not a gaming day this casino keeps" in answer.content.decode()
    assert AuditEvent.objects.count() == events  # no export was recorded
