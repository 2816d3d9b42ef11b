"""Patrons: creating them, identifying them, finding them, and resolving the numbers the
terminals and the cage quote (`unknown_patron`, 422, for a number not on file).

The casino issues each patron's number from a PostgreSQL sequence when the record is created.
A patron may stay anonymous (a name or description, no identification) until Title 31 needs
them identified (`table_money.services.title31`). Each identification, and each correction of
one, is a new revision (`patrons.identification` holds its rules); all are audited.
"""

import datetime as dt
from collections.abc import Collection

from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.db.models import Q, QuerySet

from audit.context import AuditActor
from audit.services import record_event
from kernel.errors import ConflictError, NotFoundError, ServiceError, given_reason
from kernel.gaming_day import casino_zone
from patrons.identification import (
    IdentificationDetails,
    checked_details,
    details_of,
    identification_values,
    masked_number,
)
from patrons.models import PATRON_NUMBER_SEQUENCE, Patron, PatronIdentification

MAX_SEARCH_RESULTS = 50


def casino_today(now: dt.datetime) -> dt.date:
    return now.astimezone(casino_zone()).date()


def _unknown(number: int, *, field: str) -> ServiceError:
    return ServiceError("unknown_patron", f"No patron number {number} is on file.", field=field)


def resolve_patron(number: int | None, *, field: str = "patron") -> Patron | None:
    """The patron with this number (None for None); `unknown_patron` if there is none."""
    if number is None:
        return None
    patron = Patron.objects.filter(number=number).first()
    if patron is None:
        raise _unknown(number, field=field)
    return patron


def resolve_patron_ids(numbers: Collection[int], *, field: str = "patron") -> dict[int, int]:
    """Patron numbers to row ids in one query; `unknown_patron` for the first number not on file."""
    if not numbers:
        return {}
    ids = dict(Patron.objects.filter(number__in=set(numbers)).values_list("number", "pk"))
    for number in sorted(set(numbers)):
        if number not in ids:
            raise _unknown(number, field=field)
    return ids


def _clean_name(name: str) -> str:
    name = name.strip()
    if not name:
        raise ServiceError("name_required", "A patron needs a name or a description.", field="name")
    return name


def _patron_after(patron: Patron) -> dict[str, object]:
    return {"number": patron.number, "name": patron.name}


def _identification_after(identification: PatronIdentification) -> dict[str, object]:
    """The revision as the audit trail keeps it: the TIN masked (the row holds it)."""
    after = {
        name: value
        for name, value in identification_values(details_of(identification)).items()
        if name != "tin"
    }
    after["tin"] = masked_number(identification.tin)
    after["revision"] = identification.revision
    return {key: value.isoformat() if isinstance(value, dt.date) else value for key, value in after.items()}


def _record_identification(
    patron: Patron, details: IdentificationDetails, *, user: AbstractBaseUser, now: dt.datetime
) -> tuple[PatronIdentification, PatronIdentification | None]:
    """The patron's next identification revision, made current; and the one it follows, if any."""
    checked = checked_details(details, today=casino_today(now))
    previous = patron.current_identification
    identification = PatronIdentification.objects.create(
        patron=patron,
        revision=previous.revision + 1 if previous is not None else 1,
        **identification_values(checked),
        recorded_at=now,
        recorded_by_id=user.pk,
    )
    patron.current_identification = identification
    patron.name = checked.full_name
    patron.save(update_fields=["current_identification", "name"])
    return identification, previous


@transaction.atomic
def create_patron(
    *,
    name: str,
    identification: IdentificationDetails | None = None,
    user: AbstractBaseUser,
    actor: AuditActor,
    now: dt.datetime,
) -> Patron:
    """A patron on file under a name or a description, identified at once when `identification`
    is given."""
    name = _clean_name(name)
    if identification is not None:
        checked_details(identification, today=casino_today(now))  # refused before a number is drawn
    with connection.cursor() as cursor:
        cursor.execute("SELECT nextval(%s)", [PATRON_NUMBER_SEQUENCE])
        (number,) = cursor.fetchone()
    patron = Patron.objects.create(number=int(number), name=name, created_at=now, created_by_id=user.pk)
    after = _patron_after(patron)
    if identification is not None:
        revision, _ = _record_identification(patron, identification, user=user, now=now)
        after = {**after, "name": patron.name, "identification": _identification_after(revision)}
    record_event(
        event_type="casino.patron.created",
        actor=actor,
        table_id=None,
        table_name="",
        subject_type="patron",
        subject_id=str(patron.pk),
        subject_label=f"patron {patron.number}",
        after={**after, "described_as": name},
        occurred_at=now,
    )
    return patron


@transaction.atomic
def identify_patron(
    *,
    number: int,
    details: IdentificationDetails,
    user: AbstractBaseUser,
    actor: AuditActor,
    now: dt.datetime,
) -> Patron:
    """Record a patron's identification, or correct it: a new revision, the patron's current one;
    the earlier revisions stay as they were. The MTL entries and CTR worksheets already written
    keep the description they were written under; the patron's name becomes the one on the
    identification."""
    patron = (
        Patron.objects.select_for_update(of=("self",))
        .select_related("current_identification")
        .filter(number=number)
        .first()
    )
    if patron is None:
        raise NotFoundError("not_found", f"No patron number {number} is on file.")
    before = _patron_after(patron)
    identification, previous = _record_identification(patron, details, user=user, now=now)
    if previous is not None:
        before["identification"] = _identification_after(previous)
    record_event(
        event_type="casino.patron.identified"
        if previous is None
        else "casino.patron.identification_corrected",
        actor=actor,
        table_id=None,
        table_name="",
        subject_type="patron",
        subject_id=str(patron.pk),
        subject_label=f"patron {patron.number}",
        before=before,
        after={**_patron_after(patron), "identification": _identification_after(identification)},
        occurred_at=now,
    )
    return patron


def identification_history(*, patron: Patron) -> QuerySet[PatronIdentification]:
    """The patron's identification revisions, the latest first."""
    return patron.identifications.select_related("recorded_by").order_by("-revision")


EXCLUSION_REASON_MAX_LENGTH = 500


def _locked_patron(number: int) -> Patron:
    patron = Patron.objects.select_for_update(of=("self",)).filter(number=number).first()
    if patron is None:
        raise NotFoundError("not_found", f"No patron number {number} is on file.")
    return patron


def _record_exclusion(
    patron: Patron, *, event: str, reason: str, actor: AuditActor, now: dt.datetime
) -> None:
    record_event(
        event_type=f"casino.patron.{event}",
        actor=actor,
        table_id=None,
        table_name="",
        subject_type="patron",
        subject_id=str(patron.pk),
        subject_label=f"patron {patron.number}",
        before={"excluded": not patron.excluded},
        after={"excluded": patron.excluded, "reason": reason},
        occurred_at=now,
    )


@transaction.atomic
def exclude_patron(*, number: int, reason: str, actor: AuditActor, now: dt.datetime) -> Patron:
    """Mark a patron excluded (self-exclusion or barred): a tournament entry is then refused."""
    reason = given_reason(reason, max_length=EXCLUSION_REASON_MAX_LENGTH)
    patron = _locked_patron(number)
    if patron.excluded:
        raise ConflictError("patron_already_excluded", f"Patron {number} is already excluded.")
    patron.excluded, patron.exclusion_reason = True, reason
    patron.save(update_fields=["excluded", "exclusion_reason"])
    _record_exclusion(patron, event="excluded", reason=reason, actor=actor, now=now)
    return patron


@transaction.atomic
def reinstate_patron(*, number: int, reason: str, actor: AuditActor, now: dt.datetime) -> Patron:
    """Lift a patron's exclusion."""
    reason = given_reason(reason, max_length=EXCLUSION_REASON_MAX_LENGTH)
    patron = _locked_patron(number)
    if not patron.excluded:
        raise ConflictError("patron_not_excluded", f"Patron {number} is not excluded.")
    patron.excluded, patron.exclusion_reason = False, ""
    patron.save(update_fields=["excluded", "exclusion_reason"])
    _record_exclusion(patron, event="reinstated", reason=reason, actor=actor, now=now)
    return patron


def find_patrons(*, query: str) -> QuerySet[Patron]:
    """Patrons whose number is `query`, or whose name or identification reference contains it."""
    query = query.strip()
    patrons = Patron.objects.select_related("current_identification").order_by("number")
    if not query:
        return patrons.order_by("-number")[:MAX_SEARCH_RESULTS]
    condition = Q(name__icontains=query) | Q(current_identification__id_number__iexact=query)
    if query.isdigit() and len(query) <= 10:
        condition |= Q(number=int(query))
    return patrons.filter(condition)[:MAX_SEARCH_RESULTS]
