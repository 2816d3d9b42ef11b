"""The player page with a tournament entry's token (play/views.py, play/entries.py), through the
Django client: the slip's token entered, the page before the heat, the Start button in the heat's
start window (the API's codes), the entry's game played as a seat's, the score, the next heat and
the place after it; a Make 21 entry at its own seat; another entry's game never reached; the
nickname chosen on the page, and hostile tokens and nicknames refused with nothing changed."""

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from audit.models import AuditEvent
from skill_games.models import Game
from tests.support.api import ok, post, problem
from tests.support.gaming_day import Clock
from tournaments.models import Entry, EntryGame

from .conftest import Entered, Run, at

pytestmark = pytest.mark.django_db


def device(token: str) -> Client:
    """A kiosk that has taken the entry's token (typed into the form)."""
    client = Client()
    response = client.post("/play/", {"token": token})
    assert response.status_code == 302, response.content[:500]
    assert response["Location"] == "/play/"
    cookie = client.cookies["play_seat"]
    assert cookie["httponly"]
    assert cookie["path"] == "/play/"
    assert token not in cookie.value.split(":")[-1]  # signed, not the token alone
    return client


def page(client: Client, status: int = 200) -> str:
    response = client.get("/play/")
    assert response.status_code == status, response.content[:500]
    return response.content.decode()


def running_attack(
    create: Callable[..., Run], patron: Callable[..., int], entries: int = 2
) -> tuple[Run, list[Entered]]:
    run = create()
    run.file()
    entered = [run.entered(patron()) for _ in range(entries)]
    return run, entered


def test_an_entry_waits_starts_plays_and_sees_its_score_and_place(
    create: Callable[..., Run], patron: Callable[..., int], clock: Clock
) -> None:
    run, (first, second) = running_attack(create, patron)
    kiosk = device(first.token)
    shown = page(kiosk)
    # 10:00 in the casino: heat 1 at 11:05, heat 2 at 11:20 (Los Angeles time).
    assert "Heat 1 starts at 11:05" in shown
    assert 'data-look-again-ms="15000"' in shown  # it looks again by itself
    assert first.token not in shown

    refused = kiosk.post("/play/start/")
    assert refused.status_code == 409
    assert "registration is still open" in refused.content.decode()
    assert not EntryGame.objects.exists()

    run.advance(minutes=60)  # registration closes
    assert "Heat 1 starts at 11:05" in page(kiosk)
    run.advance(minutes=5)  # heat 1 starts
    shown = page(kiosk)
    assert 'id="start"' in shown
    assert "Start heat 1" in shown
    assert "before 11:07" in shown  # the start window of 120 s

    started = kiosk.post("/play/start/")
    assert started.status_code == 302
    assert started["Location"] == "/play/"
    (played,) = EntryGame.objects.filter(entry_id=first.id)
    shown = page(kiosk)
    assert 'id="game"' in shown
    assert 'id="standing-link"' in shown

    game = ok(kiosk.get("/play/game/"))
    assert game["id"] == played.game_id
    assert game["tournament"] == {"id": run.id, "heat": 1, "entry": first.number}
    moved = kiosk.post(
        "/play/move/", {"move": "place", "column": 1, "expected_seq": game["seq"]}, "application/json"
    )
    assert moved.status_code == 200, moved.content
    assert moved.json()["seq"] == game["seq"] + 1

    again = kiosk.post("/play/start/")
    assert again.status_code == 409
    assert "has played heat 1" in again.content.decode()  # already_played, the API's refusal

    run.advance(minutes=8)  # its clock has run out; the heat is closed
    assert Game.objects.get(pk=played.game_id).state == "finished"
    shown = page(kiosk)
    assert "Your last game scored" in shown
    assert "Next heat: Heat 2 starts at 11:20" in shown
    assert 'id="place"' in shown

    run.advance(minutes=7)  # heat 2: started but not played
    assert "Start heat 2" in page(kiosk)
    run.advance(minutes=3)  # its window is over: nothing left for the entry
    shown = page(kiosk)
    assert "Your tournament play is done" in shown
    assert "(not started)" in shown  # heat 2 scores the no-show's 0
    assert second.token not in shown


def test_an_entry_token_reaches_its_own_game_only(
    create: Callable[..., Run], patron: Callable[..., int], clock: Clock
) -> None:
    run, (first, second) = running_attack(create, patron)
    run.advance(minutes=65)
    mine, theirs = device(first.token), device(second.token)
    assert mine.post("/play/start/").status_code == 302
    assert theirs.post("/play/start/").status_code == 302
    first_game = EntryGame.objects.get(entry_id=first.id).game_id
    second_game = EntryGame.objects.get(entry_id=second.id).game_id
    assert ok(mine.get("/play/game/"))["id"] == first_game
    assert ok(theirs.get("/play/game/"))["id"] == second_game

    before = Game.objects.get(pk=second_game).seq
    body = {"move": "place", "column": 2, "expected_seq": 0}
    assert mine.post("/play/move/", body, "application/json").status_code == 200
    assert Game.objects.get(pk=second_game).seq == before  # the other entry's game untouched
    assert Game.objects.get(pk=first_game).seq == 1


def test_a_make21_entry_plays_at_its_own_seat(
    create: Callable[..., Run], patron: Callable[..., int], clock: Clock
) -> None:
    run = create(
        game="make21",
        max_entries=3,
        reentries=0,
        deal="individual",
        heats=[{"starts_at": at(clock, 65)}],
        settings={"games": 1, "turn_limit_s": 30},
        prizes_bp=[10000],
    )
    run.file()
    entries = [run.entered(patron()) for _ in range(3)]
    kiosk = device(entries[1].token)
    assert "The table is seated at 11:05" in page(kiosk)
    run.advance(minutes=65)  # the table is seated: the page is the game, at seat 2
    shown = page(kiosk)
    assert 'id="game"' in shown
    assert 'data-seat="2"' in shown
    game = ok(kiosk.get("/play/game/"))
    assert game["tournament"]["entry"] == 2
    assert game["hand"]  # seat 2's own hand
    seat_1 = ok(device(entries[0].token).get("/play/game/"))
    assert seat_1["hand"] != game["hand"]
    # Seat 1 moves first: seat 2's move is refused as the API refuses it, and changes nothing.
    refused = kiosk.post(
        "/play/move/",
        {"move": "play", "cards": game["hand"][:1], "expected_seq": game["seq"]},
        "application/json",
    )
    assert refused.status_code == 422
    assert refused.json()["code"] == "not_your_turn"
    assert Game.objects.get(pk=game["id"]).seq == game["seq"]


def test_the_nickname_is_chosen_on_the_page(
    create: Callable[..., Run], patron: Callable[..., int], clock: Clock
) -> None:
    run, (first, _) = running_attack(create, patron)
    kiosk = device(first.token)
    chosen = kiosk.post("/play/nickname/", {"nickname": "  Lucky   Lou!  "})
    assert chosen.status_code == 302
    assert Entry.objects.get(pk=first.id).nickname == "Lucky Lou!"
    event = AuditEvent.objects.get(event_type="tournaments.entry.nickname_set")
    assert event.after == {"entry": first.number, "nickname": "Lucky Lou!"}
    assert "Lucky Lou!" in page(kiosk)
    assert run.leaderboard()[0]["name"] in ("Lucky Lou!", "Entry 2")

    for bad in [
        "",
        "   ",
        "x" * 21,
        "<script>",
        "Lou\x00",
        "Lou\u202e",
        "🂡 Ace",
        "Lou;DROP",
        "a\x0bb\x1f",
        "a\nb",
        "a\tb",
    ]:
        refused = kiosk.post("/play/nickname/", {"nickname": bad})
        assert refused.status_code == 422, (bad, refused.status_code)
        assert "A nickname is 1 to 20 letters, digits, spaces" in refused.content.decode()
    assert kiosk.post("/play/nickname/", {"nicknames": "Lou"}).status_code == 422  # no field
    huge = kiosk.post("/play/nickname/", {"nickname": "x" * 3_000_000})
    assert huge.status_code == 400
    assert Entry.objects.get(pk=first.id).nickname == "Lucky Lou!"
    assert AuditEvent.objects.filter(event_type="tournaments.entry.nickname_set").count() == 1

    # The cage's nickname at the entry is checked the same way.
    problem(run.enter(patron(), nickname="<b>Lou</b>"), 422, "invalid_nickname")
    assert run.entered(patron(), nickname=" Lou  2 ").number == 3
    assert Entry.objects.get(tournament_id=run.id, number=3).nickname == "Lou 2"

    # Without an entry's token, the form does nothing.
    stranger = Client()
    assert stranger.post("/play/nickname/", {"nickname": "Mallory"}).status_code == 302
    assert stranger.post("/play/start/").status_code == 302
    assert not Entry.objects.filter(nickname="Mallory").exists()


@pytest.mark.parametrize(
    "token",
    [
        "",
        "x" * 10_000,
        "abcd1234.\x00",
        "abcd1234.é",
        "not a token",
        "abcd1234.wrongsecret",
        "' OR 1=1 --",
    ],
)
def test_hostile_tokens_are_refused_and_nothing_is_kept(token: str) -> None:
    client = Client()
    response = client.post("/play/", {"token": token})
    assert response.status_code == 400
    assert "play_seat" not in client.cookies
    assert client.get("/play/", {"token": token}).status_code == 200  # the form, not prefilled


def test_a_right_prefix_with_a_wrong_secret_opens_nothing(
    create: Callable[..., Run], patron: Callable[..., int], clock: Clock
) -> None:
    _, (first, _) = running_attack(create, patron)
    prefix = first.token.split(".")[0]
    client = Client()
    assert client.post("/play/", {"token": f"{prefix}.{'A' * 43}"}).status_code == 400
    assert client.get("/play/game/").json()["code"] == "seat_token_required"
    shown = client.get("/play/", {"token": first.token}).content.decode()
    assert f'value="{first.token}"' in shown  # the slip's QR link prefills the form


def _answer(response: Any) -> Any:
    return response.json() if response["Content-Type"].startswith("application/") else None


def test_the_api_and_the_page_start_the_same_game(
    create: Callable[..., Run], patron: Callable[..., int], clock: Clock
) -> None:
    run, (first, _) = running_attack(create, patron)
    run.advance(minutes=65)
    started = ok(post(first.device, f"{run.url}games/"), 201)
    kiosk = device(first.token)
    assert ok(kiosk.get("/play/game/"))["id"] == started["id"]  # the page picks the game up
    assert kiosk.post("/play/start/").status_code == 409
    assert _answer(kiosk.get("/play/game/"))["id"] == started["id"]


def test_a_make21_table_not_seated_says_so(
    create: Callable[..., Run], patron: Callable[..., int], clock: Clock
) -> None:
    run = create(
        game="make21",
        max_entries=3,
        reentries=0,
        deal="individual",
        heats=[{"starts_at": at(clock, 65)}],
        settings={"games": 1, "turn_limit_s": 30},
        prizes_bp=[10000],
    )
    run.file()
    entry = run.entered(patron())
    kiosk = device(entry.token)
    run.advance(minutes=60)
    clock.advance(minutes=5)  # heat 1's time, the beat not yet run: the table is being seated
    assert "The table is seated at 11:05" in page(kiosk)
    clock.advance(minutes=1)  # a minute on, still no table
    shown = page(kiosk)
    assert "Your table has not been dealt" in shown
