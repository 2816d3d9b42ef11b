"""The live floor (/floor/) and its refreshing pit map, read with Django's test client: what each
table's card says, who sees which tables, and that the page's cost does not grow with the floor."""

import datetime as dt
import json
import re
from collections.abc import Callable
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection
from django.template.loader import render_to_string
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from casino.models import Pit, StaffRole
from casino.services.provisioning import ProvisionedStaff
from casino.services.terminals import SignInRefusedError, record_failed_sign_in
from table_money.models import SlipKind
from table_money.services.accounting import close_table, request_slip
from tests.support.api import TableActors
from tests.support.factories import UserFactory, restore_migrated_rows
from tests.support.live_floor import (
    SYSTEM,
    open_for_play,
    play_a_losing_hand,
    staff,
)
from tests.support.rounds import open_round, open_shoe, primary

pytestmark = pytest.mark.django_db


def signed_in_client(made: ProvisionedStaff) -> Client:
    client = Client()
    client.force_login(User.objects.get(pk=made.user.pk))
    return client


def card_of(html: str, table_id: int) -> str:
    """The HTML of one table's card on the pit map."""
    match = re.search(rf'<article [^>]*id="table-{table_id}">(.*?)</article>', html, re.S)
    assert match is not None, f"no card for table {table_id}"
    return match.group(1)


def alerts_of(card_html: str) -> list[str]:
    """The alerts of a table's card, in red (`ul.alarms`)."""
    alerts = re.search(r'<ul class="alarms"[^>]*>(.*?)</ul>', card_html, re.S)
    return [text_of(item) for item in re.findall(r"<li>(.*?)</li>", alerts.group(1), re.S)] if alerts else []


def text_of(html: str) -> str:
    """The words of some HTML as a reader sees them, on one line."""
    words = " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())
    return re.sub(r" ([,.;:])", r"\1", words)


def test_a_card_shows_the_shift_figures_from_the_ledger_and_win_so_far(
    make_table: Callable[..., TableActors],
) -> None:
    actors = make_table("BJ-LIVE", pit_name="Pit 1")
    boss = staff("pit_boss", pits=("Pit 1",))
    open_for_play(actors, supervisor=boss, buy_in_cents=50_000)
    open_shoe(actors)
    play_a_losing_hand(actors, stake_cents=10_000)
    request_slip(kind=SlipKind.FILL, table_id=actors.table.pk, amount_cents=250_000, chips={"2500": 100},
                 terminal=None, user=boss.user, actor=SYSTEM, now=timezone.now())  # fmt: skip
    in_play = open_round(actors, [{"seat": 3, "player": None, "wagers": [primary(2_500)]}])

    page = signed_in_client(boss).get("/floor/")

    assert page.status_code == 200
    card = text_of(card_of(page.content.decode(), actors.table.pk))
    assert "Dealing a round" in card
    assert "Tie-bonus blackjack, 6 decks" in card
    assert "Primary $5.00\u2013$1,000.00; T17, T18, T19, T20, T21, TBJ, LS, RS $1.00\u2013$500.00" in card
    assert f"Dealer Dealer {actors.provisioned.dealer.badge}, since " in card
    # Drop $500.00, no fills or credits approved; the house won the $100.00 stake: win so far $100.00
    # (drop + credits - fills + tray now - opener = 500 + 0 - 0 + (-500 + 100)), hold 20.00 %.
    assert "Drop $500.00 Fills $0.00 Credits $0.00 Win so far * $100.00 Hold 20.00%" in card
    assert "1 slip pending approval" in card
    assert f"Round {in_play['id']}, Dealing, opened " in card
    assert re.search(r"of 312 cards dealt, \d+% of a 75% cut", card)
    assert "Hold" in card
    assert "outside" not in card
    assert f'href="/floor/rounds/{in_play["id"]}/"' in card_of(page.content.decode(), actors.table.pk)


def test_alerts_in_red_for_a_hold_out_of_range_a_silent_terminal_and_a_locked_out_dealer(
    make_table: Callable[..., TableActors], settings: Any
) -> None:
    settings.CASINO_HOLD_ALERT_MIN_DROP_CENTS = 0  # this test's drops are small: each hold counts
    settings.CASINO_DEALER_LOCKOUT_FAILURES = 2
    actors = make_table("BJ-ALERT", signed_in=False, pit_name="Pit 1")
    boss = staff("pit_boss", pits=("Pit 1",))
    # Opened, with a buy-in and no round since, a quarter of an hour ago: hold 0 % (below 10 %),
    # and the terminal has changed nothing since.
    open_for_play(actors, supervisor=boss, buy_in_cents=20_000, now=timezone.now() - dt.timedelta(minutes=15))
    other_dealer = make_table("BJ-ELSEWHERE", signed_in=False, pit_name="Pit 2").provisioned.dealer
    for _ in range(2):
        record_failed_sign_in(terminal=actors.provisioned.terminal,
                              refused=SignInRefusedError(reason="wrong_pin", badge=other_dealer.badge),
                              actor=SYSTEM, now=timezone.now())  # fmt: skip

    listed = alerts_of(card_of(signed_in_client(boss).get("/floor/").content.decode(), actors.table.pk))
    assert "Hold 0.00% is outside the expected 10.00-20.00%." in listed
    assert any(item.startswith("Terminal silent: no change from it since ") for item in listed)
    assert any(item.startswith("2 failed dealer sign-ins at the terminal since ") for item in listed)
    assert any(
        item.startswith(f"Dealer {other_dealer.badge} {other_dealer.name} locked out") for item in listed
    )


def test_a_freshly_opened_table_raises_no_hold_alert_until_its_drop_reaches_the_minimum(
    make_table: Callable[..., TableActors], settings: Any
) -> None:
    """Opened with one $200 buy-in in the box and no round: hold 0 %, outside 10-20 %, but on a
    drop below the default minimum ($1,000) it is no alert; past a lower minimum it is one."""
    actors = make_table("BJ-NEW", signed_in=True, pit_name="Pit 1")
    boss = staff("pit_boss", pits=("Pit 1",))
    open_for_play(actors, supervisor=boss, buy_in_cents=20_000)
    client = signed_in_client(boss)

    fresh = card_of(client.get("/floor/").content.decode(), actors.table.pk)
    settings.CASINO_HOLD_ALERT_MIN_DROP_CENTS = 20_000
    past_minimum = card_of(client.get("/floor/").content.decode(), actors.table.pk)

    assert "Hold 0.00%" in text_of(fresh)
    assert alerts_of(fresh) == []
    assert alerts_of(past_minimum) == ["Hold 0.00% is outside the expected 10.00-20.00%."]


def test_a_table_never_opened_shows_no_win_and_no_alert(make_table: Callable[..., TableActors]) -> None:
    actors = make_table("BJ-COLD", signed_in=False, pit_name="Pit 1")
    boss = staff("pit_boss", pits=("Pit 1",))

    html = card_of(signed_in_client(boss).get("/floor/").content.decode(), actors.table.pk)

    assert "Not opened yet" in html
    assert "not open" in text_of(html)
    assert "alarms" not in html


def test_a_table_closed_for_the_shift_shows_the_counted_win(
    make_table: Callable[..., TableActors], settings: Any
) -> None:
    settings.CASINO_HOLD_ALERT_MIN_DROP_CENTS = 0  # this test's drops are small: each hold counts
    actors = make_table("BJ-DONE", signed_in=False, pit_name="Pit 1")
    boss = staff("pit_boss", pits=("Pit 1",))
    open_for_play(actors, supervisor=boss, buy_in_cents=20_000)
    # $200 of chips went to the player; $100 of them came back to the tray (the ledger saw no round).
    close_table(table_id=actors.table.pk, total_cents=1_090_000, chips={"100000": 10, "2500": 36},
                supervisor=boss.user, actor=SYSTEM, now=timezone.now())  # fmt: skip

    html = card_of(signed_in_client(boss).get("/floor/").content.decode(), actors.table.pk)

    card = text_of(html)
    assert re.search(r"Closed for the (day|swing|grave) shift", card)
    # drop 200 + credits 0 - fills 0 + (closer 10,900 - opener 11,000) = $100.00, hold 50 %.
    assert "Win (counted) $100.00 Hold 50.00%" in card
    assert alerts_of(html) == ["Hold 50.00% is outside the expected 10.00-20.00%."]  # nothing of the terminal


def test_the_pit_map_fragment_refreshes_itself_and_is_scoped_like_the_page(
    make_table: Callable[..., TableActors],
) -> None:
    mine = make_table("BJ-P1", signed_in=False, pit_name="Pit 1")
    theirs = make_table("BJ-P2", signed_in=False, pit_name="Pit 2")
    supervisor = signed_in_client(staff("floor_supervisor", pits=("Pit 1",)))
    compliance = signed_in_client(staff("compliance"))

    page = supervisor.get("/floor/").content.decode()
    fragment = supervisor.get("/floor/pit-map/", headers={"HX-Request": "true"})

    assert 'hx-get="/floor/pit-map/"' in page
    assert 'hx-trigger="every 5s"' in page
    assert fragment.status_code == 200
    body = fragment.content.decode()
    assert "<html" not in body
    assert 'hx-trigger="every 5s"' in body
    assert f'id="table-{mine.table.pk}"' in body
    assert f'id="table-{theirs.table.pk}"' not in body
    assert "BJ-P2" not in body
    everything = compliance.get("/floor/pit-map/").content.decode()
    assert f'id="table-{mine.table.pk}"' in everything
    assert f'id="table-{theirs.table.pk}"' in everything
    assert 'class="actions"' not in everything  # compliance reads, it does not act
    assert 'class="actions"' in body


def test_a_signed_out_refresh_sends_the_whole_page_to_sign_in(client: Client) -> None:
    response = client.get(
        "/floor/pit-map/", headers={"HX-Request": "true", "HX-Current-URL": "http://testserver/floor/"}
    )

    assert response.status_code == 204
    assert response["HX-Redirect"] == "/floor/login/?next=/floor/"
    assert client.get("/floor/pit-map/")["Location"] == "/floor/login/?next=/floor/pit-map/"


@pytest.mark.parametrize("path", ["/floor/", "/floor/pit-map/"])
def test_a_signed_in_user_without_a_console_role_gets_the_styled_403(path: str) -> None:
    no_role = UserFactory.create(username="visitor")
    client = Client()
    client.force_login(no_role)

    response = client.get(path)

    assert response.status_code == 403
    page = response.content.decode()
    assert "Not allowed" in page
    assert "Your role does not include this page." in page
    assert 'href="/floor/"' in page
    assert "floor.css" in page


def test_an_unknown_page_is_the_styled_404_with_a_link_home(client: Client) -> None:
    response = client.get("/floor/no-such-page/")

    assert response.status_code == 404
    page = response.content.decode()
    assert "Page not found" in page
    assert "/floor/no-such-page/" in page
    assert 'href="/floor/"' in page
    api = client.get("/api/v1/no-such-thing/")
    assert api.status_code == 404
    assert api["Content-Type"] == "application/problem+json"


def test_the_server_error_and_bad_request_pages_render_without_a_request() -> None:
    for name, heading in (("500.html", "Something went wrong"), ("400.html", "Bad request")):
        page = render_to_string(name)
        assert heading in page
        assert 'href="/floor/"' in page
        assert "floor.css" in page


def test_the_admin_site_links_view_site_to_the_floor() -> None:
    admin = staff("admin")
    page = signed_in_client(admin).get("/admin/").content.decode()

    assert 'href="/floor/"' in page


def test_the_header_names_the_user_role_pits_and_zone_and_shows_configuration_to_admins_only(
    make_table: Callable[..., TableActors],
) -> None:
    make_table("BJ-H1", signed_in=False, pit_name="Pit 1")
    make_table("BJ-H2", signed_in=False, pit_name="High limit")
    boss = staff("pit_boss", pits=("Pit 1", "High limit"), name="hannah")

    header = signed_in_client(boss).get("/floor/").content.decode().split("</header>")[0]
    admin_header = signed_in_client(staff("admin")).get("/floor/").content.decode().split("</header>")[0]

    assert "hannah" in header
    assert "Pit boss" in header
    assert "High limit, Pit 1" in header
    assert "America/Los_Angeles" in header
    assert "Sign out" in header
    assert "Configuration" not in header
    assert "Configuration" in admin_header


def _floor_queries(client: Client) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/floor/pit-map/").status_code == 200
    return len(queries.captured_queries)


def test_the_floor_costs_the_same_queries_for_two_tables_as_for_eight(
    make_table: Callable[..., TableActors],
) -> None:
    first = [make_table(f"BJ-Q{n}", signed_in=False, pit_name="Pit 1") for n in (1, 2)]
    boss = staff("pit_boss", pits=("Pit 1",))
    client = signed_in_client(boss)

    def put_in_play(tables: list[TableActors]) -> None:
        for actors in tables:
            open_for_play(actors, supervisor=boss, buy_in_cents=10_000)
            open_shoe(actors)
            open_round(actors, [{"seat": 1, "player": None, "wagers": [primary(1_000)]}])

    put_in_play(first)
    two = _floor_queries(client)
    put_in_play([make_table(f"BJ-Q{n}", signed_in=False, pit_name="Pit 1") for n in range(3, 9)])
    eight = _floor_queries(client)

    assert eight == two
    assert two <= 25


def test_the_demo_pit_boss_signs_in_and_lands_on_the_floor_with_live_figures(tmp_path: Path) -> None:
    restore_migrated_rows()
    call_command("seed_demo", credentials_file=tmp_path / "demo.json")
    credentials = json.loads((tmp_path / "demo.json").read_text())
    assert {"username": "pitboss", "role": StaffRole.PIT_BOSS}.items() <= next(
        s for s in credentials["staff"] if s["username"] == "pitboss"
    ).items()

    client = Client()
    landed = client.post(
        "/floor/login/", {"username": "pitboss", "password": "pitboss-demo-2026"}, follow=True
    )

    assert landed.redirect_chain[-1][0] == "/floor/"
    page = text_of(landed.content.decode())
    assert "BJ-01" in page
    assert "BJ-02" in page
    assert "SP-01" in page
    assert list(Pit.objects.filter(staff__user__username="pitboss").values_list("name", flat=True)) == [
        "Pit 1"
    ]
    # BJ-01: $500 bought in, a $2,000 fill approved, a $50 hand won by the house.
    assert "Drop $500.00 Fills $2,000.00 Credits $0.00 Win so far * $50.00 Hold 10.00%" in page
    assert "1 slip pending approval" in page  # BJ-02's credit
    assert "Dealing a round" not in page  # no round left in play: each terminal deals its next at once
    assert "Special-card points, 6 decks" in page
    assert "Match none in play" in page  # SP-01: open, no match started
