"""The blind soft count of a table's drop box, by two members of the count team (DESIGN.md, Roles:
two members per count; backoffice-anchors §2.4: two independent counts, the second counter not
seeing the first result).

- `record_soft_count`: a member starts the count of a table's ended shift (or gaming day) with
  their own tally: bills by denomination, markers as a total. A count entered for the wrong shift
  or with wrong figures is corrected by a new count that supersedes it (`corrects_id`, with the
  reason), on the right shift of the same table; both stay on the record.
- `record_soft_count_tally`: a second, different member enters their own tally of the same box,
  without seeing the first; if the two agree the count is complete, else it has a variance,
  resolved by a recount: a new round of two tallies by two members (this service again). A
  variance is never accepted as it stands: the box's cash is there to be counted again, and a
  figure nobody counted twice must not become the drop (backoffice-anchors §2.4).

Whether a count is complete and what its figure is: `table_money.engine.count.count_result`.
The period is a shift, or the whole gaming day when the casino counts once a day
(`CASINO_SOFT_COUNT_PER`); only an ended period is counted. Both services lock the table first,
then write, then audit.
"""

import datetime as dt
import re
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from audit.context import AuditActor
from audit.services import record_event
from casino.locks import lock_table
from casino.models import StaffRole, Table
from casino.services.report_refresh import refresh_reports_on_commit
from kernel.errors import ConflictError, ForbiddenError, NotFoundError, ServiceError
from kernel.formatting import local_time
from kernel.gaming_day import (
    SHIFTS,
    DayOutOfBoundsError,
    check_gaming_day,
    gaming_day_and_shift,
    shift_bounds,
)
from table_money.engine.count import CountRuleError, CountStatus, Variance, next_tally_place
from table_money.models import WHOLE_DAY, SoftCount, SoftCountTally
from table_money.selectors import current_count, get_count_record, rounds_of, tables_with_drop_box

# Bills in the drop box, in cents: $1, $2, $5, $10, $20, $50, $100.
CURRENCY_DENOMINATIONS_CENTS: frozenset[int] = frozenset({100, 200, 500, 1_000, 2_000, 5_000, 10_000})
SHIFT_NAMES: tuple[str, ...] = tuple(name for name, _ in SHIFTS)
_DENOMINATION_KEY = re.compile(r"^[1-9][0-9]{0,9}$")
MAX_BILLS = 1_000_000
MAX_MARKERS_CENTS = 10**12
MAX_REASON_LENGTH = 300


def counts_per_shift() -> bool:
    return str(getattr(settings, "CASINO_SOFT_COUNT_PER", "shift")) == "shift"


def shifts_of_period(shift: str) -> tuple[str, ...]:
    """The shifts a count covers: its own, or every shift of the day for a whole-day count."""
    return (shift,) if shift else SHIFT_NAMES


def period_bounds(gaming_day: dt.date, shift: str) -> tuple[dt.datetime, dt.datetime]:
    """The [start, end) of a counted period: a shift, or the whole gaming day (`shift` empty)."""
    shifts = shifts_of_period(shift)
    return shift_bounds(gaming_day, shifts[0])[0], shift_bounds(gaming_day, shifts[-1])[1]


def period_label(gaming_day: dt.date, shift: str) -> str:
    return (
        f"the {shift} shift of {gaming_day.isoformat()}" if shift else f"gaming day {gaming_day.isoformat()}"
    )


def ended_periods(*, now: dt.datetime, count: int) -> list[tuple[dt.date, str]]:
    """The last `count` periods that have ended at `now`, the most recent first: shifts, or
    whole gaming days (shift empty) when the casino counts once a day."""
    day, shift = gaming_day_and_shift(now)
    periods: list[tuple[dt.date, str]] = []
    if counts_per_shift():
        start = shift_bounds(day, shift)[0]
        while len(periods) < count:
            day, shift = gaming_day_and_shift(start - dt.timedelta(minutes=1))
            periods.append((day, shift))
            start = shift_bounds(day, shift)[0]
    else:
        periods = [(day - dt.timedelta(days=n), WHOLE_DAY) for n in range(1, count + 1)]
    return periods


def _check_count_team(user: AbstractBaseUser) -> None:
    profile = getattr(user, "staff", None)
    if profile is None or profile.role != StaffRole.COUNT_TEAM:
        raise ForbiddenError("role_not_allowed", "Only members of the count team enter soft counts.")


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


def _check_markers(markers_cents: int) -> None:
    if (
        isinstance(markers_cents, bool)
        or not isinstance(markers_cents, int)
        or not 0 <= markers_cents <= MAX_MARKERS_CENTS
    ):
        raise ServiceError("invalid_amount", "Markers are whole cents from 0.", field="markers_cents")


def check_period_shift(shift: str | None) -> str:
    """The period's shift: one of the shifts, or WHOLE_DAY when the casino counts once a day."""
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


def check_period_ended(*, gaming_day: dt.date, shift: str, now: dt.datetime) -> None:
    """Only an ended period's drop box is counted: a running or future one is refused."""
    try:
        check_gaming_day(gaming_day, now=now)
    except DayOutOfBoundsError as refused:
        raise ServiceError(refused.code, refused.message, field="gaming_day") from None
    start, end = period_bounds(gaming_day, shift)
    what = period_label(gaming_day, shift)
    if start > now:
        raise ServiceError(
            "count_period_in_future",
            f"{what[0].upper()}{what[1:]} has not begun: its drop box cannot be counted yet.",
            field="gaming_day",
        )
    if end > now:
        raise ServiceError(
            "count_period_running",
            f"{what[0].upper()}{what[1:]} is still running (it ends at {local_time(end)}): its drop "
            "box is counted once it has ended. Choose an ended shift.",
            field="shift" if shift else "gaming_day",
        )


def _sorted_currency(currency: Mapping[str, int]) -> dict[str, int]:
    return {key: n for key, n in sorted(currency.items(), key=lambda kv: int(kv[0])) if n}


def _tally_figures(tally: SoftCountTally) -> dict[str, Any]:
    return {
        "round": tally.round,
        "place": tally.place,
        "member": tally.member.get_username(),
        "currency": tally.currency,
        "currency_cents": tally.currency_cents,
        "markers_cents": tally.markers_cents,
        "total_cents": tally.total_cents,
    }


def variance_payload(outcome: Variance) -> dict[str, Any]:
    return {
        "denominations": {
            str(d.denomination_cents): d.variance_cents for d in outcome.denominations if d.variance_cents
        },
        "markers_cents": outcome.markers_cents,
        "total_cents": outcome.total_cents,
    }


def _audit(
    *,
    event_type: str,
    count: SoftCount,
    table: Table,
    actor: AuditActor,
    now: dt.datetime,
    after: dict[str, Any],
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


def _add_tally(
    *,
    count: SoftCount,
    round_number: int,
    place: int,
    currency: Mapping[str, int],
    currency_cents: int,
    markers_cents: int,
    user: AbstractBaseUser,
    now: dt.datetime,
) -> SoftCountTally:
    return SoftCountTally.objects.create(
        count=count,
        round=round_number,
        place=place,
        member_id=user.pk,
        currency=_sorted_currency(currency),
        currency_cents=currency_cents,
        markers_cents=markers_cents,
        total_cents=currency_cents + markers_cents,
        counted_at=now,
    )


def _corrected_count(*, corrects_id: int, table: Table, reason: str) -> SoftCount:
    corrected = SoftCount.objects.filter(pk=corrects_id).first()
    if corrected is None:
        raise NotFoundError("not_found", f"No soft count {corrects_id} to correct.")
    if corrected.table_id != table.pk:
        raise ServiceError(
            "correction_of_another_table",
            f"Soft count {corrects_id} is of another table: a correction counts the same table's box.",
            field="corrects",
        )
    if SoftCount.objects.filter(supersedes=corrected).exists():
        raise ConflictError("count_superseded", f"Soft count {corrects_id} was corrected already.")
    if not reason:
        raise ServiceError(
            "correction_reason_required",
            "Say why the count is corrected (e.g. entered for the wrong shift).",
            field="reason",
        )
    if len(reason) > MAX_REASON_LENGTH:
        raise ServiceError(
            "correction_reason_too_long",
            f"The reason is at most {MAX_REASON_LENGTH} characters.",
            field="reason",
        )
    return corrected


def _refuse_second_count_of_period(current: SoftCount, *, table: Table) -> None:
    status = get_count_record(count_id=current.pk).result.status
    what = f"{table.name} already has a count of {period_label(current.gaming_day, current.shift)}"
    advice = {
        CountStatus.AWAITING_SECOND_COUNT: "it awaits its second count: enter yours on it.",
        CountStatus.VARIANCE: "its two counts differ: recount it.",
        CountStatus.COMPLETE: "to change it, correct it.",
    }
    raise ConflictError(
        "period_already_counted", f"{what} (soft count {current.pk}); {advice.get(status, 'correct it.')}"
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
    corrects_id: int | None = None,
    reason: str = "",
    not_open_confirmed: bool = False,
) -> SoftCount:
    """Start the count of a table's ended period with the caller's own tally (round 1, first)."""
    _check_count_team(user)
    period_shift = check_period_shift(shift)
    _check_markers(markers_cents)
    currency_cents = currency_total_cents(currency)
    check_period_ended(gaming_day=gaming_day, shift=period_shift, now=now)
    reason = reason.strip()
    if corrects_id is None and reason:
        raise ServiceError(
            "reason_without_correction", "A reason is given only with the count it corrects.", field="reason"
        )
    table, _ = lock_table(table_id=table_id)
    corrected = _corrected_count(corrects_id=corrects_id, table=table, reason=reason) if corrects_id else None
    current = current_count(table_id=table.pk, gaming_day=gaming_day, shift=period_shift)
    if current is not None and current != corrected:
        _refuse_second_count_of_period(current, table=table)
    if not not_open_confirmed and table.pk not in tables_with_drop_box(
        gaming_day=gaming_day, shifts=shifts_of_period(period_shift)
    ):
        raise ServiceError(
            "table_not_open_in_shift",
            f"{table.name} was not open in {period_label(gaming_day, period_shift)}: it had no drop box "
            "then. Check the box's label; count it for this period only if it really is this table's.",
            field="table",
        )
    count = SoftCount.objects.create(
        table=table,
        gaming_day=gaming_day,
        shift=period_shift,
        supersedes=corrected,
        correction_reason=reason,
        created_at=now,
    )
    tally = _add_tally(
        count=count,
        round_number=1,
        place=1,
        currency=currency,
        currency_cents=currency_cents,
        markers_cents=markers_cents,
        user=user,
        now=now,
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
            "supersedes": corrected.pk if corrected is not None else None,
            "reason": reason,
            "tally": _tally_figures(tally),
        },
    )
    if corrected is not None:
        # The corrected count no longer counts: its period's reports lose its drop.
        refresh_reports_on_commit(
            table_id=table.pk,
            gaming_day=corrected.gaming_day,
            shifts=shifts_of_period(corrected.shift),
            now=now,
        )
    return count


@transaction.atomic
def record_soft_count_tally(
    *,
    count_id: int,
    currency: Mapping[str, int],
    markers_cents: int,
    user: AbstractBaseUser,
    actor: AuditActor,
    now: dt.datetime,
) -> SoftCount:
    """A member's own tally of a count: its round's second (by another member than the first), or
    the first of a recount after a variance."""
    _check_count_team(user)
    _check_markers(markers_cents)
    currency_cents = currency_total_cents(currency)
    table_id = SoftCount.objects.filter(pk=count_id).values_list("table_id", flat=True).first()
    if table_id is None:
        raise NotFoundError("not_found", f"No soft count {count_id}.")
    table, _ = lock_table(table_id=table_id)
    count = SoftCount.objects.get(pk=count_id)
    if SoftCount.objects.filter(supersedes=count).exists():
        raise ConflictError("count_superseded", "A newer count of this table replaces this one.")
    try:
        round_number, place = next_tally_place(
            rounds_of(count.tallies.order_by("round", "place")), member_id=user.pk
        )
    except CountRuleError as refused:
        error = ForbiddenError if refused.code == "same_member_twice" else ConflictError
        raise error(refused.code, refused.message) from None
    tally = _add_tally(
        count=count,
        round_number=round_number,
        place=place,
        currency=currency,
        currency_cents=currency_cents,
        markers_cents=markers_cents,
        user=user,
        now=now,
    )
    record = get_count_record(count_id=count.pk)
    after: dict[str, Any] = {"tally": _tally_figures(tally), "status": record.result.status.value}
    outcome = record.rounds[-1].variance
    if outcome is not None:
        after["variance"] = variance_payload(outcome)
    _audit(
        event_type="casino.soft_count.tally_recorded",
        count=count,
        table=table,
        actor=actor,
        now=now,
        after=after,
    )
    if record.result.counts:
        refresh_reports_on_commit(
            table_id=table.pk, gaming_day=count.gaming_day, shifts=shifts_of_period(count.shift), now=now
        )
    return count
