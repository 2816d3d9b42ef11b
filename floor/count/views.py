"""The count team's pages: the counts of an ended shift (the last ended one unless another is
chosen), a table's first count, the second (blind) count and the recount, a correction, and a
count's rounds with their variance once both counts of a round are in.

The second member's form shows nothing of the first's figures: no page shows a round's figures
before both of its counts are in (`floor/templates/floor/count/`). The rules (two different
members, an ended period only, one count per period, a recount for a variance) are the services'
(`table_money.services.soft_counts`); this module only translates.
"""

import datetime as dt
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_safe

from audit.context import AuditActor
from casino.models import StaffRole, Table
from floor.access import COUNT_READING_ROLES, console_view, count_visible_tables, role_of
from floor.count.forms import (
    CorrectionForm,
    PeriodChoiceForm,
    StartCountForm,
    TallyForm,
    offered_periods,
    period_text,
    period_value,
)
from floor.submissions import FormOutcome, submit_once
from kernel.errors import CodedError
from kernel.formatting import dollars
from table_money.engine.count import CountStatus
from table_money.models import SoftCount
from table_money.selectors import CountRecord, get_count_record, list_count_records, tables_with_drop_box
from table_money.services import soft_counts


def _actor(request: HttpRequest) -> AuditActor:
    user: Any = request.user
    return AuditActor(kind="user", user_id=user.pk, username=user.get_username(), role=role_of(user) or "")


def _chosen_period(request: HttpRequest, offered: list[tuple[dt.date, str]], per_shift: bool) -> Any:
    """The period the page shows: the one asked for if it has ended, else the last ended one
    (with the reason as an error of the period form)."""
    asked = PeriodChoiceForm(
        request.GET if "period" in request.GET else None, offered=offered, per_shift=per_shift
    )
    period = offered[0]
    if asked.is_bound and asked.is_valid():
        day, shift = asked.cleaned_data["period"]
        try:
            soft_counts.check_period_shift(shift or None)
            soft_counts.check_period_ended(gaming_day=day, shift=shift, now=timezone.now())
        except CodedError as refused:
            asked.add_error("period", refused.detail)
        else:
            period = (day, shift)
    shown = PeriodChoiceForm(initial={"period": period_value(*period)}, offered=offered, per_shift=per_shift)
    return period, asked if asked.errors else shown


def _tables_of_period(period: tuple[dt.date, str]) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """The tables with a drop box in the period, and the other active ones."""
    day, shift = period
    with_box = tables_with_drop_box(gaming_day=day, shifts=soft_counts.shifts_of_period(shift))
    tables = Table.objects.select_related("pit").order_by("pit__name", "name")
    open_tables = [(t.pk, f"{t.name} ({t.pit.name})") for t in tables if t.pk in with_box]
    others = [(t.pk, f"{t.name} ({t.pit.name})") for t in tables if t.pk not in with_box and t.is_active]
    return open_tables, others


def _count_rows(records: list[CountRecord], user: Any) -> list[dict[str, Any]]:
    rows = []
    for record in records:
        last = record.rounds[-1]
        rows.append(
            {
                "record": record,
                "round": last.number,
                "awaiting_you": record.result.status is CountStatus.AWAITING_SECOND_COUNT
                and record.superseded_by is None
                and last.first.member_id != user.pk,
                "first_is_yours": last.second is None and last.first.member_id == user.pk,
                "recount": record.result.status is CountStatus.VARIANCE and record.superseded_by is None,
                "correctable": record.superseded_by is None,
            }
        )
    return rows


def _start_count(
    request: HttpRequest,
    form: StartCountForm | CorrectionForm,
    *,
    table_id: int,
    now: dt.datetime,
    corrects_id: int | None = None,
    reason: str = "",
) -> SoftCount:
    """A count of the form's period started with the member's own tally (a correction of
    `corrects_id` when given)."""
    day, shift = form.cleaned_data["period"]
    return soft_counts.record_soft_count(
        table_id=table_id,
        gaming_day=day,
        shift=shift or None,
        currency=form.currency(),
        markers_cents=form.markers_cents(),
        user=request.user,  # type: ignore[arg-type]
        actor=_actor(request),
        now=now,
        corrects_id=corrects_id,
        reason=reason,
        not_open_confirmed=form.cleaned_data["not_open_confirmed"],
    )


@require_http_methods(["GET", "POST"])
@console_view(StaffRole.COUNT_TEAM)
def count_page(request: HttpRequest) -> HttpResponse:
    now = timezone.now()
    per_shift = soft_counts.counts_per_shift()
    offered = offered_periods(per_shift=per_shift, now=now)
    period, period_form = _chosen_period(request, offered, per_shift)
    open_tables, other_tables = _tables_of_period(period)
    form = StartCountForm(
        request.POST or None, period=period, open_tables=open_tables, other_tables=other_tables
    )
    ask_not_open = False
    if request.method == "POST" and form.is_valid():
        day, shift = form.cleaned_data["period"]

        def enter() -> FormOutcome:
            count = _start_count(request, form, table_id=form.cleaned_data["table"], now=now)
            return FormOutcome(
                message=f"Your count of {count.table.name}, {period_text(day, shift)}, is entered. A second "
                "member of the count team now counts the box without seeing yours.",
                location=f"{reverse('floor:count')}?period={period_value(day, shift)}#count-{count.pk}",
            )

        try:
            done = submit_once(request, form, purpose="count.enter", record=enter)
        except CodedError as refused:
            ask_not_open = refused.code == "table_not_open_in_shift"
            form.add_error(refused.field if refused.field in form.fields else None, refused.detail)
        else:
            if done is not None:
                return done
    day, shift = period
    records = list_count_records(gaming_day=day, shifts=[shift])
    return render(
        request,
        "floor/count/count.html",
        {
            "form": form,
            "period_form": period_form,
            "period_text": period_text(day, shift),
            "rows": _count_rows(records, request.user),
            "per_shift": per_shift,
            "ask_not_open": ask_not_open or bool(form.data.get("not_open_confirmed")),
            "has_open_tables": bool(open_tables),
        },
        status=400 if request.method == "POST" else 200,
    )


def _record_or_404(count_id: int) -> CountRecord:
    try:
        return get_count_record(count_id=count_id)
    except CodedError:
        raise Http404("No such soft count.") from None


@require_http_methods(["GET", "POST"])
@console_view(StaffRole.COUNT_TEAM)
def tally_page(request: HttpRequest, count_id: int) -> HttpResponse:
    """A member's own count of a box already counted once: the second count, or a recount. The
    page shows the table and period, who counted and when, and never a figure of theirs."""
    record = _record_or_404(count_id)
    form = TallyForm(request.POST or None)
    if request.method == "POST" and form.is_valid():

        def enter() -> FormOutcome:
            soft_counts.record_soft_count_tally(
                count_id=count_id,
                currency=form.currency(),
                markers_cents=form.markers_cents(),
                user=request.user,  # type: ignore[arg-type]
                actor=_actor(request),
                now=timezone.now(),
            )
            after = get_count_record(count_id=count_id)
            table = after.count.table.name
            outcome = after.rounds[-1].variance
            if outcome is None:
                message = f"Your recount of {table} is entered: a second member now recounts the box."
            elif after.result.status is CountStatus.COMPLETE:
                message = (
                    f"Both counts of {table} agree: {dollars(after.result.total_cents)} is its counted drop."
                )
            else:
                message = (
                    f"The two counts of {table} differ by {dollars(outcome.total_cents)}: the box is to be "
                    "recounted by two members."
                )
            return FormOutcome(message=message, location=reverse("floor:count_detail", args=[count_id]))

        try:
            done = submit_once(request, form, purpose="count.tally", record=enter)
        except CodedError as refused:
            form.add_error(None, refused.detail)
        else:
            if done is not None:
                return done
    return render(
        request,
        "floor/count/tally.html",
        {
            "form": form,
            "record": record,
            "count": record.count,
            "period_text": period_text(record.count.gaming_day, record.count.shift),
            "round": record.rounds[-1],
            "recount": record.result.status is CountStatus.VARIANCE or record.rounds[-1].number > 1,
        },
        status=400 if request.method == "POST" else 200,
    )


@require_http_methods(["GET", "POST"])
@console_view(StaffRole.COUNT_TEAM)
def correct_page(request: HttpRequest, count_id: int) -> HttpResponse:
    """A new count of the same table that supersedes this one, for the right period."""
    record = _record_or_404(count_id)
    count = record.count
    per_shift = soft_counts.counts_per_shift()
    offered = offered_periods(per_shift=per_shift)
    form = CorrectionForm(
        request.POST or None,
        offered=offered,
        per_shift=per_shift,
        initial={"period": period_value(count.gaming_day, count.shift)},
    )
    ask_not_open = False
    if request.method == "POST" and form.is_valid():
        day, shift = form.cleaned_data["period"]

        def enter() -> FormOutcome:
            correction = _start_count(
                request,
                form,
                table_id=count.table_id,
                now=timezone.now(),
                corrects_id=count.pk,
                reason=form.cleaned_data["reason"],
            )
            return FormOutcome(
                message=f"Soft count {count.pk} is superseded by count {correction.pk} of {count.table.name}, "
                f"{period_text(day, shift)}: your count is entered, and a second member now counts the box.",
                location=f"{reverse('floor:count')}?period={period_value(day, shift)}#count-{correction.pk}",
            )

        try:
            done = submit_once(request, form, purpose="count.correct", record=enter)
        except CodedError as refused:
            ask_not_open = refused.code == "table_not_open_in_shift"
            field = "period" if refused.field in {"shift", "gaming_day"} else refused.field
            form.add_error(field if field in form.fields else None, refused.detail)
        else:
            if done is not None:
                return done
    return render(
        request,
        "floor/count/correct.html",
        {
            "form": form,
            "record": record,
            "count": count,
            "period_text": period_text(count.gaming_day, count.shift),
            "ask_not_open": ask_not_open or bool(form.data.get("not_open_confirmed")),
        },
        status=400 if request.method == "POST" else 200,
    )


@require_safe
@console_view(*COUNT_READING_ROLES)
def count_detail(request: HttpRequest, count_id: int) -> HttpResponse:
    record = _record_or_404(count_id)
    if not count_visible_tables(request.user).filter(pk=record.count.table_id).exists():
        raise Http404("No such soft count.")
    return render(
        request,
        "floor/count/detail.html",
        {
            "record": record,
            "count": record.count,
            "period_text": period_text(record.count.gaming_day, record.count.shift),
            "rounds": [
                {"round": r, "tallies": record.tallies_of_round(r.number), "variance": r.variance}
                for r in record.rounds
            ],
            "may_count": role_of(request.user) == StaffRole.COUNT_TEAM,
        },
    )
