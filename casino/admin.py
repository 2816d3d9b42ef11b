"""The admin site for floor supervisors, pit bosses, compliance and admins (DESIGN.md, Roles).

Configuration (tables, limits, house rules) is edited here by pit bosses; devices,
dealers and staff by admins; everything that records money is read-only for all.
Configuration changes are captured by database triggers in the audit app, so the
admin needs no audit code of its own.
"""

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from audit.context import AuditActor
from casino import admin_accounting  # noqa: F401  (registers the table money and shift report pages)
from casino.models import (
    Account,
    Casino,
    Dealer,
    LedgerEntry,
    LedgerTransaction,
    Pit,
    Round,
    RoundEvent,
    Settlement,
    SettlementLine,
    Shoe,
    StaffProfile,
    StaffRole,
    Table,
    TableLimit,
    Terminal,
    Wager,
)
from casino.services import terminals
from kernel.errors import ServiceError
from kernel.keys import hash_pin, new_api_key, new_pin

SUPERVISOR_ROLES = (StaffRole.FLOOR_SUPERVISOR, StaffRole.PIT_BOSS, StaffRole.ADMIN)

admin.site.site_header = "Casino table games back office"
admin.site.site_title = "Casino back office"
admin.site.index_title = "Tables, rounds, money and audit"


def role_of(request: HttpRequest) -> str | None:
    user = request.user
    if getattr(user, "is_superuser", False):
        return StaffRole.ADMIN
    profile = getattr(user, "staff", None)
    return profile.role if profile is not None else None


def _actor(request: HttpRequest) -> AuditActor:
    user = request.user
    return AuditActor(kind="user", user_id=user.pk, username=user.get_username(), role=role_of(request) or "")


class RoleAdmin(admin.ModelAdmin):
    """Viewing needs any staff role; changing needs one of `edit_roles`."""

    edit_roles: tuple[str, ...] = (StaffRole.ADMIN,)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return role_of(request) is not None

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return role_of(request) is not None

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return role_of(request) in self.edit_roles

    def has_add_permission(self, request: HttpRequest) -> bool:
        return role_of(request) in self.edit_roles

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # history is never deleted; deactivate instead


class ReadOnlyAdmin(RoleAdmin):
    edit_roles = ()


class TableLimitInline(admin.TabularInline):
    model = TableLimit
    extra = 0

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return role_of(request) in (StaffRole.PIT_BOSS, StaffRole.ADMIN)

    has_add_permission = has_change_permission

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Casino)
class CasinoAdmin(RoleAdmin):
    list_display = ["name"]


@admin.register(Pit)
class PitAdmin(RoleAdmin):
    list_display = ["name", "casino"]
    edit_roles = (StaffRole.PIT_BOSS, StaffRole.ADMIN)


@admin.register(Table)
class TableAdmin(RoleAdmin):
    edit_roles = (StaffRole.PIT_BOSS, StaffRole.ADMIN)
    list_display = [
        "name",
        "pit",
        "game",
        "decks",
        "dealer_hits_soft_17",
        "blackjack_pays",
        "aggregate_limit_cents",
        "is_active",
    ]
    list_filter = ["pit", "game", "decks", "is_active"]
    search_fields = ["name"]
    inlines = [TableLimitInline]
    fieldsets = [
        (None, {"fields": ["pit", "name", "game", "is_active"]}),
        ("Shoe", {"fields": ["decks", "penetration_percent"]}),
        ("House rules (RULES.md §1.2)", {"fields": [
            "dealer_hits_soft_17", "blackjack_pays_num", "blackjack_pays_den", "double_after_split",
            "max_hands", "split_by_value", "surrender", "insurance",
        ]}),
        ("Tie bonus", {"fields": ["aggregate_limit_cents"]}),
    ]  # fmt: skip

    @admin.display(description="Blackjack pays")
    def blackjack_pays(self, table: Table) -> str:
        return f"{table.blackjack_pays_num}:{table.blackjack_pays_den}"


@admin.register(Terminal)
class TerminalAdmin(RoleAdmin):
    list_display = [
        "name",
        "table",
        "is_active",
        "dealer",
        "dealer_signed_in_at",
        "session_live",
        "key_prefix",
    ]
    readonly_fields = [
        "key_prefix",
        "dealer",
        "dealer_signed_in_at",
        "dealer_seen_at",
        "session_live",
        "sign_in_failures",
        "sign_in_failures_since",
    ]
    exclude = ["key_hash"]

    @admin.display(description="Session live", boolean=True)
    def session_live(self, terminal: Terminal) -> bool | None:
        if terminal.dealer_id is None:
            return None
        return terminals.session_is_live(terminal, now=timezone.now())

    actions = ["issue_new_key"]

    @admin.action(description="Issue a new API key (the old one stops working)")
    def issue_new_key(self, request: HttpRequest, queryset: QuerySet[Terminal]) -> None:
        if role_of(request) != StaffRole.ADMIN:
            self.message_user(request, "Only an admin may issue terminal keys.", messages.ERROR)
            return
        for terminal in queryset:
            key = new_api_key()
            terminal.key_prefix, terminal.key_hash = key.prefix, key.key_hash
            terminal.save(update_fields=["key_prefix", "key_hash"])
            self.message_user(
                request, f"{terminal.name}: new key {key.key} (shown once; copy it now)", messages.WARNING
            )


@admin.register(Dealer)
class DealerAdmin(RoleAdmin):
    list_display = ["badge", "name", "is_active", "locked_at"]
    list_filter = ["is_active", ("locked_at", admin.EmptyFieldListFilter)]
    search_fields = ["badge", "name"]
    exclude = ["pin_hash"]
    readonly_fields = ["locked_at", "sign_in_failures", "sign_in_failures_since"]
    actions = ["reset_pin", "unlock"]

    def has_unlock_permission(self, request: HttpRequest) -> bool:
        return role_of(request) in SUPERVISOR_ROLES

    @admin.action(description="Unlock (after too many wrong PINs)", permissions=["unlock"])
    def unlock(self, request: HttpRequest, queryset: QuerySet[Dealer]) -> None:
        for dealer in queryset.order_by("pk"):
            try:
                terminals.unlock_dealer(dealer_id=dealer.pk, actor=_actor(request), now=timezone.now())
            except ServiceError as error:
                self.message_user(request, f"Dealer {dealer.badge}: {error.detail}", messages.WARNING)
            else:
                self.message_user(request, f"Dealer {dealer.badge} unlocked.", messages.SUCCESS)

    def save_model(self, request: HttpRequest, obj: Dealer, form: Any, change: bool) -> None:
        if not obj.pin_hash:
            pin = new_pin()
            obj.pin_hash = hash_pin(pin)
            self.message_user(request, f"Dealer {obj.badge}: PIN {pin} (shown once)", messages.WARNING)
        super().save_model(request, obj, form, change)

    @admin.action(description="Reset the PIN")
    def reset_pin(self, request: HttpRequest, queryset: QuerySet[Dealer]) -> None:
        if role_of(request) != StaffRole.ADMIN:
            self.message_user(request, "Only an admin may reset PINs.", messages.ERROR)
            return
        for dealer in queryset:
            pin = new_pin()
            dealer.pin_hash = hash_pin(pin)
            dealer.save(update_fields=["pin_hash"])
            self.message_user(request, f"Dealer {dealer.badge}: new PIN {pin} (shown once)", messages.WARNING)


@admin.register(StaffProfile)
class StaffProfileAdmin(RoleAdmin):
    list_display = ["user", "role"]
    list_filter = ["role"]


class WagerInline(admin.TabularInline):
    model = Wager
    extra = 0
    can_delete = False
    readonly_fields = ["seat", "hand", "kind", "source", "amount_cents", "placed_at"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class RoundEventInline(WagerInline):
    model = RoundEvent  # type: ignore[assignment]
    readonly_fields = [
        "number",
        "kind",
        "card",
        "seat",
        "hand",
        "action",
        "amount_cents",
        "terminal",
        "dealer",
        "created_at",
    ]


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "table",
        "state",
        "seq",
        "paytable",
        "dealer",
        "opened_at",
        "settled_at",
        "voided_at",
    ]
    list_filter = ["state", "table"]
    date_hierarchy = "opened_at"
    inlines = [WagerInline, RoundEventInline]


class SettlementLineInline(WagerInline):
    model = SettlementLine  # type: ignore[assignment]
    readonly_fields = ["seat", "hand", "kind", "amount_cents", "result", "win_cents", "paid_cents"]


@admin.register(Settlement)
class SettlementAdmin(ReadOnlyAdmin):
    list_display = [
        "round",
        "wagered_cents",
        "paid_cents",
        "house_net_cents",
        "aggregate_limit_applied",
        "settled_at",
    ]
    inlines = [SettlementLineInline]


@admin.register(Shoe)
class ShoeAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "table",
        "mode",
        "decks",
        "cut_card_reached",
        "opened_at",
        "closed_at",
        "commitment",
    ]
    list_filter = ["mode", "table"]
    exclude = ["order", "salt_hex"]  # secret until the shoe closes; the API reveals them then


class LedgerEntryInline(WagerInline):
    model = LedgerEntry  # type: ignore[assignment]
    readonly_fields = ["account", "amount_cents"]


@admin.register(LedgerTransaction)
class LedgerTransactionAdmin(ReadOnlyAdmin):
    list_display = ["id", "kind", "table", "round", "gaming_day", "shift", "created_at", "memo"]
    list_filter = ["kind", "table", "gaming_day", "shift"]
    inlines = [LedgerEntryInline]


@admin.register(Account)
class AccountAdmin(ReadOnlyAdmin):
    list_display = ["id", "kind", "table"]
    list_filter = ["kind"]
