"""The tournament's big-screen board (play/board.py) and its display key
(`tournaments.services.new_display_key`): the page and its JSON with the right key, a wrong one,
another tournament's, a replaced one and hostile ones; no patron's name or number anywhere; the
conditional JSON (`304` until a game ends); and the API's leaderboard read with the key."""

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from audit.context import AuditActor
from audit.models import AuditEvent
from tests.support.api import new_patron, ok, post, problem
from tests.support.gaming_day import Clock
from tournaments import services
from tournaments.models import Tournament

from .conftest import Entered, Run, Staff

pytestmark = pytest.mark.django_db

DIRECTOR = AuditActor(kind="system", username="tests:director")
NAMES = ["Esmeralda Vantongeren", "Bartholomew Quince", "Ottoline Marchbanks"]


def display_key(run: Run) -> str:
    return services.new_display_key(tournament_id=run.id, actor=DIRECTOR, now=timezone.now())


def standings(client: Client, run: Run, key: str, tag: str = "") -> Any:
    headers = {"Authorization": f"Display {key}"} | ({"If-None-Match": tag} if tag else {})
    return client.get(f"/board/{run.id}/standings/", headers=headers)


@pytest.fixture
def playing(create: Callable[..., Run], staff: Staff, clock: Clock) -> tuple[Run, list[Entered], list[int]]:
    """A running duplicate Attack tournament of three named patrons, heat 1 started, each entry's
    game started; entry 2 chose a nickname."""
    run = create()
    run.file()
    patrons = [new_patron(staff.cashier, name) for name in NAMES]
    entries = [run.entered(number, nickname="Ace High" if i == 1 else "") for i, number in enumerate(patrons)]
    run.advance(minutes=65)
    for entry in entries:
        ok(post(entry.device, f"{run.url}games/"), 201)
    return run, entries, patrons


def test_the_board_shows_the_standings_with_its_key_only(
    playing: tuple[Run, list[Entered], list[int]], create: Callable[..., Run]
) -> None:
    run, _, patrons = playing
    key = display_key(run)
    event = AuditEvent.objects.get(event_type="tournaments.display_key.issued")
    assert event.after == {"prefix": key.split(".")[0]}
    assert key not in str(event.after) + str(event.before)
    stored = Tournament.objects.get(pk=run.id)
    assert stored.display_key_hash
    assert key not in stored.display_key_hash

    client = Client()
    shown = client.get(f"/board/{run.id}/", {"key": key})
    assert shown.status_code == 200
    html = shown.content.decode()
    assert "Friday Attack" in html
    assert "Ace High" in html
    assert "Entry 1" in html
    assert 'id="standings"' in html
    assert "Running" in html
    assert "Heat 1 of 2" in html

    answer = standings(client, run, key)
    assert answer.status_code == 200
    assert answer["ETag"]
    body = answer.json()
    assert body["tournament"]["name"] == "Friday Attack"
    assert body["tournament"]["state"] == "running"
    assert body["current_heat"]["number"] == 1
    assert body["current_heat"]["starts_at_local"] == "11:05"
    assert body["next_heat"]["number"] == 2
    rows = body["standings"]
    assert {row["entry"]: row["name"] for row in rows} == {1: "Entry 1", 2: "Ace High", 3: "Entry 3"}
    assert set(rows[0]) == {"place", "entry", "name", "score", "games", "prize_cents"}
    assert rows == run.leaderboard()  # the API's rows
    assert client.get(f"/board/{run.id}/standings/", {"key": key}).status_code == 200  # ?key= too

    # No patron's name or number, on the page or in its JSON.
    for text in (html, answer.content.decode()):
        for name in NAMES:
            for part in name.split():
                assert part not in text
        for number in patrons:
            assert str(number) not in text

    # Another tournament's key opens neither this board nor its JSON.
    other = create(name="Saturday Attack")
    other_key = display_key(other)
    assert client.get(f"/board/{run.id}/", {"key": other_key}).status_code == 403
    problem(standings(client, run, other_key), 403, "display_key_invalid")
    assert client.get(f"/board/{other.id}/", {"key": other_key}).status_code == 200

    # A new key replaces the old one.
    fresh = display_key(run)
    assert client.get(f"/board/{run.id}/", {"key": key}).status_code == 403
    problem(standings(client, run, key), 403, "display_key_invalid")
    assert standings(client, run, fresh).status_code == 200
    assert AuditEvent.objects.filter(event_type="tournaments.display_key.issued").count() == 3


@pytest.mark.parametrize(
    "key",
    ["", "x" * 5000, "abcd1234.\x00", "abcd1234.é", "abcd1234.wrong", "Token abc", "' OR 1=1 --", "%00"],
)
def test_hostile_keys_are_refused_plainly(
    create: Callable[..., Run], clock: Clock, staff: Staff, key: str
) -> None:
    run = create()
    display_key(run)
    client = Client()
    page = client.get(f"/board/{run.id}/", {"key": key})
    assert page.status_code == 403
    assert page["Content-Type"].startswith("text/html")
    assert "display key is missing or not this tournament" in page.content.decode()
    code = "display_key_required" if not key else "display_key_invalid"
    problem(client.get(f"/board/{run.id}/standings/", {"key": key}), 403, code)
    header = client.get(f"/board/{run.id}/standings/", HTTP_AUTHORIZATION=f"Display {key}")
    assert header.status_code == 403
    api = run.staff.director.get(f"{run.url}leaderboard/")
    assert api.status_code == 200  # staff still read it
    problem(
        Client().get(
            f"/api/v1/tournaments/{run.id}/leaderboard/", HTTP_AUTHORIZATION=f"Display {key or 'x'}"
        ),
        403,
        "display_key_invalid",
    )


def test_no_key_at_all(create: Callable[..., Run], clock: Clock) -> None:
    run = create()
    client = Client()
    assert client.get(f"/board/{run.id}/").status_code == 403  # no key was ever made
    problem(client.get(f"/board/{run.id}/standings/"), 403, "display_key_required")
    assert client.get(f"/board/{run.id + 1000}/", {"key": "abcd1234.x"}).status_code == 403
    assert client.post(f"/board/{run.id}/").status_code == 405


def test_the_json_is_304_until_a_game_ends(
    playing: tuple[Run, list[Entered], list[int]], clock: Clock
) -> None:
    run, entries, _ = playing
    key = display_key(run)
    client = Client()
    first = standings(client, run, key)
    tag = first["ETag"]
    assert first["Cache-Control"] == "private, no-cache"
    again = standings(client, run, key, tag)
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == tag

    clock.advance(minutes=6)  # every heat-1 game's clock has run out: the board's read ends them
    changed = standings(client, run, key, tag)
    assert changed.status_code == 200
    assert changed["ETag"] != tag
    assert [row["games"] for row in changed.json()["standings"]] == [1, 1, 1]
    assert standings(client, run, key, changed["ETag"]).status_code == 304

    # A nickname chosen later changes the board too.
    kiosk = Client()
    kiosk.post("/play/", {"token": entries[0].token})
    assert kiosk.post("/play/nickname/", {"nickname": "Lady Luck"}).status_code == 302
    renamed = standings(client, run, key, changed["ETag"])
    assert renamed.status_code == 200
    assert "Lady Luck" in [row["name"] for row in renamed.json()["standings"]]


def test_the_api_leaderboard_takes_the_display_key_read_only(
    playing: tuple[Run, list[Entered], list[int]], create: Callable[..., Run]
) -> None:
    run, _, _ = playing
    key = display_key(run)
    display = Client(HTTP_AUTHORIZATION=f"Display {key}")
    rows = display.get(f"/api/v1/tournaments/{run.id}/leaderboard/")
    assert rows.status_code == 200
    assert {row["name"] for row in rows.json()} == {"Entry 1", "Ace High", "Entry 3"}
    assert rows.json() == run.leaderboard()

    other = create(name="Saturday Attack")
    problem(display.get(f"/api/v1/tournaments/{other.id}/leaderboard/"), 403, "display_key_invalid")
    # Nothing else: not the tournament, not a game, not a write.
    assert display.get(f"/api/v1/tournaments/{run.id}/").status_code in (401, 403)
    assert display.get("/api/v1/tournaments/").status_code in (401, 403)
    assert display.post(f"/api/v1/tournaments/{run.id}/games/").status_code in (401, 403)
    assert display.post(f"/api/v1/tournaments/{run.id}/results/").status_code in (401, 403)


def test_the_prizes_show_once_the_results_are_approved(
    playing: tuple[Run, list[Entered], list[int]], staff: Staff
) -> None:
    run, entries, _ = playing
    key = display_key(run)
    client = Client()
    run.advance(minutes=8)  # heat 1's games end and it closes
    run.advance(minutes=10)  # heat 2 starts, nobody plays it, its window is over
    assert run.read()["state"] == "playing_done"
    body = standings(client, run, key).json()
    assert body["results_approved"] is False
    assert "hidden>Prize</th>" in client.get(f"/board/{run.id}/", {"key": key}).content.decode()

    ok(post(staff.director, f"{run.url}results/"), 201)
    ok(post(staff.compliance, f"{run.url}results/approve/"))
    body = standings(client, run, key).json()
    assert body["results_approved"] is True
    assert body["tournament"]["state"] == "results_approved"
    assert sum(row["prize_cents"] for row in body["standings"]) == 25000
    html = client.get(f"/board/{run.id}/", {"key": key}).content.decode()
    assert ">Prize</th>" in html
    assert "$" in html

    kiosk = Client()
    kiosk.post("/play/", {"token": entries[0].token})
    shown = kiosk.get("/play/").content.decode()
    assert "Your tournament play is done" in shown
    assert 'id="prize"' in shown
