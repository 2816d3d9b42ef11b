"""Random Make 21 matches of 2 to 5 seats played over HTTP against a running service (a fresh
`make run`), every answer of every seat held against the independent model of RULES.md §3.3
(`make21_model`).

    .venv/bin/python -m tests.make21.model.against_service --token <a pit boss's API token>
        [--url http://127.0.0.1:8000] [--matches 40] [--idle 6] [--seed 1]

Each seat plays from its own device (its own seat token and connection): the seat in `needs`
reads its game (its hand and its moves) and moves, mostly as the rules allow and now and then as
they refuse (`players.choose`); now and then another seat tries to move out of turn, staff read
the game, or two devices race on one turn (both sent at once: exactly one may be accepted). In
`--idle` matches (turn limit 5 s) a seat now and then walks away, and the clock moves for it.

Every exchange is written down with the server's times. Once the match is over, each game's deck
(from `reveals`, checked against the commitments) is dealt to the model and the transcript
replayed through it: every answer (`state`, `seq`, `needs`, `board`, `score` and the seat's own
`hand`, exactly: so no seat ever saw a card the model says it may not), every refusal's status and
code, the automatic moves and the move log. Prints what the matches went through; exits 1 at the
first disagreement.
"""

import argparse
import copy
import datetime as dt
import hashlib
import random
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tests.make21.model.make21_model import Make21Model
from tests.make21.model.players import choose
from tests.skill_games.model.against_service import Client, Disagreement, parse_time
from tests.skill_games.model.common import Refused, stamp

COMPARED = ("state", "seq", "needs", "board", "score")
TURN_LIMIT_IDLE_S = 5


@dataclass
class Exchange:
    seat: int | None  # None: staff
    body: dict[str, Any] | None  # a move, or None for a read
    status: int
    answer: Any
    at_ms: int | None = None  # the answer's `server_time`, for a 200
    raced: bool = False  # one of two moves sent at once on one turn


@dataclass
class Match:
    created: dict[str, Any]
    settings: dict[str, Any]
    seats: dict[int, Client]
    staff: Client
    exchanges: list[Exchange] = field(default_factory=list)

    @property
    def path(self) -> str:
        return f"/api/v1/games/{self.created['id']}/"

    @property
    def started(self) -> dt.datetime:
        return parse_time(self.created["started_at"])

    def ms(self, answer: dict[str, Any]) -> int:
        return (parse_time(answer["server_time"]) - self.started) // dt.timedelta(milliseconds=1)

    def read(self, seat: int | None) -> dict[str, Any]:
        status, answer = (self.staff if seat is None else self.seats[seat]).call("GET", self.path)
        if status != 200:
            raise Disagreement(f"match {self.created['id']}: a read by {seat} answered {status} {answer}")
        self.exchanges.append(Exchange(seat, None, status, answer, self.ms(answer)))
        return answer

    def send(self, seat: int, body: dict[str, Any], device: Client | None = None) -> Exchange:
        status, answer = (device or self.seats[seat]).call("POST", f"{self.path}moves/", body)
        return Exchange(seat, body, status, answer, self.ms(answer) if status == 200 else None)

    def move(self, seat: int, body: dict[str, Any]) -> bool:
        exchange = self.send(seat, body)
        self.exchanges.append(exchange)
        if exchange.status != 200:
            self.read(seat)  # a refusal changes nothing
        return exchange.status == 200

    def race(self, seat: int, first: dict[str, Any], other_seat: int, second: dict[str, Any]) -> None:
        """Two moves sent at once (two devices of the mover, or the mover and another seat)."""
        done: list[Exchange] = []
        mine = self.seats[other_seat]
        device = Client(f"http://{mine.host}:{mine.port}", mine.token)  # the second device's connection
        threads = [
            threading.Thread(target=lambda s=s, b=b, d=d: done.append(self.send(s, b, d)))
            for s, b, d in ((seat, first, None), (other_seat, second, device))
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        device.close()
        if sum(e.status == 200 for e in done) > 1:  # both carry the same expected_seq
            raise Disagreement(f"match {self.created['id']}: two racing moves on one seq both accepted")
        for exchange in sorted(done, key=lambda e: e.status != 200):  # the accepted one came first
            exchange.raced = True
            self.exchanges.append(exchange)
        self.read(seat)


# --- playing a match ---------------------------------------------------------------------------


def seat_clients(url: str, created: dict[str, Any]) -> dict[int, Client]:
    return {seat["seat"]: Client(url, seat["token"]) for seat in created["seats"]}


def play(match: Match, rng: random.Random, seen: Counter[str], *, idle: bool) -> None:
    players = match.settings["players"]
    answer = match.created
    while answer["state"] == "playing":
        mover = answer["needs"]["seat"]
        view = match.read(mover)
        if view["state"] != "playing":
            break
        r = rng.random()
        body = choose(view, rng)
        if rng.random() < 0.15:
            body["expected_seq"] = (
                view["seq"] if rng.random() < 0.8 else abs(view["seq"] + rng.choice((-1, 1)))
            )
        if idle and r < 0.12:
            deadline = parse_time(view["needs"]["deadline"])
            time.sleep(
                max(0.0, (deadline - parse_time(view["server_time"])).total_seconds()) + rng.uniform(0.1, 2.5)
            )
            seen["idle turns"] += 1
            match.move(mover, body)  # late: the clock moved for this seat first
        elif r < 0.18:
            other = rng.choice([s for s in range(1, players + 1) if s != mover])
            match.move(other, choose(match.read(other), rng))
            seen["moves from a seat not in needs"] += 1
        elif r < 0.22:
            match.read(None)
        elif r < 0.27:
            second = choose(view, rng)
            other = (
                mover if rng.random() < 0.6 else rng.choice([s for s in range(1, players + 1) if s != mover])
            )
            both = {"expected_seq": view["seq"]}
            match.race(mover, {**body, **both}, other, {**second, **both})
            seen["races"] += 1
        else:
            match.move(mover, body)
        answer = match.read(rng.randint(1, players))


# --- the replay against the model --------------------------------------------------------------


def shown(match: Match, model: Make21Model, seat: int | None) -> dict[str, Any]:
    """The model's game as `seat` sees it, its times as the API writes them."""
    game = model.game(seat)
    if game["needs"] is not None:
        game["needs"] = {
            **game["needs"],
            "deadline": stamp(match.started + dt.timedelta(milliseconds=game["needs"]["deadline"])),
        }
    return game


def same(match: Match, model: Make21Model, exchange: Exchange) -> None:
    assert exchange.at_ms is not None
    model.tick(exchange.at_ms)
    expected = shown(match, model, exchange.seat)
    keys = (*COMPARED, "hand") if exchange.seat is not None else COMPARED
    differ = {
        key: (exchange.answer.get(key), expected.get(key))
        for key in keys
        if exchange.answer.get(key) != expected.get(key)
    }
    if exchange.seat is None and "hand" in exchange.answer:
        differ["hand"] = (exchange.answer["hand"], "staff see no hand")
    if differ:
        raise Disagreement(
            f"match {match.created['id']} seat {exchange.seat} at {exchange.at_ms} ms: service, model: {differ}"
        )


def replay(match: Match, decks: list[list[str]], seen: Counter[str]) -> Make21Model:
    settings = match.settings
    model = Make21Model(decks, settings["players"], settings["games"], settings["turn_limit_s"] * 1000)
    known = match.ms(match.created)
    before_race = model  # the model before a race's accepted move: its loser may have come first
    for index, exchange in enumerate(match.exchanges):
        if exchange.status == 200:
            if exchange.body is not None:
                if exchange.raced:
                    before_race = copy.deepcopy(model)
                try:
                    model.move(exchange.body, exchange.seat or 0, exchange.at_ms or 0)
                except Refused as refused:
                    raise Disagreement(
                        f"match {match.created['id']}: the service took {exchange.body} from seat {exchange.seat}, the model refuses {refused}"
                    ) from refused
                seen["moves accepted"] += 1
            same(match, model, exchange)
            known = exchange.at_ms or known
            continue
        later = next(e.at_ms for e in match.exchanges[index + 1 :] if e.at_ms is not None)
        code = exchange.answer.get("code") if isinstance(exchange.answer, dict) else None
        agreed = None
        bases = [model, before_race] if exchange.raced else [model]
        for base, moment in ((base, moment) for base in bases for moment in (known, later)):
            trial = copy.deepcopy(base)
            try:
                trial.move(exchange.body or {}, exchange.seat or 0, moment)
            except Refused as refused:
                if (refused.status, refused.code) == (exchange.status, code):
                    agreed = trial if base is model else model
                    break
        if agreed is None:
            raise Disagreement(
                f"match {match.created['id']}: {exchange.body} from seat {exchange.seat} refused {exchange.status} {code} by the service, not by the model between {known} and {later} ms"
            )
        model = agreed
        seen[f"refused {code}"] += 1
    return model


def check_end(match: Match, model: Make21Model, seen: Counter[str]) -> None:
    status, log = match.staff.call("GET", f"{match.path}moves/")
    expected = [
        {
            **{k: v for k, v in record.items() if k != "elapsed_ms"},
            "at": stamp(match.started + dt.timedelta(milliseconds=record["elapsed_ms"])),
            "elapsed_s": record["elapsed_ms"] / 1000,
        }
        for record in model.records
    ]
    if status != 200 or log != expected:
        first = next((i for i, (a, b) in enumerate(zip(log, expected, strict=False)) if a != b), None)
        raise Disagreement(
            f"match {match.created['id']}: the move log is not the model's (first difference at {first})"
        )
    seen["automatic moves"] += sum(record["automatic"] for record in model.records)
    seen.update(f"outcome {record['outcome']}" for record in model.records)


def decks_of(match: Match, final: dict[str, Any]) -> list[list[str]]:
    reveals = sorted(final.get("reveals") or [], key=lambda r: r["game_no"])
    if [r["game_no"] for r in reveals] != list(range(1, match.settings["games"] + 1)):
        raise Disagreement(f"match {match.created['id']}: reveals {[r['game_no'] for r in reveals]}")
    for reveal in reveals:
        text = ",".join(reveal["order"]) + ":" + reveal["salt"]
        if hashlib.sha256(text.encode("ascii")).hexdigest() != reveal["commitment"]:
            raise Disagreement(
                f"match {match.created['id']}: game {reveal['game_no']}'s deck does not hash to its commitment"
            )
    return [list(reveal["order"]) for reveal in reveals]


def run(args: argparse.Namespace) -> Counter[str]:
    rng = random.Random(args.seed)
    staff = Client(args.url, args.token)
    seen: Counter[str] = Counter()
    for number in range(args.matches):
        idle = number >= args.matches - args.idle  # the slow ones (real waits) last
        players = rng.randint(2, 5)
        settings = {
            "players": players,
            "games": rng.choice((1, 2, players)),
            "turn_limit_s": TURN_LIMIT_IDLE_S if idle else 600,
        }
        status, created = staff.call("POST", "/api/v1/games/", {"game": "make21", **settings})
        if status != 201:
            raise Disagreement(f"creating a match answered {status} {created}")
        match = Match(created, settings, seat_clients(args.url, created), staff)
        match.exchanges.append(Exchange(None, None, 200, created, match.ms(created)))
        play(match, rng, seen, idle=idle)
        match.move(rng.randint(1, players), {"move": "take"})  # after the end: refused, nothing changes
        final = match.read(None)
        for seat in match.seats:
            match.read(seat)
        model = replay(match, decks_of(match, final), seen)
        check_end(match, model, seen)
        seen[f"matches of {players} seats"] += 1
        for client in match.seats.values():
            client.close()
        print(
            f"  match {number + 1} ({players} seats, {settings['games']} games{', idle seats' if idle else ''}) agreed",
            flush=True,
        )
    return seen


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True, help="a pit boss's or an admin's API token")
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument(
        "--idle", type=int, default=6, help="matches with a 5 s turn limit and seats that walk away"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    began = time.monotonic()
    try:
        seen = run(args)
    except Disagreement as disagreement:
        print(f"DISAGREEMENT: {disagreement}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"the service at {args.url} cannot be reached: {error}", file=sys.stderr)
        return 2
    print(f"{args.matches} Make 21 matches agreed with the model in {time.monotonic() - began:.0f} s:")
    for what, count in sorted(seen.items()):
        print(f"  {what}: {count}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
