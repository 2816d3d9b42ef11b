"""Rounds as a dealer terminal plays them through the API (API.md, Rounds)."""

from typing import Any

from rest_framework.test import APIClient

from tests.support.api import TableActors, ok, post

ROUNDS = "/api/v1/rounds/"


def open_shoe(actors: TableActors, mode: str = "reported", **body: Any) -> dict[str, Any]:
    response = post(actors.terminal, "/api/v1/shoes/", {"mode": mode, **body})
    assert response.status_code == 201, response.json()
    return dict(response.json())


def open_round(actors: TableActors, seats: list[dict[str, Any]]) -> dict[str, Any]:
    response = post(actors.terminal, ROUNDS, {"seats": seats})
    assert response.status_code == 201, response.json()
    return dict(response.json())


def deal(client: APIClient, round_id: int, cards: list[str]) -> dict[str, Any]:
    body: dict[str, Any] = {}
    for card in cards:
        response = post(client, f"{ROUNDS}{round_id}/cards/", {"card": card})
        assert response.status_code == 200, (card, response.json())
        body = response.json()
    return body


def act(client: APIClient, round_id: int, **body: Any) -> dict[str, Any]:
    response = post(client, f"{ROUNDS}{round_id}/actions/", body)
    assert response.status_code == 200, response.json()
    return dict(response.json())


def wager(kind: str, cents: int) -> dict[str, Any]:
    return {"kind": kind, "amount_cents": cents}


def primary(cents: int) -> dict[str, Any]:
    return wager("primary", cents)


def play_round(
    actors: TableActors,
    seats: list[dict[str, Any]],
    cards: list[str],
    actions: list[dict[str, Any]] | None = None,
    more_cards: list[str] | None = None,
) -> dict[str, Any]:
    """Open a round, deal `cards`, apply `actions` (then deal `more_cards`), and settle it."""
    opened = ok(post(actors.terminal, ROUNDS, {"seats": seats}), 201)
    for card in cards:
        ok(post(actors.terminal, f"{ROUNDS}{opened['id']}/cards/", {"card": card}))
    for action in actions or []:
        ok(post(actors.terminal, f"{ROUNDS}{opened['id']}/actions/", action))
    for card in more_cards or []:
        ok(post(actors.terminal, f"{ROUNDS}{opened['id']}/cards/", {"card": card}))
    return ok(post(actors.terminal, f"{ROUNDS}{opened['id']}/settle/"))
