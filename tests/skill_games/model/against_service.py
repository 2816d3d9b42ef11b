"""Random games of Blackjack Attack and Blackjack Squares played over HTTP against a running
service (a fresh `make run`), every answer held against the independent models of RULES.md §3.1
and §3.2 (`attack_model`, `squares_model`).

    .venv/bin/python -m tests.skill_games.model.against_service --token <a pit boss's API token>
        [--url http://127.0.0.1:8000] [--games 100] [--seed 1] [--left-alone 2]

The service shuffles its own decks and keeps its own clock, so the player here chooses each move
from the service's `needs` (and now and then one the rules refuse, or a stale `expected_seq`), and
every exchange is written down with the server's times. Once a game is over and its deck revealed
(checked against the commitment published at the start), the model is dealt that deck and the
whole transcript is replayed through it: each accepted move at the server's receive time (the
answer's `server_time`), each read at its `server_time`, each refusal at a moment between the
answers around it; every answer's `state`, `seq`, `needs`, `board` and `score`, every refusal's
status and code, and the move log must be the model's. A refusal is followed by a read, which
must show nothing changed.

`--left-alone` Attack games are dealt first, played for a few moves and then left alone; once
300 s have passed each must read finished by the clock with its points so far and no bonuses,
and a move then must be `409 time_up`. One Squares game with a 60 s limit is left alone too.

Prints what the games went through and exits 1 at the first disagreement, with the game and the
exchange.
"""

import argparse
import copy
import datetime as dt
import hashlib
import http.client
import json
import random
import sys
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from tests.skill_games.model.attack_model import CLOCK_MS, AttackModel
from tests.skill_games.model.common import Refused, Shown, squares_choice, stamp
from tests.skill_games.model.squares_model import SquaresModel

COMPARED = ("state", "seq", "needs", "board", "score")


class Disagreement(Exception):
    pass


@dataclass
class Exchange:
    """One request and its answer: a move (accepted or refused) or a read."""

    kind: str  # "move" | "read"
    body: dict[str, Any] | None
    status: int
    answer: dict[str, Any]
    at_ms: int | None = None  # the server's time of an answered game (its `server_time`)


class Client:
    """One keep-alive HTTP connection with a token."""

    def __init__(self, url: str, token: str) -> None:
        parts = urlsplit(url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.token = token
        self.connection = http.client.HTTPConnection(self.host, self.port, timeout=30)

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        headers = {"Authorization": f"Token {self.token}", "Accept": "application/json"}
        data = None
        if method == "POST":
            headers |= {"Idempotency-Key": str(uuid.uuid4()), "Content-Type": "application/json"}
            data = json.dumps(body or {})
        for attempt in (1, 2):
            try:
                self.connection.request(method, path, body=data, headers=headers)
                response = self.connection.getresponse()
                raw = response.read()
                return response.status, json.loads(raw) if raw else None
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.connection.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        self.connection.close()


def parse_time(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


@dataclass
class Game:
    """One game on the service, as its seat plays it, and what it went through."""

    kind: str
    created: dict[str, Any]
    seat: Client
    settings: dict[str, Any]
    exchanges: list[Exchange] = field(default_factory=list)

    @property
    def path(self) -> str:
        return f"/api/v1/games/{self.created['id']}/"

    @property
    def started(self) -> dt.datetime:
        return parse_time(self.created["started_at"])

    def ms(self, answer: dict[str, Any]) -> int:
        return (parse_time(answer["server_time"]) - self.started) // dt.timedelta(milliseconds=1)

    def last(self) -> dict[str, Any]:
        return next(e.answer for e in reversed(self.exchanges) if e.status == 200)

    def read(self) -> dict[str, Any]:
        status, answer = self.seat.call("GET", self.path)
        if status != 200:
            raise Disagreement(f"game {self.created['id']}: a read answered {status} {answer}")
        self.exchanges.append(Exchange("read", None, status, answer, self.ms(answer)))
        return answer

    def move(self, body: dict[str, Any]) -> bool:
        status, answer = self.seat.call("POST", f"{self.path}moves/", body)
        at_ms = self.ms(answer) if status == 200 else None
        self.exchanges.append(Exchange("move", body, status, answer, at_ms))
        if status != 200:
            self.read()  # a refusal changes nothing: the replay holds this read against the model
        return status == 200


# --- the player ---------------------------------------------------------------------------------


def attack_move(answer: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    needs = answer["needs"]
    r = rng.random()
    if r < 0.08:
        return {"move": "undo"}
    if r < 0.12:
        return {
            "move": "place",
            "column": rng.choice([n for n in (1, 2, 3, 4) if n not in needs["columns"]] or [0, 5]),
        }
    if r < 0.13:
        return {"move": rng.choice(("swap", "cash_in", "hit"))}
    return {"move": "place", "column": rng.choice(needs["columns"])}


def squares_move(answer: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    empty = answer["needs"]["positions"]
    return squares_choice(empty, [p for p in range(1, 10) if p not in empty], rng)


def play_out(game: Game, rng: random.Random, *, moves: int | None = None) -> None:
    """Moves until the game ends (or `moves` of them), each from the last answer's `needs`."""
    choose = attack_move if game.kind == "attack" else squares_move
    played = 0
    while game.last()["state"] == "playing" and (moves is None or played < moves):
        body = choose(game.last(), rng)
        if rng.random() < 0.2:
            seq = game.last()["seq"]
            body["expected_seq"] = seq if rng.random() < 0.8 else abs(seq + rng.choice((-1, 1)))
        game.move(body)
        played += 1


# --- the replay against the model ---------------------------------------------------------------


def same(game: Game, model: Shown, exchange: Exchange) -> None:
    assert exchange.at_ms is not None
    model.tick(exchange.at_ms)  # type: ignore[attr-defined]
    expected = model.game()
    differ = {
        key: (exchange.answer[key], expected[key])
        for key in COMPARED
        if exchange.answer[key] != expected[key]
    }
    if differ:
        raise Disagreement(f"game {game.created['id']} at {exchange.at_ms} ms: service, model: {differ}")


def replay(game: Game, deck: list[str], seen: Counter[str]) -> Shown:
    """The transcript through a model dealt the revealed deck: every answer must be the model's."""
    model: Any = (
        AttackModel(list(deck))
        if game.kind == "attack"
        else SquaresModel(list(deck), limit_s=game.settings.get("limit_s", 1800))
    )
    same(game, model, Exchange("read", None, 200, game.created, game.ms(game.created)))
    time_known = game.ms(game.created)
    for index, exchange in enumerate(game.exchanges):
        if exchange.status == 200:
            if exchange.kind == "move":
                assert exchange.body is not None
                try:
                    model.move(exchange.body, exchange.at_ms)
                except Refused as refused:
                    raise Disagreement(
                        f"game {game.created['id']}: the service took {exchange.body}, the model refuses {refused}"
                    ) from refused
            same(game, model, exchange)
            time_known = exchange.at_ms or time_known
            continue
        # A refusal came between the last answer's time and the read that follows it.
        later = next(e.at_ms for e in game.exchanges[index + 1 :] if e.at_ms is not None)
        code = exchange.answer.get("code")
        agreed = None
        for moment in (time_known, later):
            trial = copy.deepcopy(model)
            try:
                trial.move(exchange.body, moment)
            except Refused as refused:
                if (refused.status, refused.code) == (exchange.status, code):
                    agreed = trial
                    break
        if agreed is None:
            raise Disagreement(
                f"game {game.created['id']}: {exchange.body} refused {exchange.status} {code} by the service, "
                f"not by the model between {time_known} and {later} ms"
            )
        model = agreed
        seen[f"refused {code}"] += 1
    return model


def check_end(game: Game, model: Shown, seen: Counter[str]) -> None:
    """The reveal against the commitment, and the log against the model's records."""
    final = game.last()
    reveal = final["reveal"]
    published = game.created["commitment"]
    if reveal is None or reveal["commitment"] != published or final["commitment"] != published:
        raise Disagreement(f"game {game.created['id']}: no reveal, or not the commitment published: {reveal}")
    text = ",".join(reveal["order"]) + ":" + reveal["salt"]
    if hashlib.sha256(text.encode("ascii")).hexdigest() != game.created["commitment"]:
        raise Disagreement(f"game {game.created['id']}: the reveal does not hash to the commitment")
    status, log = game.seat.call("GET", f"{game.path}moves/")
    expected = [
        {
            **{key: value for key, value in record.items() if key != "elapsed_ms"},
            "at": stamp(game.started + dt.timedelta(milliseconds=record["elapsed_ms"])),
            "elapsed_s": record["elapsed_ms"] / 1000,
        }
        for record in model.records  # type: ignore[attr-defined]
    ]
    if status != 200 or log != expected:
        raise Disagreement(f"game {game.created['id']}: the move log is not the model's")
    seen[f"{game.kind} ended {model.ended}"] += 1
    seen.update(f"{game.kind} {record['move']}" for record in model.records)  # type: ignore[attr-defined]


def settle(game: Game, rng: random.Random, seen: Counter[str]) -> None:
    """After the end: a move is refused (`game_over` or `time_up`) and changes nothing; then the
    whole transcript against the model."""
    game.move({"move": "place", "column": 1} if game.kind == "attack" else {"move": "cash_in"})
    reveal = game.last()["reveal"]
    if reveal is None:
        raise Disagreement(f"game {game.created['id']}: finished without a reveal")
    model = replay(game, reveal["order"], seen)
    check_end(game, model, seen)


# --- the run ------------------------------------------------------------------------------------


def new_game(boss: Client, url: str, kind: str, settings: dict[str, Any]) -> Game:
    status, created = boss.call("POST", "/api/v1/games/", {"game": kind, **settings})
    if status != 201:
        raise Disagreement(f"creating a {kind} game answered {status} {created}")
    game = Game(kind, created, Client(url, created["seats"][0]["token"]), settings)
    return game


def run(args: argparse.Namespace) -> Counter[str]:
    rng = random.Random(args.seed)
    boss = Client(args.url, args.token)
    seen: Counter[str] = Counter()
    alone = [new_game(boss, args.url, "attack", {}) for _ in range(args.left_alone)]
    alone.append(new_game(boss, args.url, "squares", {"limit_s": 60}))
    for game in alone:
        game.exchanges.append(Exchange("read", None, 200, game.created, game.ms(game.created)))
        play_out(game, rng, moves=rng.randint(3, 12))
    began = time.monotonic()
    for number in range(args.games):
        for kind in ("attack", "squares"):
            settings = {} if kind == "attack" else rng.choice(({}, {"limit_s": 600}, {"limit_s": 7200}))
            game = new_game(boss, args.url, kind, settings)
            game.exchanges.append(Exchange("read", None, 200, game.created, game.ms(game.created)))
            play_out(game, rng)
            settle(game, rng, seen)
            game.seat.close()
        if (number + 1) % 10 == 0:
            print(f"  {number + 1} games of each agreed ({time.monotonic() - began:.0f} s)", flush=True)
    wait = CLOCK_MS / 1000 + 2 - (time.monotonic() - began)
    if wait > 0:
        print(f"  waiting {wait:.0f} s for the games left alone", flush=True)
        time.sleep(wait)
    for game in alone:
        ended = game.read()
        if ended["state"] != "finished":
            raise Disagreement(f"game {game.created['id']} left alone still reads {ended['state']}")
        score = ended["score"]
        if game.kind == "attack" and (score["no_bust_bonus"], score["time_bonus"]) != (0, 0):
            raise Disagreement(f"game {game.created['id']} left alone got bonuses: {score}")
        late = {"move": "place", "column": 1} if game.kind == "attack" else {"move": "cash_in"}
        status, refused = game.seat.call("POST", f"{game.path}moves/", late)
        if (status, (refused or {}).get("code")) != (409, "time_up"):
            raise Disagreement(
                f"game {game.created['id']}: a move after the clock answered {status} {refused}"
            )
        game.exchanges.append(Exchange("move", late, status, refused))
        game.read()
        model = replay(game, ended["reveal"]["order"], seen)
        check_end(game, model, seen)
        seen[f"{game.kind} left alone, finished by the clock"] += 1
    return seen


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True, help="a pit boss's or an admin's API token")
    parser.add_argument("--games", type=int, default=100, help="games of each kind")
    parser.add_argument(
        "--left-alone", type=int, default=2, help="Attack games left until the clock ends them"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    began = time.monotonic()
    try:
        seen = run(args)
    except Disagreement as disagreement:
        print(f"DISAGREEMENT: {disagreement}", file=sys.stderr)
        return 1
    except (OSError, http.client.HTTPException) as error:
        print(f"the service at {args.url} cannot be reached: {error}", file=sys.stderr)
        return 2
    print(f"{args.games} Attack and {args.games} Squares games agreed with the models, "
          f"plus {args.left_alone + 1} left alone, in {time.monotonic() - began:.0f} s:")  # fmt: skip
    for what, count in sorted(seen.items()):
        print(f"  {what}: {count}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
