"""Filing with FinCEN: a CTR worksheet's filing, and the SAR referral queue (31 CFR 1021.311, .320).

A CTR worksheet is due 15 calendar days after its gaming day (`table_money.engine.title31`).
Compliance records its filing (the date and the BSA ID FinCEN returned) once the gaming day is
over, on the latest revision of the worksheet, for a patron whose current identification gives
everything Form 112 asks of the person.

Any staff member who deals with patrons may refer one, or a transaction, as suspicious; compliance
decides (a SAR filed, with its BSA ID, or no SAR, with the reason). A SAR is confidential
(1021.320(e)): the referrer is told their referral is recorded and nothing after.
"""

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction

from audit.context import AuditActor
from audit.services import record_event
from kernel.errors import ConflictError, ServiceError
from kernel.gaming_day import casino_zone, gaming_day_and_shift
from patrons.identification import details_of, missing_for_filing
from patrons.models import Patron, PatronIdentification
from table_money.engine.title31 import ctr_due_on, is_bsa_id
from table_money.locks import lock_ctr_worksheet, lock_sar_referral
from table_money.models import CtrFiling, CtrWorksheet, SarDecision, SarOutcome, SarReferral

MAX_NARRATIVE = 4000


def _local_date(now: dt.datetime) -> dt.date:
    return now.astimezone(casino_zone()).date()


def _checked_bsa_id(bsa_id: str) -> str:
    bsa_id = bsa_id.strip()
    if not is_bsa_id(bsa_id):
        raise ServiceError(
            "invalid_bsa_id", "A BSA ID is the 14 digits FinCEN's BSA E-Filing returns.", field="bsa_id"
        )
    return bsa_id


def _checked_filed_on(filed_on: dt.date, *, not_before: dt.date, now: dt.datetime) -> dt.date:
    if filed_on > _local_date(now):
        raise ServiceError("invalid_filed_on", "A filing date cannot be in the future.", field="filed_on")
    if filed_on < not_before:
        raise ServiceError(
            "invalid_filed_on", f"It was filed on or after {not_before.isoformat()}.", field="filed_on"
        )
    return filed_on


def _bsa_id_in_use(bsa_id: str) -> ConflictError:
    return ConflictError("bsa_id_in_use", f"BSA ID {bsa_id} is already recorded for another report.")


@contextmanager
def _recorded_once(bsa_id: str) -> Iterator[None]:
    """The report's row written under a savepoint: a BSA ID another report committed meanwhile (the
    unique constraint) is refused as in use. The report's own row is locked, so nothing else
    collides."""
    try:
        with transaction.atomic():
            yield
    except IntegrityError:
        raise _bsa_id_in_use(bsa_id) from None


def _check_bsa_id_unused(bsa_id: str) -> None:
    if CtrFiling.objects.filter(bsa_id=bsa_id).exists() or SarDecision.objects.filter(bsa_id=bsa_id).exists():
        raise _bsa_id_in_use(bsa_id)


def _ctr_label(worksheet: CtrWorksheet) -> str:
    who = f"patron {worksheet.patron.number}" if worksheet.patron is not None else worksheet.description
    return f"CTR {worksheet.direction.replace('_', '-')} {worksheet.gaming_day} {who}"[:200]


def _check_fileable(worksheet: CtrWorksheet, *, now: dt.datetime) -> None:
    latest = (
        CtrWorksheet.objects.filter(
            subject_key=worksheet.subject_key, gaming_day=worksheet.gaming_day, direction=worksheet.direction
        )
        .order_by("-revision")
        .values_list("revision", flat=True)
        .first()
    )
    if latest != worksheet.revision:
        raise ConflictError(
            "ctr_superseded",
            f"Revision {latest} of this worksheet is the one to file, not {worksheet.revision}.",
        )
    current_day, _ = gaming_day_and_shift(now)
    if worksheet.gaming_day >= current_day:
        raise ConflictError(
            "gaming_day_not_over", "The gaming day is not over: more cash may still be added to it."
        )
    if CtrFiling.objects.filter(worksheet=worksheet).exists():
        raise ConflictError("ctr_already_filed", "This worksheet's filing is already recorded.")


def _identification_for_filing(patron: Patron | None) -> PatronIdentification:
    """The patron's current identification, when it gives everything Form 112 needs."""
    if patron is None:
        raise ConflictError(
            "identification_required",
            "The person is not on file: put them on file and identify them, then file.",
        )
    current = patron.current_identification
    if current is None:
        raise ConflictError("identification_required", f"Patron {patron.number} is not identified.")
    missing = missing_for_filing(details_of(current))
    if missing:
        raise ConflictError(
            "identification_required",
            f"Patron {patron.number}'s identification lacks what the CTR needs: {', '.join(missing)}.",
        )
    return current


@transaction.atomic
def record_ctr_filing(
    *,
    worksheet_id: int,
    bsa_id: str,
    filed_on: dt.date,
    user: AbstractBaseUser,
    actor: AuditActor,
    now: dt.datetime,
) -> CtrFiling:
    """Record that a CTR worksheet was filed with FinCEN, once."""
    bsa_id = _checked_bsa_id(bsa_id)
    worksheet = lock_ctr_worksheet(worksheet_id=worksheet_id)
    filed_on = _checked_filed_on(filed_on, not_before=worksheet.gaming_day, now=now)
    _check_fileable(worksheet, now=now)
    identification = _identification_for_filing(worksheet.patron)
    _check_bsa_id_unused(bsa_id)
    with _recorded_once(bsa_id):
        filing = CtrFiling.objects.create(
            worksheet=worksheet,
            identification=identification,
            filed_on=filed_on,
            bsa_id=bsa_id,
            filed_by_id=user.pk,
            recorded_at=now,
        )
    record_event(
        event_type="compliance.ctr.filed",
        actor=actor,
        table_id=None,
        table_name="",
        subject_type="ctr_worksheet",
        subject_id=str(worksheet.pk),
        subject_label=_ctr_label(worksheet),
        after={
            "revision": worksheet.revision,
            "total_cents": worksheet.total_cents,
            "bsa_id": bsa_id,
            "filed_on": filed_on.isoformat(),
            "due_on": ctr_due_on(worksheet.gaming_day).isoformat(),
            "identification_revision": filing.identification.revision,
        },
        occurred_at=now,
    )
    return filing


def _checked_narrative(text: str, *, field: str, what: str) -> str:
    text = text.strip()
    if not text:
        raise ServiceError(f"{field}_required", f"Write the {what}.", field=field)
    if len(text) > MAX_NARRATIVE:
        raise ServiceError(f"invalid_{field}", f"At most {MAX_NARRATIVE} characters.", field=field)
    if "\x00" in text:
        raise ServiceError(f"invalid_{field}", "The text holds a NUL character.", field=field)
    return text


@transaction.atomic
def refer_suspicious_activity(
    *,
    patron: Patron | None,
    description: str,
    gaming_day: dt.date,
    amount_cents: int | None,
    narrative: str,
    user: AbstractBaseUser,
    role: str,
    actor: AuditActor,
    now: dt.datetime,
) -> SarReferral:
    """A referral for compliance's queue: a patron on file, or someone described; what was seen."""
    description = description.strip()
    if patron is None and not description:
        raise ServiceError(
            "subject_required", "Name the patron (their number) or describe the person.", field="patron"
        )
    if len(description) > 150:
        raise ServiceError("invalid_description", "At most 150 characters.", field="description")
    if amount_cents is not None and (isinstance(amount_cents, bool) or amount_cents <= 0):
        raise ServiceError("invalid_amount", "An amount is more than zero cents.", field="amount_cents")
    current_day, _ = gaming_day_and_shift(now)
    if gaming_day > current_day:
        raise ServiceError(
            "invalid_gaming_day", "The gaming day cannot be in the future.", field="gaming_day"
        )
    referral = SarReferral.objects.create(
        patron=patron,
        description=description,
        gaming_day=gaming_day,
        amount_cents=amount_cents,
        narrative=_checked_narrative(
            narrative, field="narrative", what="what was seen and why it is suspicious"
        ),
        referred_by_id=user.pk,
        referred_by_role=role,
        referred_at=now,
    )
    # The subject is the referral only: the audit trail names no patron, so that reading it does not
    # reveal that someone is suspected.
    record_event(
        event_type="compliance.sar.referred",
        actor=actor,
        table_id=None,
        table_name="",
        subject_type="sar_referral",
        subject_id=str(referral.pk),
        subject_label=f"SAR referral {referral.pk}",
        after={"referral": referral.pk, "gaming_day": gaming_day.isoformat()},
        occurred_at=now,
    )
    return referral


@transaction.atomic
def decide_sar_referral(
    *,
    referral_id: int,
    outcome: str,
    bsa_id: str,
    filed_on: dt.date | None,
    reason: str,
    user: AbstractBaseUser,
    actor: AuditActor,
    now: dt.datetime,
) -> SarDecision:
    """Close a referral: a SAR filed (its BSA ID and date) or no SAR (the reason). Once."""
    if outcome not in SarOutcome.values:
        raise ServiceError("invalid_outcome", "The outcome is sar_filed or no_sar.", field="outcome")
    referral = lock_sar_referral(referral_id=referral_id)
    if SarDecision.objects.filter(referral=referral).exists():
        raise ConflictError("sar_already_decided", f"SAR referral {referral.pk} is already decided.")
    if outcome == SarOutcome.SAR_FILED:
        bsa_id = _checked_bsa_id(bsa_id)
        if filed_on is None:
            raise ServiceError("invalid_filed_on", "Give the date the SAR was filed.", field="filed_on")
        filed_on = _checked_filed_on(filed_on, not_before=_local_date(referral.referred_at), now=now)
        reason = reason.strip()
        if len(reason) > MAX_NARRATIVE or "\x00" in reason:
            raise ServiceError(
                "invalid_reason", f"At most {MAX_NARRATIVE} characters of text.", field="reason"
            )
        _check_bsa_id_unused(bsa_id)
    else:
        if bsa_id.strip() or filed_on is not None:
            raise ServiceError(
                "invalid_outcome",
                "No SAR was filed: a BSA ID or filing date does not belong.",
                field="bsa_id",
            )
        reason = _checked_narrative(reason, field="reason", what="reason no SAR is filed")
        bsa_id, filed_on = "", None
    with _recorded_once(bsa_id):
        decision = SarDecision.objects.create(
            referral=referral,
            outcome=outcome,
            bsa_id=bsa_id,
            filed_on=filed_on,
            reason=reason,
            decided_by_id=user.pk,
            decided_at=now,
        )
    record_event(
        event_type="compliance.sar.decided",
        actor=actor,
        table_id=None,
        table_name="",
        subject_type="sar_referral",
        subject_id=str(referral.pk),
        subject_label=f"SAR referral {referral.pk}",
        after={"outcome": outcome, "bsa_id": bsa_id, "filed_on": filed_on.isoformat() if filed_on else None},
        occurred_at=now,
    )
    return decision
