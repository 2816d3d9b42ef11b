"""A fill or credit slip as the console shows it, on the table page, the cage's page and the
printed slip: who requested, approved and voided it, its chain of custody (the cage's issue or
receipt with the runner, the table's receipt with the dealer) and which buttons the viewer may use.
"""

import datetime as dt
from dataclasses import dataclass
from typing import Any

from casino.models import Dealer, StaffRole
from floor.access import may_act_on, role_of
from table_money.models import HANDOVER_STEPS, ChipSlip, HandoverStep, SlipHandover, SlipStatus


def person(user: Any) -> str:
    if user is None:
        return ""
    return str(user.get_full_name() or user.get_username())


def dealer_label(dealer: Dealer) -> str:
    """A dealer with their badge named once: a dealer provisioned without a name is called
    "Dealer <badge>" already."""
    return dealer.name if dealer.badge in dealer.name else f"{dealer.name} ({dealer.badge})"


@dataclass(frozen=True)
class ChainLine:
    """One signature of the slip's chain: what was done, by whom, when, and who else was there."""

    what: str
    who: str
    at: dt.datetime | None
    with_whom: str = ""


@dataclass(frozen=True)
class SlipRow:
    slip: ChipSlip
    requested_by: str
    approved_by: str
    voided_by: str
    void_reason: str
    voided_at: dt.datetime | None
    requested_by_viewer: bool
    chain: tuple[ChainLine, ...]  # every signature, requested to voided
    custody: tuple[ChainLine, ...]  # the cage's and the table's, after the approval
    next_step: HandoverStep | None  # the custody step still to sign, for an approved slip
    may_approve: bool  # the viewer may approve or void it (a pending slip)
    may_void: bool

    @property
    def is_pending(self) -> bool:
        return self.slip.status == SlipStatus.PENDING

    @property
    def is_void(self) -> bool:
        return self.slip.status == SlipStatus.VOID

    @property
    def awaits_table(self) -> bool:
        return self.next_step == HandoverStep.RECEIVED_AT_TABLE

    @property
    def awaits_cage(self) -> bool:
        return self.next_step in (HandoverStep.ISSUED_BY_CAGE, HandoverStep.RECEIVED_BY_CAGE)


def _handover_line(handover: SlipHandover) -> ChainLine:
    if handover.step == HandoverStep.RECEIVED_AT_TABLE:
        dealer = handover.dealer
        return ChainLine(
            "Received at the table",
            person(handover.signed_by),
            handover.signed_at,
            with_whom=f"counted in by {dealer_label(dealer)}" if dealer is not None else "",
        )
    runner = f"{handover.runner_name} (badge {handover.runner_badge})"
    if handover.step == HandoverStep.ISSUED_BY_CAGE:
        return ChainLine(
            "Issued by the cage", person(handover.signed_by), handover.signed_at, f"carried by {runner}"
        )
    return ChainLine(
        "Received by the cage", person(handover.signed_by), handover.signed_at, f"carried by {runner}"
    )


def requested_by(slip: ChipSlip) -> str:
    if slip.requested_by_dealer is not None:
        return f"{dealer_label(slip.requested_by_dealer)} at the terminal"
    return person(slip.requested_by_user)


def slip_row(slip: ChipSlip, *, viewer: Any) -> SlipRow:
    """The slip for this viewer (its handovers prefetched by the selector)."""
    void = getattr(slip, "void", None) if slip.status == SlipStatus.VOID else None
    handovers = sorted(
        slip.handovers.all(), key=lambda h: HANDOVER_STEPS[slip.kind].index(HandoverStep(h.step))
    )
    chain = [ChainLine("Requested", requested_by(slip), slip.requested_at)]
    if slip.approved_by is not None:
        chain.append(ChainLine("Approved", person(slip.approved_by), slip.approved_at))
    custody = tuple(_handover_line(handover) for handover in handovers)
    chain += custody
    if void is not None:
        chain.append(
            ChainLine("Voided", person(void.voided_by), void.voided_at, with_whom=f"“{void.reason}”")
        )
    done = {h.step for h in handovers}
    next_step = (
        next((step for step in HANDOVER_STEPS[slip.kind] if step not in done), None)
        if slip.status == SlipStatus.APPROVED
        else None
    )
    requested_by_viewer = slip.requested_by_user_id is not None and slip.requested_by_user_id == viewer.pk
    acts = may_act_on(viewer, slip.table) and not requested_by_viewer
    return SlipRow(
        slip=slip,
        requested_by=requested_by(slip),
        approved_by=person(slip.approved_by),
        voided_by=person(void.voided_by) if void else "",
        void_reason=void.reason if void else "",
        voided_at=void.voided_at if void else None,
        requested_by_viewer=requested_by_viewer,
        chain=tuple(chain),
        custody=custody,
        next_step=next_step,
        may_approve=acts and slip.status == SlipStatus.PENDING,
        may_void=acts and slip.status != SlipStatus.VOID,
    )


def cage_signs(viewer: Any, row: SlipRow) -> bool:
    """Whether this viewer signs the slip's next step at the cage (never who requested or
    approved it)."""
    return (
        role_of(viewer) == StaffRole.CAGE_CASHIER
        and row.awaits_cage
        and viewer.pk not in {row.slip.requested_by_user_id, row.slip.approved_by_id}
    )
