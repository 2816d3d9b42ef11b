"""The count team's page: enter a table's soft count, sign a count a teammate entered, and see the
gaming day's counts (issue 13, counted drop).

A count takes effect once two different members of the count team have signed it: the one who
enters it, and a second who checks it and signs (the services refuse the same person twice). A
correction is a new count of the same table and period; it supersedes the earlier one.
"""

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from audit.context import AuditActor
from casino.models import StaffRole, Table
from floor.access import console_view, role_of
from floor.count.forms import SoftCountForm
from floor.submissions import FormOutcome, submit_button_once, submit_once
from kernel.errors import CodedError
from kernel.formatting import dollars
from kernel.gaming_day import gaming_day_and_shift
from table_money.models import SoftCount
from table_money.services import soft_counts


def _actor(request: HttpRequest) -> AuditActor:
    user: Any = request.user
    return AuditActor(kind="user", user_id=user.pk, username=user.get_username(), role=role_of(user) or "")


def _tables() -> Any:
    return Table.objects.select_related("pit").order_by("pit__name", "name")


@require_http_methods(["GET", "POST"])
@console_view(StaffRole.COUNT_TEAM)
def count_page(request: HttpRequest) -> HttpResponse:
    now = timezone.now()
    today, shift = gaming_day_and_shift(now)
    form = SoftCountForm(request.POST or None, tables=_tables(), gaming_day=today, shift=shift)
    if request.method == "POST" and form.is_valid():

        def enter() -> FormOutcome:
            count = soft_counts.record_soft_count(
                table_id=form.cleaned_data["table"].pk,
                gaming_day=form.cleaned_data["gaming_day"],
                shift=form.cleaned_data.get("shift") or None,
                currency=form.currency(),
                markers_cents=form.markers_cents(),
                user=request.user,  # type: ignore[arg-type]
                actor=_actor(request),
                now=now,
            )
            return FormOutcome(
                message=f"Count of {count.table.name}, {count.period_label}: {dollars(count.total_cents)} entered. "
                "A second member of the count team checks and signs it.",
                location=f"{reverse('floor:count')}#count-{count.pk}",
            )

        try:
            done = submit_once(request, form, purpose="count.enter", record=enter)
        except CodedError as refused:
            form.add_error(refused.field if refused.field in form.fields else None, refused.detail)
        else:
            if done is not None:
                return done
    day = form.cleaned_data.get("gaming_day", today) if form.is_bound and form.is_valid() else today
    counts = (
        SoftCount.objects.filter(gaming_day=day)
        .select_related("table", "table__pit", "counted_by", "witnessed_by", "supersedes")
        .order_by("table__pit__name", "table__name", "shift", "pk")
    )
    superseded = set(
        SoftCount.objects.filter(gaming_day=day, supersedes__isnull=False).values_list(
            "supersedes_id", flat=True
        )
    )
    return render(
        request,
        "floor/count/count.html",
        {
            "form": form,
            "gaming_day": day,
            "counts": [(count, count.pk in superseded) for count in counts],
            "per_shift": form.per_shift,
        },
        status=400 if request.method == "POST" else 200,
    )


@require_POST
@console_view(StaffRole.COUNT_TEAM)
def count_sign(request: HttpRequest, count_id: int) -> HttpResponse:
    if not SoftCount.objects.filter(pk=count_id).exists():
        raise Http404("No such soft count.")

    def sign() -> FormOutcome:
        count = soft_counts.sign_soft_count(
            count_id=count_id,
            user=request.user,  # type: ignore[arg-type]
            actor=_actor(request),
            now=timezone.now(),
        )
        return FormOutcome(
            message=f"Count of {count.table.name}, {count.period_label} signed: "
            f"{dollars(count.total_cents)} is its counted drop.",
            location=f"{reverse('floor:count')}#count-{count.pk}",
        )

    try:
        return submit_button_once(request, purpose="count.sign", back_to=reverse("floor:count"), record=sign)
    except CodedError as refused:
        messages.error(request, refused.detail)
    return redirect("floor:count")
