"""The player page without a browser: entering the seat token (typed, or prefilled by a link) and
where the device keeps it, the game read and moved through the page's JSON views with the API's
codes, staff without a token, hostile token input, and a seat token that opens nothing else."""

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from casino.models import StaffRole
from play.seats import COOKIE, seat_for_token
from tests.play.conftest import Dealt
from tests.skill_games.conftest import deck_with
from tests.support.factories import StaffFactory
from tests.support.gaming_day import Clock

pytestmark = pytest.mark.django_db

HOSTILE = {
    "nul": "abcd1234.\x00secret",
    "ten_kb": "a" * 10_240,
    "unicode": "ab\u00e9cd123.\u202etoken\U0001f0a1",
    "spaces_only": "   ",
    "no_dot": "abcdefgh",
    "unknown": "abcd1234.not-a-real-key",
}


def entered(client: Client, token: str) -> Any:
    return client.post("/play/", {"token": token})


def move(client: Client, body: dict[str, Any] | str) -> Any:
    data = body if isinstance(body, str) else json.dumps(body)
    return client.post("/play/move/", data, content_type="application/json")


def test_without_a_token_the_page_asks_for_one(client: Client) -> None:
    response = client.get("/play/")

    assert response.status_code == 200
    page = response.content.decode()
    assert 'name="token"' in page
    assert 'id="game"' not in page
    assert response["Cache-Control"].startswith("max-age=0")
    assert "no-store" in response["Cache-Control"]


def test_a_link_prefills_the_form_and_entry_keeps_the_token_in_a_cookie_for_play_only(
    client: Client, deal: Callable[..., Dealt]
) -> None:
    game = deal("attack")

    prefilled = client.get(f"/play/?token={game.token}")
    assert f'value="{game.token}"' in prefilled.content.decode()
    assert COOKIE not in prefilled.cookies  # not entered yet: the player presses Play
    assert 'action="/play/"' in prefilled.content.decode()  # posted without the query string
    assert "/static/play/entry.js" in prefilled.content.decode()  # which clears the address bar

    response = entered(client, game.token)

    assert response.status_code == 302
    assert response["Location"] == "/play/"  # the token leaves the URL
    cookie = response.cookies[COOKIE]
    assert cookie["path"] == "/play/"
    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Strict"
    assert int(cookie["max-age"]) == 4 * 3600
    assert cookie.value != game.token  # signed
    page = client.get("/play/").content.decode()
    assert 'id="game"' in page
    assert game.token not in page  # the page's script never gets the token
    assert "/static/play/play.js" in page


def test_the_game_is_read_and_moved_through_the_page_as_its_seat_sees_it(
    client: Client, deal: Callable[..., Dealt]
) -> None:
    game = deal("attack", deck_with("KH AS 5C"))
    entered(client, game.token)

    state = client.get("/play/game/").json()
    assert state["id"] == game.id
    assert state["board"]["current"] == "KH"
    assert state["needs"] == {"seat": 1, "moves": ["place"], "columns": [1, 2, 3, 4], "must_bust": False}

    first = move(client, {"move": "place", "column": 1, "expected_seq": 0})
    assert first.status_code == 200
    assert first.json()["seq"] == 1
    second = move(client, {"move": "place", "column": 1, "expected_seq": 1})
    assert second.json()["score"]["catch_21"] == 1

    again = move(client, {"move": "place", "column": 2, "expected_seq": 1})  # a resent move
    assert again.status_code == 409
    assert again.json()["code"] == "stale_game"
    assert client.get("/play/game/").json()["seq"] == 2


def test_the_pages_poll_is_not_modified_until_the_game_moves(
    client: Client, deal: Callable[..., Dealt]
) -> None:
    game = deal("attack", deck_with("KH AS 5C"))
    entered(client, game.token)
    tag = client.get("/play/game/")["ETag"]

    unchanged = client.get("/play/game/", HTTP_IF_NONE_MATCH=tag)
    move(client, {"move": "place", "column": 1, "expected_seq": 0})
    moved = client.get("/play/game/", HTTP_IF_NONE_MATCH=tag)

    assert (unchanged.status_code, unchanged.content) == (304, b"")
    assert moved.status_code == 200
    assert moved.json()["seq"] == 1
    assert moved["ETag"] != tag


def test_a_refused_move_answers_the_apis_code_with_its_reason(
    client: Client, deal: Callable[..., Dealt]
) -> None:
    game = deal("squares")
    entered(client, game.token)

    refused = move(client, {"move": "cash_in", "expected_seq": 0})

    assert refused.status_code == 422
    assert refused.json()["code"] == "move_not_allowed"
    assert refused.json()["detail"]
    assert client.get("/play/game/").json()["seq"] == 0


def test_a_move_after_the_clock_ran_out_is_time_up(
    client: Client, deal: Callable[..., Dealt], clock: Clock
) -> None:
    game = deal("attack")
    entered(client, game.token)
    clock.advance(seconds=300)

    late = move(client, {"move": "place", "column": 1, "expected_seq": 0})

    assert late.status_code == 409
    assert late.json()["code"] == "time_up"
    state = client.get("/play/game/").json()
    assert state["state"] == "finished"
    assert state["reveal"]["commitment"] == state["commitment"]


@pytest.mark.parametrize(
    "body",
    [
        "not json",
        "[1, 2]",
        json.dumps({"move": "fly"}),
        json.dumps({"move": "place", "column": "1"}),
        json.dumps({"move": "place", "column": True}),
        json.dumps({"move": "place", "column": 1, "expected_seq": "0"}),
        json.dumps({"move": "place\x00", "column": 1}),
        json.dumps({"move": "place", "pad": "x" * 10_240}),
    ],
)
def test_a_malformed_move_is_refused_plainly(client: Client, deal: Callable[..., Dealt], body: str) -> None:
    game = deal("attack")
    entered(client, game.token)

    response = move(client, body)

    assert response.status_code == 400
    assert response.json() == {"code": "malformed_request", "detail": "That is not a move of this game."}


@pytest.mark.parametrize("token", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_token_input_gets_a_clear_message(
    client: Client, deal: Callable[..., Dealt], token: str
) -> None:
    deal("attack")

    posted = entered(client, token)
    linked = client.get("/play/", {"token": token})

    assert posted.status_code == 400
    assert "That is not a seat token or a tournament entry&#x27;s token." in posted.content.decode()
    assert COOKIE not in posted.cookies
    assert linked.status_code == 200
    assert 'value=""' in linked.content.decode()
    assert seat_for_token(token) is None


def test_a_forged_or_foreign_cookie_opens_no_game(client: Client, deal: Callable[..., Dealt]) -> None:
    game = deal("attack")
    client.cookies[COOKIE] = game.token  # not signed by the server

    assert 'name="token"' in client.get("/play/").content.decode()
    assert client.get("/play/game/").status_code == 403
    assert move(client, {"move": "place", "column": 1}).status_code == 403


def test_staff_without_a_seat_token_get_the_token_form_only(
    client: Client, deal: Callable[..., Dealt]
) -> None:
    deal("attack")
    staff = StaffFactory.create(role=StaffRole.PIT_BOSS)
    client.force_login(User.objects.get(pk=staff.user.pk))

    page = client.get("/play/").content.decode()
    state = client.get("/play/game/", headers={"Authorization": f"Token {staff.token}"})
    moved = move(client, {"move": "place", "column": 1})

    assert 'name="token"' in page
    assert 'id="game"' not in page
    assert state.status_code == 403
    assert state.json()["code"] == "seat_token_required"
    assert moved.status_code == 403
    assert entered(client, staff.token).status_code == 400  # a staff token is no seat token


def test_a_seat_token_opens_neither_the_console_nor_the_admin_site(
    client: Client, deal: Callable[..., Dealt]
) -> None:
    game = deal("attack")
    entered(client, game.token)  # the device holds the seat cookie too
    header = {"Authorization": f"Token {game.token}"}

    floor = client.get("/floor/", headers=header)
    admin = client.get("/admin/", headers=header)
    audit = client.get("/api/v1/audit/events/", headers=header)

    assert floor.status_code == 302
    assert floor["Location"].startswith("/floor/login/")
    assert admin.status_code == 302
    assert admin["Location"].startswith("/admin/login/")
    assert audit.status_code in (401, 403)


def test_leaving_forgets_the_seat(client: Client, deal: Callable[..., Dealt]) -> None:
    game = deal("attack")
    entered(client, game.token)

    response = client.post("/play/leave/")

    assert response.status_code == 302
    assert response.cookies[COOKIE].value == ""
    assert 'name="token"' in client.get("/play/").content.decode()
