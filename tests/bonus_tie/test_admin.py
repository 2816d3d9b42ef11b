"""The paytable admin: the stored report beside the decision, and the same rules as the API."""

import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client

from bonus_tie.models import PaytableStatus, PaytableVersion
from casino.models import StaffProfile
from tests.bonus_tie.conftest import DEFAULT, Staff, compute, events, propose, state_of_paytables

pytestmark = pytest.mark.django_db


def logged_in(staff: Staff) -> Client:
    client = Client()
    client.force_login(staff.user)
    return client


def pk_of(version: int) -> int:
    return PaytableVersion.objects.get(version=version).pk


def test_the_change_page_shows_the_report_with_its_flags_highlighted(
    pit_boss: Staff, compliance: Staff
) -> None:
    version = propose(pit_boss, DEFAULT).version
    compute(version)

    page = logged_in(compliance).get(f"/admin/bonus_tie/paytableversion/{pk_of(version)}/change/")

    assert page.status_code == 200
    html = page.content.decode()
    assert "FLAGGED: T17" in html
    assert "PLAYER AHEAD" in html
    assert "<th>house edge %</th>" in html
    assert "<td>TBJ</td><td>350 to 1</td>" in html
    assert "Approve…" in html


def test_the_change_page_lists_the_report_of_each_rule_set_with_its_edges(
    pit_boss: Staff, compliance: Staff
) -> None:
    version = propose(pit_boss, DEFAULT, decks=8, h17=True, surrender=True).version
    client = logged_in(compliance)
    url = f"/admin/bonus_tie/paytableversion/{pk_of(version)}/change/"

    pending = client.get(url).content.decode()
    report = compute(version)
    ready = client.get(url).content.decode()

    assert report is not None
    assert report.report is not None
    row = r'<tr class="rules-report {0}"><td>8</td><td>H17</td><td>yes</td><td>3:2</td><td>{0}</td>'
    assert re.search(row.format("pending"), pending)
    t17 = next(line["house_edge"] for line in report.report["house_edge"]["rows"] if line["kind"] == "T17")
    ready_row = re.search(row.format("ready") + r"(.*?)</tr>", ready)
    assert ready_row is not None
    assert f"<td>{100 * t17:.3f}</td>" in ready_row.group(1)


def test_the_list_shows_pending_and_flagged_versions(pit_boss: Staff, compliance: Staff) -> None:
    flagged = propose(pit_boss, DEFAULT).version
    compute(flagged)
    propose(pit_boss)

    html = logged_in(compliance).get("/admin/bonus_tie/paytableversion/").content.decode()

    # The second proposal's report was never queued (the test's transaction never commits)
    assert "not computed" in html
    assert "report queued" not in html
    assert "FLAGGED:" in html


def test_compliance_approves_a_flagged_paytable_with_an_override_from_the_admin(
    pit_boss: Staff, compliance: Staff
) -> None:
    version = propose(pit_boss, DEFAULT).version
    compute(version)
    url = f"/admin/bonus_tie/paytableversion/{pk_of(version)}/approve/"
    client = logged_in(compliance)

    page = client.get(url)
    assert page.status_code == 200
    assert "Approving it is an override" in page.content.decode()
    assert "PLAYER AHEAD" in page.content.decode()  # the report beside the form
    before = state_of_paytables()
    refused = client.post(url, {"override_reason": ""})
    assert refused.status_code == 200
    assert "Refused (paytable_flagged)" in refused.content.decode()
    assert state_of_paytables() == before

    done = client.post(url, {"override_reason": "Limits cap the steering stake."}, follow=True)

    assert done.status_code == 200
    assert f"Paytable v{version} approved." in done.content.decode()
    row = PaytableVersion.objects.get(version=version)
    assert (row.status, row.override_reason, row.approved_by_id) == (
        PaytableStatus.APPROVED,
        "Limits cap the steering stake.",
        compliance.user.pk,
    )
    (event,) = events("bonus_tie.paytable.approved_with_override")
    assert (event.username, event.role) == (compliance.user.get_username(), "compliance")


def test_the_admin_cannot_approve_from_the_admin(pit_boss: Staff, staff: Callable[[str], Staff]) -> None:
    version = propose(pit_boss).version
    compute(version)
    before = state_of_paytables()

    response = logged_in(staff("admin")).post(
        f"/admin/bonus_tie/paytableversion/{pk_of(version)}/approve/", {}
    )

    assert "Refused (role_not_allowed)" in response.content.decode()
    assert state_of_paytables() == before


@pytest.mark.parametrize("role", ["pit_boss", "floor_supervisor"])
def test_a_floor_role_does_not_reach_the_approve_page(
    pit_boss: Staff, staff: Callable[[str], Staff], role: str
) -> None:
    # The admin site admits no floor role (casino.admin_site): a pit boss proposes through the API.
    version = propose(pit_boss).version
    compute(version)
    before = state_of_paytables()

    response = logged_in(staff(role)).post(f"/admin/bonus_tie/paytableversion/{pk_of(version)}/approve/", {})

    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")
    assert state_of_paytables() == before


def moved_to_compliance(staff: Staff) -> None:
    """The staff member now works in compliance, and so is staff of the admin site."""
    StaffProfile.objects.filter(user=staff.user).update(role="compliance")
    User.objects.filter(pk=staff.user.pk).update(is_staff=True)


def test_the_proposer_cannot_approve_from_the_admin(pit_boss: Staff) -> None:
    version = propose(pit_boss).version
    compute(version)
    moved_to_compliance(pit_boss)
    before = state_of_paytables()

    response = logged_in(pit_boss).post(f"/admin/bonus_tie/paytableversion/{pk_of(version)}/approve/", {})

    assert "Refused (approver_is_proposer)" in response.content.decode()
    assert state_of_paytables() == before


def test_the_proposer_cannot_reject_from_the_admin_either(pit_boss: Staff) -> None:
    version = propose(pit_boss).version
    moved_to_compliance(pit_boss)
    before = state_of_paytables()

    response = logged_in(pit_boss).post(
        f"/admin/bonus_tie/paytableversion/{pk_of(version)}/reject/", {"reason": "Changed my mind."}
    )

    assert "Refused (approver_is_proposer)" in response.content.decode()
    assert state_of_paytables() == before
    assert events("bonus_tie.paytable.rejected") == []


def test_the_proposer_is_shown_no_decision_form_nor_buttons(pit_boss: Staff) -> None:
    version = propose(pit_boss).version
    compute(version)
    moved_to_compliance(pit_boss)
    client = logged_in(pit_boss)

    change = client.get(f"/admin/bonus_tie/paytableversion/{pk_of(version)}/change/").content.decode()
    decide = client.get(f"/admin/bonus_tie/paytableversion/{pk_of(version)}/approve/").content.decode()

    assert "Approve…" not in change
    assert "Awaiting a decision by compliance (never by its proposer)." in change
    assert "You proposed this paytable: another person must decide on it." in decide
    assert 'id="paytable-decision-form"' not in decide


def test_the_admin_is_shown_no_decision_buttons_nor_the_decide_action(
    pit_boss: Staff, staff: Callable[[str], Staff], compliance: Staff
) -> None:
    version = propose(pit_boss).version
    change_url = f"/admin/bonus_tie/paytableversion/{pk_of(version)}/change/"

    admin = logged_in(staff("admin"))
    admin_change = admin.get(change_url).content.decode()
    admin_list = admin.get("/admin/bonus_tie/paytableversion/").content.decode()
    compliance_change = logged_in(compliance).get(change_url).content.decode()
    compliance_list = logged_in(compliance).get("/admin/bonus_tie/paytableversion/").content.decode()

    assert "Approve…" not in admin_change
    assert "Awaiting a decision by compliance" in admin_change
    assert "decide_selected" not in admin_list
    assert "Approve…" in compliance_change
    assert "decide_selected" in compliance_list


def test_compliance_rejects_from_the_admin(pit_boss: Staff, compliance: Staff) -> None:
    version = propose(pit_boss).version

    client = logged_in(compliance)
    url = f"/admin/bonus_tie/paytableversion/{pk_of(version)}/reject/"
    done = client.post(url, {"reason": "Not for this floor."}, follow=True)

    assert f"Paytable v{version} rejected." in done.content.decode()
    assert PaytableVersion.objects.get(version=version).status == PaytableStatus.REJECTED
    assert len(events("bonus_tie.paytable.rejected")) == 1


def test_the_decide_action_opens_the_approval_page(pit_boss: Staff, compliance: Staff) -> None:
    version = propose(pit_boss).version
    pk = pk_of(version)

    response = logged_in(compliance).post(
        "/admin/bonus_tie/paytableversion/", {"action": "decide_selected", "_selected_action": [str(pk)]}
    )

    assert response.status_code == 302
    assert response["Location"] == f"/admin/bonus_tie/paytableversion/{pk}/approve/"


def test_a_missing_report_can_be_enqueued_again(
    pit_boss: Staff, compliance: Staff, monkeypatch: pytest.MonkeyPatch
) -> None:
    from config.celery import app

    sent: list[tuple[str, dict[str, int]]] = []
    monkeypatch.setattr(app, "send_task", lambda name, kwargs: sent.append((name, kwargs)))
    pending = propose(pit_boss).version
    done = propose(pit_boss).version
    compute(done)

    logged_in(compliance).post(
        "/admin/bonus_tie/paytableversion/",
        {"action": "compute_missing_report", "_selected_action": [str(pk_of(pending)), str(pk_of(done))]},
    )

    assert sent == [("bonus_tie.tasks.compute_paytable_report", {"version": pending})]
