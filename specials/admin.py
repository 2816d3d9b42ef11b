"""Pages of the special-card game for the admin: matches with their players and points ledger,
rounds with every card, declaration and action in order. All read-only: a match changes only
through the dealer terminal's API. The floor roles and compliance read a table's special rounds on
the floor console (/floor/rounds/specials/), scoped by pit there."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.html import format_html_join

from casino.admin import ReadOnlyAdmin, role_of
from casino.admin_display import StaffPresentation
from casino.models import StaffRole
from specials.engine import round as round_engine
from specials.models import Match, MatchPlayer, PointsEntry, SpecialsRound, SpecialsRoundEvent
from specials.selectors import round_snapshot


class _ReadOnlyInline(StaffPresentation, admin.TabularInline):
    extra = 0
    can_delete = False

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return role_of(request) == StaffRole.ADMIN

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class MatchPlayerInline(_ReadOnlyInline):
    model = MatchPlayer
    fields = readonly_fields = ("seat", "player", "special", "special_reported", "special_used_in")


class PointsEntryInline(_ReadOnlyInline):
    model = PointsEntry
    fields = readonly_fields = ("seq", "seat", "round", "reason", "delta", "balance", "created_at")
    verbose_name_plural = "points ledger"


class SpecialsRoundInline(_ReadOnlyInline):
    model = SpecialsRound
    fields = readonly_fields = ("number", "state", "shoe", "dealer", "opened_at", "finished_at")
    show_change_link = True


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = ["id", "table", "state", "rounds_played", "start_points", "win_points", "lose_points",
                    "dealer", "opened_at", "finished_at"]  # fmt: skip
    list_filter = ["state", "table"]
    date_hierarchy = "opened_at"
    inlines = [MatchPlayerInline, PointsEntryInline, SpecialsRoundInline]


class SpecialsRoundEventInline(_ReadOnlyInline):
    model = SpecialsRoundEvent
    fields = readonly_fields = ("number", "kind", "seat", "card", "value", "action", "discard", "terminal",
                                "dealer", "created_at")  # fmt: skip
    verbose_name_plural = "cards, declarations and actions, in order"


@admin.register(SpecialsRound)
class SpecialsRoundAdmin(ReadOnlyAdmin):
    list_display = ["id", "match", "number", "state", "seq", "shoe", "dealer", "opened_at", "finished_at"]
    list_filter = ["state", "match__table"]
    date_hierarchy = "opened_at"
    fields = readonly_fields = ("match", "number", "state", "seq", "shoe", "terminal", "dealer", "opened_at",
                                "finished_at", "hands", "dealer_hand", "outcome_table")  # fmt: skip
    inlines = [SpecialsRoundEventInline]

    @admin.display(description="Hands")
    def hands(self, round_: SpecialsRound) -> str:
        state = round_snapshot(round_).state
        return format_html_join(
            "",
            "<div>Seat {}: {} = <b>{}</b> ({}){}</div>",
            (
                (
                    hand.seat,
                    " ".join(
                        f"{held.card}={held.value if held.value is not None else '?'}" for held in hand.cards
                    ),
                    hand.total,
                    hand.status,
                    _specials_note(hand),
                )
                for hand in state.seats
            ),
        )

    @admin.display(description="Dealer")
    def dealer_hand(self, round_: SpecialsRound) -> str:
        dealer = round_engine.dealer_view(round_snapshot(round_).state)
        return f"{' '.join(str(card) for card in dealer.cards)} = {dealer.total}{' (bust)' if dealer.bust else ''}"

    @admin.display(description="Outcome")
    def outcome_table(self, round_: SpecialsRound) -> str:
        if not round_.outcome:
            return "-"
        return format_html_join(
            "",
            "<div>Seat {}: {} ({}), {} points</div>",
            ((o["seat"], o["result"], f"{o['delta']:+d}", o["points"]) for o in round_.outcome),
        )


def _specials_note(hand: round_engine.SeatHand) -> str:
    notes = []
    if hand.discarded:
        notes.append(f"swapped out {' '.join(str(card) for card in hand.discarded)}")
    if hand.plus_one:
        notes.append("plus one")
    return f"; {', '.join(notes)}" if notes else ""
