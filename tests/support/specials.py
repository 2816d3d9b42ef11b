"""A special-card points match as a dealer terminal plays it through the API."""

from typing import Any

from tests.support.api import TableActors, post

API = "/api/v1/specials"


def start(actors: TableActors, **body: Any) -> dict[str, Any]:
    body.setdefault(
        "players",
        [{"seat": 1, "player": "Ana", "special": "SWAP"}, {"seat": 2, "player": None, "special": "PLUS_ONE"}],
    )
    response = post(actors.terminal, f"{API}/matches/", body)
    assert response.status_code == 201, response.json()
    return dict(response.json())


def card(actors: TableActors, round_: dict[str, Any], text: str) -> dict[str, Any]:
    response = post(
        actors.terminal, f"{API}/rounds/{round_['id']}/cards/", {"card": text, "expected_seq": round_["seq"]}
    )
    assert response.status_code == 200, response.json()
    return dict(response.json())


def act(actors: TableActors, round_: dict[str, Any], **body: Any) -> dict[str, Any]:
    response = post(
        actors.terminal, f"{API}/rounds/{round_['id']}/actions/", {**body, "expected_seq": round_["seq"]}
    )
    assert response.status_code == 200, response.json()
    return dict(response.json())
