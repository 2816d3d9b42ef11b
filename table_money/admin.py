"""Admin pages for table money.

Everything here is read-only: money changes only through the services. One thing acts: a
For the admin only, like every page of the admin site but compliance's (casino.admin_site): the
floor roles read and approve their own pits' slips on the floor console. One thing acts: the admin
approves pending fills and credits with the "Approve" action (the same service as the API: the
approver may not be the requester).
"""

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from audit.context import AuditActor
from casino.admin_display import ReadOnlyAdmin, StaffPresentation, is_admin, role_of
from casino.models import TableInventory
from kernel.errors import CodedError
from kernel.formatting import dollars
from table_money.models import BuyIn, ChipSlip, SlipHandover, SlipKind, SlipStatus, SlipVoid
from table_money.services import accounting


def _actor(request: HttpRequest) -> AuditActor:
    user = request.user
    return AuditActor(kind="user", user_id=user.pk, username=user.get_username(), role=role_of(request) or "")


class _SlipRecordInline(StaffPresentation, admin.StackedInline):
    """A record a slip's page shows and nobody edits here."""

    extra = 0
    can_delete = False

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_admin(request)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SlipHandoverInline(_SlipRecordInline):
    """The slip's chain of custody after its approval: the cage's and the table's signatures."""

    model = SlipHandover
    fields = readonly_fields = ("step", "signed_by", "signed_at", "dealer", "runner_name", "runner_badge")
    verbose_name = "custody step"
    verbose_name_plural = "chain of custody"


class SlipVoidInline(_SlipRecordInline):
    """A slip's void, if it has one, shown on the slip's page."""

    model = SlipVoid
    fields = readonly_fields = ("reason", "voided_by", "voided_at", "gaming_day", "shift", "reversal")
    verbose_name = verbose_name_plural = "void"


@admin.register(ChipSlip)
class ChipSlipAdmin(ReadOnlyAdmin):
    list_display = [
        "kind",
        "number",
        "table",
        "amount",
        "status",
        "gaming_day",
        "shift",
        "requested_at",
        "approved_by",
        "approved_at",
    ]
    list_filter = ["kind", "status", "gaming_day", "shift", "table"]
    search_fields = ["number"]
    list_select_related = ["table", "approved_by"]
    actions = ["approve"]
    inlines = [SlipHandoverInline, SlipVoidInline]
    fieldsets = [
        (None, {"fields": ["kind", "number", "table", "status", "amount_cents", "chips"]}),
        ("Shift", {"fields": ["gaming_day", "shift"]}),
        ("Requested", {"fields": ["requested_at", "requested_by_terminal", "requested_by_dealer",
                                  "requested_by_user"]}),
        ("Approved", {"fields": ["approved_at", "approved_by", "transaction"]}),
    ]  # fmt: skip

    @admin.display(description="Amount", ordering="amount_cents")
    def amount(self, slip: ChipSlip) -> str:
        return dollars(slip.amount_cents)

    @admin.action(description="Approve the selected pending fills and credits")
    def approve(self, request: HttpRequest, queryset: QuerySet[ChipSlip]) -> None:
        if not is_admin(request):
            self.message_user(request, "Only an admin approves here.", messages.ERROR)
            return
        approved = 0
        for slip_id, kind, number in queryset.filter(status=SlipStatus.PENDING).values_list(
            "pk", "kind", "number"
        ):
            try:
                accounting.approve_slip(
                    kind=SlipKind(kind),
                    slip_id=slip_id,
                    user=request.user,  # type: ignore[arg-type]
                    actor=_actor(request),
                    now=timezone.now(),
                )
            except CodedError as exc:
                self.message_user(request, f"{kind} #{number}: {exc.detail}", messages.ERROR)
            else:
                approved += 1
        skipped = queryset.exclude(status=SlipStatus.PENDING).count()
        if approved:
            self.message_user(request, f"Approved {approved} slip(s).", messages.SUCCESS)
        if skipped:
            self.message_user(request, f"{skipped} selected slip(s) were not pending.", messages.WARNING)


@admin.register(SlipVoid)
class SlipVoidAdmin(ReadOnlyAdmin):
    list_display = ["slip", "reason", "voided_by", "voided_at", "gaming_day", "shift"]
    list_filter = ["gaming_day", "shift"]
    list_select_related = ["slip__table", "voided_by"]


@admin.register(TableInventory)
class TableInventoryAdmin(ReadOnlyAdmin):
    list_display = [
        "table",
        "kind",
        "gaming_day",
        "shift",
        "total_cents",
        "dealer",
        "supervisor",
        "counted_at",
    ]
    list_filter = ["kind", "gaming_day", "shift", "table"]
    list_select_related = ["table", "dealer", "supervisor"]


@admin.register(BuyIn)
class BuyInAdmin(ReadOnlyAdmin):
    list_display = ["table", "seat", "amount_cents", "method", "player", "gaming_day", "shift", "created_at"]
    list_filter = ["method", "gaming_day", "shift", "table"]
    list_select_related = ["table"]
