"""Patrons: creating them, identifying them, finding them, and resolving the numbers the
terminals and the cage quote (`unknown_patron`, 422, for a number not on file).

The casino issues each patron's number from a PostgreSQL sequence when the record is created.
A patron may stay anonymous (a name or description, no identification) until Title 31 needs
them identified (`table_money.services.title31`); identifying them later is an audited change.
"""

import datetime as dt
from collections.abc import Collection

from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.db.models import Q, QuerySet

from audit.context import AuditActor
from audit.services import record_event
from kernel.errors import ConflictError, NotFoundError, ServiceError, given_reason
from patrons.models import PATRON_NUMBER_SEQUENCE, IdentificationType, Patron

MAX_SEARCH_RESULTS = 50


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


def _clean(name: str, identification_type: str, identification_reference: str) -> tuple[str, str, str]:
    name, reference = name.strip(), identification_reference.strip()
    if not name:
        raise ServiceError("name_required", "A patron needs a name or a description.", field="name")
    if identification_type and identification_type not in IdentificationType.values:
        raise ServiceError(
            "invalid_identification_type",
            f"Identification is one of {', '.join(IdentificationType.values)}.",
            field="identification_type",
        )
    if bool(identification_type) != bool(reference):
        raise ServiceError(
            "identification_incomplete",
            "Identification needs both its type and its reference (or neither, for an anonymous patron).",
            field="identification_reference" if identification_type else "identification_type",
        )
    return name, identification_type, reference


def _patron_after(patron: Patron) -> dict[str, object]:
    return {
        "number": patron.number,
        "name": patron.name,
        "identification_type": patron.identification_type,
        "identification_reference": patron.identification_reference,
    }


def _record(
    patron: Patron,
    *,
    event: str,
    before: dict[str, object] | None,
    after: dict[str, object],
    actor: AuditActor,
    now: dt.datetime,
) -> None:
    record_event(
        event_type=f"casino.patron.{event}",
        actor=actor,
        table_id=None,
        table_name="",
        subject_type="patron",
        subject_id=str(patron.pk),
        subject_label=f"patron {patron.number}",
        before=before,
        after=after,
        occurred_at=now,
    )


@transaction.atomic
def create_patron(
    *,
    name: str,
    identification_type: str = "",
    identification_reference: str = "",
    user: AbstractBaseUser,
    actor: AuditActor,
    now: dt.datetime,
) -> Patron:
    name, identification_type, identification_reference = _clean(
        name, identification_type, identification_reference
    )
    with connection.cursor() as cursor:
        cursor.execute("SELECT nextval(%s)", [PATRON_NUMBER_SEQUENCE])
        (number,) = cursor.fetchone()
    patron = Patron.objects.create(
        number=int(number),
        name=name,
        identification_type=identification_type,
        identification_reference=identification_reference,
        created_at=now,
        created_by_id=user.pk,
    )
    _record(patron, event="created", before=None, after=_patron_after(patron), actor=actor, now=now)
    return patron


@transaction.atomic
def identify_patron(
    *,
    number: int,
    name: str,
    identification_type: str,
    identification_reference: str,
    actor: AuditActor,
    now: dt.datetime,
) -> Patron:
    """Record a patron's identification (and their name as on it). CTR worksheets already written
    keep what they said; the compliance page shows the patron as identified from now on."""
    patron = _locked_patron(number)
    name, identification_type, identification_reference = _clean(
        name, identification_type, identification_reference
    )
    if not identification_type:
        raise ServiceError(
            "identification_incomplete",
            "Identifying a patron needs the type and reference.",
            field="identification_type",
        )
    if patron.is_identified:
        raise ConflictError("patron_already_identified", f"Patron {number} is already identified.")
    before = _patron_after(patron)
    patron.name, patron.identification_type, patron.identification_reference = (
        name,
        identification_type,
        identification_reference,
    )
    patron.save(update_fields=["name", "identification_type", "identification_reference"])
    _record(patron, event="identified", before=before, after=_patron_after(patron), actor=actor, now=now)
    return patron


EXCLUSION_REASON_MAX_LENGTH = 500


def _locked_patron(number: int) -> Patron:
    patron = Patron.objects.select_for_update(of=("self",)).filter(number=number).first()
    if patron is None:
        raise NotFoundError("not_found", f"No patron number {number} is on file.")
    return patron


def _record_exclusion(
    patron: Patron, *, event: str, reason: str, actor: AuditActor, now: dt.datetime
) -> None:
    _record(
        patron,
        event=event,
        before={"excluded": not patron.excluded},
        after={"excluded": patron.excluded, "reason": reason},
        actor=actor,
        now=now,
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
    patrons = Patron.objects.order_by("number")
    if not query:
        return patrons.order_by("-number")[:MAX_SEARCH_RESULTS]
    condition = Q(name__icontains=query) | Q(identification_reference__iexact=query)
    if query.isdigit() and len(query) <= 10:
        condition |= Q(number=int(query))
    return patrons.filter(condition)[:MAX_SEARCH_RESULTS]
