"""A special-card points match as a dealer terminal plays it through the API."""

from collections.abc import Callable
from typing import Any

from casino.models import GameKind
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


def open_specials_table(
    make_table: Callable[..., TableActors], name: str = "SP-01", **options: Any
) -> TableActors:
    """A table running the special-card game, its dealer signed in, with an open reported shoe."""
    actors = make_table(name, game=GameKind.SPECIAL_POINTS, **options)
    response = post(actors.terminal, "/api/v1/shoes/", {"mode": "reported"})
    assert response.status_code == 201, response.json()
    return actors


def open_a_round(actors: TableActors, match: dict[str, Any]) -> dict[str, Any]:
    response = post(actors.terminal, f"{API}/matches/{match['id']}/rounds/")
    assert response.status_code == 201, response.json()
    return dict(response.json())


def play_a_round(actors: TableActors, match: dict[str, Any]) -> dict[str, Any]:
    """A round of `start`'s two players: seat 1 stands on 18 and wins, seat 2 stands on 14 and loses
    against the dealer's 17."""
    round_ = open_a_round(actors, match)
    for text in ("TS", "9H", "7C", "8D", "5S", "KD"):
        round_ = card(actors, round_, text)
    round_ = act(actors, round_, seat=1, action="stand")
    round_ = act(actors, round_, seat=2, action="stand")
    assert round_["state"] == "finished", round_
    return round_
