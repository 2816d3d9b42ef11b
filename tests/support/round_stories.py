"""Rounds played through the API for the console's round pages: a disputed round, an electronic
shoe's round, a special-card round."""

from typing import Any

from tests.support.api import TableActors, post

ROUNDS = "/api/v1/rounds/"


SPECIALS = "/api/v1/specials"


def call(
    actors: TableActors, url: str, body: dict[str, Any] | None = None, status: int = 200
) -> dict[str, Any]:
    response = post(actors.terminal, url, body)
    assert response.status_code == status, response.json()
    return dict(response.json())


def play_disputed_round(actors: TableActors) -> dict[str, Any]:
    """Seat 2 stands on 18 with a $2.00 tie bet on 18 (the dealer ties: 45 to 1); seat 5 doubles
    on 11 and draws a ten. Returns the settled round (API.md)."""
    call(actors, "/api/v1/shoes/", {"mode": "reported"}, status=201)
    opened = call(
        actors,
        ROUNDS,
        {"seats": [
            {"seat": 2, "player": "Ana", "wagers": [{"kind": "primary", "amount_cents": 10_000},
                                                    {"kind": "T18", "amount_cents": 200}]},
            {"seat": 5, "wagers": [{"kind": "primary", "amount_cents": 5_000}]},
        ]},
        status=201,
    )  # fmt: skip
    round_url = f"{ROUNDS}{opened['id']}"
    for card in ("TS", "6C", "9H", "8C", "5D", "9D"):  # seat 2, seat 5, dealer up, again, hole
        call(actors, f"{round_url}/cards/", {"card": card})
    call(actors, f"{round_url}/actions/", {"seat": 2, "hand": 0, "action": "stand"})
    call(actors, f"{round_url}/actions/", {"seat": 5, "hand": 0, "action": "double"})
    call(actors, f"{round_url}/cards/", {"card": "TH"})
    return call(actors, f"{round_url}/settle/")


def play_electronic_round_and_close_shoe(actors: TableActors) -> tuple[dict[str, Any], dict[str, Any]]:
    """A round dealt by an electronic shoe, every hand standing; then the shoe closes.
    Returns (the shoe as opened, the settled round)."""
    shoe = call(actors, "/api/v1/shoes/", {"mode": "electronic"}, status=201)
    body = call(actors, ROUNDS, {"seats": [{"seat": 1, "wagers": [{"kind": "primary", "amount_cents": 2_500}]}]},
                status=201)  # fmt: skip
    while body["needs"]["kind"] != "settle":
        need = body["needs"]
        action = "decline_insurance" if need["kind"] == "insurance" else "stand"
        body = call(actors, f"{ROUNDS}{body['id']}/actions/", {"seat": need["seat"], "hand": need.get("hand", 0),
                                                               "action": action})  # fmt: skip
    settled = call(actors, f"{ROUNDS}{body['id']}/settle/")
    call(actors, f"/api/v1/shoes/{shoe['id']}/close/")
    return shoe, settled


def play_special_round(actors: TableActors) -> dict[str, Any]:
    """A special-card round on a table with an open shoe: seat 1 stands on 18, seat 2 uses its
    plus one and hits to 21; the dealer stands on 17. Both win a point."""
    match = call(
        actors,
        f"{SPECIALS}/matches/",
        {"players": [{"seat": 1, "player": "Ana", "special": "SWAP"}, {"seat": 2, "special": "PLUS_ONE"}]},
        status=201,
    )
    round_ = call(actors, f"{SPECIALS}/matches/{match['id']}/rounds/", status=201)
    url = f"{SPECIALS}/rounds/{round_['id']}"
    for card in ("TS", "9H", "7C", "8D", "5S", "KD"):
        round_ = call(actors, f"{url}/cards/", {"card": card})
    call(actors, f"{url}/actions/", {"seat": 1, "action": "stand"})
    call(actors, f"{url}/actions/", {"seat": 2, "action": "use_special"})
    call(actors, f"{url}/actions/", {"seat": 2, "action": "hit"})
    return call(actors, f"{url}/cards/", {"card": "6H"})
