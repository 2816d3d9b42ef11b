"""Random games through the API, every answer held against a model (`attack_model`,
`squares_model`): the game after each move, each refusal's status and code (and that it changed
nothing), the move log, the deadline and the reveal against the commitment published at the
start. The server's clock is the tests' `Clock`, moved by whole milliseconds."""

import datetime as dt
import hashlib
import random
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from casino.engine.cards import ALL_CARDS, parse_card
from tests.skill_games.conftest import Played
from tests.skill_games.model.common import Refused, stamp
from tests.support.api import listed
from tests.support.gaming_day import Clock

NAMES = [str(card) for card in ALL_CARDS]


class Model(Protocol):
    seq: int
    ended: str | None
    records: list[dict[str, Any]]

    def tick(self, now_ms: int) -> None: ...

    def move(self, body: dict[str, Any], at_ms: int) -> None: ...

    def game(self) -> dict[str, Any]: ...


def shuffled(rng: random.Random) -> list[str]:
    deck = list(NAMES)
    rng.shuffle(deck)
    return deck


@dataclass
class Session:
    """One game on the service and its model, the clock at `now_ms` after the game's start."""

    played: Played
    model: Model
    clock: Clock
    deck: list[str]
    clock_s: int  # the game's time limit
    now_ms: int = 0
    refused: Counter[str] = field(default_factory=Counter)  # the refusals' codes

    @classmethod
    def start(
        cls,
        start: Callable[..., Played],
        clock: Clock,
        model: Model,
        deck: list[str],
        game: str,
        **settings: Any,
    ) -> "Session":
        played = start(game, tuple(parse_card(card) for card in deck), **settings)
        limit = settings.get("limit_s", 1800) if game == "squares" else 300
        session = cls(played, model, clock, deck, limit)
        session.same(played.created)
        return session

    @property
    def started(self) -> dt.datetime:
        return dt.datetime.fromisoformat(self.played.created["started_at"])

    def wait(self, ms: int) -> None:
        self.now_ms += ms
        self.clock.advance(milliseconds=ms)

    def same(self, answer: dict[str, Any]) -> None:
        """The service's game equals the model's, as read at `now_ms`."""
        self.model.tick(self.now_ms)
        expected = self.model.game()
        differ = {key: (answer[key], value) for key, value in expected.items() if answer[key] != value}
        assert not differ, (self.played.id, self.now_ms, "service, model:", differ)
        assert answer["game"] == self.played.created["game"]
        assert answer["started_at"] == self.played.created["started_at"]
        assert answer["ends_at"] == stamp(self.started + dt.timedelta(seconds=self.clock_s))
        assert answer["server_time"] == stamp(self.started + dt.timedelta(milliseconds=self.now_ms))
        assert answer["tournament"] is None
        assert answer["commitment"] == self.played.created["commitment"]
        if self.model.ended is None:
            assert answer["reveal"] is None
        else:
            reveal = answer["reveal"]
            assert reveal["order"] == self.deck
            assert reveal["commitment"] == answer["commitment"]
            text = ",".join(reveal["order"]) + ":" + reveal["salt"]
            assert hashlib.sha256(text.encode("ascii")).hexdigest() == answer["commitment"]

    def send(self, body: dict[str, Any]) -> bool:
        """Post one move now; the service must accept it or refuse it as the model does. Whether
        it was accepted."""
        response = self.played.move(body)
        expected: tuple[int, str | None] = (200, None)
        try:
            self.model.move(body, self.now_ms)
        except Refused as refused:
            expected = (refused.status, refused.code)
        got = (response.status_code, response.json().get("code") if response.status_code >= 400 else None)
        assert got == expected, (self.played.id, self.now_ms, body, response.json())
        if expected[1] is None:
            self.same(response.json())
            return True
        assert response["Content-Type"] == "application/problem+json"
        self.refused[expected[1]] += 1
        self.read()  # a refusal changes nothing
        return False

    def read(self) -> None:
        response = self.played.seat.get(self.played.url)
        assert response.status_code == 200
        self.same(response.json())

    def log(self) -> None:
        """The move log equals the model's records, oldest first."""
        expected = [
            {
                **{key: v for key, v in record.items() if key != "elapsed_ms"},
                "at": stamp(self.started + dt.timedelta(milliseconds=record["elapsed_ms"])),
                "elapsed_s": record["elapsed_ms"] / 1000,
            }
            for record in self.model.records
        ]
        assert listed(self.played.seat.get(f"{self.played.url}moves/")) == expected, self.played.id

    def left_alone(self, rng: random.Random, body: dict[str, Any]) -> None:
        """Nobody moves until past the limit: the game reads finished by itself, and a move then is
        `409 time_up`, at the limit exactly or later."""
        self.wait(self.clock_s * 1000 - self.now_ms + rng.choice((0, 1, rng.randint(2, 5000))))
        self.read()
        assert self.model.ended == "time_up"
        assert not self.send(body)

    def after_the_end(self, rng: random.Random, body: dict[str, Any]) -> None:
        """Once over: the log, and a move then refused (`game_over` or `time_up`) with nothing changed."""
        self.log()
        self.wait(rng.randint(0, 2000))
        assert not self.send(body)
        self.log()


def play_many(
    play: Callable[[int, Callable[..., Played], Clock, Counter[str]], None],
    seeds: Iterable[int],
    start: Callable[..., Played],
    clock: Clock,
) -> Counter[str]:
    """`play` one game per seed; what the games went through, counted."""
    seen: Counter[str] = Counter()
    for seed in seeds:
        play(seed, start, clock, seen)
    return seen
