"""Pages of the skill games for the admin: each game with its seats and move log, read-only (a game
changes only through its seats' moves and its clock). What the rules keep hidden stays hidden
here too: each deck's order and salt appear only once that deck is revealed (its commitment from
the start), a seat shows its token's prefix but never its hash, and the log holds no card before
it was played (RULES.md §3). The floor roles read the games of the day on the console
(/floor/games/)."""

from typing import Any

from django.contrib import admin
from django.utils.html import format_html, format_html_join

from casino.admin import ReadOnlyAdmin, RoleInline
from skill_games.models import Game, Move, Seat

HIDDEN = "hidden until the reveal"


class SeatInline(RoleInline):
    model = Seat
    fields = readonly_fields = ("number", "key_prefix", "created_at")


class MoveInline(RoleInline):
    model = Move
    fields = readonly_fields = ("seq", "seat", "move", "received_at", "elapsed_ms", "automatic", "outcome")
    ordering = ("seq",)
    verbose_name_plural = "move log, in order"


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ["id", "kind", "state", "seq", "started_at", "finished_at", "end_reason", "total",
                    "tournament_id"]  # fmt: skip
    list_filter = ["kind", "state"]
    date_hierarchy = "started_at"
    fields = readonly_fields = ("kind", "state", "seq", "settings", "started_at", "ends_at", "due_at",
                                "finished_at", "end_reason", "score", "decks_revealed", "revealed_at", "deal",
                                "created_by", "tournament_id", "created_at")  # fmt: skip
    inlines = [SeatInline, MoveInline]

    @admin.display(description="Total")
    def total(self, game: Game) -> Any:
        return "-" if game.score is None else game.score.get("total", "-")

    @admin.display(description="Deal (one deck a game: commitment, order, salt)")
    def deal(self, game: Game) -> str:
        rows = (
            (
                number,
                commitment,
                " ".join(game.decks[number - 1]) if number <= game.decks_revealed else HIDDEN,
                game.salts[number - 1] if number <= game.decks_revealed else HIDDEN,
            )
            for number, commitment in enumerate(game.commitments, start=1)
        )
        items = format_html_join(
            "",
            "<li>Game {}: commitment {}<br>order: {}<br>salt: {}</li>",
            rows,
        )
        return format_html('<ol class="deal">{}</ol>', items)
