"""Paytable approval tests: staff actors, small shoes, and shortcuts through the services.

A full 6-deck review takes a few seconds, so every report here is computed on a small custom
shoe (`SMALL_SHOE`, five card values, a fraction of a second).
On that shoe the paytable of all-1 pays flags nothing, and the default paytable is flagged
(the player can steer towards ties that the default pays reward).
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.test import APIClient

from audit.context import AuditActor
from audit.models import AuditEvent
from bonus_tie import services
from bonus_tie.engine.kinds import BONUS_KINDS
from bonus_tie.engine.paytable import DEFAULT_PAYS
from bonus_tie.models import PaytableProposal, PaytableVersion
from casino.services.provisioning import ProvisionedStaff

# Aces, sevens, eights, nines and ten-value cards: 32 cards, five up cards.
SMALL_SHOE = (4, 0, 0, 0, 0, 0, 4, 4, 4, 16)
SMALL_SHOE_ARG = ",".join(str(count) for count in SMALL_SHOE)
LOW_PAYS: dict[str, int] = {kind.value: 1 for kind in BONUS_KINDS}  # flags nothing on SMALL_SHOE
DEFAULT: dict[str, int] = {str(kind): pays for kind, pays in DEFAULT_PAYS.items()}  # flagged on SMALL_SHOE
SYSTEM = AuditActor(kind="system", username="tests")


@dataclass(frozen=True)
class Staff:
    user: User
    role: str
    client: APIClient
    token: str

    @property
    def actor(self) -> AuditActor:
        return AuditActor(
            kind="user", user_id=self.user.pk, username=self.user.get_username(), role=self.role
        )


@pytest.fixture
def staff(make_staff: Callable[[str], tuple[ProvisionedStaff, APIClient]]) -> Callable[[str], Staff]:
    def make(role: str) -> Staff:
        provisioned, client = make_staff(role)
        return Staff(user=cast(User, provisioned.user), role=role, client=client, token=provisioned.token)

    return make


@pytest.fixture
def pit_boss(staff: Callable[[str], Staff]) -> Staff:
    return staff("pit_boss")


@pytest.fixture
def compliance(staff: Callable[[str], Staff]) -> Staff:
    return staff("compliance")


def propose(by: Staff, pays: dict[str, Any] | None = None, **rules: Any) -> PaytableVersion:
    return services.propose_paytable(
        pays=LOW_PAYS if pays is None else pays,
        user=by.user,
        role=by.role,
        actor=by.actor,
        now=timezone.now(),
        **rules,
    )


def compute(
    version: int, *, composition: tuple[int, ...] = SMALL_SHOE, workers: int = 0
) -> PaytableVersion | None:
    return services.compute_paytable_report(
        version=version, actor=SYSTEM, composition=composition, workers=workers
    )


def approve(version: int, by: Staff, override_reason: str = "") -> PaytableVersion:
    return services.approve_paytable(
        version=version,
        override_reason=override_reason,
        user=by.user,
        role=by.role,
        actor=by.actor,
        now=timezone.now(),
    )


def reject(version: int, by: Staff, reason: str = "pays too high for our floor") -> PaytableVersion:
    return services.reject_paytable(
        version=version, reason=reason, user=by.user, role=by.role, actor=by.actor, now=timezone.now()
    )


def state_of_paytables() -> list[Any]:
    """Everything a refused request must leave as it was."""
    versions = list(
        PaytableVersion.objects.order_by("version").values_list(
            "version", "status", "pays", "approved_by_id", "approved_at", "override_reason", "report"
        )
    )
    proposals = list(
        PaytableProposal.objects.order_by("pk").values_list(
            "pk", "flagged", "report_computed_at", "rejected_by_id", "rejected_at", "rejection_reason"
        )
    )
    events = AuditEvent.objects.filter(event_type__startswith="bonus_tie.").count()
    return [*versions, *proposals, events]


def events(event_type: str) -> list[AuditEvent]:
    return list(AuditEvent.objects.filter(event_type=event_type).order_by("seq"))
