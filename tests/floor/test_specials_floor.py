"""A special-card table on the console, as its game's registration tells the floor: the card and
the table page show its match in play, its rounds and its points ledger and no money (no limits,
drop, win, hold or hold alert); a match has its own page, scoped like the table's. A blackjack
table beside it is unchanged. A points table is never a hold outlier of the reports."""

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from casino.games import games
from casino.models import GameKind, StaffRole
from floor.templatetags.floor_format import local_time_seconds
from kernel.gaming_day import gaming_day_and_shift
from reports.models import ShiftReport
from reports.period import period_figures
from reports.read import shift_report_payload
from specials.models import Match
from table_money.services.accounting import close_table
from tests.floor.test_live_floor import alerts_of, card_of, signed_in_client, text_of
from tests.support.api import TableActors
from tests.support.live_floor import SYSTEM, open_for_play, staff
from tests.support.rounds import open_shoe
from tests.support.specials import open_a_round, open_specials_table, play_a_round, start

pytestmark = pytest.mark.django_db

HOLD_ALERT = "Hold 0.00% is outside the expected 10.00-20.00%."


def _tables(make_table: Callable[..., TableActors]) -> tuple[TableActors, TableActors]:
    """A special-card table and a blackjack table of Pit 1, each opened with a $200 buy-in and no
    win since: a hold of 0 %, outside the expected range."""
    specials = make_table("SP-01", game=GameKind.SPECIAL_POINTS, signed_in=False, pit_name="Pit 1")
    blackjack = make_table("BJ-01", signed_in=False, pit_name="Pit 1")
    boss = staff(StaffRole.PIT_BOSS, pits=("Pit 1",), name="Opening boss")
    for actors in (specials, blackjack):
        open_for_play(actors, supervisor=boss, buy_in_cents=20_000)
    open_shoe(blackjack)
    open_shoe(specials)
    return specials, blackjack


def test_every_game_says_whether_its_tables_take_money() -> None:
    assert {game.kind: game.handles_money for game in games()} == {
        GameKind.TIE_BONUS: True,
        GameKind.SPECIAL_POINTS: False,
    }


def test_the_card_of_a_special_card_table_shows_its_match_and_no_money(
    make_table: Callable[..., TableActors],
    settings: Any,
) -> None:
    settings.CASINO_HOLD_ALERT_MIN_DROP_CENTS = 0  # this test's drops are small: each hold counts
    specials, blackjack = _tables(make_table)
    match = start(specials)
    play_a_round(specials, match)
    play_a_round(specials, match)
    open_a_round(specials, match)

    html = signed_in_client(staff(StaffRole.PIT_BOSS, pits=("Pit 1",))).get("/floor/").content.decode()

    card = card_of(html, specials.table.pk)
    words = text_of(card)
    assert f"Match #{match['id']}, 2 rounds played; round 3 in play. Points: seat 1 7, seat 2 3" in words
    assert f'href="/floor/rounds/specials/matches/{match["id"]}/"' in card
    assert "Dealing a round" in words
    assert "Open, close, match…" in words
    assert "Played for points, not money: no drop, win or hold." in words
    for money in ("Limits", "Drop", "Fills", "Credits", "Win so far", "Hold", "$"):
        assert money not in words
    assert not any(alert.startswith("Hold") for alert in alerts_of(card))

    # The blackjack table beside it, unchanged: limits, figures and its hold alert.
    bj = card_of(html, blackjack.table.pk)
    for money in ("Limits", "Drop", "$200.00", "Win so far", "Hold"):
        assert money in text_of(bj)
    assert HOLD_ALERT in alerts_of(bj)


def test_the_table_page_shows_the_match_in_play_its_rounds_and_points_ledger(
    make_table: Callable[..., TableActors],
) -> None:
    specials, blackjack = _tables(make_table)
    match = start(specials)
    first = play_a_round(specials, match)
    open_a_round(specials, match)
    boss = signed_in_client(staff(StaffRole.PIT_BOSS, pits=("Pit 1",)))

    html = boss.get(f"/floor/tables/{specials.table.pk}/").content.decode()
    words = text_of(html)

    assert f"Match {match['id']} in play" in words
    assert "1 round played · round 2 in play" in words
    # Players: seat, name, points from the ledger, special card and whether it was used.
    assert "Seat 1 Ana 6 Swap a card (Cambio de Carta) not yet" in words
    assert "Seat 2 - 4 Plus one (Sumador) not yet" in words
    assert f'href="/floor/rounds/specials/{first["id"]}/"' in html
    assert f"Match {match['id']}, round 1 Finished" in words
    assert "Seat 1 win +1; Seat 2 lose -1" in words
    assert f"Points ledger of match {match['id']}" in words
    assert "1 start Seat 1 Start 5 5" in words
    assert "4 Round 1 Seat 2 Lose -1 4" in words
    for money in ("Request a fill", "Void a round", "House rules", "Aggregate limit", "Pending slips",
                  "Fills and credits", "Maximum"):  # fmt: skip
        assert money not in words
    assert "Points, not money" in words

    blackjack_page = text_of(boss.get(f"/floor/tables/{blackjack.table.pk}/").content.decode())
    for money in ("Request a fill", "Void a round", "House rules", "Pending slips", "Recent rounds"):
        assert money in blackjack_page
    assert "Match" not in blackjack_page


def test_the_match_page_shows_a_finished_match_with_its_winner_and_eliminated_player(
    make_table: Callable[..., TableActors],
) -> None:
    specials = open_specials_table(make_table, "SP-01", pit_name="Pit 1")
    match = start(specials, start_points=5, win_points=6, lose_points=4)
    round_ = play_a_round(specials, match)

    page = signed_in_client(staff(StaffRole.PIT_BOSS, pits=("Pit 1",))).get(
        f"/floor/rounds/specials/matches/{match['id']}/"
    )

    assert page.status_code == 200
    html = page.content.decode()
    words = text_of(html)
    assert f"Match {match['id']} · SP-01 Finished" in words
    assert "Finished after 1 round: won by seat 1 (Ana); seat 2 out" in words
    assert "Seat 1 Ana 6 Swap a card (Cambio de Carta) never Winner" in words
    assert "Seat 2 - 4 Plus one (Sumador) never Eliminated" in words
    assert f'href="/floor/rounds/specials/{round_["id"]}/"' in html
    assert "Seat 1 win +1; Seat 2 lose -1" in words
    ledger = words[words.index("Points ledger") :]
    assert ledger.index("1 start Seat 1") < ledger.index("2 start Seat 2") < ledger.index("3 Round 1 Seat 1")
    assert ledger.index("3 Round 1 Seat 1 Win +1 6") < ledger.index("4 Round 1 Seat 2 Lose -1 4")
    # Times in the casino's zone, with the zone named.
    round_page = signed_in_client(staff(StaffRole.COMPLIANCE)).get(f"/floor/rounds/specials/{round_['id']}/")
    assert f'href="/floor/rounds/specials/matches/{match["id"]}/"' in round_page.content.decode()
    finished_at = Match.objects.get(pk=match["id"]).finished_at
    assert local_time_seconds(finished_at) in words


def test_the_match_page_is_scoped_like_its_table(make_table: Callable[..., TableActors]) -> None:
    specials = open_specials_table(make_table, "SP-01", pit_name="Pit 1")
    make_table("BJ-02", signed_in=False, pit_name="Pit 2")
    match = start(specials)
    path = f"/floor/rounds/specials/matches/{match['id']}/"

    assert signed_in_client(staff(StaffRole.PIT_BOSS, pits=("Pit 2",))).get(path).status_code == 404
    assert signed_in_client(staff(StaffRole.FLOOR_SUPERVISOR, pits=("Pit 1",))).get(path).status_code == 200
    assert signed_in_client(staff(StaffRole.COMPLIANCE)).get(path).status_code == 200
    assert (
        signed_in_client(staff(StaffRole.PIT_BOSS, pits=("Pit 1",)))
        .get("/floor/rounds/specials/matches/999999/")
        .status_code
        == 404
    )


def test_a_points_table_is_never_a_hold_outlier_of_the_reports(
    make_table: Callable[..., TableActors],
    settings: Any,
) -> None:
    settings.CASINO_HOLD_ALERT_MIN_DROP_CENTS = 0  # this test's drops are small: each hold counts
    boss = None
    for name, game in (("SP-01", GameKind.SPECIAL_POINTS), ("BJ-01", GameKind.TIE_BONUS)):
        actors = make_table(name, game=game, signed_in=False, pit_name="Pit 1")
        boss = boss or staff(StaffRole.PIT_BOSS, pits=("Pit 1",))
        open_for_play(actors, supervisor=boss, buy_in_cents=20_000)
        # $100 of the $200 bought in came back to the tray: a hold of 50 %, outside the range.
        close_table(table_id=actors.table.pk, total_cents=1_090_000, chips={"100000": 10, "2500": 36},
                    supervisor=boss.user, actor=SYSTEM, now=timezone.now())  # fmt: skip
    day, shift = gaming_day_and_shift(timezone.now())

    payload = shift_report_payload(gaming_day=day, shifts=[shift], now=timezone.now())

    assert [row["table"]["name"] for row in payload["hold_outliers"]] == ["BJ-01"]


def test_a_points_table_is_never_a_table_to_investigate_for_its_30_day_hold(
    make_table: Callable[..., TableActors],
) -> None:
    for name, game in (("SP-01", GameKind.SPECIAL_POINTS), ("BJ-01", GameKind.TIE_BONUS)):
        table = make_table(name, game=game, signed_in=False, pit_name="Pit 1").table
        # A stored shift of drop $1,000 and win $900: a hold of 90 %, far above the range.
        ShiftReport.objects.create(
            table=table, pit_id=table.pit_id, gaming_day=dt.date(2026, 11, 19), shift="day",
            opener_cents=100_000, closer_cents=100_000, drop_cents=100_000, estimated_drop_cents=100_000,
            markers_cents=0, fills_cents=0, credits_cents=0, win_cents=90_000, rounds_settled=0,
            rounds_voided=0, hands_dealt=0, handle_cents=0, payouts_cents=0, house_net_cents=0,
            theo_win_cents=0, flags=[], complete=True, provisional=False,
            generated_at=dt.datetime(2026, 11, 20, tzinfo=dt.UTC),
        )  # fmt: skip

    period = period_figures(gaming_day=dt.date(2026, 11, 20), shifts=["day"])

    assert [row["table"]["name"] for row in period["hold_investigations"]] == ["BJ-01"]
    outside = {row["table"]["name"]: row["rolling_30_days"]["outside_range"] for row in period["tables"]}
    assert outside == {"BJ-01": True, "SP-01": False}


def test_the_client_of_an_anonymous_visitor_is_sent_to_sign_in_for_a_match(client: Client) -> None:
    response = client.get("/floor/rounds/specials/matches/1/")
    assert response.status_code == 302
    assert "/floor/login/" in response["Location"]
