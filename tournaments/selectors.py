"""The tournaments' reads: rows for the API, and the standings built from the entries' games
through the engine (`tournaments.engine`). Selectors never write and never lock."""

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet, Sum

from casino.ledger import owned_balance_cents
from casino.models import AccountKind, LedgerEntry
from kernel.keys import hash_key, key_matches, split_prefix
from skill_games.models import Game, GameState
from skill_games.registry import game_for
from tournaments.engine.prizes import PoolFigures, split_prizes
from tournaments.engine.settings import TournamentSettings, settings_from_json
from tournaments.engine.standings import Standing, rank, tournament_score
from tournaments.games import terms_for
from tournaments.models import Entry, EntryGame, Heat, Prize, Results, Tournament, TournamentState, owner_key


def settings_of(tournament: Tournament) -> TournamentSettings:
    return settings_from_json(tournament.settings)


def list_tournaments() -> QuerySet[Tournament]:
    return Tournament.objects.order_by("-pk")


def get_tournament(*, tournament_id: int) -> Tournament | None:
    return Tournament.objects.filter(pk=tournament_id).first()


def tournament_ids_in_play() -> list[int]:
    """The tournaments the clock may move on: registering or running."""
    states = (TournamentState.REGISTERING, TournamentState.RUNNING)
    return list(Tournament.objects.filter(state__in=states).order_by("pk").values_list("pk", flat=True))


def get_entry(*, entry_id: int) -> Entry | None:
    return Entry.objects.select_related("tournament").filter(pk=entry_id).first()


def list_entries(*, tournament_id: int) -> QuerySet[Entry]:
    return Entry.objects.filter(tournament_id=tournament_id).select_related("patron").order_by("number")


def list_heats(*, tournament_id: int) -> QuerySet[Heat]:
    return Heat.objects.filter(tournament_id=tournament_id).order_by("number")


def list_prizes(*, tournament_id: int) -> QuerySet[Prize]:
    return (
        Prize.objects.filter(tournament_id=tournament_id)
        .select_related("entry")
        .order_by("place", "entry__number")
    )


def next_heat(*, tournament_id: int, now: dt.datetime) -> Heat | None:
    """The first heat that starts after `now`; None once the last has started."""
    return Heat.objects.filter(tournament_id=tournament_id, starts_at__gt=now).order_by("number").first()


def entry_for_key(*, key: str) -> Entry | None:
    """The entry whose token `key` is (its prefix finds it, its SHA-256 must match), or None."""
    prefix = split_prefix(key)
    found = None if prefix is None else Entry.objects.filter(key_prefix=prefix).first()
    return found if found is not None and key_matches(key, found.key_hash) else None


def tournament_for_display_key(*, key: str) -> Tournament | None:
    """The tournament whose board display key `key` is, or None."""
    prefix = split_prefix(key)
    found = None if prefix is None else Tournament.objects.filter(display_key_prefix=prefix).first()
    if found is None or not found.display_key_hash or not key_matches(key, found.display_key_hash):
        return None
    return found


def list_entry_games(*, entry_id: int) -> QuerySet[EntryGame]:
    """An entry's games, heat by heat, with their heat and game."""
    return EntryGame.objects.filter(entry_id=entry_id).select_related("heat", "game").order_by("heat__number")


def due_game_ids(*, tournament_id: int, now: dt.datetime) -> list[int]:
    """The tournament's games in play whose deadline has come by `now`."""
    games = EntryGame.objects.filter(
        entry__tournament_id=tournament_id, game__state=GameState.PLAYING, game__due_at__lte=now
    )
    return sorted(set(games.values_list("game_id", flat=True)))


def board_version(*, tournament: Tournament, now: dt.datetime) -> str:
    """A tag that changes whenever the board's standings, heat or names may have (not at every
    move: a score counts once its game is finished): the state, the games started and finished, the heats opened, closed and whose start window is over (no-show
    scores), the results and the nicknames. Two queries, no standings built."""
    games = EntryGame.objects.filter(entry__tournament_id=tournament.pk).aggregate(
        started=Count("pk"),
        finished=Count("pk", filter=Q(game__state=GameState.FINISHED)),
    )
    heats = Heat.objects.filter(tournament_id=tournament.pk).aggregate(
        started=Count("pk", filter=Q(starts_at__lte=now)),
        opened=Count("pk", filter=Q(opened_at__isnull=False)),
        over=Count("pk", filter=Q(window_closes_at__lte=now)),
        closed=Count("pk", filter=Q(closed_at__isnull=False)),
    )
    results = Results.objects.filter(tournament_id=tournament.pk).values_list("approved_at", flat=True)
    names = (
        Entry.objects.filter(tournament_id=tournament.pk)
        .order_by("number")
        .values_list("nickname", flat=True)
    )
    parts = [
        tournament.state,
        str(tournament.entries_taken),
        *(str(games[name] or 0) for name in ("started", "finished")),
        *(str(heats[name]) for name in ("started", "opened", "over", "closed")),
        ",".join(str(approved) for approved in results) or "-",
        hash_key("\x1f".join(names))[:16],
    ]
    return hash_key("/".join(parts))[:32]


def current_heat(*, tournament_id: int, now: dt.datetime) -> Heat | None:
    """The heat that started last by `now`; None before the first."""
    return Heat.objects.filter(tournament_id=tournament_id, starts_at__lte=now).order_by("-number").first()


def why_not_played(tournament: Tournament, *, now: dt.datetime) -> str | None:
    """Why a running tournament's play cannot start, or None: a table game whose first heat has
    started with fewer entries than its table needs."""
    if tournament.state != TournamentState.RUNNING:
        return None
    terms = terms_for(tournament.game)
    short = terms.entries_short(tournament.entries_taken)
    first = Heat.objects.filter(tournament=tournament).order_by("number").first()
    if not short or first is None or first.starts_at > now:
        return None
    low = terms.table_seats[0] if terms.table_seats else 0
    return (
        f"{terms.name} needs at least {low} entries at its table and has {tournament.entries_taken}: "
        "the table is not dealt. Cancel the tournament to refund every entry."
    )


@dataclass(frozen=True)
class Money:
    """A tournament's money as its ledger has it (signed balances turned into figures)."""

    figures: PoolFigures
    pool_balance_cents: int  # what the pool still holds
    prizes_paid_cents: int
    refunded_cents: int


def money_of(tournament: Tournament) -> Money:
    owner = owner_key(tournament.pk)
    entries = LedgerEntry.objects.filter(account__owner=owner, transaction__owner=owner)

    def moved(kind: str, account: AccountKind) -> int:
        total = entries.filter(transaction__kind=kind, account__kind=account).aggregate(s=Sum("amount_cents"))
        return -int(total["s"] or 0)

    figures = PoolFigures(
        buy_ins_cents=moved("entry", AccountKind.POOL),
        fees_cents=moved("entry", AccountKind.REVENUE),
        added_cents=moved("added_money", AccountKind.POOL),
        overlay_cents=moved("overlay", AccountKind.POOL),
    )
    return Money(
        figures=figures,
        pool_balance_cents=-owned_balance_cents(owner=owner, kind=AccountKind.POOL),
        prizes_paid_cents=-moved("prize", AccountKind.POOL),
        refunded_cents=-moved("refund", AccountKind.POOL) - moved("refund", AccountKind.REVENUE),
    )


@dataclass(frozen=True)
class Row:
    """One entry on the leaderboard."""

    standing: Standing
    entry: Entry
    games: int  # heats it has played (games finished)
    prize_cents: int


def heat_scores(tournament: Tournament, *, now: dt.datetime) -> dict[int, list[int]]:
    """Each entry's (by number) scores so far: its finished games', and for a solitaire game's heat
    whose start window is over without a game, the game's no-show score."""
    adapter = game_for(tournament.game).adapter
    scores: dict[int, list[int]] = defaultdict(list)
    played: set[tuple[int, int]] = set()
    rows = EntryGame.objects.filter(entry__tournament_id=tournament.pk).values_list(
        "entry__number", "heat_id", "seat", "game__state", "game__score"
    )
    for number, heat_id, seat, state, score in rows:
        played.add((number, heat_id))
        if state == GameState.FINISHED and score is not None:
            scores[number].append(adapter.seat_score(score, seat=seat))
    no_show = adapter.tournament.no_show_score
    if no_show is not None:
        closed = list(
            Heat.objects.filter(tournament_id=tournament.pk, window_closes_at__lte=now).values_list(
                "pk", flat=True
            )
        )
        for number in Entry.objects.filter(tournament_id=tournament.pk).values_list("number", flat=True):
            scores[number].extend(no_show for heat_id in closed if (number, heat_id) not in played)
    return scores


def games_played(tournament: Tournament) -> dict[int, int]:
    rows = EntryGame.objects.filter(entry__tournament_id=tournament.pk, game__state=GameState.FINISHED)
    counted: dict[int, int] = defaultdict(int)
    for number in rows.values_list("entry__number", flat=True):
        counted[number] += 1
    return counted


def standings(tournament: Tournament, *, now: dt.datetime) -> tuple[Standing, ...]:
    scores = heat_scores(tournament, now=now)
    numbers = Entry.objects.filter(tournament_id=tournament.pk).values_list("number", flat=True)
    totals = {number: tournament_score(scores.get(number, [])) for number in numbers}
    return rank(totals, lower_wins=game_for(tournament.game).adapter.tournament.lower_wins)


def leaderboard(tournament: Tournament, *, now: dt.datetime) -> list[Row]:
    """The standings with each entry's prize: the approved or proposed results' once there are
    some, else what the pool as it stands would pay (nothing once cancelled)."""
    entries = {entry.number: entry for entry in list_entries(tournament_id=tournament.pk)}
    frozen = Results.objects.filter(tournament_id=tournament.pk).first()
    counted = games_played(tournament)
    if frozen is not None:
        ranked = tuple(Standing(row["place"], row["entry"], row["score"]) for row in frozen.standings)
        prizes = {row["entry"]: row["prize_cents"] for row in frozen.standings}
    else:
        ranked = standings(tournament, now=now)
        pool = 0 if tournament.state == TournamentState.CANCELLED else money_of(tournament).figures.pool_cents
        prizes = split_prizes(pool_cents=pool, prizes_bp=settings_of(tournament).prizes_bp, standings=ranked)
    return [
        Row(
            standing=standing,
            entry=entries[standing.entry],
            games=counted.get(standing.entry, 0),
            prize_cents=prizes.get(standing.entry, 0),
        )
        for standing in ranked
    ]


def unfinished_games(*, heat_id: int) -> int:
    return Game.objects.filter(
        pk__in=EntryGame.objects.filter(heat_id=heat_id).values("game_id"), state=GameState.PLAYING
    ).count()
