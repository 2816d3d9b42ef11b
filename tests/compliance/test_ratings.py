"""Player ratings (reports.ratings), from rounds played through the terminal API with a
patron at a seat: figures checked by hand to the cent, and where sessions start and end."""

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from bonus_tie.models import PaytableVersion
from casino.services.provisioning import ProvisionedStaff
from reports.ratings import RatingSession, get_day_ratings, get_patron_ratings
from tests.compliance.ratings_support import (
    double_11_to_21,
    insured_19_against_ace,
    lose_17_with_t20,
    open_reported_shoe,
    price_paytable_v1,
    push_18_with_t18,
    seat,
    win_19_against_17,
)
from tests.support.api import TableActors, new_patron, ok, post
from tests.support.gaming_day import CASINO_ZONE, GAMING_DAY, Clock, day_shift_clock
from tests.support.rounds import play_round

pytestmark = pytest.mark.django_db


MakeStaff = Callable[[str], tuple[ProvisionedStaff, APIClient]]


@pytest.fixture(autouse=True)
def clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Clock:
    """Casino time stands at 10:00 on 2026-11-20 (the day shift) until a test moves it."""
    settings.CASINO_RATING_BREAK_ROUNDS = 10
    settings.CASINO_RATING_BREAK_MINUTES = 20
    return day_shift_clock(monkeypatch, settings)


@pytest.fixture
def floor(make_table: Callable[..., TableActors], make_staff: MakeStaff) -> dict[str, Any]:
    """Two tables with reported shoes, a supervisor, paytable v1 priced, and two patrons."""
    first, second = make_table("BJ-01"), make_table("BJ-02")
    for actors in (first, second):
        open_reported_shoe(actors)
    price_paytable_v1(first.table)
    supervisor = make_staff("floor_supervisor")[1]
    return {
        "first": first,
        "second": second,
        "ana": new_patron(supervisor, "Ana Example"),
        "ben": new_patron(supervisor, "Ben Example"),
    }


def sessions_of(number: int) -> list[RatingSession]:
    ratings = get_patron_ratings(patron_number=number)
    assert ratings is not None
    return sorted(ratings.sessions, key=lambda s: (s.started_at, s.round_ids[0]))


def test_a_session_of_five_rounds_is_rated_to_the_cent(floor: dict[str, Any], clock: Clock) -> None:
    first, ana = floor["first"], floor["ana"]
    for play in (
        push_18_with_t18,
        win_19_against_17,
        lose_17_with_t20,
        double_11_to_21,
        insured_19_against_ace,
    ):
        play(first, ana)
        clock.advance(minutes=2)

    (session,) = sessions_of(ana)

    # By hand (cents), the house's side:
    # push 18 + T18: wagered 10000 + 200, paid 10000 + 200 x 46 = 19200
    # win 19:        wagered 5000,         paid 10000
    # lose + T20:    wagered 2500 + 500,   paid 0
    # double 11:     wagered 4000,         paid 8000 (opened with 2000)
    # insured 19:    wagered 1000 + 500,   paid 2000
    assert session.rounds == 5
    assert session.hands == 5
    assert session.handle_cents == 10_200 + 5_000 + 3_000 + 4_000 + 1_500 == 23_700
    assert session.paid_cents == 19_200 + 10_000 + 0 + 8_000 + 2_000 == 39_200
    assert session.actual_win_cents == -15_500
    # Opening wagers 10200 + 5000 + 3000 + 2000 + 1000 = 21200 over 5 rounds.
    assert session.average_bet_cents == 4_240
    # Theo, per kind, half to even: primary 22500 x 0.00406 = 91.35 -> 91; T18 200 x 0.26198 =
    # 52.396 -> 52; T20 500 x 0.2051 = 102.55 -> 103; insurance 500 x 23/311 = 36.977 -> 37.
    theo = {kind.kind: kind.theo_win_cents for kind in session.kinds}
    assert theo == {"primary": 91, "T18": 52, "T20": 103, "insurance": 37}
    assert session.theo_win_cents == 283
    assert session.handle_without_edge_cents == 0
    assert session.edge_gaps == ()
    assert session.table_name == "BJ-01"
    assert session.gaming_day == GAMING_DAY
    assert session.started_at == dt.datetime(2026, 11, 20, 10, 0, tzinfo=CASINO_ZONE)
    assert session.ended_at == dt.datetime(2026, 11, 20, 10, 8, tzinfo=CASINO_ZONE)
    assert session.minutes_played == 8


def test_other_patrons_and_anonymous_seats_in_the_same_rounds_are_left_out(
    floor: dict[str, Any], clock: Clock
) -> None:
    first, ana, ben = floor["first"], floor["ana"], floor["ben"]
    play_round(
        first,
        [
            seat(1, ana, ("primary", 5_000)),
            seat(3, ben, ("primary", 7_000)),
            seat(5, None, ("primary", 9_000)),
        ],
        ["TS", "9S", "TC", "7H", "9C", "8H", "7C", "TD"],
        [
            {"seat": 1, "hand": 0, "action": "stand"},
            {"seat": 3, "hand": 0, "action": "stand"},
            {"seat": 5, "hand": 0, "action": "stand"},
        ],
    )
    # Seat 1: 19; seat 3: 17; seat 5: 17; dealer 7H + TD = 17: seat 1 wins, seats 3 and 5 push.

    (ana_session,) = sessions_of(ana)
    (ben_session,) = sessions_of(ben)
    assert (ana_session.handle_cents, ana_session.paid_cents) == (5_000, 10_000)
    assert (ben_session.handle_cents, ben_session.paid_cents) == (7_000, 7_000)
    day = get_day_ratings(gaming_day=GAMING_DAY)
    assert [(s.patron_number, s.handle_cents) for s in day.sessions] == [(ana, 5_000), (ben, 7_000)]
    assert day.totals.handle_cents == 12_000  # the anonymous seat is not rated


def test_a_voided_round_is_not_rated(floor: dict[str, Any], make_staff: MakeStaff) -> None:
    first, ana = floor["first"], floor["ana"]
    win_19_against_17(first, ana)
    opened = ok(post(first.terminal, "/api/v1/rounds/", {"seats": [seat(2, ana, ("primary", 5_000))]}), 201)
    ok(post(make_staff("floor_supervisor")[1], f"/api/v1/rounds/{opened['id']}/void/", {"reason": "misdeal"}))

    (session,) = sessions_of(ana)
    assert session.rounds == 1
    assert session.handle_cents == 5_000


def test_moving_to_another_table_starts_a_session(floor: dict[str, Any], clock: Clock) -> None:
    first, second, ana = floor["first"], floor["second"], floor["ana"]
    win_19_against_17(first, ana)
    clock.advance(minutes=1)
    win_19_against_17(second, ana)
    clock.advance(minutes=1)
    win_19_against_17(first, ana)

    assert [(s.table_name, s.rounds) for s in sessions_of(ana)] == [("BJ-01", 1), ("BJ-02", 1), ("BJ-01", 1)]


def test_a_break_of_the_set_minutes_starts_a_session(
    floor: dict[str, Any], clock: Clock, settings: Any
) -> None:
    settings.CASINO_RATING_BREAK_MINUTES = 20
    first, ana = floor["first"], floor["ana"]
    win_19_against_17(first, ana)
    clock.advance(minutes=19)  # settled at 10:00, next opens 10:19: same session
    win_19_against_17(first, ana)
    clock.advance(minutes=20)  # 10:19 -> 10:39: twenty minutes away ends it
    win_19_against_17(first, ana)

    assert [s.rounds for s in sessions_of(ana)] == [2, 1]


def test_sitting_out_the_set_rounds_starts_a_session(
    floor: dict[str, Any], clock: Clock, settings: Any
) -> None:
    settings.CASINO_RATING_BREAK_ROUNDS = 2
    first, ana, ben = floor["first"], floor["ana"], floor["ben"]
    win_19_against_17(first, ana)
    win_19_against_17(first, ben, seat_number=4)  # Ana sits out one round: same session
    win_19_against_17(first, ana)
    win_19_against_17(first, ben, seat_number=4)
    win_19_against_17(first, None, seat_number=5)  # two rounds sat out: a new session
    win_19_against_17(first, ana)

    assert [s.rounds for s in sessions_of(ana)] == [2, 1]
    assert [s.rounds for s in sessions_of(ben)] == [2]  # Ben sat out one round between his two


def test_the_end_of_the_gaming_day_ends_a_session(floor: dict[str, Any], clock: Clock) -> None:
    first, ana = floor["first"], floor["ana"]
    clock.set(dt.datetime(2026, 11, 21, 5, 55, tzinfo=CASINO_ZONE))  # gaming day 2026-11-20, grave shift
    first.sign_in()  # the dealer's session from 10:00 has ended
    win_19_against_17(first, ana)
    clock.set(dt.datetime(2026, 11, 21, 6, 1, tzinfo=CASINO_ZONE))  # gaming day 2026-11-21
    win_19_against_17(first, ana)

    assert [s.gaming_day for s in sessions_of(ana)] == [GAMING_DAY, dt.date(2026, 11, 21)]
    assert [s.rounds for s in get_day_ratings(gaming_day=GAMING_DAY).sessions] == [1]
    assert [s.rounds for s in get_day_ratings(gaming_day=dt.date(2026, 11, 21)).sessions] == [1]


def test_handle_whose_paytable_has_no_report_has_no_theo_and_says_why(floor: dict[str, Any]) -> None:
    first, ana = floor["first"], floor["ana"]
    PaytableVersion.objects.filter(version=1).update(report=None)
    push_18_with_t18(first, ana)

    (session,) = sessions_of(ana)
    assert session.theo_win_cents == 0
    assert session.handle_without_edge_cents == 10_200
    assert session.edge_gaps == ("primary, T18: paytable v1 has no report yet",)


def test_a_report_for_other_house_rules_prices_nothing(
    make_table: Callable[..., TableActors], make_staff: MakeStaff
) -> None:
    six_decks = make_table("BJ-06")
    price_paytable_v1(six_decks.table)
    eight_decks = make_table("BJ-08", decks=8)
    open_reported_shoe(eight_decks)
    ana = new_patron(make_staff("pit_boss")[1], "Ana Example")
    insured_19_against_ace(eight_decks, ana)

    (session,) = sessions_of(ana)
    # Insurance's edge follows from the deck count alone: 500 x 31/415 = 37.35 -> 37.
    assert {k.kind: k.theo_win_cents for k in session.kinds} == {"primary": 0, "insurance": 37}
    assert session.handle_without_edge_cents == 1_000
    assert session.edge_gaps == (
        "primary: the report of paytable v1 is for other house rules (decks 6; the round: decks 8)",
    )
