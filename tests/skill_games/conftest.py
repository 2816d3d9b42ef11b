"""The skill games' fixtures: the clock fixed (and moved by the test), known deck orders for every
game the API creates (one, or one per game of a match), a pit boss who creates practice games,
and the calls a seat makes."""

from collections.abc import Callable
from dataclasses import dataclass, field
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
    """The orders the next games the API creates are dealt from (the CSPRNG's shuffles, replaced),
    one a shuffle in turn; the last one again once the others are dealt."""

    queue: list[Deck] = field(default_factory=lambda: [ALL_CARDS])

    @property
    def next(self) -> Deck:
        return self.queue[0]

    @next.setter
    def next(self, deck: Deck) -> None:
        self.queue = [deck]

    def deal(self, *decks: Deck) -> None:
        """The next shuffles give `decks`, in order (a match's games, game 1's first)."""
        self.queue = list(decks)

    def shuffled(self) -> Deck:
        return self.queue.pop(0) if len(self.queue) > 1 else self.queue[0]


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Clock:
    return day_shift_clock(monkeypatch, settings)


@pytest.fixture
def decks(monkeypatch: pytest.MonkeyPatch) -> Decks:
    chosen = Decks()
    monkeypatch.setattr(services, "shuffled_deck", chosen.shuffled)
    return chosen


@pytest.fixture
def pit_boss(make_staff: Callable[[str], tuple[ProvisionedStaff, APIClient]]) -> APIClient:
    return make_staff("pit_boss")[1]


@dataclass
class Created:
    """A game as its creator got it."""

    created: dict[str, Any]

    @property
    def id(self) -> int:
        return int(self.created["id"])

    @property
    def url(self) -> str:
        return f"{GAMES}{self.id}/"


@dataclass
class Played(Created):
    """A one-seat game as its creator got it, and the seat's device."""

    seat: APIClient
    token: str

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


# --- Make 21: a match of several seats ---------------------------------------------------------


def make21_deck(*hands: str, draw: str = "", first: int = 1) -> Deck:
    """A Make 21 deck that deals `hands` (seat 1's first, each two cards like `KS 6D`), one card at
    a time from seat `first` (the dealer's left: seat 1 in game 1) clockwise, then `draw` on top of
    the draw pile, the other cards under it in `ALL_CARDS` order."""
    dealt = [hand.split() for hand in hands]
    order = [(first - 1 + i) % len(dealt) for i in range(len(dealt))]
    return deck_with(" ".join([*(dealt[i][0] for i in order), *(dealt[i][1] for i in order), *draw.split()]))


@dataclass
class Match(Created):
    """A Make 21 match as its creator got it, and each seat's device."""

    seats: dict[int, APIClient]

    def move(self, seat: int, body: dict[str, Any], *, key: str | None = None) -> Any:
        return post(self.seats[seat], f"{self.url}moves/", body, key=key)

    def play(self, seat: int, cards: str, pile: str | None = None) -> dict[str, Any]:
        """An accepted `play` (with `pile`) or `double` (without) of `cards` (words like `4C 2D`)."""
        body: dict[str, Any] = {"move": "play", "cards": cards.split(), "pile": pile}
        if pile is None:
            body = {"move": "double", "cards": cards.split()}
        return ok(self.move(seat, body))

    def read(self, reader: int | APIClient) -> dict[str, Any]:
        return ok((self.seats[reader] if isinstance(reader, int) else reader).get(self.url))

    def log(self, reader: int | APIClient) -> list[dict[str, Any]]:
        return listed((self.seats[reader] if isinstance(reader, int) else reader).get(f"{self.url}moves/"))

    def play_out(self, pile: str = "P1") -> dict[str, Any]:
        """The game in play played to its end by the seats in turn, each through its own device:
        it takes a set-mode pile that faces it, else plays its first card on `pile`. The answer to
        the move that ended it (the next game dealt, or the match over)."""
        game_no = self.read(1)["board"]["game_no"]
        for _ in range(120):
            seat = self.read(1)["needs"]["seat"]
            mine = self.read(seat)
            body = (
                {"move": "take"}
                if mine["needs"]["mode"] == "set_mode"
                else {"move": "play", "cards": mine["hand"][:1], "pile": pile}
            )
            answer = ok(self.move(seat, body))
            if answer["state"] == "finished" or answer["board"]["game_no"] != game_no:
                return answer
        raise AssertionError(f"game {game_no} of match {self.id} did not end")


@pytest.fixture
def start_match(pit_boss: APIClient, decks: Decks, clock: Clock) -> Callable[..., Match]:
    """A match of Make 21 created by the pit boss, its games dealt from `game_decks` (game 1's
    first; `ALL_CARDS` unless told), three players unless told."""

    def start(*game_decks: Deck, players: int = 3, **settings: Any) -> Match:
        decks.deal(*(game_decks or (ALL_CARDS,)))
        created = ok(post(pit_boss, GAMES, {"game": "make21", "players": players, **settings}), 201)
        seats = {seat["seat"]: client_with_token(seat["token"]) for seat in created["seats"]}
        return Match(created=created, seats=seats)

    return start
