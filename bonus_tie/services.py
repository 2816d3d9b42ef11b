"""Paytable versions and their approval (RULES.md §1.4, PAYTABLE.md): one use case per function.

- `propose_paytable`: a pit boss (or admin) proposes the pays and the house rules to review them
  under; the version is stored with the next number, status `proposed` and no report, and the
  report's computation is enqueued once the proposal commits.
- `compute_paytable_report`: the engine's review (a few seconds on a full shoe), run outside
  any transaction, then stored; idempotent (a version that has its report, or was rejected, is
  skipped). Called by the Celery task `bonus_tie.tasks.compute_paytable_report`.
- `queue_missing_reports`: at the service's start (and on an operator's command), queue the
  report of every proposed or approved version that has none (version 1 on a new install), and
  record when it was queued, so the pages say "queued" only when it is.
- `queue_report_for_rules`: when a table is provisioned or its house rules change, queue (once
  the change commits) the report of the paytable in force under the table's rules when neither
  the version's own report nor a `RulesReport` covers them (surrender included); until it is
  computed, the handle of its rounds is reported unpriced (`reports.paytable_edges`).
- `compute_rules_report`: that report's computation, stored once, as `compute_paytable_report`.
- `approve_paytable`: compliance only, never the proposer (maker-checker), only a proposed
  version whose report exists; a report with a steering flag needs an explicit override with a
  reason, which is stored and audited.
- `reject_paytable`: compliance, never the proposer either, with a reason.

Role checks are here as well as on the API views, so the admin site gets the same rules.
Every refusal raises before anything is written; every change records its audit event in the
same transaction.
"""

import datetime as dt
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, cast

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from audit.context import AuditActor
from audit.services import record_event
from blackjack.engine.rules import BLACKJACK_PAYS, DealerRule, HouseRules, check_house_rule
from blackjack.mappers import rules_from_json, rules_to_json
from bonus_tie.engine.kinds import BONUS_KINDS
from bonus_tie.engine.task_map import Progress
from bonus_tie.locks import lock_paytable_numbering, lock_paytable_version
from bonus_tie.mappers import paytable_for
from bonus_tie.models import PaytableProposal, PaytableStatus, PaytableVersion, RulesReport
from bonus_tie.reports import DEFAULT_WORKERS, flagged_of, review_to_json, run_review
from bonus_tie.selectors import (
    REPORTED_STATUSES,
    get_paytable_in_force,
    get_paytable_version,
    get_version_in_force,
    list_versions_missing_report,
)
from casino.models import StaffRole
from kernel.errors import ConflictError, ForbiddenError, NotFoundError, ServiceError

logger = logging.getLogger(__name__)

COMPUTE_TASK = "bonus_tie.tasks.compute_paytable_report"
RULES_REPORT_TASK = "bonus_tie.tasks.compute_rules_report"
PROPOSER_ROLES = (StaffRole.PIT_BOSS, StaffRole.ADMIN)
APPROVER_ROLES = (StaffRole.COMPLIANCE,)
# A guard against typos and integer overflow, far above any real pay (the default's top is 350).
MAX_PAYS = 100_000
MAX_REASON_LENGTH = 2000
SUBJECT_TYPE = "paytable"
# A report queued this long ago and still missing is queued again (its message was lost).
REQUEUE_AFTER = dt.timedelta(minutes=30)


# --- checks ------------------------------------------------------------------------------------


def _require_role(role: str | None, allowed: Sequence[str], message: str) -> None:
    if role not in allowed:
        raise ForbiddenError("role_not_allowed", message)


def clean_pays(pays: object) -> dict[str, int]:
    """The pays in bet-kind order, after checking there is one whole `N to 1` figure per bonus kind."""
    if not isinstance(pays, Mapping):
        raise ServiceError(
            "invalid_pays", "`pays` is an object of bet kind to `N to 1` figure.", field="pays"
        )
    known = {kind.value for kind in BONUS_KINDS}
    unknown = sorted(str(key) for key in pays if key not in known)
    if unknown:
        shown = ", ".join(repr(key[:20]) for key in unknown[:5])
        raise ServiceError(
            "unknown_wager_kind",
            f"Not a tie-bonus bet kind: {shown}. The kinds are {' '.join(k.value for k in BONUS_KINDS)}.",
            field=f"pays.{unknown[0][:20]}",
        )
    missing = [kind.value for kind in BONUS_KINDS if kind.value not in pays]
    if missing:
        raise ServiceError(
            "missing_pay",
            f"Every bet kind needs its pay; missing: {', '.join(missing)}.",
            field=f"pays.{missing[0]}",
        )
    clean: dict[str, int] = {}
    for kind in BONUS_KINDS:
        value = pays[kind.value]
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_PAYS:
            raise ServiceError(
                "invalid_pay",
                f"The pay of {kind.value} must be a whole number from 1 to {MAX_PAYS} (`N to 1`).",
                field=f"pays.{kind.value}",
            )
        clean[kind.value] = value
    return clean


def review_rules(
    *, decks: object = 6, h17: bool = False, blackjack_pays: str = "3:2", surrender: object = False
) -> HouseRules:
    """The house rules a report is computed for: RULES.md's defaults except these four (late
    surrender, RULES.md §1.2, only where the house rule allows it)."""
    check_house_rule("decks", decks)
    check_house_rule("blackjack_pays", blackjack_pays)
    check_house_rule("surrender", surrender)
    return HouseRules(
        decks=cast(int, decks),
        dealer=DealerRule.H17 if h17 else DealerRule.S17,
        blackjack_pays=BLACKJACK_PAYS[blackjack_pays],
        surrender=cast(bool, surrender),
    )


def _reason(text: str, *, field: str) -> str:
    reason = text.strip()
    if len(reason) > MAX_REASON_LENGTH:
        raise ServiceError("reason_too_long", f"At most {MAX_REASON_LENGTH} characters.", field=field)
    return reason


def _refuse_the_proposer(row: PaytableVersion, *, user: AbstractBaseUser, verb: str) -> None:
    """Maker-checker both ways: whoever proposed a version neither approves nor rejects it."""
    if row.proposed_by_id is not None and row.proposed_by_id == user.pk:
        raise ForbiddenError(
            "approver_is_proposer",
            f"Paytable v{row.version} was proposed by you; another person must {verb} it.",
        )


def _label(row: PaytableVersion) -> str:
    return f"paytable v{row.version}"


def _proposal(row: PaytableVersion) -> PaytableProposal | None:
    try:
        return row.proposal
    except PaytableProposal.DoesNotExist:
        return None


def _rules_of(row: PaytableVersion) -> HouseRules:
    proposal = _proposal(row)
    return rules_from_json(proposal.rules) if proposal is not None else HouseRules()


# --- side effects ------------------------------------------------------------------------------


def _enqueue_report(*, version: int) -> None:
    """Hand the report's computation to the task queue, then record when (after the send, so a
    queue that cannot be reached leaves no claim that it was queued)."""
    from celery import current_app as app  # the configured app, whichever process this runs in

    app.send_task(COMPUTE_TASK, kwargs={"version": version})
    PaytableProposal.objects.filter(paytable__version=version).update(report_queued_at=timezone.now())


def _enqueue_report_on_commit(*, version: int) -> None:
    """Enqueue the report once the proposal commits (by name: services do not import the task
    layer). A broker failure is logged and never undoes the proposal; the admin action
    "compute the missing report" enqueues it again."""
    transaction.on_commit(lambda: _enqueue_report(version=version), robust=True)


def _report_summary(report: Mapping[str, Any]) -> dict[str, Any]:
    """What the audit event of a computed report records of it."""
    return {
        "rules_summary": report["rules_summary"],
        "flagged": report["flagged"],
        "house_edge": {r["kind"]: r["house_edge"] for r in report["house_edge"]["rows"]},
        "elapsed_seconds": report["elapsed_seconds"],
    }


# --- use cases ---------------------------------------------------------------------------------


@transaction.atomic
def propose_paytable(
    *,
    pays: object,
    decks: object = 6,
    h17: bool = False,
    blackjack_pays: str = "3:2",
    surrender: object = False,
    user: AbstractBaseUser,
    role: str | None,
    actor: AuditActor,
    now: dt.datetime,
) -> PaytableVersion:
    _require_role(role, PROPOSER_ROLES, "Only a pit boss or an admin may propose a paytable.")
    clean = clean_pays(pays)
    rules = review_rules(decks=decks, h17=h17, blackjack_pays=blackjack_pays, surrender=surrender)
    lock_paytable_numbering()
    number = (PaytableVersion.objects.aggregate(top=Max("version"))["top"] or 0) + 1
    row = PaytableVersion.objects.create(
        version=number,
        pays=clean,
        status=PaytableStatus.PROPOSED,
        proposed_by_id=user.pk,
        proposed_at=now,
        report=None,
    )
    PaytableProposal.objects.create(paytable=row, rules=rules_to_json(rules))
    record_event(
        event_type="bonus_tie.paytable.proposed",
        actor=actor,
        table_id=None,
        table_name="",
        subject_type=SUBJECT_TYPE,
        subject_id=str(number),
        subject_label=_label(row),
        before=None,
        after={"version": number, "status": row.status, "pays": clean, "rules": rules_to_json(rules)},
        occurred_at=now,
    )
    _enqueue_report_on_commit(version=number)
    return row


def compute_paytable_report(
    *,
    version: int,
    actor: AuditActor,
    composition: Sequence[int] | None = None,
    workers: int = DEFAULT_WORKERS,
    progress: Progress | None = None,
    clock: Callable[[], dt.datetime] = timezone.now,
) -> PaytableVersion | None:
    """Compute and store the report of a proposed or approved version (version 1 has no report
    until its first start); None when there was nothing to do.

    The computation runs outside any transaction (it takes a few seconds on a full shoe);
    the write locks the row and stores the report only if it is still missing, so a task
    delivered twice computes at most twice and stores once. `composition` (ten counts, Ace ..
    ten) replaces the full shoe: for tests and what-if studies; the report records it.
    """
    row = get_paytable_version(version=version)
    if row is None:
        raise NotFoundError("not_found", f"No paytable version {version}.")
    if row.report is not None or row.status not in REPORTED_STATUSES:
        return None
    rules = _rules_of(row)
    timed = run_review(
        paytable=paytable_for(row),
        rules=rules,
        composition=composition,
        workers=workers,
        progress=progress,
    )
    now = clock()
    report = review_to_json(timed, computed_at=now.isoformat())
    with transaction.atomic(durable=True):
        locked = lock_paytable_version(version=version)
        if locked.report is not None:
            return None
        locked.report = report
        locked.save(update_fields=["report"])
        PaytableProposal.objects.update_or_create(
            paytable=locked,
            defaults={"flagged": bool(report["flagged"]), "report_computed_at": now},
            create_defaults={
                "rules": rules_to_json(rules),
                "flagged": bool(report["flagged"]),
                "report_computed_at": now,
            },
        )
        record_event(
            event_type="bonus_tie.paytable.report_computed",
            actor=actor,
            table_id=None,
            table_name="",
            subject_type=SUBJECT_TYPE,
            subject_id=str(version),
            subject_label=_label(locked),
            before={"report": None},
            after=_report_summary(report),
            occurred_at=now,
        )
    return locked


@transaction.atomic
def approve_paytable(
    *,
    version: int,
    override_reason: str = "",
    user: AbstractBaseUser,
    role: str | None,
    actor: AuditActor,
    now: dt.datetime,
) -> PaytableVersion:
    """Approve a proposed version: it is in force from each table's next round.

    Refusals, in the order checked: `role_not_allowed` (403, not compliance), `not_found` (404),
    `approver_is_proposer` (403), `paytable_not_pending` (409, approved or rejected already),
    `report_pending` (409), `paytable_superseded` (409, a newer version is approved already),
    `paytable_flagged` (422, flagged and no override reason), `override_not_needed` (422, an
    override reason for a report that flags nothing).
    """
    _require_role(role, APPROVER_ROLES, "Only compliance may approve a paytable.")
    reason = _reason(override_reason, field="override_reason")
    row = lock_paytable_version(version=version)
    _refuse_the_proposer(row, user=user, verb="approve")
    if row.status != PaytableStatus.PROPOSED:
        raise ConflictError(
            "paytable_not_pending",
            f"Paytable v{version} is {row.status}; only a proposed version can be decided.",
        )
    if row.report is None:
        raise ConflictError(
            "report_pending",
            f"Paytable v{version} has no report yet; approve it when its report is in.",
        )
    in_force = get_version_in_force()
    if in_force is not None and in_force > version:
        raise ConflictError(
            "paytable_superseded",
            f"Paytable v{in_force} is approved already; approving the older v{version} would change nothing.",
        )
    flagged = flagged_of(row.report) or []
    if flagged and not reason:
        raise ServiceError(
            "paytable_flagged",
            f"The steering check flags {', '.join(flagged)}: the player can get an edge. Approving it needs "
            "an override with a reason.",
            field="override_reason",
        )
    if reason and not flagged:
        raise ServiceError(
            "override_not_needed",
            f"The report of paytable v{version} flags nothing; approve it without an override reason.",
            field="override_reason",
        )
    row.status = PaytableStatus.APPROVED
    row.approved_by_id = user.pk
    row.approved_at = now
    row.override_reason = reason
    row.save(update_fields=["status", "approved_by", "approved_at", "override_reason"])
    after: dict[str, Any] = {
        "status": row.status,
        "pays": row.pays,
        "rules_summary": row.report.get("rules_summary", ""),
        "flagged": flagged,
    }
    if flagged:
        after["override_reason"] = reason
    record_event(
        event_type="bonus_tie.paytable.approved_with_override" if flagged else "bonus_tie.paytable.approved",
        actor=actor,
        table_id=None,
        table_name="",
        subject_type=SUBJECT_TYPE,
        subject_id=str(version),
        subject_label=_label(row),
        before={"status": PaytableStatus.PROPOSED.value},
        after=after,
        occurred_at=now,
    )
    return row


@transaction.atomic
def reject_paytable(
    *,
    version: int,
    reason: str,
    user: AbstractBaseUser,
    role: str | None,
    actor: AuditActor,
    now: dt.datetime,
) -> PaytableVersion:
    """Reject a proposed version (with or without its report). Refusals: `role_not_allowed`
    (403), `reason_required` (422), `not_found` (404), `approver_is_proposer` (403),
    `paytable_not_pending` (409)."""
    _require_role(role, APPROVER_ROLES, "Only compliance may reject a paytable.")
    text = _reason(reason, field="reason")
    if not text:
        raise ServiceError("reason_required", "Say why the paytable is rejected.", field="reason")
    row = lock_paytable_version(version=version)
    _refuse_the_proposer(row, user=user, verb="reject")
    if row.status != PaytableStatus.PROPOSED:
        raise ConflictError(
            "paytable_not_pending",
            f"Paytable v{version} is {row.status}; only a proposed version can be decided.",
        )
    row.status = PaytableStatus.REJECTED
    row.save(update_fields=["status"])
    PaytableProposal.objects.update_or_create(
        paytable=row,
        defaults={"rejected_by_id": user.pk, "rejected_at": now, "rejection_reason": text},
        create_defaults={
            "rules": rules_to_json(HouseRules()),
            "rejected_by_id": user.pk,
            "rejected_at": now,
            "rejection_reason": text,
        },
    )
    record_event(
        event_type="bonus_tie.paytable.rejected",
        actor=actor,
        table_id=None,
        table_name="",
        subject_type=SUBJECT_TYPE,
        subject_id=str(version),
        subject_label=_label(row),
        before={"status": PaytableStatus.PROPOSED.value},
        after={"status": row.status, "reason": text},
        occurred_at=now,
    )
    return row


def request_missing_report(*, version: int) -> bool:
    """Enqueue the report of a proposed or approved version that has none (after a broker or
    worker failure, or version 1 on a new install). Harmless when it is computing already: the
    task stores a report once. True if enqueued."""
    row = get_paytable_version(version=version)
    if row is None or row.report is not None or row.status not in REPORTED_STATUSES:
        return False
    _ensure_proposal(row)
    _enqueue_report(version=version)
    return True


def queue_missing_reports(*, now: dt.datetime) -> list[int]:
    """Queue the report of every proposed or approved version without one, unless it was queued
    less than `REQUEUE_AFTER` ago (so each start of the service queues it once, and a message
    lost with a broker is queued again later). Returns the versions queued, oldest first."""
    queued = []
    for row in list_versions_missing_report(statuses=REPORTED_STATUSES):
        proposal = _proposal(row)
        last = proposal.report_queued_at if proposal is not None else None
        if last is not None and now - last < REQUEUE_AFTER:
            continue
        _ensure_proposal(row)
        _enqueue_report(version=row.version)
        queued.append(row.version)
    return queued


def _ensure_proposal(row: PaytableVersion) -> None:
    """The row that records the report's rules and queue time (a version older than proposals
    has none: its report is for the default house rules)."""
    PaytableProposal.objects.get_or_create(paytable=row, defaults={"rules": rules_to_json(HouseRules())})


# --- reports under the house rules of the tables ------------------------------------------------


def edge_rules(rules: HouseRules) -> dict[str, Any]:
    """The rules a report is keyed by: `rules` with the two that move no edge (insurance offered,
    the cut card's penetration) at their defaults, as `rules_to_json`."""
    defaults = HouseRules()
    return rules_to_json(
        replace(rules, insurance=defaults.insurance, penetration_percent=defaults.penetration_percent)
    )


def _enqueue_rules_report(*, report_id: int) -> None:
    from celery import current_app as app  # the configured app, whichever process this runs in

    app.send_task(RULES_REPORT_TASK, kwargs={"report_id": report_id})
    RulesReport.objects.filter(pk=report_id).update(queued_at=timezone.now())


def queue_report_for_rules(*, rules: HouseRules) -> bool:
    """Queue, once the caller's transaction commits, the report of the paytable in force under
    `rules` when none covers them yet: the version's own report is for its proposal's rules, any
    other rules get a `RulesReport`. True if a report is queued. A broker failure is logged and
    undoes nothing (`queue_missing_reports` queues it again at the next start)."""
    row = get_paytable_in_force()
    if row is None:
        return False
    key = edge_rules(rules)
    if edge_rules(_rules_of(row)) == key:
        if row.report is not None:
            return False
        _ensure_proposal(row)
        _enqueue_report_on_commit(version=row.version)
        return True
    report, _ = RulesReport.objects.get_or_create(paytable=row, rules=key)
    if report.report is not None:
        return False
    report_id = report.pk
    transaction.on_commit(lambda: _enqueue_rules_report(report_id=report_id), robust=True)
    return True


def compute_rules_report(
    *,
    report_id: int,
    actor: AuditActor,
    composition: Sequence[int] | None = None,
    workers: int = DEFAULT_WORKERS,
    clock: Callable[[], dt.datetime] = timezone.now,
) -> RulesReport | None:
    """Compute and store a paytable version's report under a table's rules (as
    `compute_paytable_report`: outside any transaction, then stored once under the row lock);
    None when it was computed already."""
    row = RulesReport.objects.select_related("paytable").filter(pk=report_id).first()
    if row is None:
        raise NotFoundError("not_found", f"No rules report {report_id}.")
    if row.report is not None:
        return None
    rules = rules_from_json(row.rules)
    timed = run_review(
        paytable=paytable_for(row.paytable), rules=rules, composition=composition, workers=workers
    )
    now = clock()
    report = review_to_json(timed, computed_at=now.isoformat())
    with transaction.atomic(durable=True):
        locked = RulesReport.objects.select_for_update().get(pk=report_id)
        if locked.report is not None:
            return None
        locked.report = report
        locked.computed_at = now
        locked.save(update_fields=["report", "computed_at"])
        record_event(
            event_type="bonus_tie.paytable.rules_report_computed",
            actor=actor,
            table_id=None,
            table_name="",
            subject_type=SUBJECT_TYPE,
            subject_id=str(row.paytable.version),
            subject_label=_label(row.paytable),
            before={"report": None},
            after=_report_summary(report),
            occurred_at=now,
        )
    locked.paytable = row.paytable
    return locked


def queue_missing_rules_reports(*, now: dt.datetime) -> list[RulesReport]:
    """Queue every report under a table's rules not computed yet (its message lost with a broker
    that could not be reached, or a worker that died), unless queued less than `REQUEUE_AFTER`
    ago. Returns those queued."""
    queued = []
    for row in RulesReport.objects.filter(report__isnull=True).select_related("paytable").order_by("pk"):
        if row.queued_at is not None and now - row.queued_at < REQUEUE_AFTER:
            continue
        _enqueue_rules_report(report_id=row.pk)
        queued.append(row)
    return queued
