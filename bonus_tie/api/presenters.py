"""Plain dicts of paytable versions for the API (documented by `PaytableOutput`)."""

from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from bonus_tie.models import PaytableProposal, PaytableStatus, PaytableVersion
from bonus_tie.reports import flagged_of, pays_in_order
from bonus_tie.selectors import list_reports_by_rules


def _name(user: AbstractBaseUser | None) -> str | None:
    return user.get_username() if user is not None else None


def _proposal(row: PaytableVersion) -> PaytableProposal | None:
    try:
        return row.proposal
    except PaytableProposal.DoesNotExist:
        return None


def report_status(row: PaytableVersion) -> str:
    if row.report is not None:
        return "ready"
    return "pending" if row.status == PaytableStatus.PROPOSED else "none"


def paytable_payload(row: PaytableVersion, *, in_force: int | None) -> dict[str, Any]:
    proposal = _proposal(row)
    return {
        "version": row.version,
        "status": row.status,
        "in_force": row.version == in_force,
        "pays": pays_in_order(row.pays),
        "rules": proposal.rules if proposal is not None else None,
        "proposed_by": _name(row.proposed_by),
        "proposed_at": row.proposed_at,
        "approved_by": _name(row.approved_by),
        "approved_at": row.approved_at,
        "override_reason": row.override_reason,
        "rejected_by": _name(proposal.rejected_by) if proposal is not None else None,
        "rejected_at": proposal.rejected_at if proposal is not None else None,
        "rejection_reason": proposal.rejection_reason if proposal is not None else "",
        "report_status": report_status(row),
        "flagged": flagged_of(row.report),
        "report": row.report,
        "reports_by_rules": list_reports_by_rules(row),
    }
