"""Limit and house-rule changes with maker-checker (issue 12, item 3).

A floor supervisor or pit boss requests a change for a table of their pits; a pit boss of that
pit who did not request it approves or rejects it; the requester may withdraw it while it waits.
Compliance and admins read every change; nobody acts outside their pits (`floor.access`).
"""

from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import messages
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from audit.context import AuditActor
from casino.models import OPEN_RULE_CHANGE_STATES, RuleChangeStatus, StaffRole, TableRuleChange
from casino.services.rule_changes import (
    approve_rule_change,
    current_settings,
    reject_rule_change,
    request_rule_change,
    withdraw_rule_change,
)
from floor.access import (
    FLOOR_ACTING_ROLES,
    actable_table,
    console_view,
    may_act_on,
    role_of,
    visible_tables,
)
from floor.rule_changes.forms import MAX_REASON_LENGTH, RULE_LABELS, RuleChangeForm, kind_label, rule_text
from kernel.errors import CodedError
from kernel.formatting import dollars
from kernel.problems import status_of

RECENT_CHANGES_SHOWN = 50


class RejectForm(forms.Form):
    reason = forms.CharField(
        label="Reason for rejecting",
        max_length=MAX_REASON_LENGTH,
        widget=forms.Textarea(attrs={"rows": 2}),
        error_messages={"required": "Give the reason for rejecting the change."},
    )


@dataclass(frozen=True)
class ChangeLine:
    """One limit or house rule a change sets: what it was when requested, what it becomes."""

    what: str
    before: str
    after: str


def change_lines(change: TableRuleChange) -> list[ChangeLine]:
    lines = []
    for kind, (low, high) in change.changes.get("limits", {}).items():
        was = change.previous.get("limits", {}).get(kind)
        before = f"{dollars(was[0])} to {dollars(was[1])}" if was else "-"
        lines.append(ChangeLine(f"{kind_label(kind)} limits", before, f"{dollars(low)} to {dollars(high)}"))
    for field, value in change.changes.get("rules", {}).items():
        was = change.previous.get("rules", {}).get(field)
        lines.append(
            ChangeLine(RULE_LABELS.get(field, field), rule_text(field, was), rule_text(field, value))
        )
    return lines


def _actor(request: HttpRequest) -> AuditActor:
    user: Any = request.user
    return AuditActor(kind="user", user_id=user.pk, username=user.get_username(), role=role_of(user) or "")


def _changes_of(tables: QuerySet[Any]) -> QuerySet[TableRuleChange]:
    return TableRuleChange.objects.filter(table__in=tables).select_related(
        "table", "table__pit", "requested_by", "decided_by"
    )


def _visible_change(user: Any, change_id: int) -> TableRuleChange:
    """A change of a table this user sees; 404 for any other, as for the tables themselves."""
    change = _changes_of(visible_tables(user)).filter(pk=change_id).first()
    if change is None:
        raise Http404("No such rule change on your floor.")
    return change


@require_safe
@console_view()
def change_list(request: HttpRequest) -> HttpResponse:
    """The changes awaiting a decision or their time, and the recent ones, of the user's pits."""
    tables = visible_tables(request.user)
    changes = _changes_of(tables)
    open_changes = changes.filter(status__in=OPEN_RULE_CHANGE_STATES).order_by("effective_at", "pk")
    recent = changes.exclude(status__in=OPEN_RULE_CHANGE_STATES).order_by("-requested_at", "-pk")
    may_request = role_of(request.user) in FLOOR_ACTING_ROLES
    return render(
        request,
        "floor/rule_changes/list.html",
        {
            "open_changes": [(change, change_lines(change)) for change in open_changes],
            "recent_changes": [(change, change_lines(change)) for change in recent[:RECENT_CHANGES_SHOWN]],
            "tables": list(tables) if may_request else [],
        },
    )


@require_http_methods(["GET", "POST"])
@console_view(*FLOOR_ACTING_ROLES)
def change_new(request: HttpRequest) -> HttpResponse:
    """The request form for one table (`?table=<id>`), prefilled with its current values."""
    table_param = request.GET.get("table", "")
    if not table_param.isdigit():
        raise Http404("Choose a table of your pits.")
    table = actable_table(request.user, int(table_param))
    form = RuleChangeForm(request.POST or None, table=table, current=current_settings(table))
    if request.method == "POST" and form.is_valid():
        now = timezone.now()
        try:
            change = request_rule_change(
                table_id=table.pk,
                limits=form.limits(),
                rules=form.rules(),
                reason=form.cleaned_data["reason"],
                effective_at=form.effective_at(now=now),
                user=request.user,  # type: ignore[arg-type]
                actor=_actor(request),
                now=now,
            )
        except CodedError as error:
            form.add_service_error(error.field, error.detail)
        else:
            messages.success(
                request, f"Rule change #{change.pk} for {table.name} requested: another pit boss approves it."
            )
            return redirect("floor:rule_change", change_id=change.pk)
    open_change = TableRuleChange.objects.filter(table=table, status__in=OPEN_RULE_CHANGE_STATES).first()
    return render(
        request,
        "floor/rule_changes/new.html",
        {"table": table, "form": form, "open_change": open_change},
        status=400 if request.method == "POST" else 200,
    )


def _render_detail(
    request: HttpRequest,
    change: TableRuleChange,
    *,
    reject_form: RejectForm | None = None,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    user: Any = request.user
    pending = change.status == RuleChangeStatus.PENDING
    is_requester = change.requested_by_id == user.pk
    may_decide = (
        pending
        and not is_requester
        and role_of(user) == StaffRole.PIT_BOSS
        and may_act_on(user, change.table)
    )
    return render(
        request,
        "floor/rule_changes/detail.html",
        {
            "change": change,
            "lines": change_lines(change),
            "pending": pending,
            "is_requester": is_requester,
            "may_decide": may_decide,
            "may_withdraw": pending and is_requester and may_act_on(user, change.table),
            "reject_form": reject_form or RejectForm(),
            "error": error,
        },
        status=status,
    )


@require_safe
@console_view()
def change_detail(request: HttpRequest, change_id: int) -> HttpResponse:
    return _render_detail(request, _visible_change(request.user, change_id))


def _acted_on(request: HttpRequest, change_id: int) -> TableRuleChange:
    change = _visible_change(request.user, change_id)
    actable_table(request.user, change.table_id)
    return change


@require_POST
@console_view(StaffRole.PIT_BOSS)
def change_approve(request: HttpRequest, change_id: int) -> HttpResponse:
    change = _acted_on(request, change_id)
    try:
        approved = approve_rule_change(
            change_id=change.pk,
            user=request.user,  # type: ignore[arg-type]
            actor=_actor(request),
            now=timezone.now(),
        )
    except CodedError as error:
        return _render_detail(request, change, error=error.detail, status=status_of(error))
    if approved.status == RuleChangeStatus.APPLIED:
        messages.success(
            request, f"Rule change #{change.pk} approved: {change.table.name} has it from the next round."
        )
    else:
        messages.success(request, f"Rule change #{change.pk} approved: it takes effect at its time.")
    return redirect("floor:rule_change", change_id=change.pk)


@require_POST
@console_view(StaffRole.PIT_BOSS)
def change_reject(request: HttpRequest, change_id: int) -> HttpResponse:
    change = _acted_on(request, change_id)
    form = RejectForm(request.POST)
    if not form.is_valid():
        return _render_detail(request, change, reject_form=form, status=400)
    try:
        reject_rule_change(
            change_id=change.pk,
            user=request.user,  # type: ignore[arg-type]
            reason=form.cleaned_data["reason"],
            actor=_actor(request),
            now=timezone.now(),
        )
    except CodedError as error:
        return _render_detail(request, change, reject_form=form, error=error.detail, status=status_of(error))
    messages.success(request, f"Rule change #{change.pk} rejected.")
    return redirect("floor:rule_change", change_id=change.pk)


@require_POST
@console_view(*FLOOR_ACTING_ROLES)
def change_withdraw(request: HttpRequest, change_id: int) -> HttpResponse:
    change = _acted_on(request, change_id)
    try:
        withdraw_rule_change(
            change_id=change.pk,
            user=request.user,  # type: ignore[arg-type]
            actor=_actor(request),
            now=timezone.now(),
        )
    except CodedError as error:
        return _render_detail(request, change, error=error.detail, status=status_of(error))
    messages.success(request, f"Rule change #{change.pk} withdrawn.")
    return redirect("floor:rule_change", change_id=change.pk)
