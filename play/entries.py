"""Where a tournament entry stands, as its player's page shows it between its games (RULES.md §4):
the heat it waits for, the heat it may start now, its heats' scores, its place on the standings,
and when the page should look again by itself."""

import datetime as dt
from dataclasses import dataclass
from enum import StrEnum

from skill_games.models import GameState
from skill_games.registry import game_for
from tournaments import selectors
from tournaments.games import terms_for
from tournaments.models import Entry, EntryGame, Heat, Tournament, TournamentState

# The page looks again at the next change it knows of (a heat's start, a start window's close),
# and at least this often while the tournament is in play (the standings move as others finish).
LOOK_AGAIN_AT_MOST_MS = 15_000
LOOK_AGAIN_AT_LEAST_MS = 1_000
# The tournament's beat seats a table within seconds of its heat's start; a table still not seated
# after this was not dealt (too few entries: the director cancels, every entry is refunded).
SEATED_WITHIN = dt.timedelta(seconds=30)
OVER = (TournamentState.PLAYING_DONE, TournamentState.RESULTS_APPROVED, TournamentState.PAID)


class Phase(StrEnum):
    WAITING = "waiting"  # for a heat to start (or for the table to be seated)
    START = "start"  # the heat's start window is open and the entry has not started
    PLAYING = "playing"  # the entry's game is in play: the page is the game
    DONE = "done"  # no heat left for the entry
    NOT_DEALT = "not_dealt"  # the entry's table was not dealt when its heat started
    CANCELLED = "cancelled"


@dataclass(frozen=True)
class HeatLine:
    number: int
    starts_at: dt.datetime
    score: int | None  # the entry's heat score once known (a no-show's once the window is over)
    played: bool


@dataclass(frozen=True)
class EntryStanding:
    entry: Entry
    tournament: Tournament
    phase: Phase
    heat: Heat | None  # the heat to start now, or the next one the entry waits for
    game: EntryGame | None  # the game in play (PLAYING)
    heats: tuple[HeatLine, ...]
    last_score: int | None  # the entry's last finished game's score
    place: int | None
    total: int | None
    prize_cents: int
    results_approved: bool
    look_again_ms: int | None  # None: nothing more will change by itself

    @property
    def standing_shown(self) -> bool:
        """A place means something once a score is known (the entry's or a no-show's)."""
        return self.place is not None and any(line.score is not None for line in self.heats)

    @property
    def shares_a_table(self) -> bool:
        return terms_for(self.tournament.game).shares_a_table


def _after(moment: dt.datetime, now: dt.datetime) -> int:
    return int((moment - now).total_seconds() * 1000)


def entry_standing(*, entry_id: int, now: dt.datetime) -> EntryStanding | None:
    entry = selectors.get_entry(entry_id=entry_id)
    if entry is None:
        return None
    tournament = entry.tournament
    adapter = game_for(tournament.game).adapter
    shared = terms_for(tournament.game).shares_a_table
    games = list(selectors.list_entry_games(entry_id=entry.pk))
    by_heat = {game.heat_id: game for game in games}
    heats = list(selectors.list_heats(tournament_id=tournament.pk))
    playing = next((game for game in games if game.game.state == GameState.PLAYING), None)

    lines = []
    last_score = None
    no_show = adapter.tournament.no_show_score
    for each in heats:
        played = by_heat.get(each.pk)
        score = None
        if played is not None and played.game.state == GameState.FINISHED and played.game.score is not None:
            score = adapter.seat_score(played.game.score, seat=played.seat)
            last_score = score
        elif played is None and no_show is not None and each.window_closes_at <= now:
            score = no_show
        lines.append(HeatLine(number=each.number, starts_at=each.starts_at, score=score, played=bool(played)))

    current = selectors.current_heat(tournament_id=tournament.pk, now=now)
    upcoming = selectors.next_heat(tournament_id=tournament.pk, now=now)
    running = tournament.state == TournamentState.RUNNING
    heat: Heat | None = None
    look_again: int | None = LOOK_AGAIN_AT_MOST_MS
    if tournament.state == TournamentState.CANCELLED:
        phase, look_again = Phase.CANCELLED, None
    elif playing is not None:
        phase, heat = Phase.PLAYING, playing.heat
    elif tournament.state in OVER:
        phase = Phase.DONE
        if tournament.state == TournamentState.PAID:
            look_again = None
    elif (
        not shared
        and running
        and current is not None
        and current.pk not in by_heat
        and now < current.window_closes_at
    ):
        phase, heat = Phase.START, current
        look_again = _after(current.window_closes_at, now)
    elif shared and not games and current is not None and now - current.starts_at > SEATED_WITHIN:
        phase, heat = Phase.NOT_DEALT, current
    elif upcoming is not None or (shared and not games):
        # A table is seated when its heat starts (by the tournament's beat, within seconds).
        phase, heat = Phase.WAITING, upcoming or current
        if upcoming is not None:
            look_again = _after(upcoming.starts_at, now)
    else:
        phase = Phase.DONE
    if look_again is not None:
        look_again = max(LOOK_AGAIN_AT_LEAST_MS, min(LOOK_AGAIN_AT_MOST_MS, look_again))

    row = next((row for row in selectors.leaderboard(tournament, now=now) if row.entry.pk == entry.pk), None)
    results_approved = tournament.state in (TournamentState.RESULTS_APPROVED, TournamentState.PAID)
    return EntryStanding(
        entry=entry,
        tournament=tournament,
        phase=phase,
        heat=heat,
        game=playing,
        heats=tuple(lines),
        last_score=last_score,
        place=None if row is None else row.standing.place,
        total=None if row is None else row.standing.score,
        prize_cents=0 if row is None or not results_approved else row.prize_cents,
        results_approved=results_approved,
        look_again_ms=look_again,
    )
