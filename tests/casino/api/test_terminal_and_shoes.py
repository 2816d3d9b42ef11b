"""Terminal, dealer sign-in and shoe endpoints of API.md."""

from typing import Any

import pytest
from rest_framework.test import APIClient

from casino.models import GameKind, Shoe, Terminal
from tests.support.api import TableActors, client_with_token, post

pytestmark = pytest.mark.django_db


def test_the_terminal_sees_its_table_dealer_shoe_and_round(table: TableActors) -> None:
    post(table.terminal, "/api/v1/shoes/", {"mode": "reported"})

    body = table.terminal.get("/api/v1/terminal/").json()

    assert body["terminal"]["name"] == "BJ-07-T1"
    assert body["table"]["name"] == "BJ-07"
    assert body["table"]["decks"] == 6
    assert body["table"]["paytable_version"] == 1
    assert body["table"]["limits"]["primary"] == {"min_cents": 500, "max_cents": 100_000}
    assert body["table"]["house_rules"]["dealer"] == "S17"
    assert body["table"]["house_rules"]["blackjack_pays"] == "3:2"
    assert body["dealer"]["badge"] == table.provisioned.dealer.badge
    assert body["shoe"]["cards_remaining"] == 312
    assert body["shoe"]["commitment"] is None
    assert body["round"] is None


@pytest.mark.parametrize(
    ("game", "named"), [(GameKind.TIE_BONUS, "tie_bonus"), (GameKind.SPECIAL_POINTS, "specials")]
)
def test_the_terminal_names_its_game_as_provision_table_takes_it(
    make_table: Any, game: str, named: str
) -> None:
    actors: TableActors = make_table("T-01", game=game)

    body = actors.terminal.get("/api/v1/terminal/").json()

    assert body["table"]["game"] == named


def test_a_wrong_pin_is_bad_credentials_and_signs_nobody_in(make_table: Any) -> None:
    actors: TableActors = make_table(signed_in=False)

    response = post(
        actors.terminal,
        "/api/v1/terminal/sign-in/",
        {"badge": actors.provisioned.dealer.badge, "pin": "000000x"},
    )

    assert response.status_code == 401
    assert response.json()["code"] == "bad_credentials"
    assert Terminal.objects.get(pk=actors.provisioned.terminal.pk).dealer is None


def test_round_changes_need_a_signed_in_dealer(table: TableActors) -> None:
    signed_out = post(table.terminal, "/api/v1/terminal/sign-out/")

    refused = post(table.terminal, "/api/v1/shoes/", {"mode": "reported"})

    assert signed_out.status_code == 200
    assert signed_out.json()["dealer"] is None
    assert refused.status_code == 403
    assert refused.json()["code"] == "dealer_not_signed_in"
    assert not Shoe.objects.exists()


@pytest.mark.parametrize("token", ["nonsense", "abcdefgh.not-the-secret", ""])
def test_a_bad_token_is_401_problem(token: str, table: TableActors) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")

    response = client.get("/api/v1/terminal/")

    assert response.status_code == 401
    assert response["Content-Type"].startswith("application/problem+json")
    assert response.json()["code"] in ("authentication_failed", "not_authenticated")


def test_no_token_is_401_not_authenticated() -> None:
    response = APIClient().get("/api/v1/terminal/")

    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


def test_a_staff_token_is_not_a_terminal(table: TableActors, supervisor: APIClient) -> None:
    response = supervisor.get("/api/v1/terminal/")

    assert response.status_code == 403
    assert response.json()["code"] == "terminal_only"


@pytest.mark.parametrize("decks", [0, 1, 7, 9, 52])
def test_decks_other_than_6_or_8_are_invalid_deck_count(table: TableActors, decks: int) -> None:
    response = post(table.terminal, "/api/v1/shoes/", {"mode": "reported", "decks": decks})

    assert response.status_code == 422
    assert response.json()["code"] == "invalid_deck_count"
    assert not Shoe.objects.exists()


def test_a_new_shoe_closes_the_previous_one(make_table: Any) -> None:
    table = make_table(decks=8)  # a shoe has its table's deck count
    first = post(table.terminal, "/api/v1/shoes/", {"mode": "reported"}).json()

    second = post(table.terminal, "/api/v1/shoes/", {"mode": "electronic", "decks": 8}).json()

    assert Shoe.objects.get(pk=first["id"]).closed_at is not None
    assert Shoe.objects.get(pk=second["id"]).closed_at is None
    assert second["cards_remaining"] == 416
    assert len(second["commitment"]) == 64


def test_the_reveal_is_only_given_when_the_shoe_closes(table: TableActors) -> None:
    opened = post(table.terminal, "/api/v1/shoes/", {"mode": "electronic"}).json()
    assert "order" not in opened
    assert "salt" not in opened

    closed = post(table.terminal, f"/api/v1/shoes/{opened['id']}/close/").json()

    assert len(closed["reveal"]["order"]) == 312
    assert len(closed["reveal"]["salt"]) == 64
    assert closed["closed_at"] is not None


def test_a_terminal_cannot_close_another_tables_shoe(make_table: Any) -> None:
    mine, other = make_table("BJ-X"), make_table("BJ-Y")
    theirs = post(other.terminal, "/api/v1/shoes/", {"mode": "reported"}).json()

    response = post(mine.terminal, f"/api/v1/shoes/{theirs['id']}/close/")

    assert response.status_code == 404
    assert Shoe.objects.get(pk=theirs["id"]).closed_at is None


@pytest.mark.parametrize(
    "body",
    [
        {"mode": "paper"},
        {"mode": "reported", "decks": "6"},
        {"mode": "reported", "decks": 6.0},
        {},
    ],
)
def test_malformed_shoe_requests_are_400_validation_error(table: TableActors, body: dict[str, Any]) -> None:
    response = post(table.terminal, "/api/v1/shoes/", body)

    assert response.status_code == 400
    assert response.json()["code"] == "validation_error"
    assert response.json()["errors"]


def test_a_non_json_body_is_problem_not_500(table: TableActors) -> None:
    client: APIClient = client_with_token(table.provisioned.terminal_token)

    broken = client.post(
        "/api/v1/shoes/", "{not json", content_type="application/json", HTTP_IDEMPOTENCY_KEY="k1"
    )
    form = client.post(
        "/api/v1/shoes/",
        "mode=reported",
        content_type="application/x-www-form-urlencoded",
        HTTP_IDEMPOTENCY_KEY="k2",
    )
    wrong_method = client.delete("/api/v1/shoes/")

    assert broken.status_code == 400
    assert broken.json()["code"] == "malformed_request"
    assert form.status_code == 415
    assert form.json()["code"] == "unsupported_media_type"
    assert wrong_method.status_code == 405
    assert wrong_method.json()["code"] == "method_not_allowed"


@pytest.mark.parametrize("amount", [1.5, "100", True, -5, 0])
def test_money_must_be_a_positive_integer_of_cents(table: TableActors, amount: Any) -> None:
    post(table.terminal, "/api/v1/shoes/", {"mode": "reported"})

    response = post(
        table.terminal,
        "/api/v1/rounds/",
        {"seats": [{"seat": 1, "wagers": [{"kind": "primary", "amount_cents": amount}]}]},
    )

    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "seats.0.wagers.0.amount_cents"
