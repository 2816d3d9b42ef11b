"""The tournaments as the API shows them (API.md "Tournaments"): plain dicts from rows, and the
serializers that describe them in the schema."""

from typing import Any

from django.utils import timezone
from rest_framework import serializers

from tournaments import selectors
from tournaments.models import Entry, Prize, Results, Tournament


class TournamentInput(serializers.Serializer):
    """The settings (RULES.md §4); checked as a whole by the engine, every wrong field listed."""

    name = serializers.CharField()
    game = serializers.CharField()
    buy_in_cents = serializers.IntegerField()
    fee_cents = serializers.IntegerField(required=False)
    added_cents = serializers.IntegerField(required=False)
    guarantee_cents = serializers.IntegerField(required=False)
    max_entries = serializers.IntegerField()
    reentries = serializers.IntegerField(required=False)
    registration_closes_at = serializers.DateTimeField()
    heats = serializers.ListField(child=serializers.DictField())
    start_window_s = serializers.IntegerField(required=False)
    deal = serializers.ChoiceField(choices=["duplicate", "individual"])
    prizes_bp = serializers.ListField(child=serializers.IntegerField())
    settings = serializers.DictField(required=False)


class TournamentOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField()
    state = serializers.CharField()
    settings = serializers.DictField()
    filing = serializers.DictField(allow_null=True)
    rules = serializers.DictField()
    entries = serializers.IntegerField()
    pool_cents = serializers.IntegerField()
    overlay_cents = serializers.IntegerField()


class LeaderboardRow(serializers.Serializer):
    place = serializers.IntegerField()
    entry = serializers.IntegerField()
    name = serializers.CharField()
    score = serializers.IntegerField()
    games = serializers.IntegerField()
    prize_cents = serializers.IntegerField()


class ResultsOutput(serializers.Serializer):
    tournament = serializers.IntegerField()
    pool_cents = serializers.IntegerField()
    standings = serializers.ListField(child=serializers.DictField())
    prizes = serializers.ListField(child=serializers.DictField())
    approved = serializers.BooleanField()


class PrizeOutput(serializers.Serializer):
    id = serializers.IntegerField()
    tournament = serializers.IntegerField()
    entry = serializers.IntegerField()
    place = serializers.IntegerField()
    amount_cents = serializers.IntegerField()
    paid_with = serializers.CharField(allow_null=True)
    paid_at = serializers.DateTimeField(allow_null=True)


def tournament_payload(tournament: Tournament, *, detail: bool = False) -> dict[str, Any]:
    rules = tournament.rules.order_by("-version").first()
    money = selectors.money_of(tournament)
    payload: dict[str, Any] = {
        "id": tournament.pk,
        "name": tournament.name,
        "game": tournament.game,
        "state": tournament.state,
        "settings": tournament.settings,
        "filing": None
        if not tournament.filing_reference
        else {"reference": tournament.filing_reference, "filed_on": tournament.filed_on},
        "rules": {"version": rules.version, "sha256": rules.sha256, "text": rules.text} if rules else {},
        "entries": tournament.entries_taken,
        "pool_cents": money.figures.pool_cents,
        "overlay_cents": tournament.overlay_cents,
    }
    if detail:
        payload["not_played"] = selectors.why_not_played(tournament, now=timezone.now())
        payload["money"] = {
            "buy_ins_cents": money.figures.buy_ins_cents,
            "fees_cents": money.figures.fees_cents,
            "added_cents": money.figures.added_cents,
            "overlay_cents": money.figures.overlay_cents,
            "pool_balance_cents": money.pool_balance_cents,
            "prizes_paid_cents": money.prizes_paid_cents,
            "refunded_cents": money.refunded_cents,
        }
        payload["heats"] = [
            {
                "heat": heat.number,
                "starts_at": heat.starts_at,
                "window_closes_at": heat.window_closes_at,
                "commitment": heat.commitment or None,
                "closed_at": heat.closed_at,
                "reveal": {"order": heat.deck, "salt": heat.salt} if heat.closed_at and heat.deck else None,
            }
            for heat in selectors.list_heats(tournament_id=tournament.pk)
        ]
        payload["prizes"] = [
            prize_payload(prize) for prize in selectors.list_prizes(tournament_id=tournament.pk)
        ]
    return payload


def entry_payload(entry: Entry, *, token: str) -> dict[str, Any]:
    return {
        "id": entry.pk,
        "number": entry.number,
        "patron": entry.patron.number,
        "reentry": entry.reentry,
        "paid_with": entry.paid_with,
        "rules_version": entry.rules.version,
        "token": token,
    }


def leaderboard_row(row: selectors.Row) -> dict[str, Any]:
    """No patron's name: the entry's chosen nickname, or its number."""
    return {
        "place": row.standing.place,
        "entry": row.standing.entry,
        "name": row.entry.nickname or f"Entry {row.entry.number}",
        "score": row.standing.score,
        "games": row.games,
        "prize_cents": row.prize_cents,
    }


def prize_payload(prize: Prize) -> dict[str, Any]:
    return {
        "id": prize.pk,
        "tournament": prize.tournament_id,
        "entry": prize.entry.number,
        "place": prize.place,
        "amount_cents": prize.amount_cents,
        "paid_with": prize.paid_with or None,
        "paid_at": prize.paid_at,
    }


def results_payload(results: Results) -> dict[str, Any]:
    return {
        "tournament": results.tournament_id,
        "pool_cents": results.pool_cents,
        "standings": results.standings,
        "prizes": [
            prize_payload(prize) for prize in selectors.list_prizes(tournament_id=results.tournament_id)
        ],
        "approved": results.approved_at is not None,
    }
