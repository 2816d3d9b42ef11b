"""approve_paytable: compliance approves a proposal with its report, never the proposer, and
a flagged report only with an explicit, audited override."""

from collections.abc import Callable

import pytest

from bonus_tie.models import PaytableStatus, PaytableVersion
from bonus_tie.selectors import get_paytable_in_force
from casino.models import StaffProfile
from kernel.errors import ServiceError
from kernel.problems import status_of
from tests.bonus_tie.conftest import (
    DEFAULT,
    LOW_PAYS,
    Staff,
    approve,
    compute,
    events,
    propose,
    reject,
    state_of_paytables,
)

pytestmark = pytest.mark.django_db


def proposed_with_report(by: Staff, pays: dict[str, int] | None = None) -> int:
    row = propose(by, LOW_PAYS if pays is None else pays)
    compute(row.version)
    return row.version


def refused(version: int, by: Staff, override_reason: str = "") -> ServiceError:
    before = state_of_paytables()
    with pytest.raises(ServiceError) as caught:
        approve(version, by, override_reason)
    assert state_of_paytables() == before, "a refused approval changes nothing"
    return caught.value


def test_compliance_approves_and_the_version_is_in_force(pit_boss: Staff, compliance: Staff) -> None:
    version = proposed_with_report(pit_boss)

    approve(version, compliance)

    row = PaytableVersion.objects.get(version=version)
    assert row.status == PaytableStatus.APPROVED
    assert row.approved_by_id == compliance.user.pk
    assert row.approved_at is not None
    assert row.override_reason == ""
    current = get_paytable_in_force()
    assert current is not None
    assert current.version == version
    (event,) = events("bonus_tie.paytable.approved")
    assert (event.subject_id, event.username, event.role) == (
        str(version),
        compliance.user.get_username(),
        "compliance",
    )
    assert event.before == {"status": "proposed"}
    assert event.after is not None
    assert (event.after["status"], event.after["flagged"]) == ("approved", [])
    assert events("bonus_tie.paytable.approved_with_override") == []


def test_the_proposer_may_not_approve(
    pit_boss: Staff, compliance: Staff, staff: Callable[[str], Staff]
) -> None:
    version = proposed_with_report(pit_boss)
    # The proposer has since moved to compliance: still the same person.
    StaffProfile.objects.filter(user=pit_boss.user).update(role="compliance")
    same_person = Staff(user=pit_boss.user, role="compliance", client=pit_boss.client, token=pit_boss.token)

    error = refused(version, same_person)

    assert (status_of(error), error.code) == (403, "approver_is_proposer")
    assert PaytableVersion.objects.get(version=version).status == PaytableStatus.PROPOSED


@pytest.mark.parametrize("role", ["pit_boss", "floor_supervisor", "admin"])
def test_only_compliance_approves(pit_boss: Staff, staff: Callable[[str], Staff], role: str) -> None:
    version = proposed_with_report(pit_boss)

    error = refused(version, staff(role))

    assert (status_of(error), error.code) == (403, "role_not_allowed")


def test_a_flagged_report_is_refused_without_an_override(pit_boss: Staff, compliance: Staff) -> None:
    version = proposed_with_report(pit_boss, DEFAULT)

    error = refused(version, compliance)
    blank = refused(version, compliance, "   \n ")

    assert (status_of(error), error.code, error.field) == (422, "paytable_flagged", "override_reason")
    assert "T17" in error.detail  # names what is flagged
    assert blank.code == "paytable_flagged"


def test_a_flagged_report_is_approved_with_an_override_reason_on_record(
    pit_boss: Staff, compliance: Staff
) -> None:
    version = proposed_with_report(pit_boss, DEFAULT)
    flagged = PaytableVersion.objects.get(version=version).report["flagged"]  # type: ignore[index]

    approve(
        version, compliance, "  Steering needs a bonus bet of half the primary; our limits cap it at 5%.  "
    )

    row = PaytableVersion.objects.get(version=version)
    assert row.status == PaytableStatus.APPROVED
    assert row.override_reason == "Steering needs a bonus bet of half the primary; our limits cap it at 5%."
    (event,) = events("bonus_tie.paytable.approved_with_override")
    assert event.after is not None
    assert event.after["override_reason"] == row.override_reason
    assert event.after["flagged"] == flagged
    assert events("bonus_tie.paytable.approved") == []


def test_an_override_reason_for_an_unflagged_report_is_refused(pit_boss: Staff, compliance: Staff) -> None:
    version = proposed_with_report(pit_boss)

    error = refused(version, compliance, "just in case")

    assert (status_of(error), error.code) == (422, "override_not_needed")


def test_approval_waits_for_the_report(pit_boss: Staff, compliance: Staff) -> None:
    version = propose(pit_boss).version

    error = refused(version, compliance)

    assert (status_of(error), error.code) == (409, "report_pending")
    compute(version)
    assert approve(version, compliance).status == PaytableStatus.APPROVED


def test_a_rejected_version_cannot_be_approved(pit_boss: Staff, compliance: Staff) -> None:
    version = proposed_with_report(pit_boss)
    reject(version, compliance)

    error = refused(version, compliance)

    assert (status_of(error), error.code) == (409, "paytable_not_pending")


def test_an_approved_version_cannot_be_approved_again(
    pit_boss: Staff, compliance: Staff, staff: Callable[[str], Staff]
) -> None:
    version = proposed_with_report(pit_boss)
    approve(version, compliance)

    error = refused(version, staff("compliance"))

    assert (status_of(error), error.code) == (409, "paytable_not_pending")
    assert refused(1, compliance).code == "paytable_not_pending"  # the migration's version 1


def test_an_older_proposal_cannot_be_approved_after_a_newer_one(pit_boss: Staff, compliance: Staff) -> None:
    older = proposed_with_report(pit_boss)
    newer = proposed_with_report(pit_boss)
    approve(newer, compliance)

    error = refused(older, compliance)

    assert (status_of(error), error.code) == (409, "paytable_superseded")


def test_an_unknown_version_is_not_found(compliance: Staff) -> None:
    error = refused(99, compliance)

    assert (status_of(error), error.code) == (404, "not_found")
