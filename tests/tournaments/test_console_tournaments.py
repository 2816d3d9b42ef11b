"""The tournament pages of the console (RULES.md §4): who reaches which page, the director's create
form in dollars and casino time with the engine's errors next to their fields, filing, results and
cancellation approved by a second person, the cage's entry with its slip and token shown once, and
prizes paid at the cage with the identification stop."""

import datetime as dt
import re
from typing import Any

import pytest
from django.test import Client

from kernel.forms import new_submission_key
from kernel.keys import key_matches, split_prefix
from tests.floor.form_keys import form_key, key_in, post_form
from tests.support.factories import StaffFactory
from tests.support.gaming_day import Clock
from tests.tournaments.console_support import PAGES, Floor, floor_of, page, signed_in
from tournaments.models import Cancellation, Entry, Prize, Results, Tournament, TournamentState

pytestmark = pytest.mark.django_db


@pytest.fixture
def floor(clock: Clock) -> Floor:
    return floor_of(clock)


def _nav(html: str) -> str:
    return html.split('<nav class="mainnav">')[1].split("</nav>")[0]


# --- who reaches what -------------------------------------------------------------------------


def test_the_director_lands_on_the_tournaments_and_reaches_no_other_console_page(floor: Floor) -> None:
    director = floor.director.client

    landing = director.get("/floor/")
    listed = director.get(PAGES)

    assert (landing.status_code, landing["Location"]) == (302, PAGES)
    assert listed.status_code == 200
    nav = _nav(page(listed))
    assert re.findall(r'href="([^"]+)"', nav) == [PAGES]
    for other in (
        "/floor/cage/",
        "/floor/patrons/",
        "/floor/rounds/",
        "/floor/games/",
        "/floor/reports/",
        "/floor/compliance/",
        "/floor/count/",
        "/floor/pit-map/",
        PAGES + "entries/new/",
        PAGES + "prizes/",
    ):
        assert director.get(other).status_code in (403, 404), other


def test_signing_in_takes_the_director_to_the_tournaments(floor: Floor) -> None:
    StaffFactory.create(username="director-signs-in", role="tournament_director", password="pass-2026-td")
    signed = Client().post("/floor/login/", {"username": "director-signs-in", "password": "pass-2026-td"})
    assert (signed.status_code, signed["Location"]) == (302, PAGES)


@pytest.mark.parametrize("role", ["cage_cashier", "pit_boss", "compliance"])
def test_the_cage_and_the_second_person_have_a_tournaments_link(role: str, floor: Floor) -> None:
    person = signed_in(role)
    listed = person.client.get(PAGES)
    home = person.client.get("/floor/", follow=True)
    assert listed.status_code == 200
    assert f'href="{PAGES}"' in _nav(page(home))


@pytest.mark.parametrize("role", ["floor_supervisor", "count_team", "admin"])
def test_other_roles_get_403_on_every_tournament_page(role: str, floor: Floor) -> None:
    tournament = floor.tournament()
    person = signed_in(role)
    for path in (
        PAGES,
        f"{PAGES}new/",
        f"{PAGES}{tournament.pk}/",
        f"{PAGES}entries/new/",
        f"{PAGES}prizes/",
    ):
        assert person.client.get(path).status_code == 403, path
    assert f'href="{PAGES}"' not in _nav(page(person.client.get("/floor/", follow=True)))


def test_a_visitor_is_sent_to_sign_in(floor: Floor) -> None:
    response = Client().get(PAGES)
    assert response.status_code == 302
    assert response["Location"].startswith("/floor/login/")


@pytest.mark.parametrize(
    ("role", "path", "status"),
    [
        ("director", "new/", 200),
        ("cashier", "new/", 403),
        ("pit_boss", "new/", 403),
        ("cashier", "entries/new/", 200),
        ("pit_boss", "entries/new/", 403),
        ("cashier", "prizes/", 200),
        ("compliance", "prizes/", 403),
        ("director", "99999/", 404),
        ("director", "9" * 30 + "/", 404),
        ("cashier", "entries/99999/slip/", 404),
        ("cashier", "entries/" + "9" * 30 + "/slip/", 404),
    ],
)
def test_each_page_answers_its_roles(floor: Floor, role: str, path: str, status: int) -> None:
    person = getattr(floor, role)
    assert person.client.get(PAGES + path).status_code == status


def test_the_list_shows_state_game_entries_pool_and_next_heat_in_dollars_and_casino_time(
    floor: Floor,
) -> None:
    tournament = floor.filed()
    floor.enter(tournament, floor.patron())

    html = page(floor.cashier.client.get(PAGES))

    row = html.split(f'id="tournament-{tournament.pk}"')[1].split("</tr>")[0]
    for text in (
        "Friday Attack",
        "Registering",
        "Blackjack Attack",
        "1 of 8",
        "$20.00",
        "Heat 1 at 2026-11-20 11:05 PST",
    ):
        assert text in row, text


# --- create -------------------------------------------------------------------------------------


def _settings(**changes: str) -> dict[str, str]:
    body = {
        "name": "Saturday Squares",
        "game": "attack",
        "buy_in": "1,000",
        "fee": "$100.50",
        "added": "250",
        "guarantee": "5000.00",
        "max_entries": "40",
        "reentries": "2",
        "registration_closes_at": "2026-11-20 18:00",
        "heats": "2026-11-20 18:30\n2026-11-20T19:00",
        "start_window_s": "300",
        "deal": "duplicate",
        "prizes": "50, 30, 12.5, 7.5",
        "game_settings": "{}",
    }
    body.update(changes)
    return body


def test_the_director_creates_a_tournament_in_dollars_and_casino_time(floor: Floor) -> None:
    director = floor.director.client
    key = form_key(director, f"{PAGES}new/")

    created = director.post(f"{PAGES}new/", {**_settings(), "submission_key": key})
    again = director.post(f"{PAGES}new/", {**_settings(), "submission_key": key})  # a double click

    (tournament,) = Tournament.objects.all()
    assert created.status_code == again.status_code == 302
    assert created["Location"] == again["Location"] == f"{PAGES}{tournament.pk}/"
    stored = tournament.settings
    assert (
        stored["buy_in_cents"],
        stored["fee_cents"],
        stored["added_cents"],
        stored["guarantee_cents"],
    ) == (
        100_000,
        10_050,
        25_000,
        500_000,
    )
    assert stored["prizes_bp"] == [5000, 3000, 1250, 750]
    # 18:00 in Los Angeles in November is 02:00 UTC the next day.
    assert dt.datetime.fromisoformat(stored["registration_closes_at"]) == dt.datetime(
        2026, 11, 21, 2, 0, tzinfo=dt.UTC
    )
    assert [heat["starts_at"] for heat in stored["heats"]] == [
        "2026-11-21T02:30:00+00:00",
        "2026-11-21T03:00:00+00:00",
    ]
    assert (stored["start_window_s"], stored["reentries"], stored["deal"]) == (300, 2, "duplicate")

    html = page(director.get(created["Location"]))
    for text in (
        "is created as a draft",
        "Draft",
        "$1,000.00",
        "$100.50",
        "$1,100.50",  # an entry
        "$5,000.00",
        "2026-11-20 18:00 PST",
        "2026-11-20 18:30 PST",
        "1: 50%, 2: 30%, 3: 12.5%, 4: 7.5%",
        "File and open registration",
    ):
        assert text in html, text
    rules = tournament.rules.get()
    assert f'Version 1 · SHA-256 <span class="hash long">{rules.sha256}</span>' in html
    assert rules.text.splitlines()[0] in html


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"buy_in": "ten"}, "buy_in", "is not an amount in dollars"),
        ({"fee": "-5"}, "fee", "cannot be negative"),
        ({"added": "1.005"}, "added", "fraction of a cent"),
        ({"guarantee": "999999999"}, "guarantee", "At most $100,000,000.00"),
        ({"max_entries": "0"}, "max_entries", "greater than or equal to 1"),
        ({"max_entries": "9" * 40}, "max_entries", "less than or equal to"),
        ({"registration_closes_at": "tomorrow"}, "registration_closes_at", "write it like 2026-11-27 19:30"),
        (
            {"registration_closes_at": "2026-11-20 09:00"},
            "registration_closes_at",
            "Registration closes in the future.",
        ),
        (
            {"registration_closes_at": "2026-03-08 02:30"},
            "registration_closes_at",
            "not one moment in casino time",
        ),
        (
            {"heats": "2026-11-20 17:00"},
            "heats",
            "Heat 1: The first heat starts when registration has closed",
        ),
        (
            {"heats": "2026-11-20 18:30\n2026-11-20 18:31"},
            "heats",
            "Heat 2: A heat starts once the start window",
        ),
        ({"heats": "2026-11-20 18:30\nlater"}, "heats", "Heat 2: "),
        ({"prizes": "50, 30, 10"}, "prizes", "add up to 100, not 90"),
        ({"prizes": "50, 30, x"}, "prizes", "Place 3:"),
        ({"prizes": "30, 70"}, "prizes", "A place never pays more than the place above it."),
        ({"prizes": "99.999, 0.001"}, "prizes", "to two decimals at most"),
        ({"game_settings": "{nope"}, "game_settings", "as a JSON object"),
        ({"game_settings": '{"players": 3}'}, "game_settings", "players"),
        ({"game": "poker"}, "game", "Select a valid choice"),
        ({"name": ""}, "name", "This field is required."),
    ],
)
def test_a_wrong_setting_is_said_next_to_its_field_and_nothing_is_created(
    floor: Floor, changes: dict[str, str], field: str, message: str
) -> None:
    response = post_form(floor.director.client, f"{PAGES}new/", _settings(**changes))

    assert response.status_code == 400
    html = page(response)
    at_field = html.split(f'id="field-{field}"')[1].split("</p>")[0]
    assert "errorlist" in at_field, at_field
    assert message.replace("'", "&#x27;") in at_field, at_field
    assert not Tournament.objects.exists()


def test_every_wrong_setting_the_engine_finds_is_listed_at_once(floor: Floor) -> None:
    response = post_form(
        floor.director.client,
        f"{PAGES}new/",
        _settings(game="make21", max_entries="8", reentries="1", heats="2026-11-20 18:30\n2026-11-20 19:30"),
    )
    html = page(response)
    assert "seats 2 to 5 entries" in html.split('id="field-max_entries"')[1].split("</p>")[0]
    assert "takes no re-entries" in html.split('id="field-reentries"')[1].split("</p>")[0]
    assert "one heat" in html.split('id="field-heats"')[1].split("</p>")[0]
    assert not Tournament.objects.exists()

    # Corrected on the same page (its key unused by the refusal): created once.
    corrected = floor.director.client.post(
        f"{PAGES}new/",
        {
            **_settings(
                game="make21", max_entries="4", reentries="0", heats="2026-11-20 18:30", prizes="100"
            ),
            "submission_key": key_in(response),
        },
    )
    assert corrected.status_code == 302
    assert Tournament.objects.get().game == "make21"


# --- file, posted rules, cancellation -------------------------------------------------------------


def test_the_director_files_a_draft_and_registration_opens(floor: Floor) -> None:
    tournament = floor.tournament()
    detail = f"{PAGES}{tournament.pk}/"

    wrong = post_form(
        floor.director.client, f"{detail}file/", {"reference": " ", "filed_on": "2026-11-18"}, page=detail
    )
    bad_day = post_form(
        floor.director.client, f"{detail}file/", {"reference": "NGC-1", "filed_on": "18/11/2026"}, page=detail
    )
    assert (wrong.status_code, bad_day.status_code) == (400, 400)
    assert "This field is required." in page(wrong)
    assert "Enter the filing date as a date" in page(bad_day)
    assert Tournament.objects.get(pk=tournament.pk).state == TournamentState.DRAFT

    filed = post_form(
        floor.director.client,
        f"{detail}file/",
        {"reference": "NGC-2026-118", "filed_on": "2026-11-18"},
        page=detail,
    )
    assert filed.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.state, tournament.filing_reference, tournament.filed_on) == (
        TournamentState.REGISTERING,
        "NGC-2026-118",
        dt.date(2026, 11, 18),
    )
    html = page(floor.director.client.get(detail))
    assert "filed as NGC-2026-118 on 2026-11-18" in html
    assert "File and open registration" not in html

    # The form of the draft's page sent again with a new key: the service refuses, plainly.
    again = floor.director.client.post(
        f"{detail}file/",
        {"reference": "NGC-2", "filed_on": "2026-11-18", "submission_key": new_submission_key()},
    )
    assert again.status_code == 400
    assert "is registering; this needs it draft. Nothing was recorded." in page(again)
    assert Tournament.objects.get(pk=tournament.pk).filing_reference == "NGC-2026-118"


def test_a_cancellation_asked_by_the_director_is_approved_by_a_second_person_and_refunds(
    floor: Floor,
) -> None:
    tournament = floor.filed()
    floor.enter(tournament, floor.patron())
    detail = f"{PAGES}{tournament.pk}/"
    director = floor.director.client

    blank = post_form(director, f"{detail}cancel/", {"reason": "   "}, page=detail)
    assert blank.status_code == 400
    assert "This field is required." in page(blank)
    assert not Cancellation.objects.exists()

    asked = post_form(director, f"{detail}cancel/", {"reason": "The kiosks are down"}, page=detail)
    assert asked.status_code == 302
    mine = page(director.get(detail))
    assert "The kiosks are down" in mine
    assert "Approve the cancellation</button>" in mine
    assert "disabled" in mine
    assert "A pit boss or compliance officer who is not the one who asked to cancel approves it." in mine

    # Compliance who asked could not approve; here compliance did not ask and approves.
    approving = floor.compliance.client
    assert "Approve the cancellation and refund every entry" in page(approving.get(detail))
    approved = post_form(approving, f"{detail}cancel/approve/", {}, page=detail)
    assert approved.status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).state == TournamentState.CANCELLED
    html = page(approving.get(detail, follow=True))
    assert "is cancelled: every buy-in and fee is refunded." in html
    assert 'Refunded</dt><dd class="money">$25.00' in html


def test_a_refused_approval_shows_the_services_error_plainly(floor: Floor) -> None:
    tournament = floor.filed()
    detail = f"{PAGES}{tournament.pk}/"
    response = floor.pit_boss.client.post(
        f"{detail}results/approve/", {"submission_key": new_submission_key()}, follow=True
    )
    assert response.redirect_chain[-1][0] == detail
    assert f"Tournament {tournament.pk}&#x27;s results are not proposed yet. Nothing was recorded." in page(
        response
    )
    assert not Results.objects.filter(approved_at__isnull=False).exists()


def test_the_director_cannot_approve_and_the_cage_cannot_file(floor: Floor) -> None:
    tournament = floor.tournament()
    detail = f"{PAGES}{tournament.pk}/"
    key = {"submission_key": new_submission_key()}
    assert floor.director.client.post(f"{detail}results/approve/", key).status_code == 403
    assert floor.director.client.post(f"{detail}cancel/approve/", key).status_code == 403
    assert (
        floor.cashier.client.post(
            f"{detail}file/", {**key, "reference": "X", "filed_on": "2026-11-18"}
        ).status_code
        == 403
    )
    assert floor.pit_boss.client.post(f"{detail}results/", key).status_code == 403
    assert Tournament.objects.get(pk=tournament.pk).state == TournamentState.DRAFT


# --- results and prizes -------------------------------------------------------------------------


def test_results_are_proposed_by_the_director_and_approved_by_a_pit_boss_then_paid_at_the_cage(
    floor: Floor, settings: Any
) -> None:
    settings.CASINO_PRIZE_REPORTING_THRESHOLD_CENTS = 100_000
    tournament = floor.filed()
    first, second = floor.patron("Ana Ruiz"), floor.patron("Bea Kim")
    floor.enter(tournament, first)
    floor.enter(tournament, second, paid_with="chips")
    tournament = floor.played(tournament)
    detail = f"{PAGES}{tournament.pk}/"
    assert tournament.state == TournamentState.PLAYING_DONE

    proposed = post_form(floor.director.client, f"{detail}results/", {}, page=detail)
    assert proposed.status_code == 302
    mine = page(floor.director.client.get(detail))
    assert "not approved yet" in mine
    assert "A pit boss or compliance officer who is not the proposer of the results approves it." in mine
    assert "Propose the results" not in mine

    approved = post_form(floor.pit_boss.client, f"{detail}results/approve/", {}, page=detail)
    assert approved.status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).state == TournamentState.RESULTS_APPROVED

    # Two entries tied on the no-show score share the pool, the $250.00 guarantee ($40.00 of
    # buy-ins, $50.00 added, $160.00 of overlay): $125.00 each.
    prizes = page(floor.cashier.client.get(f"{PAGES}prizes/"))
    assert prizes.count("Pay $125.00") == 2, prizes
    prize = Prize.objects.order_by("entry__number").first()
    assert prize is not None
    paid = post_form(
        floor.cashier.client, f"{PAGES}prizes/{prize.pk}/pay/", {"paid_with": "cash"}, page=f"{PAGES}prizes/"
    )
    assert paid.status_code == 302
    prize.refresh_from_db()
    assert (prize.paid_with, prize.paid_at is not None) == ("cash", True)
    after = page(floor.cashier.client.get(f"{PAGES}prizes/"))
    assert "Paid $125.00 in cash to patron" in after
    assert after.count("Pay $125.00") == 1


def test_a_prize_over_the_threshold_for_an_unidentified_patron_stops_with_the_way_to_identify(
    floor: Floor, settings: Any
) -> None:
    settings.CASINO_PRIZE_REPORTING_THRESHOLD_CENTS = 10_000
    tournament = floor.filed()
    patron = floor.patron("Cy Unknown")
    floor.enter(tournament, patron)
    tournament = floor.approved(floor.proposed(floor.played(tournament)))
    (prize,) = Prize.objects.all()

    listed = page(floor.cashier.client.get(f"{PAGES}prizes/"))
    assert "not identified" in listed
    stopped = post_form(
        floor.cashier.client, f"{PAGES}prizes/{prize.pk}/pay/", {"paid_with": "chips"}, page=f"{PAGES}prizes/"
    )

    assert stopped.status_code == 409
    html = page(stopped)
    assert "Stop: identify the patron before paying." in html
    assert f'href="/floor/patrons/{patron}/identify/?next=/floor/tournaments/prizes/"' in html
    prize.refresh_from_db()
    assert prize.paid_at is None


# --- the cage's entry and its slip ------------------------------------------------------------------


def test_the_cage_registers_an_entry_and_its_slip_shows_the_token_once_with_its_qr_code(floor: Floor) -> None:
    tournament = floor.filed()
    patron = floor.patron()
    cashier = floor.cashier.client
    key = form_key(cashier, f"{PAGES}entries/new/")
    body = {
        "tournament": str(tournament.pk),
        "patron": str(patron),
        "paid_with": "chips",
        "nickname": "Ana",
        "submission_key": key,
    }

    entered = cashier.post(f"{PAGES}entries/new/", body)
    (entry,) = Entry.objects.all()
    assert entered.status_code == 302
    assert entered["Location"] == f"{PAGES}entries/{entry.pk}/slip/"

    slip = page(cashier.get(entered["Location"]))
    token = re.search(r'<p class="hash long token-text">([^<]+)</p>', slip)
    assert token is not None
    assert split_prefix(token.group(1)) == entry.key_prefix
    assert key_matches(token.group(1), entry.key_hash)
    play_url = f"http://testserver/play/?token={token.group(1)}"
    assert play_url in slip
    assert '<svg width="' in slip
    assert 'class="qr"' in slip
    assert "<title>Player page</title>" in slip
    rules = tournament.rules.get()
    for text in (
        "Entry No. 1",
        f"{tournament.pk} Friday Attack",
        str(patron),
        "$25.00 in chips",
        "2026-11-20 10:00:00 PST",
        "version 1",
        rules.sha256[:16],
    ):
        assert text in slip, text

    reloaded = page(cashier.get(entered["Location"]))
    assert token.group(1) not in reloaded
    assert "<svg" not in reloaded
    assert "was shown once" in reloaded
    assert "Entry No. 1" in reloaded

    resent = cashier.post(f"{PAGES}entries/new/", body)  # the same page's form again: no second entry
    assert resent.status_code == 302
    assert Entry.objects.count() == 1
    assert token.group(1) not in page(cashier.get(resent["Location"]))


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"patron": "987654"}, "No patron number 987654 is on file. Nothing was recorded."),
        ({"patron": "-3"}, "greater than or equal to 1"),
        ({"patron": "9" * 40}, "less than or equal to"),
        ({"tournament": "99999"}, "That tournament is not taking entries"),
        ({"tournament": "abc"}, "That tournament is not taking entries"),
        ({"paid_with": "credit"}, "Select a valid choice"),
    ],
)
def test_a_wrong_entry_is_said_on_the_form_and_nothing_is_taken(
    floor: Floor, changes: dict[str, str], message: str
) -> None:
    tournament = floor.filed()
    patron = floor.patron()
    body = {"tournament": str(tournament.pk), "patron": str(patron), "paid_with": "cash", **changes}

    response = post_form(floor.cashier.client, f"{PAGES}entries/new/", body)

    assert response.status_code == 400
    assert message in page(response)
    assert not Entry.objects.exists()


def test_a_draft_is_not_offered_for_entries_and_a_full_tournament_is_refused_plainly(floor: Floor) -> None:
    draft = floor.tournament(name="Not filed")
    full = floor.filed(max_entries=1, reentries=0)
    floor.enter(full, floor.patron())
    form = page(floor.cashier.client.get(f"{PAGES}entries/new/"))
    assert "Not filed" not in form
    assert f'value="{full.pk}"' in form

    refused = post_form(
        floor.cashier.client,
        f"{PAGES}entries/new/",
        {"tournament": str(full.pk), "patron": str(floor.patron("Bea Kim")), "paid_with": "cash"},
    )
    assert refused.status_code == 400
    assert f"Tournament {full.pk} has its 1 entries. Nothing was recorded." in page(refused)
    assert Entry.objects.count() == 1
    assert draft.entries_taken == 0


def test_the_detail_page_shows_entries_heats_standings_and_money(floor: Floor) -> None:
    tournament = floor.filed()
    floor.enter(tournament, floor.patron())
    html = page(floor.pit_boss.client.get(f"{PAGES}{tournament.pk}/"))
    money = html.split('id="tournament-money"')[1].split("</dl>")[0]
    for text in ("Pool", "$20.00", "Fees", "$5.00", "Added money", "Overlay", "Revenue"):
        assert text in money, text
    heats = html.split('id="tournament-heats"')[1].split("</table>")[0]
    heat = tournament.heats.get(number=1)
    assert heat.commitment in heats
    assert "revealed when the heat closes" in heats
    assert heat.salt not in heats
    assert "2026-11-20 11:05 PST" in heats
    assert 'id="entry-1"' in html
    assert "$25.00" in html.split('id="tournament-entries"')[1]
    assert "Approve" not in html.split('id="tournament-actions"')[1].split("</section>")[0]
    assert key_in(floor.director.client.get(f"{PAGES}{tournament.pk}/"))  # the director's forms carry keys


def test_a_table_game_short_of_entries_says_why_it_is_not_played_and_offers_the_cancellation(
    floor: Floor,
) -> None:
    tournament = floor.filed(
        game="make21",
        max_entries=3,
        reentries=0,
        deal="individual",
        heats=[{"starts_at": (floor.now() + dt.timedelta(minutes=65)).isoformat()}],
        settings={"games": 1},
        prizes_bp=[10000],
    )
    floor.enter(tournament, floor.patron())
    assert floor.played(tournament).state == TournamentState.RUNNING

    html = page(floor.director.client.get(f"{PAGES}{tournament.pk}/"))

    stop = html.split('id="not-played"')[1].split("</div>")[0]
    assert "Make 21 needs at least 2 entries at its table and has 1" in stop
    assert "Ask to cancel the tournament" in html


def test_the_director_gets_the_boards_link_once_and_a_new_one_stops_the_old(floor: Floor) -> None:
    tournament = floor.filed()
    detail = f"{PAGES}{tournament.pk}/"
    director = floor.director.client
    assert "A board link" in page(director.get(detail))

    def issue() -> str:
        issued = director.post(f"{detail}board-key/", {"submission_key": new_submission_key()})
        assert (issued.status_code, issued["Location"]) == (302, detail)
        html = page(director.get(issued["Location"]))
        link = re.search(r'id="board-link"[^>]*>(http://testserver/board/\d+/\?key=[^<]+)</a>', html)
        assert link is not None, html
        assert "board-link" not in page(director.get(detail))  # shown once
        return link.group(1).removeprefix("http://testserver")

    first = issue()
    assert Client().get(first).status_code == 200
    second = issue()
    assert "A new board link" in page(director.get(detail))
    assert Client().get(second).status_code == 200
    assert Client().get(first).status_code == 403
    cage = floor.cashier.client.post(f"{detail}board-key/", {"submission_key": new_submission_key()})
    assert cage.status_code == 403
