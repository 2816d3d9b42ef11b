"""reject_paytable: compliance rejects a proposal, with a reason, never the proposer."""

from collections.abc import Callable

import pytest

from bonus_tie.models import PaytableProposal, PaytableStatus, PaytableVersion
from casino.models import StaffProfile
from kernel.errors import ServiceError
from kernel.problems import status_of
from tests.bonus_tie.conftest import Staff, approve, compute, events, propose, reject, state_of_paytables

pytestmark = pytest.mark.django_db


def refused(version: int, by: Staff, reason: str = "no") -> ServiceError:
    before = state_of_paytables()
    with pytest.raises(ServiceError) as caught:
        reject(version, by, reason)
    assert state_of_paytables() == before, "a refused rejection changes nothing"
    return caught.value


def test_compliance_rejects_with_a_reason_even_before_the_report(pit_boss: Staff, compliance: Staff) -> None:
    version = propose(pit_boss).version

    reject(version, compliance, "  T21 at 150 is above the regulator's cap  ")

    assert PaytableVersion.objects.get(version=version).status == PaytableStatus.REJECTED
    proposal = PaytableProposal.objects.get(paytable__version=version)
    assert proposal.rejected_by_id == compliance.user.pk
    assert proposal.rejected_at is not None
    assert proposal.rejection_reason == "T21 at 150 is above the regulator's cap"
    (event,) = events("bonus_tie.paytable.rejected")
    assert event.after == {"status": "rejected", "reason": "T21 at 150 is above the regulator's cap"}


def test_a_reason_is_required(pit_boss: Staff, compliance: Staff) -> None:
    version = propose(pit_boss).version

    error = refused(version, compliance, "  ")

    assert (status_of(error), error.code, error.field) == (422, "reason_required", "reason")


@pytest.mark.parametrize("role", ["pit_boss", "floor_supervisor", "admin"])
def test_only_compliance_rejects(pit_boss: Staff, staff: Callable[[str], Staff], role: str) -> None:
    version = propose(pit_boss).version

    error = refused(version, staff(role))

    assert (status_of(error), error.code) == (403, "role_not_allowed")


def test_a_decided_version_cannot_be_rejected(pit_boss: Staff, compliance: Staff) -> None:
    version = propose(pit_boss).version
    compute(version)
    approve(version, compliance)

    assert refused(version, compliance).code == "paytable_not_pending"
    assert refused(1, compliance).code == "paytable_not_pending"


def test_the_proposer_may_not_reject(pit_boss: Staff, compliance: Staff) -> None:
    version = propose(pit_boss).version
    # The proposer has since moved to compliance: still the same person.
    StaffProfile.objects.filter(user=pit_boss.user).update(role="compliance")
    same_person = Staff(user=pit_boss.user, role="compliance", client=pit_boss.client, token=pit_boss.token)

    error = refused(version, same_person)

    assert (status_of(error), error.code) == (403, "approver_is_proposer")
    assert PaytableVersion.objects.get(version=version).status == PaytableStatus.PROPOSED
    assert events("bonus_tie.paytable.rejected") == []
