"""The soft count of a table's drop box, by the count team (DESIGN.md, Roles: two members per count).

- `record_soft_count`: one member enters the count (currency by denomination, markers as a total)
  and signs it; a count already entered for the same table and period is superseded by the new one
  (a correction is a new count, never an edit).
- `sign_soft_count`: a second, different member of the count team signs it; from then on it is the
  counted drop of its period, and the table's stored reports of that period are regenerated.

The period is a shift, or the whole gaming day when the casino counts once a day
(`CASINO_SOFT_COUNT_PER`). Both services lock the table first, then write, then audit.
"""

import datetime as dt
import re
from collections.abc import Mapping

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from audit.context import AuditActor
from audit.services import record_event
from casino.locks import lock_table
from casino.models import StaffRole, Table
from casino.services.report_refresh import refresh_reports_on_commit
from kernel.errors import ConflictError, ForbiddenError, NotFoundError, ServiceError
from kernel.gaming_day import SHIFTS, DayOutOfBoundsError, check_gaming_day, shift_bounds
from table_money.models import WHOLE_DAY, SoftCount

# Bills in the drop box, in cents: $1, $2, $5, $10, $20, $50, $100.
CURRENCY_DENOMINATIONS_CENTS: frozenset[int] = frozenset({100, 200, 500, 1_000, 2_000, 5_000, 10_000})
SHIFT_NAMES: tuple[str, ...] = tuple(name for name, _ in SHIFTS)
_DENOMINATION_KEY = re.compile(r"^[1-9][0-9]{0,9}$")
MAX_BILLS = 1_000_000
MAX_MARKERS_CENTS = 10**12


def counts_per_shift() -> bool:
    return str(getattr(settings, "CASINO_SOFT_COUNT_PER", "shift")) == "shift"


def shifts_of_period(shift: str) -> tuple[str, ...]:
    """The shifts a count covers: its own, or every shift of the day for a whole-day count."""
    return (shift,) if shift else SHIFT_NAMES


def _check_count_team(user: AbstractBaseUser) -> None:
    profile = getattr(user, "staff", None)
    if profile is None or profile.role != StaffRole.COUNT_TEAM:
        raise ForbiddenError("role_not_allowed", "Only members of the count team enter and sign soft counts.")


def currency_total_cents(currency: Mapping[str, int]) -> int:
    """The value of bills given as {denomination in cents (text): count}."""
    total = 0
    for key, count in currency.items():
        if not _DENOMINATION_KEY.match(key) or int(key) not in CURRENCY_DENOMINATIONS_CENTS:
            raise ServiceError(
                "unknown_denomination",
                f"{key[:20]!r} is not a bill denomination (cents: "
                f"{', '.join(str(d) for d in sorted(CURRENCY_DENOMINATIONS_CENTS))}).",
                field=f"currency.{key}"[:100],
            )
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_BILLS:
            raise ServiceError(
                "invalid_bill_count",
                f"Bill counts are whole numbers from 0 to {MAX_BILLS}.",
                field="currency",
            )
        total += int(key) * count
    return total


def _period_shift(shift: str | None) -> str:
    if counts_per_shift():
        if shift not in SHIFT_NAMES:
            raise ServiceError(
                "invalid_shift",
                f"The casino counts each shift: name the shift ({', '.join(SHIFT_NAMES)}).",
                field="shift",
            )
        return shift
    if shift:
        raise ServiceError(
            "invalid_shift",
            "The casino counts once per gaming day: leave the shift out.",
            field="shift",
        )
    return WHOLE_DAY


def _audit(
    *,
    event_type: str,
    count: SoftCount,
    table: Table,
    actor: AuditActor,
    now: dt.datetime,
    after: dict[str, object],
) -> None:
    record_event(
        event_type=event_type,
        actor=actor,
        table_id=table.pk,
        table_name=table.name,
        subject_type="soft_count",
        subject_id=str(count.pk),
        subject_label=f"soft count of {table.name}, {count.period_label}",
        after=after,
        occurred_at=now,
    )


@transaction.atomic
def record_soft_count(
    *,
    table_id: int,
    gaming_day: dt.date,
    shift: str | None,
    currency: Mapping[str, int],
    markers_cents: int,
    user: AbstractBaseUser,
    actor: AuditActor,
    now: dt.datetime,
) -> SoftCount:
    """Enter a count, signed by its counter; it supersedes the period's current count, if any."""
    _check_count_team(user)
    period_shift = _period_shift(shift)
    if (
        isinstance(markers_cents, bool)
        or not isinstance(markers_cents, int)
        or not 0 <= markers_cents <= MAX_MARKERS_CENTS
    ):
        raise ServiceError("invalid_amount", "Markers are whole cents from 0.", field="markers_cents")
    currency_cents = currency_total_cents(currency)
    try:
        check_gaming_day(gaming_day, now=now)
    except DayOutOfBoundsError as refused:
        raise ServiceError(refused.code, refused.message, field="gaming_day") from None
    start, _ = shift_bounds(gaming_day, period_shift or SHIFT_NAMES[0])
    if start > now:
        raise ServiceError(
            "count_period_in_future",
            f"{'The ' + period_shift + ' shift of ' if period_shift else 'Gaming day '}{gaming_day.isoformat()} "
            "has not begun: its drop box cannot be counted yet.",
            field="gaming_day",
        )
    table, _ = lock_table(table_id=table_id)
    current = (
        SoftCount.objects.filter(
            table=table, gaming_day=gaming_day, shift=period_shift, superseded_by__isnull=True
        )
        .order_by("-pk")
        .first()
    )
    count = SoftCount.objects.create(
        table=table,
        gaming_day=gaming_day,
        shift=period_shift,
        currency={key: n for key, n in sorted(currency.items(), key=lambda kv: int(kv[0])) if n},
        currency_cents=currency_cents,
        markers_cents=markers_cents,
        total_cents=currency_cents + markers_cents,
        supersedes=current,
        counted_by_id=user.pk,
        counted_at=now,
    )
    _audit(
        event_type="casino.soft_count.recorded",
        count=count,
        table=table,
        actor=actor,
        now=now,
        after={
            "gaming_day": gaming_day.isoformat(),
            "shift": period_shift,
            "currency": count.currency,
            "currency_cents": currency_cents,
            "markers_cents": markers_cents,
            "total_cents": count.total_cents,
            "counted_by": user.get_username(),
            "supersedes": current.pk if current is not None else None,
        },
    )
    return count


@transaction.atomic
def sign_soft_count(
    *, count_id: int, user: AbstractBaseUser, actor: AuditActor, now: dt.datetime
) -> SoftCount:
    """The second signature: another member of the count team; the count then takes effect."""
    _check_count_team(user)
    table_id = SoftCount.objects.filter(pk=count_id).values_list("table_id", flat=True).first()
    if table_id is None:
        raise NotFoundError("not_found", f"No soft count {count_id}.")
    table, _ = lock_table(table_id=table_id)
    count = SoftCount.objects.select_for_update(of=("self",)).get(pk=count_id)
    if count.witnessed_by_id is not None:
        raise ConflictError("count_already_signed", "This count has both its signatures already.")
    if SoftCount.objects.filter(supersedes=count).exists():
        raise ConflictError("count_superseded", "A newer count of this table and period replaces this one.")
    if count.counted_by_id == user.pk:
        raise ForbiddenError(
            "signer_is_counter",
            "You entered this count: a second, different member of the count team signs it.",
        )
    count.witnessed_by_id = user.pk
    count.witnessed_at = now
    count.save(update_fields=["witnessed_by", "witnessed_at"])
    _audit(
        event_type="casino.soft_count.signed",
        count=count,
        table=table,
        actor=actor,
        now=now,
        after={"witnessed_by": user.get_username(), "total_cents": count.total_cents},
    )
    refresh_reports_on_commit(
        table_id=table.pk, gaming_day=count.gaming_day, shifts=shifts_of_period(count.shift), now=now
    )
    return count
