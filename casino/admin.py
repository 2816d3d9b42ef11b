"""The admin site's configuration pages: for admins only (DESIGN.md, Roles; casino.admin_site).

Admins add and configure casinos, pits, tables, terminals, dealers and staff here, and read the
rounds and the money. An existing table's limits and house rules change only through a rule
change on the floor console, requested and approved by two people
(`casino.services.rule_changes`); everything that records money is read-only for all.
Floor supervisors, pit bosses, the cage and the count team work on the floor console, which
shows each of them their own pits only; compliance enters this site for the audit trail and the
paytables alone, so every page here refuses any role but the admin's.
Configuration changes are captured by database triggers in the audit app, so the
admin needs no audit code of its own.
"""

from typing import Any

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.safestring import SafeString

from audit.context import AuditActor
from casino.admin_display import StaffPresentation, alarm_label
from casino.admin_site import admin_site_role
from casino.models import (
    Account,
    Casino,
    Dealer,
    LedgerEntry,
    LedgerTransaction,
    Pit,
    Shoe,
    StaffProfile,
    StaffRole,
    StaffSignInLock,
    Table,
    TableLimit,
    Terminal,
)
from casino.services import staff_sign_in, terminals
from casino.services.provisioning import site_flags
from kernel.errors import CodedError
from kernel.formatting import local_time
from kernel.keys import hash_pin, new_api_key, new_pin


def role_of(request: HttpRequest) -> str | None:
    """The role the user works in on the admin site: admin, compliance, or None (refused)."""
    return admin_site_role(request.user)


def _actor(request: HttpRequest) -> AuditActor:
    user = request.user
    return AuditActor(kind="user", user_id=user.pk, username=user.get_username(), role=role_of(request) or "")


class RoleAdmin(StaffPresentation, admin.ModelAdmin):
    """Viewing needs one of `view_roles` (the admin's, unless a page says otherwise); changing
    needs one of `edit_roles`."""

    view_roles: tuple[str, ...] = (StaffRole.ADMIN,)
    edit_roles: tuple[str, ...] = (StaffRole.ADMIN,)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return role_of(request) in self.view_roles

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return role_of(request) in self.view_roles

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return role_of(request) in self.edit_roles

    def has_add_permission(self, request: HttpRequest) -> bool:
        return role_of(request) in self.edit_roles

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # history is never deleted; deactivate instead


class ReadOnlyAdmin(RoleAdmin):
    edit_roles = ()


class RoleInline(StaffPresentation, admin.TabularInline):
    """Rows shown inside a parent's page to the admin (the admin site grants by role, not by
    Django's per-model permissions); nobody adds, changes or deletes them unless a subclass says
    otherwise."""

    extra = 0
    can_delete = False

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return role_of(request) == StaffRole.ADMIN

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class TableLimitInline(RoleInline):
    """A table's limits are set here when the table is added; an existing table's change through a
    rule change on the floor console, requested and approved by two people (maker-checker)."""

    model = TableLimit
    extra = 0

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None and role_of(request) == StaffRole.ADMIN

    has_add_permission = has_change_permission

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Casino)
class CasinoAdmin(RoleAdmin):
    list_display = ["name"]


@admin.register(Pit)
class PitAdmin(RoleAdmin):
    list_display = ["name", "casino"]


@admin.register(Table)
class TableAdmin(RoleAdmin):
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

    # An existing table's limits and house rules change only through a rule change with
    # maker-checker on the floor console (casino.services.rule_changes).
    rule_change_fields = (
        "decks", "penetration_percent", "dealer_hits_soft_17", "blackjack_pays_num", "blackjack_pays_den",
        "double_after_split", "max_hands", "split_by_value", "surrender", "insurance", "aggregate_limit_cents",
    )  # fmt: skip

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        readonly = list(super().get_readonly_fields(request, obj))
        if obj is not None:
            readonly += [field for field in self.rule_change_fields if field not in readonly]
        return readonly

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
    list_display = ["badge", "name", "is_active", "lockout"]
    list_filter = ["is_active", ("locked_at", admin.EmptyFieldListFilter)]
    search_fields = ["badge", "name"]
    exclude = ["pin_hash"]
    readonly_fields = ["locked_at", "sign_in_failures", "sign_in_failures_since"]
    actions = ["reset_pin", "unlock"]

    @admin.display(description="Locked out", ordering="locked_at")
    def lockout(self, dealer: Dealer) -> SafeString | str:
        if dealer.locked_at is None:
            return "-"
        return alarm_label(f"Locked out since {local_time(dealer.locked_at)}")

    def has_unlock_permission(self, request: HttpRequest) -> bool:
        return role_of(request) == StaffRole.ADMIN

    @admin.action(description="Unlock (after too many wrong PINs)", permissions=["unlock"])
    def unlock(self, request: HttpRequest, queryset: QuerySet[Dealer]) -> None:
        for dealer in queryset.order_by("pk"):
            try:
                terminals.unlock_dealer(dealer_id=dealer.pk, actor=_actor(request), now=timezone.now())
            except CodedError as error:
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
    list_display = ["user", "role", "pit_names"]
    list_filter = ["role"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[StaffProfile]:
        return super().get_queryset(request).select_related("user").prefetch_related("pits")

    def save_model(self, request: HttpRequest, obj: StaffProfile, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        # The user's admin-site flags follow the role, as create_staff sets them: a pit boss made
        # compliance may enter the admin site; an admin made pit boss no longer may.
        get_user_model().objects.filter(pk=obj.user_id).update(**site_flags(obj.role))

    @admin.display(description="Pits")
    def pit_names(self, profile: StaffProfile) -> str:
        return ", ".join(pit.name for pit in profile.pits.all()) or "-"


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
    list_select_related = ["table"]
    exclude = ["order", "salt_hex"]  # secret until the shoe closes; the API reveals them then


class LedgerEntryInline(RoleInline):
    model = LedgerEntry
    fields = readonly_fields = ("account", "amount_cents")


@admin.register(LedgerTransaction)
class LedgerTransactionAdmin(ReadOnlyAdmin):
    list_display = ["id", "kind", "table", "round", "gaming_day", "shift", "created_at", "memo"]
    list_filter = ["kind", "table", "gaming_day", "shift"]
    list_select_related = ["table", "round__table"]
    inlines = [LedgerEntryInline]


@admin.register(Account)
class AccountAdmin(ReadOnlyAdmin):
    list_display = ["id", "kind", "table"]
    list_filter = ["kind"]
    list_select_related = ["table"]


@admin.register(StaffSignInLock)
class StaffSignInLockAdmin(ReadOnlyAdmin):
    """Usernames with failed sign-ins (casino.services.staff_sign_in): admins unlock a locked one.
    A staff member's password is changed on their user's page ("Users"), or with `manage.py
    changepassword`; they change their own on the floor console."""

    list_display = ["username", "failures", "failures_since", "lockout"]
    list_filter = [("locked_at", admin.EmptyFieldListFilter)]
    search_fields = ["username"]
    actions = ["unlock"]

    @admin.display(description="Locked out", ordering="locked_at")
    def lockout(self, lock: StaffSignInLock) -> SafeString | str:
        if lock.locked_at is None:
            return "-"
        return alarm_label(f"Locked out since {local_time(lock.locked_at)}")

    def has_unlock_permission(self, request: HttpRequest) -> bool:
        return role_of(request) == StaffRole.ADMIN

    @admin.action(description="Unlock (after too many failed sign-ins)", permissions=["unlock"])
    def unlock(self, request: HttpRequest, queryset: QuerySet[StaffSignInLock]) -> None:
        for lock in queryset.order_by("pk"):
            try:
                staff_sign_in.unlock_staff_sign_in(
                    username=lock.username, actor=_actor(request), now=timezone.now()
                )
            except CodedError as error:
                self.message_user(request, f"Not unlocked: {error.detail}", messages.WARNING)
            else:
                self.message_user(request, f"Unlocked {lock.username}.", messages.SUCCESS)
