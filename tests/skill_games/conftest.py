"""The skill games' fixtures: the clock fixed (and moved by the test), a known deck order for every
game the API creates, a pit boss who creates practice games, and the calls a seat makes."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from rest_framework.test import APIClient

from casino.engine.cards import ALL_CARDS, Card, parse_card
from casino.services.provisioning import ProvisionedStaff
from skill_games import services
from tests.support.api import client_with_token, listed, ok, post
from tests.support.gaming_day import Clock, day_shift_clock

GAMES = "/api/v1/games/"
Deck = tuple[Card, ...]


def deck_with(top: str = "", bottom: str = "") -> Deck:
    """A deck whose first cards are `top` and last ones `bottom` (words like `KH AS`), the others
    in between in `ALL_CARDS` order."""
    first = tuple(parse_card(word) for word in top.split())
    last = tuple(parse_card(word) for word in bottom.split())
    middle = tuple(card for card in ALL_CARDS if card not in first and card not in last)
    return (*first, *middle, *last)


@dataclass
class Decks:
    """The order the next game the API creates is dealt from (the CSPRNG's shuffle, replaced)."""

    next: Deck = ALL_CARDS


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Clock:
    return day_shift_clock(monkeypatch, settings)


@pytest.fixture
def decks(monkeypatch: pytest.MonkeyPatch) -> Decks:
    chosen = Decks()
    monkeypatch.setattr(services, "shuffled_deck", lambda: chosen.next)
    return chosen


@pytest.fixture
def pit_boss(make_staff: Callable[[str], tuple[ProvisionedStaff, APIClient]]) -> APIClient:
    return make_staff("pit_boss")[1]


@dataclass
class Played:
    """A game as its creator got it, and the seat's device."""

    created: dict[str, Any]
    seat: APIClient
    token: str

    @property
    def id(self) -> int:
        return int(self.created["id"])

    @property
    def url(self) -> str:
        return f"{GAMES}{self.id}/"

    def move(self, body: dict[str, Any], *, key: str | None = None) -> Any:
        return post(self.seat, f"{self.url}moves/", body, key=key)

    def read(self, client: APIClient | None = None) -> dict[str, Any]:
        return ok((client or self.seat).get(self.url))

    def log(self, client: APIClient | None = None) -> list[dict[str, Any]]:
        return listed((client or self.seat).get(f"{self.url}moves/"))


@pytest.fixture
def start(pit_boss: APIClient, decks: Decks, clock: Clock) -> Callable[..., Played]:
    def start(game: str, deck: Deck = ALL_CARDS, **settings: Any) -> Played:
        decks.next = deck
        created = ok(post(pit_boss, GAMES, {"game": game, **settings}), 201)
        (seat,) = created["seats"]
        return Played(created=created, seat=client_with_token(seat["token"]), token=seat["token"])

    return start
