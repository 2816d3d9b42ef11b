"""The blackjack rounds and their settlements on the admin site: read-only, for admins
(casino.admin says who enters)."""

from typing import Any

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from blackjack.models import Round, RoundEvent, Settlement, SettlementLine, Wager
from casino.admin import ReadOnlyAdmin, RoleInline
from kernel.formatting import dollars, local_time


class WagerInline(RoleInline):
    model = Wager
    fields = readonly_fields = ("seat", "hand", "kind", "source", "amount_cents", "placed_at")


class RoundEventInline(RoleInline):
    model = RoundEvent
    verbose_name = "card or action"
    verbose_name_plural = "cards and actions, in dealing order"
    fields = readonly_fields = (
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
    )


def _seats_table(opening: list[dict[str, Any]]) -> SafeString:
    rows = format_html_join(
        "",
        '<tr><td>{}</td><td>{}</td><td class="money">{}</td><td>{}</td></tr>',
        (
            (
                seat["seat"],
                seat.get("player") or "-",
                dollars(seat["primary_cents"]),
                ", ".join(f"{kind} {dollars(cents)}" for kind, cents in seat.get("bonus_cents", {}).items())
                or "-",
            )
            for seat in opening
        ),
    )
    return format_html(
        '<table class="seats"><thead><tr><th>Seat</th><th>Player</th><th>Primary</th><th>Tie bonus bets</th>'
        "</tr></thead><tbody>{}</tbody></table>",
        rows,
    )


def _settlement_table(settlement: Settlement) -> SafeString:
    lines = format_html_join(
        "",
        '<tr><td>{}</td><td>{}</td><td>{}</td><td class="money">{}</td><td>{}</td><td class="money">{}</td>'
        '<td class="money">{}</td></tr>',
        (
            (
                line.seat,
                line.hand,
                line.get_kind_display(),
                dollars(line.amount_cents),
                line.get_result_display(),
                dollars(line.win_cents),
                dollars(line.paid_cents),
            )
            for line in settlement.lines.order_by("seat", "hand", "kind")
        ),
    )
    return format_html(
        '<table class="settlement"><thead><tr><th>Seat</th><th>Hand</th><th>Bet</th><th>Stake</th>'
        "<th>Result</th><th>Win</th><th>Paid</th></tr></thead><tbody>{}</tbody>"
        '<tfoot><tr><th colspan="3">Wagered {}</th><th colspan="2">Paid {}</th><th colspan="2">House net {}</th>'
        '</tr></tfoot></table><p><a href="{}">{}</a></p>',
        lines,
        dollars(settlement.wagered_cents),
        dollars(settlement.paid_cents),
        dollars(settlement.house_net_cents),
        reverse("admin:blackjack_settlement_change", args=[settlement.pk]),
        f"Settled {local_time(settlement.settled_at)}; {_aggregate_text(settlement)}",
    )


def _aggregate_text(settlement: Settlement) -> str:
    if not settlement.aggregate_limit_applied:
        return "aggregate limit not reached"
    return f"aggregate limit applied, payouts reduced by {dollars(settlement.aggregate_reduction_cents)}"


RULE_LABELS = {
    "decks": "Decks",
    "dealer": "Dealer",
    "blackjack_pays": "Blackjack pays",
    "double_any_two": "Double on any two cards",
    "double_after_split": "Double after split",
    "max_hands": "Hands after splits, at most",
    "split_aces_one_card": "Split aces get one card",
    "resplit_aces": "Resplit aces",
    "split_by_value": "Split by value",
    "surrender": "Surrender",
    "insurance": "Insurance",
    "penetration_percent": "Penetration %",
}


def _rules_list(rules: dict[str, Any]) -> SafeString:
    def shown(value: Any) -> str:
        if isinstance(value, bool):
            return "yes" if value else "no"
        return str(value)

    return format_html(
        '<dl class="rules">{}</dl>',
        format_html_join(
            "",
            "<dt>{}</dt><dd>{}</dd>",
            ((RULE_LABELS.get(name, name), shown(value)) for name, value in rules.items()),
        ),
    )


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
    list_select_related = ["table", "paytable", "dealer"]
    date_hierarchy = "opened_at"
    fieldsets = [
        (None, {"fields": ["table", "state", "seq", "shoe", "paytable", "dealer", "terminal"]}),
        ("When", {"fields": ["opened_at", "settled_at", "voided_at", "void_reason", "voided_by"]}),
        ("As opened", {"fields": ["seats_as_opened", "rules_in_force", "aggregate_limit_cents"]}),
        ("Settlement", {"fields": ["settlement_lines"]}),
    ]
    inlines = [WagerInline, RoundEventInline]

    @admin.display(description="Seats and stakes")
    def seats_as_opened(self, round_: Round) -> SafeString:
        return _seats_table(round_.opening)

    @admin.display(description="House rules")
    def rules_in_force(self, round_: Round) -> SafeString:
        return _rules_list(round_.rules)

    @admin.display(description="Settlement lines")
    def settlement_lines(self, round_: Round) -> SafeString | str:
        try:
            settlement = round_.settlement
        except Settlement.DoesNotExist:
            return "Not settled" if round_.state != "void" else "Void: the wagers were returned"
        return _settlement_table(settlement)


class SettlementLineInline(RoleInline):
    model = SettlementLine
    fields = readonly_fields = ("seat", "hand", "kind", "amount_cents", "result", "win_cents", "paid_cents")


@admin.register(Settlement)
class SettlementAdmin(ReadOnlyAdmin):
    list_display = [
        "round",
        "wagered_cents",
        "paid_cents",
        "house_net_cents",
        "aggregate_limit",
        "settled_at",
    ]
    list_select_related = ["round__table"]
    inlines = [SettlementLineInline]

    @admin.display(description="Aggregate limit")
    def aggregate_limit(self, settlement: Settlement) -> str:
        return _aggregate_text(settlement)
