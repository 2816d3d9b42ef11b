"""Tournaments in the reports (RULES.md §4): the tournament report, and each tournament's revenue
on its own line of the gaming-day report.

**The tournament report** (`tournament_report`): everything a regulator or an accountant asks of
one tournament, read from its rows and its ledger: the settings and the regulator's filing, the
posted rules' version and SHA-256, every entry and how it was paid, the money (buy-ins, fees,
added money, overlay, pool, prizes paid, refunds, revenue), the prizes, every entry's heat scores,
every heat's commitment and, once the heat is closed, its reveal (deck order and salt; withheld
while it is not closed, so the report never shows what a heat still in play would deal), who
proposed and approved the results, and the cancellation. Money in integer cents, moments in UTC
(the documents print dollars and casino local time).

**The gaming-day lines** (`tournament_day_lines`): each tournament's own figures, never netted
against another tournament nor against the tables (their win, drop and hold are untouched). A
tournament's revenue falls in the gaming day its results were approved: the day it is final and
its prizes become owed, which is when an accountant recognises a contest's revenue (registration
closing fixes the overlay, but play, results and even a cancellation can still follow). A
tournament cancelled after registration closed has no results: its revenue is nil and it is listed
on no day. Its figures on that line are the whole tournament's (entries' fees, added money,
overlay, revenue = fees - added - overlay; prizes paid so far), whenever the money moved.
"""

import datetime as dt
from collections import defaultdict
from typing import Any

from casino.ledger import owned_balance_cents
from casino.models import AccountKind
from kernel.gaming_day import casino_zone, gaming_day_and_shift
from skill_games.models import GameState
from skill_games.registry import game_for
from tournaments import selectors
from tournaments.models import (
    Cancellation,
    Entry,
    EntryGame,
    Heat,
    PostedRules,
    Prize,
    Results,
    Tournament,
    owner_key,
)

REPORT_FORMAT = "tournament-1"


def _user(user: Any) -> str | None:
    if user is None:
        return None
    return str(user.get_full_name() or user.get_username())


def revenue_cents(tournament: Tournament) -> int:
    """The house's take as its revenue account holds it: fees - added money - overlay (nil once
    cancelled and refunded)."""
    return -owned_balance_cents(owner=owner_key(tournament.pk), kind=AccountKind.REVENUE)


def money_figures(tournament: Tournament) -> dict[str, int]:
    money = selectors.money_of(tournament)
    return {
        "buy_ins_cents": money.figures.buy_ins_cents,
        "fees_cents": money.figures.fees_cents,
        "added_cents": money.figures.added_cents,
        "overlay_cents": money.figures.overlay_cents,
        "pool_cents": money.figures.pool_cents,
        "pool_balance_cents": money.pool_balance_cents,
        "prizes_paid_cents": money.prizes_paid_cents,
        "refunded_cents": money.refunded_cents,
        "revenue_cents": revenue_cents(tournament),
    }


def _heat_scores(tournament: Tournament, heats: list[Heat], *, now: dt.datetime) -> dict[int, dict[int, int]]:
    """Each entry's (by number) score of each heat (by number): its finished game's, or the
    game's no-show score for a solitaire heat whose start window is over without a game."""
    adapter = game_for(tournament.game).adapter
    numbers = {heat.pk: heat.number for heat in heats}
    scores: dict[int, dict[int, int]] = defaultdict(dict)
    played: set[tuple[int, int]] = set()
    rows = EntryGame.objects.filter(entry__tournament_id=tournament.pk).values_list(
        "entry__number", "heat_id", "seat", "game__state", "game__score"
    )
    for number, heat_id, seat, state, score in rows:
        played.add((number, heat_id))
        if state == GameState.FINISHED and score is not None:
            scores[number][numbers[heat_id]] = adapter.seat_score(score, seat=seat)
    no_show = adapter.tournament.no_show_score
    if no_show is not None:
        over = [heat for heat in heats if heat.window_closes_at <= now]
        for number in Entry.objects.filter(tournament_id=tournament.pk).values_list("number", flat=True):
            for heat in over:
                if (number, heat.pk) not in played:
                    scores[number][heat.number] = no_show
    return scores


def tournament_report(*, tournament_id: int, now: dt.datetime) -> dict[str, Any] | None:
    """The tournament report's figures (None: no such tournament)."""
    tournament = Tournament.objects.filter(pk=tournament_id).select_related("created_by").first()
    if tournament is None:
        return None
    rules = PostedRules.objects.filter(tournament=tournament).order_by("-version").first()
    entries = list(
        Entry.objects.filter(tournament=tournament)
        .select_related("patron", "rules", "cashier")
        .order_by("number")
    )
    heats = list(Heat.objects.filter(tournament=tournament).order_by("number"))
    scores = _heat_scores(tournament, heats, now=now)
    prizes = (
        Prize.objects.filter(tournament=tournament)
        .select_related("entry__patron", "paid_by")
        .order_by("place", "entry__number")
    )
    results = (
        Results.objects.filter(tournament=tournament).select_related("proposed_by", "approved_by").first()
    )
    cancellation = (
        Cancellation.objects.filter(tournament=tournament)
        .select_related("requested_by", "approved_by")
        .first()
    )
    return {
        "format": REPORT_FORMAT,
        "tournament": {
            "id": tournament.pk,
            "name": tournament.name,
            "game": tournament.game,
            "state": tournament.state,
            "created_at": tournament.created_at,
            "created_by": _user(tournament.created_by),
            "registration_closed_at": tournament.registration_closed_at,
        },
        "settings": tournament.settings,
        "filing": {"reference": tournament.filing_reference, "filed_on": tournament.filed_on}
        if tournament.filing_reference
        else None,
        "rules": {"version": rules.version, "sha256": rules.sha256} if rules is not None else None,
        "entries": [
            {
                "number": entry.number,
                "patron": entry.patron.number,
                "reentry": entry.reentry,
                "paid_with": entry.paid_with,
                "buy_in_cents": entry.buy_in_cents,
                "fee_cents": entry.fee_cents,
                "at": entry.created_at,
                "cashier": _user(entry.cashier),
                "rules_version": entry.rules.version,
                "refunded": entry.refund_id is not None,
            }
            for entry in entries
        ],
        "money": money_figures(tournament),
        "prizes": [
            {
                "place": prize.place,
                "entry": prize.entry.number,
                "patron": prize.entry.patron.number,
                "amount_cents": prize.amount_cents,
                "paid_with": prize.paid_with or None,
                "paid_at": prize.paid_at,
                "paid_by": _user(prize.paid_by),
            }
            for prize in prizes
        ],
        "standings": results.standings if results is not None else None,
        "heat_scores": [
            {
                "entry": entry.number,
                "scores": [
                    {"heat": heat.number, "score": scores[entry.number].get(heat.number)} for heat in heats
                ],
                "total": sum(scores[entry.number].values()),
            }
            for entry in entries
        ],
        "heats": [
            {
                "heat": heat.number,
                "starts_at": heat.starts_at,
                "window_closes_at": heat.window_closes_at,
                "opened_at": heat.opened_at,
                "closed_at": heat.closed_at,
                "commitment": heat.commitment or None,
                # Never before the heat is closed: a game of it may still be dealing from it.
                "reveal": {"order": list(heat.deck), "salt": heat.salt}
                if heat.closed_at is not None and heat.deck
                else None,
            }
            for heat in heats
        ],
        "results": None
        if results is None
        else {
            "pool_cents": results.pool_cents,
            "proposed_by": _user(results.proposed_by),
            "proposed_at": results.proposed_at,
            "approved_by": _user(results.approved_by),
            "approved_at": results.approved_at,
        },
        "cancellation": None
        if cancellation is None
        else {
            "reason": cancellation.reason,
            "requested_by": _user(cancellation.requested_by),
            "requested_at": cancellation.requested_at,
            "approved_by": _user(cancellation.approved_by),
            "approved_at": cancellation.approved_at,
        },
    }


def revenue_day(approved_at: dt.datetime) -> dt.date:
    """The gaming day a tournament's revenue falls in: that of its results' approval."""
    return gaming_day_and_shift(approved_at)[0]


def tournament_day_lines(*, gaming_day: dt.date) -> list[dict[str, Any]]:
    """One line per tournament whose results were approved in the gaming day, in tournament
    order: its own figures, never netted against another's."""
    start = dt.datetime.combine(gaming_day, dt.time(0), tzinfo=casino_zone()) - dt.timedelta(days=1)
    end = start + dt.timedelta(days=3)
    approved = (
        Results.objects.filter(approved_at__gte=start, approved_at__lt=end)
        .select_related("tournament")
        .order_by("tournament_id")
    )
    lines = []
    for results in approved:
        if results.approved_at is None or revenue_day(results.approved_at) != gaming_day:
            continue
        tournament = results.tournament
        money = money_figures(tournament)
        lines.append(
            {
                "tournament": {"id": tournament.pk, "name": tournament.name, "game": tournament.game},
                "entries": tournament.entries_taken,
                "fees_cents": money["fees_cents"],
                "added_cents": money["added_cents"],
                "overlay_cents": money["overlay_cents"],
                "revenue_cents": money["fees_cents"] - money["added_cents"] - money["overlay_cents"],
                "prizes_paid_cents": money["prizes_paid_cents"],
                "approved_at": results.approved_at.isoformat(),
            }
        )
    return lines


def reportable_prizes(*, first_day: dt.date, last_day: dt.date, threshold_cents: int) -> list[Prize]:
    """The prizes paid from `first_day` to `last_day` (casino local dates, both included) at or
    over the reporting threshold, for the information returns: oldest first, each with its
    tournament, entry and the patron's current identification."""
    zone = casino_zone()
    start = dt.datetime.combine(first_day, dt.time(0), tzinfo=zone)
    end = dt.datetime.combine(last_day + dt.timedelta(days=1), dt.time(0), tzinfo=zone)
    return list(
        Prize.objects.filter(paid_at__gte=start, paid_at__lt=end, amount_cents__gte=threshold_cents)
        .select_related("tournament", "entry__patron__current_identification", "paid_by")
        .order_by("paid_at", "pk")
    )
