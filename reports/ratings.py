"""Player ratings: what each patron played, per table session, computed on read from the rounds
themselves (the seats a patron sat, their settlement lines and opening wagers), never estimated.

**Which rounds.** The settled rounds in which the patron held at least one seat
(`RoundSeat.patron`); all of the patron's seats in a round count. A voided round returned every
wager: it is not rated, and one the patron sat in is not a round they sat out. A round still in
play is rated once it settles.

**Sessions.** A session is a run of the patron's rounds, oldest first, at one table. It ends, and
the next round starts a new one, when the patron:
- moves to another table (a round at another table comes next),
- sits out `CASINO_RATING_BREAK_ROUNDS` rounds (default 10) dealt at the table between two of
  theirs,
- is away `CASINO_RATING_BREAK_MINUTES` minutes (default 20) or more: from one round's settlement
  to the opening of their next,
- or the gaming day ends: a session belongs to one gaming day, the day its rounds' settlements
  are stamped with (as the shift reports count a round), so daily ratings never straddle two days.

**Figures of a session.**
- start: its first round's opening; end: its last round's settlement; minutes played between.
- rounds: the rounds rated; hands: the primary settlement lines (one per hand, split hands
  included, as the shift report counts hands dealt).
- average bet: what the patron put out as each round opened (primary and side bets, before any
  double, split or insurance) over the rounds, rounded to the cent half to even.
- handle (total wagered): every settlement line's amount (doubles, splits, side bets, insurance).
- actual win: the house's, handle - paid back to the patron (stakes included), to the cent;
  positive when the patron lost.
- theoretical win: each wager's handle times the house edge of its round's terms
  (`reports.paytable_edges`: the round's paytable report and house rules), summed exactly
  per wager kind and rounded half to even to the cent per kind, so the kinds add up to the
  session and the sessions to the day. A wager whose terms give no edge is left out of theo and
  shown as handle without an edge, with the reason.

Reads: a fixed handful of queries whatever the number of rounds (the rounds with the rounds sat
out before each; their settlement lines and opening wagers by kind; the paytable reports, tables
and patrons they name), so a patron with hundreds of rounds is read in milliseconds.
"""

import datetime as dt
from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.db import connection

from blackjack.models import Round, RoundSeat, Settlement, SettlementLine, Wager, WagerSource
from casino.engine.wager_kinds import WagerKind
from casino.models import LedgerTransaction, MovementKind, Table
from patrons.models import Patron
from reports.house_edges import kind_sort_key
from reports.paytable_edges import TermsBook, round_half_even_cents

DEFAULT_BREAK_ROUNDS = 10
DEFAULT_BREAK_MINUTES = 20


def break_rounds() -> int:
    return int(getattr(settings, "CASINO_RATING_BREAK_ROUNDS", DEFAULT_BREAK_ROUNDS))


def break_minutes() -> int:
    return int(getattr(settings, "CASINO_RATING_BREAK_MINUTES", DEFAULT_BREAK_MINUTES))


@dataclass(frozen=True)
class KindRating:
    kind: str
    wagers: int
    handle_cents: int
    paid_cents: int
    theo_win_cents: int
    handle_without_edge_cents: int

    @property
    def actual_win_cents(self) -> int:
        return self.handle_cents - self.paid_cents


@dataclass(frozen=True)
class RatingSession:
    patron_id: int
    patron_number: int
    patron_name: str
    table_id: int
    table_name: str
    pit_name: str
    gaming_day: dt.date
    started_at: dt.datetime
    ended_at: dt.datetime
    round_ids: tuple[int, ...]
    hands: int
    opening_wagers_cents: int
    kinds: tuple[KindRating, ...]
    paytable_versions: tuple[int, ...]
    edge_gaps: tuple[str, ...]  # why some handle has no edge: each reason with the kinds it concerns

    @property
    def rounds(self) -> int:
        return len(self.round_ids)

    @property
    def minutes_played(self) -> int:
        return int((self.ended_at - self.started_at).total_seconds() // 60)

    @property
    def average_bet_cents(self) -> int:
        return round_half_even_cents(Fraction(self.opening_wagers_cents, self.rounds))

    @property
    def handle_cents(self) -> int:
        return sum(kind.handle_cents for kind in self.kinds)

    @property
    def paid_cents(self) -> int:
        return sum(kind.paid_cents for kind in self.kinds)

    @property
    def actual_win_cents(self) -> int:
        return self.handle_cents - self.paid_cents

    @property
    def theo_win_cents(self) -> int:
        return sum(kind.theo_win_cents for kind in self.kinds)

    @property
    def handle_without_edge_cents(self) -> int:
        return sum(kind.handle_without_edge_cents for kind in self.kinds)


@dataclass(frozen=True)
class RatingTotals:
    """Sums over sessions (average bet: all opening wagers over all rounds)."""

    sessions: int
    rounds: int
    hands: int
    minutes_played: int
    opening_wagers_cents: int
    handle_cents: int
    paid_cents: int
    theo_win_cents: int
    handle_without_edge_cents: int

    @property
    def actual_win_cents(self) -> int:
        return self.handle_cents - self.paid_cents

    @property
    def average_bet_cents(self) -> int | None:
        return (
            round_half_even_cents(Fraction(self.opening_wagers_cents, self.rounds)) if self.rounds else None
        )


def totals_of(sessions: Sequence[RatingSession]) -> RatingTotals:
    return RatingTotals(
        sessions=len(sessions),
        rounds=sum(s.rounds for s in sessions),
        hands=sum(s.hands for s in sessions),
        minutes_played=sum(s.minutes_played for s in sessions),
        opening_wagers_cents=sum(s.opening_wagers_cents for s in sessions),
        handle_cents=sum(s.handle_cents for s in sessions),
        paid_cents=sum(s.paid_cents for s in sessions),
        theo_win_cents=sum(s.theo_win_cents for s in sessions),
        handle_without_edge_cents=sum(s.handle_without_edge_cents for s in sessions),
    )


@dataclass(frozen=True)
class PatronRatings:
    patron: Patron
    sessions: tuple[RatingSession, ...]  # newest first
    totals: RatingTotals


@dataclass(frozen=True)
class DayRatings:
    gaming_day: dt.date
    sessions: tuple[RatingSession, ...]  # by patron number, then start
    totals: RatingTotals

    @property
    def patrons(self) -> int:
        return len({session.patron_id for session in self.sessions})


# --- reading the rounds ------------------------------------------------------------------------


@dataclass
class _PlayedRound:
    patron_id: int
    round_id: int
    table_id: int
    opened_at: dt.datetime
    settled_at: dt.datetime
    paytable_id: int
    rules_text: str
    gaming_day: dt.date
    sat_out_before: int | None  # rounds dealt at the table since the patron's previous one there


_TRANSACTION, _SEAT, _ROUND, _SETTLEMENT, _LINE, _WAGER = (
    LedgerTransaction._meta.db_table,
    RoundSeat._meta.db_table,
    Round._meta.db_table,
    Settlement._meta.db_table,
    SettlementLine._meta.db_table,
    Wager._meta.db_table,
)
# The rounds to rate, each with its settlement's (PAYOUT transaction's) gaming day, and each patron
# seated in it with their seats: `{where}` picks the patron or the gaming day (both indexed).
_PLAYED = f"""
    SELECT rs.patron_id, r.id AS round_id, r.table_id, r.opened_at, r.settled_at, r.paytable_id,
           r.rules::text AS rules_text, t.gaming_day, array_agg(rs.seat) AS seats
      FROM "{_TRANSACTION}" t
      JOIN "{_ROUND}" r ON r.id = t.round_id
      JOIN "{_SEAT}" rs ON rs.round_id = r.id
     WHERE t.kind = %s AND rs.patron_id IS NOT NULL AND {{where}}
     GROUP BY rs.patron_id, r.id, t.gaming_day
"""  # noqa: S608  (table names from the models; values are parameters)
# Each rated round, and how many rounds were dealt at its table since the patron's previous round,
# when that was at the same table and recent enough to matter (the count stops at the limit).
_ROUNDS = f"""
    WITH played AS ({_PLAYED}),
    ordered AS (
        SELECT p.*, LAG(p.round_id) OVER w AS prev_id, LAG(p.table_id) OVER w AS prev_table_id,
               LAG(p.settled_at) OVER w AS prev_settled_at
          FROM played p WINDOW w AS (PARTITION BY p.patron_id ORDER BY p.opened_at, p.round_id)
    )
    SELECT o.patron_id, o.round_id, o.table_id, o.opened_at, o.settled_at, o.paytable_id, o.rules_text,
           o.gaming_day, CASE WHEN o.prev_table_id = o.table_id AND o.opened_at - o.prev_settled_at < %s THEN (
               SELECT COUNT(*) FROM (
                   SELECT 1 FROM "{_ROUND}" x
                    WHERE x.table_id = o.table_id AND x.id > o.prev_id AND x.id < o.round_id
                      AND NOT EXISTS (SELECT 1 FROM "{_SEAT}" y WHERE y.round_id = x.id AND y.patron_id = o.patron_id)
                    LIMIT %s
               ) sat_out
           ) END
      FROM ordered o
     ORDER BY o.patron_id, o.opened_at, o.round_id
"""  # noqa: S608
# Per rated round and wager kind: settlement lines, handle and paid; then the opening wagers.
_LINES = f"""
    WITH played AS ({_PLAYED})
    SELECT p.patron_id, p.round_id, l.kind, COUNT(*), SUM(l.amount_cents), SUM(l.paid_cents)
      FROM played p
      JOIN "{_SETTLEMENT}" s ON s.round_id = p.round_id
      JOIN "{_LINE}" l ON l.settlement_id = s.id AND l.seat = ANY(p.seats)
     GROUP BY p.patron_id, p.round_id, l.kind
"""  # noqa: S608
_OPENING = f"""
    WITH played AS ({_PLAYED})
    SELECT p.patron_id, p.round_id, SUM(w.amount_cents)
      FROM played p JOIN "{_WAGER}" w ON w.round_id = p.round_id AND w.seat = ANY(p.seats) AND w.source = %s
     GROUP BY p.patron_id, p.round_id
"""  # noqa: S608


def _fetch(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _sessions(*, where: str, params: Sequence[Any]) -> list[RatingSession]:
    played_params = [MovementKind.PAYOUT.value, *params]
    rounds = [
        _PlayedRound(*row)
        for row in _fetch(
            _ROUNDS.format(where=where),
            [*played_params, dt.timedelta(minutes=break_minutes()), break_rounds()],
        )
    ]
    if not rounds:
        return []
    lines: dict[tuple[int, int], list[tuple[str, int, int, int]]] = defaultdict(list)
    for patron_id, round_id, kind, count, handle, paid in _fetch(_LINES.format(where=where), played_params):
        lines[patron_id, round_id].append((str(kind), int(count), int(handle), int(paid)))
    opening = {
        (patron_id, round_id): int(cents)
        for patron_id, round_id, cents in _fetch(
            _OPENING.format(where=where), [*played_params, WagerSource.OPEN.value]
        )
    }
    terms = TermsBook({r.paytable_id for r in rounds})
    tables = {
        table.pk: table
        for table in Table.objects.select_related("pit").filter(pk__in={r.table_id for r in rounds})
    }
    patrons = {patron.pk: patron for patron in Patron.objects.filter(pk__in={r.patron_id for r in rounds})}

    sessions: list[RatingSession] = []
    run: list[_PlayedRound] = []
    for played in rounds:
        if run and _starts_a_session(previous=run[-1], played=played):
            sessions.append(
                _session(run, lines=lines, opening=opening, terms=terms, tables=tables, patrons=patrons)
            )
            run = []
        run.append(played)
    sessions.append(_session(run, lines=lines, opening=opening, terms=terms, tables=tables, patrons=patrons))
    return sessions


def _starts_a_session(*, previous: _PlayedRound, played: _PlayedRound) -> bool:
    return (
        played.patron_id != previous.patron_id
        or played.table_id != previous.table_id
        or played.gaming_day != previous.gaming_day
        # Set only for the same table within the minutes limit (the query's CASE).
        or played.sat_out_before is None
        or played.sat_out_before >= break_rounds()
    )


def _session(
    run: Sequence[_PlayedRound],
    *,
    lines: dict[tuple[int, int], list[tuple[str, int, int, int]]],
    opening: dict[tuple[int, int], int],
    terms: TermsBook,
    tables: dict[int, Table],
    patrons: dict[int, Patron],
) -> RatingSession:
    first, last = run[0], run[-1]
    wagers: dict[str, int] = defaultdict(int)
    handle: dict[str, int] = defaultdict(int)
    paid: dict[str, int] = defaultdict(int)
    theo: dict[str, Fraction] = defaultdict(Fraction)
    without_edge: dict[str, int] = defaultdict(int)
    gaps: dict[str, set[str]] = defaultdict(set)  # reason -> the kinds it leaves without an edge
    hands = 0
    for played in run:
        edges = terms.of(played.paytable_id, played.rules_text)
        for kind, count, kind_handle, kind_paid in lines.get((played.patron_id, played.round_id), []):
            wagers[kind] += count
            handle[kind] += kind_handle
            paid[kind] += kind_paid
            if kind == WagerKind.PRIMARY.value:
                hands += count
            edge = edges.edge(kind)
            if edge is None:
                without_edge[kind] += kind_handle
                gaps[edges.why_no_edge(kind)].add(kind)
            else:
                theo[kind] += kind_handle * edge
    table, patron = tables[first.table_id], patrons[first.patron_id]
    return RatingSession(
        patron_id=patron.pk,
        patron_number=patron.number,
        patron_name=patron.name,
        table_id=table.pk,
        table_name=table.name,
        pit_name=table.pit.name,
        gaming_day=first.gaming_day,
        started_at=first.opened_at,
        ended_at=last.settled_at,
        round_ids=tuple(played.round_id for played in run),
        hands=hands,
        opening_wagers_cents=sum(opening.get((p.patron_id, p.round_id), 0) for p in run),
        kinds=tuple(
            KindRating(
                kind=kind,
                wagers=wagers[kind],
                handle_cents=handle[kind],
                paid_cents=paid[kind],
                theo_win_cents=round_half_even_cents(theo[kind]),
                handle_without_edge_cents=without_edge[kind],
            )
            for kind in sorted(handle, key=kind_sort_key)
        ),
        paytable_versions=tuple(
            sorted({terms.of(p.paytable_id, p.rules_text).paytable_version for p in run})
        ),
        edge_gaps=tuple(
            f"{', '.join(sorted(kinds, key=kind_sort_key))}: {reason}"
            for reason, kinds in sorted(gaps.items())
        ),
    )


# --- the reads ---------------------------------------------------------------------------------


# The largest patron number the column holds: a larger one names no patron.
MAX_PATRON_NUMBER = 2_147_483_647


def get_patron_ratings(
    *, patron_number: int, table_ids: Collection[int] | None = None
) -> PatronRatings | None:
    """Every rating session of the patron with this number, newest first; None if there is no
    such patron. With `table_ids`, only the sessions at those tables (sessions are cut over all
    tables first, so a view scoped to some tables shows the same sessions)."""
    if not 0 < patron_number <= MAX_PATRON_NUMBER:
        return None
    patron = Patron.objects.filter(number=patron_number).first()
    if patron is None:
        return None
    sessions = _sessions(where="rs.patron_id = %s", params=[patron.pk])
    if table_ids is not None:
        allowed = set(table_ids)
        sessions = [s for s in sessions if s.table_id in allowed]
    ordered = tuple(sorted(sessions, key=lambda s: (s.started_at, s.round_ids[0]), reverse=True))
    return PatronRatings(patron=patron, sessions=ordered, totals=totals_of(ordered))


def get_day_ratings(*, gaming_day: dt.date, table_ids: Collection[int] | None = None) -> DayRatings:
    """Every rating session of the gaming day, by patron number then start (only those at
    `table_ids`, when given)."""
    sessions = _sessions(where="t.gaming_day = %s", params=[gaming_day])
    if table_ids is not None:
        allowed = set(table_ids)
        sessions = [s for s in sessions if s.table_id in allowed]
    ordered = tuple(sorted(sessions, key=lambda s: (s.patron_number, s.started_at, s.round_ids[0])))
    return DayRatings(gaming_day=gaming_day, sessions=ordered, totals=totals_of(ordered))
