"""Paytable versions in the admin site: the stored report rendered beside the decision.

Everything is read-only here. Compliance decides on a version from its approve or reject page,
which shows the report again next to the form; both pages call the same services as the API
(`bonus_tie.services`), so the rules are the same: compliance only, never the proposer, only a
proposed version with its report, and a flagged report needs an override reason. Only the admin
and compliance open these pages (casino.admin_site): a pit boss proposes through the API.
"""

import logging
from collections.abc import Callable, Mapping
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet, Subquery
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from audit.context import AuditActor
from bonus_tie import services
from bonus_tie.engine.kinds import BONUS_KINDS
from bonus_tie.models import PaytableProposal, PaytableStatus, PaytableVersion
from bonus_tie.reports import flagged_of, pays_in_order
from bonus_tie.selectors import list_reports_by_rules
from casino.admin import ReadOnlyAdmin, role_of
from casino.models import StaffRole
from kernel.errors import CodedError
from kernel.formatting import local_time

logger = logging.getLogger(__name__)

NO_FIGURE = "—"


# --- rendering the stored report -------------------------------------------------------------


def _pct(value: Any, places: int) -> str:
    return f"{100 * value:.{places}f}" if isinstance(value, int | float) else NO_FIGURE


def _odds(value: Any) -> str:
    return f"{value:,.2f} to 1" if isinstance(value, int | float) else NO_FIGURE


def flags_html(report: Mapping[str, Any] | None) -> SafeString:
    flagged = flagged_of(report)
    if flagged is None:
        return format_html("<span>{}</span>", "report pending")
    if flagged:
        return format_html('<span class="flag-label">FLAGGED: {}</span>', ", ".join(flagged))
    return format_html('<span class="ok-label">{}</span>', "no flags")


def primary_html(primary: Mapping[str, Any] | None) -> SafeString:
    """The primary wager's house edge and standard deviation per hand, each with its model."""
    if primary is None:
        return format_html("{}", "")
    spread = ""
    if primary.get("std_deviation") is not None:
        spread = format_html(
            "; standard deviation per hand {} units (variance {}; {})",
            f"{primary['std_deviation']:.4f}",
            f"{primary['variance']:.4f}",
            primary.get("outcomes_model", ""),
        )
    return format_html(
        "<p><strong>Primary wager:</strong> house edge {} % (basic strategy, exact, re-splits to {} hands){}</p>",
        _pct(primary.get("basic_strategy_house_edge"), 3),
        primary.get("max_hands", NO_FIGURE),
        spread,
    )


def missing_report_text(row: PaytableVersion) -> str:
    """What a page may say of a version without a report: "queued" only when it was."""
    proposal = _proposal(row)
    queued_at = proposal.report_queued_at if proposal is not None else None
    if row.status == PaytableStatus.REJECTED:
        return "No report: the version was rejected before it was computed."
    how = (
        "To compute it, select this version in the list and run the action “Compute the missing "
        "report”, or run `manage.py queue_paytable_reports`."
    )
    if queued_at is not None and timezone.now() - queued_at < services.REQUEUE_AFTER:
        return (
            f"Not computed yet: queued at {local_time(queued_at)}; "
            "the Celery worker computes it in a few seconds."
        )
    if queued_at is not None:
        return f"Not computed: queued at {local_time(queued_at)}, but no report came back. {how}"
    return f"Not computed: no computation is queued. {how}"


def report_html(report: Mapping[str, Any] | None, *, missing: str = "") -> SafeString:
    """The stored report as HTML tables, flagged steering rows highlighted (`missing` when there
    is none: see `missing_report_text`)."""
    if report is None:
        return format_html("<p>{}</p>", missing or "No report.")
    house, steering = report["house_edge"], report["steering"]
    bet_rows = format_html_join(
        "",
        "<tr><td>{}</td><td>{} to 1</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
        (
            (
                row["kind"],
                row["pays"],
                _pct(row["win_probability"], 4),
                _pct(row["std_error"], 6),
                _odds(row["true_odds"]),
                _pct(row["house_edge"], 3),
                row["method"],
            )
            for row in house["rows"]
        ),
    )
    tie_rows = format_html_join(
        "",
        "<tr><td>tie {}</td><td>{}</td><td>{}</td></tr>",
        ((tie["tie"], _pct(tie["probability"], 4), _pct(tie["std_error"], 6)) for tie in house["ties"]),
    )
    steering_rows = format_html_join(
        "",
        '<tr class="{}"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>',
        (
            (
                "flagged" if row["flagged"] else "",
                row["label"],
                f"{row['bonus_stake']:.2f}",
                _pct(row["basic_strategy_edge"], 3),
                _pct(row["steering_edge"], 3),
                "PLAYER AHEAD" if row["flagged"] else "-",
            )
            for row in steering["rows"]
        ),
    )
    return format_html(
        "<div>"
        "<p><strong>Rules:</strong> {rules}</p>"
        "<p><strong>Steering flags:</strong> {flags}</p>"
        "{primary}"
        "<h4>House edge (basic strategy)</h4>"
        "<table><thead><tr><th>bet</th><th>pays</th><th>P(win) %</th><th>std err %</th><th>true odds</th>"
        "<th>house edge %</th><th>method</th></tr></thead><tbody>{bets}</tbody></table>"
        "<table><thead><tr><th>tie</th><th>P %</th><th>std err %</th></tr></thead><tbody>{ties}"
        "<tr><td>any tie</td><td>{any_tie}</td><td></td></tr></tbody></table>"
        "<h4>Steering check (each bet at half the primary, best play; player's edge)</h4>"
        "<table><thead><tr><th>bets</th><th>bonus/primary</th><th>edge, basic strategy %</th>"
        "<th>edge, steered %</th><th>flag</th></tr></thead><tbody>{steering}</tbody></table>"
        "<details><summary>Method</summary><p>{house_method}</p><p>{steering_method}</p></details>"
        "<details><summary>Engine text</summary><pre>{text}</pre></details>"
        "<p>Computed {computed_at} in {elapsed} s.</p>"
        "</div>",
        rules=report["rules_summary"],
        flags=flags_html(report),
        primary=primary_html(report.get("primary")),
        bets=bet_rows,
        ties=tie_rows,
        any_tie=_pct(house["any_tie"], 4),
        steering=steering_rows,
        house_method=house["method"],
        steering_method=steering["method"],
        text=report["text"],
        computed_at=report["computed_at"],
        elapsed=report["elapsed_seconds"],
    )


def _proposal(row: PaytableVersion) -> PaytableProposal | None:
    try:
        return row.proposal
    except PaytableProposal.DoesNotExist:
        return None


def _who(user: Any, label: str) -> str:
    """A proposer or approver: the user, else the actor label (version 1: the system migration)."""
    if user is not None:
        return str(user)
    return label or NO_FIGURE


# --- the decision forms ----------------------------------------------------------------------


class ApproveForm(forms.Form):
    override_reason = forms.CharField(
        required=False,
        max_length=services.MAX_REASON_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 80}),
        help_text="Only when the report flags a bet: why it is approved anyway (recorded in the audit trail).",
    )


class RejectForm(forms.Form):
    reason = forms.CharField(
        max_length=services.MAX_REASON_LENGTH, widget=forms.Textarea(attrs={"rows": 3, "cols": 80})
    )


def _actor(request: HttpRequest) -> AuditActor:
    user = request.user
    return AuditActor(kind="user", user_id=user.pk, username=user.get_username(), role=role_of(request) or "")


def is_proposer(request: HttpRequest, row: PaytableVersion) -> bool:
    return row.proposed_by_id is not None and row.proposed_by_id == request.user.pk


def may_decide_on(request: HttpRequest, row: PaytableVersion) -> bool:
    """Whether the viewer may approve or reject `row` (the services refuse anyone else): compliance,
    never its proposer, while it is proposed."""
    return (
        role_of(request) in services.APPROVER_ROLES
        and row.status == PaytableStatus.PROPOSED
        and not is_proposer(request, row)
    )


# --- the admin -------------------------------------------------------------------------------

DETAIL_FIELDS = (
    "version",
    "status",
    "decision",
    "pays_text",
    "rules_text",
    "proposer",
    "proposed_at",
    "approver",
    "approved_at",
    "override_reason",
    "rejection",
    "reports_by_rules_view",
    "report_view",
)


@admin.register(PaytableVersion)
class PaytableVersionAdmin(ReadOnlyAdmin):
    view_roles = (StaffRole.ADMIN, StaffRole.COMPLIANCE)  # compliance decides here
    list_display = [
        "version",
        "status",
        "pays_short",
        "flags",
        "proposer",
        "proposed_at",
        "approver",
        "in_force",
    ]
    list_filter = ["status"]
    list_select_related = ["proposed_by", "approved_by"]
    ordering = ["-version"]
    actions = ["decide_selected", "compute_missing_report"]
    fields = DETAIL_FIELDS
    readonly_fields = DETAIL_FIELDS

    def get_queryset(self, request: HttpRequest) -> QuerySet[PaytableVersion]:
        in_force = PaytableVersion.objects.filter(status=PaytableStatus.APPROVED).order_by("-version")
        return (
            super()
            .get_queryset(request)
            .select_related("proposal", "proposal__rejected_by")
            .annotate(version_in_force=Subquery(in_force.values("version")[:1]))
        )

    # --- read-only fields

    @admin.display(description="pays")
    def pays_text(self, row: PaytableVersion) -> str:
        return ", ".join(f"{kind} {pays}" for kind, pays in pays_in_order(row.pays).items())

    @admin.display(description="pays: T17/T18/T19/T20/T21/TBJ, LS, RS")
    def pays_short(self, row: PaytableVersion) -> SafeString:
        pays = pays_in_order(row.pays)
        straight = "/".join(str(pays.get(kind, "?")) for kind in ("T17", "T18", "T19", "T20", "T21", "TBJ"))
        return format_html(
            '<span class="nowrap">{}, LS {}, RS {}</span>',
            straight,
            pays.get("LS"),
            pays.get("RS"),
        )

    @admin.display(description="steering flags")
    def flags(self, row: PaytableVersion) -> SafeString:
        if row.report is not None:
            return flags_html(row.report)
        if row.status == PaytableStatus.REJECTED:
            return format_html("{}", NO_FIGURE)
        proposal = _proposal(row)
        queued_at = proposal.report_queued_at if proposal is not None else None
        if queued_at is not None and timezone.now() - queued_at < services.REQUEUE_AFTER:
            return format_html("<span>{}</span>", "report queued")
        return format_html("<span>{}</span>", "not computed")

    @admin.display(description="in force", boolean=True)
    def in_force(self, row: PaytableVersion) -> bool:
        return row.version == getattr(row, "version_in_force", None)

    @admin.display(description="rules of the report")
    def rules_text(self, row: PaytableVersion) -> str:
        if row.report is not None:
            return str(row.report["rules_summary"])
        proposal = _proposal(row)
        if proposal is None:
            return NO_FIGURE
        rules = proposal.rules
        return f"{rules['decks']} decks, {rules['dealer']}, Blackjack pays {rules['blackjack_pays']}"

    @admin.display(description="rejection")
    def rejection(self, row: PaytableVersion) -> str:
        proposal = _proposal(row)
        if proposal is None or proposal.rejected_at is None:
            return NO_FIGURE
        return f"by {proposal.rejected_by} at {local_time(proposal.rejected_at)}: {proposal.rejection_reason}"

    @admin.display(description="reports per rule set")
    def reports_by_rules_view(self, row: PaytableVersion) -> SafeString:
        """One line per set of house rules the version is priced under: its edges, or why none."""
        lines = list_reports_by_rules(row)
        kinds = ["primary", *(kind.value for kind in BONUS_KINDS)]
        rows = format_html_join(
            "",
            '<tr class="rules-report {}"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>{}</tr>',
            (
                (
                    line["status"],
                    line["rules"]["decks"],
                    "H17" if line["rules"]["h17"] else "S17",
                    "yes" if line["rules"]["surrender"] else "no",
                    line["rules"]["blackjack_pays"],
                    line["status"],
                    format_html_join(
                        "",
                        "<td>{}</td>",
                        ((_pct((line["house_edge"] or {}).get(kind), 3),) for kind in kinds),
                    ),
                )
                for line in lines
            ),
        )
        heads = format_html_join("", "<th>{} %</th>", ((kind,) for kind in kinds))
        return format_html(
            '<table class="reports-by-rules"><thead><tr><th>decks</th><th>dealer</th><th>surrender</th>'
            "<th>blackjack pays</th><th>report</th>{}</tr></thead><tbody>{}</tbody></table>",
            heads,
            rows,
        )

    @admin.display(description="report")
    def report_view(self, row: PaytableVersion) -> SafeString:
        return report_html(row.report, missing=missing_report_text(row))

    @admin.display(description="proposed by")
    def proposer(self, row: PaytableVersion) -> str:
        proposal = _proposal(row)
        return _who(row.proposed_by, proposal.proposed_by_label if proposal is not None else "")

    @admin.display(description="approved by")
    def approver(self, row: PaytableVersion) -> str:
        proposal = _proposal(row)
        return _who(row.approved_by, proposal.approved_by_label if proposal is not None else "")

    def get_fields(self, request: HttpRequest, obj: PaytableVersion | None = None) -> tuple[str, ...]:
        """The Approve and Reject buttons only for whoever may use them; the others read why not."""
        if obj is not None and not may_decide_on(request, obj):
            return tuple("decision_note" if field == "decision" else field for field in DETAIL_FIELDS)
        return DETAIL_FIELDS

    def get_readonly_fields(
        self, request: HttpRequest, obj: PaytableVersion | None = None
    ) -> tuple[str, ...]:
        return self.get_fields(request, obj)

    @admin.display(description="decision")
    def decision_note(self, row: PaytableVersion) -> str:
        if row.status != PaytableStatus.PROPOSED:
            return str(row.get_status_display())
        return "Awaiting a decision by compliance (never by its proposer)."

    @admin.display(description="decision")
    def decision(self, row: PaytableVersion) -> SafeString:
        if row.status != PaytableStatus.PROPOSED:
            return format_html("{}", row.get_status_display())
        return format_html(
            '<a class="button" href="{}">Approve…</a> <a class="button" href="{}">Reject…</a>',
            reverse("admin:bonus_tie_paytableversion_approve", args=[row.pk]),
            reverse("admin:bonus_tie_paytableversion_reject", args=[row.pk]),
        )

    # --- the decision pages

    def get_urls(self) -> list[URLPattern]:
        def view(function: Callable[[HttpRequest, str], HttpResponseBase], suffix: str) -> URLPattern:
            return path(
                f"<path:object_id>/{suffix}/",
                self.admin_site.admin_view(function),
                name=f"bonus_tie_paytableversion_{suffix}",
            )

        return [view(self.approve_view, "approve"), view(self.reject_view, "reject"), *super().get_urls()]

    def approve_view(self, request: HttpRequest, object_id: str) -> HttpResponseBase:
        return self._decide(request, object_id, approve=True)

    def reject_view(self, request: HttpRequest, object_id: str) -> HttpResponseBase:
        return self._decide(request, object_id, approve=False)

    def _decide(self, request: HttpRequest, object_id: str, *, approve: bool) -> HttpResponseBase:
        if not self.has_view_permission(request):
            raise PermissionDenied
        row = self.get_object(request, object_id)
        if row is None:
            raise Http404(f"No paytable version with id {object_id!r}.")
        form_class = ApproveForm if approve else RejectForm
        form: forms.Form = form_class(request.POST if request.method == "POST" else None)
        if request.method == "POST" and form.is_valid():
            try:
                if approve:
                    services.approve_paytable(
                        version=row.version,
                        override_reason=form.cleaned_data["override_reason"],
                        user=request.user,  # type: ignore[arg-type]  # the admin site lets only users in
                        role=role_of(request),
                        actor=_actor(request),
                        now=timezone.now(),
                    )
                else:
                    services.reject_paytable(
                        version=row.version,
                        reason=form.cleaned_data["reason"],
                        user=request.user,  # type: ignore[arg-type]
                        role=role_of(request),
                        actor=_actor(request),
                        now=timezone.now(),
                    )
            except CodedError as exc:
                self.message_user(request, f"Refused ({exc.code}): {exc.detail}", messages.ERROR)
            else:
                verb = "approved" if approve else "rejected"
                self.message_user(request, f"Paytable v{row.version} {verb}.", messages.SUCCESS)
                return HttpResponseRedirect(reverse("admin:bonus_tie_paytableversion_change", args=[row.pk]))
            row.refresh_from_db()
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": f"{'Approve' if approve else 'Reject'} paytable v{row.version}",
            "row": row,
            "approve": approve,
            "form": form,
            "may_decide": may_decide_on(request, row),
            "is_proposer": is_proposer(request, row),
            "flagged": flagged_of(row.report),
            "pays": self.pays_text(row),
            "rules": self.rules_text(row),
            "report": report_html(row.report, missing=missing_report_text(row)),
            "missing_report": missing_report_text(row),
            "proposer": self.proposer(row),
            "change_url": reverse("admin:bonus_tie_paytableversion_change", args=[row.pk]),
        }
        return TemplateResponse(request, "admin/bonus_tie/paytableversion/decide.html", context)

    # --- actions

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        if role_of(request) not in services.APPROVER_ROLES:
            actions.pop("decide_selected", None)
        return actions

    @admin.action(description="Approve or reject the selected paytable (compliance)…")
    def decide_selected(
        self, request: HttpRequest, queryset: QuerySet[PaytableVersion]
    ) -> HttpResponse | None:
        if queryset.count() != 1:
            self.message_user(request, "Select exactly one paytable version to decide on.", messages.ERROR)
            return None
        row = queryset.get()
        return HttpResponseRedirect(reverse("admin:bonus_tie_paytableversion_approve", args=[row.pk]))

    @admin.action(description="Compute the missing report again")
    def compute_missing_report(self, request: HttpRequest, queryset: QuerySet[PaytableVersion]) -> None:
        if role_of(request) not in (*services.APPROVER_ROLES, *services.PROPOSER_ROLES):
            self.message_user(request, "Only compliance, a pit boss or an admin may do this.", messages.ERROR)
            return
        for row in queryset.order_by("version"):
            try:
                enqueued = services.request_missing_report(version=row.version)
            except Exception:  # the broker is down: say so, never a 500
                logger.exception("could not enqueue the report of paytable v%s", row.version)
                self.message_user(
                    request, "The task queue cannot be reached; try again later.", messages.ERROR
                )
                return
            if enqueued:
                self.message_user(request, f"Paytable v{row.version}: report queued.", messages.INFO)
            else:
                self.message_user(
                    request,
                    f"Paytable v{row.version}: has its report or was rejected; nothing to do.",
                    messages.WARNING,
                )
