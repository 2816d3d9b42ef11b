"""Load test of the skill games: N simultaneous games of Blackjack Attack and Blackjack Squares played
at a human pace against a real service, then blackjack terminals on the same service for comparison.

    .venv/bin/python bench/games_load.py [--project-dir DIR] [--games 200] [--gap 1-4] [--poll 1]
        [--duration 60] [--warmup 10] [--squares 0.5] [--blackjack-terminals 16]
        [--blackjack-rate 100] [--blackjack-duration 30] [--workers W] [--threads T]
        [--database-url URL] [--url http://host:port] [--env K=V] [--seed N]

What it measures
----------------
Each simulated device plays one game (Attack or Squares, `--squares` the share of Squares) through
the HTTP API with the seat token the game was created with: a move every 1-4 s (`--gap`, uniform,
on a schedule of its own kept whatever the answers: open loop), chosen from the `needs` of the
last answer and sent with its `expected_seq`, and a poll of the game (`GET /api/v1/games/{id}/`)
every second (`--poll`), as a device's screen refreshes: like the player page, it sends back the
ETag of the last whole game it read, so a poll while nothing has changed is a `304`. `--poll 0`
leaves the polls out: the CPU per move is then the moves' own. When a game ends the device has a new one
created by the pit boss (`POST /api/v1/games/`, counted as `create`) and plays on. Latency is
measured from the scheduled send time (queueing shows), each device using one keep-alive
connection for its moves and one for its polls.

In the same run, after the games' window, `--blackjack-terminals` dealer terminals play
tie-bonus rounds (bench/load.py's terminals, reported shoes, `--blackjack-rate` calls/s) for
`--blackjack-duration` seconds, so the CPU of a blackjack call is measured by the same meter on the
same service.

It prints the moves/s, the latency percentiles of moves, polls and creates, refusals by code, the
CPU of the web server (gunicorn master and workers) and of PostgreSQL (postmaster and children)
per move (all the window's CPU over its moves: the polls are part of what a move costs) and per
request, and the same figures per blackjack call and per card call (the blackjack window's CPU
over its calls, and over its card calls alone).

The service is started and provisioned as bench/load.py does it (its helpers, imported): a
scratch database on the local PostgreSQL, `migrate`, the project's `provision_table` and
`create_staff`, gunicorn as the project's run command starts it; `--url` drives a running service
instead (then `--database-url` is required).
"""

import argparse
import asyncio
import dataclasses
import random
import secrets
import shutil
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import load  # bench/load.py: the service, the CPU meter, the HTTP client, the blackjack terminals

API = "/api/v1"
ENDPOINTS = ("move", "poll", "create")


@dataclasses.dataclass
class Device:
    """A kiosk playing one game after another."""

    index: int
    kind: str
    rng: random.Random
    moves: load.Http | None = None
    polls: load.Http | None = None
    game: dict[str, Any] | None = None
    shown_tag: str = ""  # the ETag of the last whole game the device read (its polls send it back)
    played: int = 0

    def next_move(self) -> dict[str, Any]:
        assert self.game is not None  # noqa: S101
        need, rng = self.game["needs"], self.rng
        if self.kind == "attack":
            if "undo" in need["moves"] and rng.random() < 0.05:
                body: dict[str, Any] = {"move": "undo"}
            else:
                body = {"move": "place", "column": rng.choice(need["columns"])}
        elif "cash_in" in need["moves"] and rng.random() < 0.8:
            body = {"move": "cash_in"}
        elif "swap" in need["moves"] and (rng.random() < 0.05 or "place" not in need["moves"]):
            body = {"move": "swap", "position": rng.choice(need["swappable"])}
        else:
            body = {"move": "place", "position": rng.choice(need["positions"])}
        body["expected_seq"] = self.game["seq"]
        return body


@dataclasses.dataclass
class Window:
    start: float
    end: float
    latencies: dict[str, list[float]] = dataclasses.field(default_factory=dict)
    refused: Counter[tuple[str, int, str]] = dataclasses.field(default_factory=Counter)
    answered: Counter[str] = dataclasses.field(default_factory=Counter)  # answered in the window
    not_modified: int = 0  # polls answered 304 in the window
    own_cpu: list[float] = dataclasses.field(default_factory=list)  # this process's CPU at start and end
    finished: int = 0

    def record(self, endpoint: str, scheduled: float, done: float, answer: load.Answer | None) -> None:
        if self.start <= done < self.end:
            self.answered[endpoint] += 1
            self.not_modified += answer is not None and answer.status == 304
        if self.start <= scheduled < self.end:
            self.latencies.setdefault(endpoint, []).append(done - scheduled)
            if answer is None:
                self.refused[(endpoint, 0, "no answer")] += 1
            elif answer.status >= 400:
                self.refused[(endpoint, answer.status, answer.code or "-")] += 1


async def timed(
    http: load.Http,
    window: Window,
    endpoint: str,
    scheduled: float,
    method: str,
    path: str,
    body: Any = None,
    *,
    tag: str = "",
) -> load.Answer | None:
    loop = asyncio.get_running_loop()
    try:
        request = http.request(method, path, body, if_none_match=tag)
        answer: load.Answer | None = await asyncio.wait_for(request, 60)
    except (TimeoutError, OSError, load.ConnectionLost, asyncio.IncompleteReadError, ValueError):
        answer = None
        await http.close()
    window.record(endpoint, scheduled, loop.time(), answer)
    return answer


async def new_game(device: Device, url: str, boss: str, window: Window, scheduled: float) -> None:
    """The pit boss creates the device's next game; the device plays it with its seat token."""
    http = load.Http(url, boss)
    try:
        answer = await timed(
            http, window, "create", scheduled, "POST", f"{API}/games/", {"game": device.kind}
        )
    finally:
        await http.close()
    if answer is None or answer.status != 201:
        raise load._fail(
            f"creating a {device.kind} game: {answer and answer.status} {answer and answer.body}"
        )
    for old in (device.moves, device.polls):
        if old is not None:
            await old.close()
    token = answer.body["seats"][0]["token"]
    device.moves, device.polls, device.game = load.Http(url, token), load.Http(url, token), answer.body
    device.shown_tag = ""
    device.played += 1


async def play(device: Device, url: str, boss: str, window: Window, gap: tuple[float, float]) -> None:
    loop = asyncio.get_running_loop()
    scheduled = loop.time() + device.rng.uniform(*gap)
    while scheduled < window.end:
        await asyncio.sleep(max(0.0, scheduled - loop.time()))
        assert device.game is not None  # noqa: S101
        assert device.moves is not None  # noqa: S101
        if device.game["state"] == "finished":
            window.finished += window.start <= loop.time() < window.end
            await new_game(device, url, boss, window, scheduled)
        else:
            game_id = device.game["id"]
            path = f"{API}/games/{game_id}/moves/"
            answer = await timed(device.moves, window, "move", scheduled, "POST", path, device.next_move())
            if answer is not None and answer.status == 200:
                device.game = answer.body
            else:  # refused or lost: read the game again before the next move
                assert device.polls is not None  # noqa: S101
                again = await device.polls.request("GET", f"{API}/games/{game_id}/")
                if again.status == 200:
                    device.game = again.body
        scheduled += device.rng.uniform(*gap)


async def poll(device: Device, window: Window, every: float) -> None:
    loop = asyncio.get_running_loop()
    scheduled = loop.time() + device.rng.uniform(0, every)
    while scheduled < window.end:
        await asyncio.sleep(max(0.0, scheduled - loop.time()))
        if device.polls is not None and device.game is not None:
            path = f"{API}/games/{device.game['id']}/"
            answer = await timed(device.polls, window, "poll", scheduled, "GET", path, tag=device.shown_tag)
            if answer is not None and answer.status == 200:
                device.shown_tag = answer.etag
                if answer.body["id"] == device.game["id"] and answer.body["seq"] >= device.game["seq"]:
                    device.game = answer.body
        scheduled += every


async def run_games(
    url: str, boss: str, meter: load.CpuMeter, args: argparse.Namespace
) -> tuple[Window, load.Snapshot, load.Snapshot, list[Device]]:
    loop = asyncio.get_running_loop()
    rng = random.Random(args.seed)
    devices = [
        Device(i, "squares" if rng.random() < args.squares else "attack", random.Random(f"{args.seed}-{i}"))
        for i in range(args.games)
    ]
    setup = Window(start=0, end=0)  # the first games are created before the load starts
    gate = asyncio.Semaphore(8)

    async def first(device: Device) -> None:
        async with gate:
            await new_game(device, url, boss, setup, loop.time())

    await asyncio.gather(*(first(device) for device in devices))
    start = loop.time() + 0.2
    window = Window(start=start + args.warmup, end=start + args.warmup + args.duration)
    readings: list[load.Snapshot] = []

    async def measure() -> None:
        for moment in (window.start, window.end):
            await asyncio.sleep(max(0.0, moment - loop.time()))
            readings.append(meter.snapshot())
            window.own_cpu.append(time.process_time())

    gap = (args.gap_low, args.gap_high)
    tasks = [asyncio.create_task(play(d, url, boss, window, gap)) for d in devices]
    if args.poll > 0:
        tasks += [asyncio.create_task(poll(d, window, args.poll)) for d in devices]
    await measure()
    await asyncio.gather(*tasks)
    for device in devices:
        for http in (device.moves, device.polls):
            if http is not None:
                await http.close()
    return window, readings[0], readings[1], devices


# --- the report ---------------------------------------------------------------------------------------


def cpu(before: load.Snapshot, after: load.Snapshot) -> tuple[float | None, float | None]:
    web = None if before.web is None or after.web is None else after.web - before.web
    pg = None if before.postgres is None or after.postgres is None else after.postgres - before.postgres
    return web, pg


def cpu_line(label: str, web: float | None, pg: float | None, count: int) -> str:
    def ms(used: float | None) -> str:
        return "n/a" if used is None else f"{1000 * used / max(count, 1):.2f}"

    both = None if web is None or pg is None else web + pg
    return f"  {label:<34} web {ms(web):>7} + PostgreSQL {ms(pg):>7} = {ms(both):>7} ms CPU"


def report_games(window: Window, before: load.Snapshot, after: load.Snapshot, devices: list[Device]) -> None:
    span = after.at - before.at
    moves, requests = window.answered["move"], sum(window.answered.values())
    kinds = Counter(d.kind for d in devices)
    print(f"\nskill games: {len(devices)} devices ({kinds['attack']} Attack, {kinds['squares']} Squares)")
    print(
        f"measured window {span:.1f} s: {moves / span:,.1f} moves/s, {window.answered['poll'] / span:,.1f} polls/s, "
        f"{window.answered['create'] / span:,.2f} games created/s ({window.finished} games finished in the window)"
    )
    polls = window.answered["poll"]
    print(f"polls answered 304 Not Modified: {window.not_modified:,} of {polls:,}")
    print("latency in ms, from the scheduled send time:")
    print(f"  {'call':<8} {'calls':>8} {'p50':>8} {'p95':>8} {'p99':>8} {'max':>8} {'mean':>8}")
    for name in ENDPOINTS:
        values = [1000 * v for v in window.latencies.get(name, [])]
        if values:
            cells = " ".join(f"{load.percentile(values, q):>8.1f}" for q in (50, 95, 99))
            print(
                f"  {name:<8} {len(values):>8,} {cells} {max(values):>8.1f} {statistics.fmean(values):>8.1f}"
            )
    if window.refused:
        print("refused or lost (calls scheduled in the window):")
        for (endpoint, status, code), count in sorted(window.refused.items(), key=lambda item: -item[1]):
            print(f"  {status:>4} {code:<28} {endpoint:<8} {count:>7,}")
    else:
        print("refused or lost: none")
    web, pg = cpu(before, after)
    print("server CPU in the window (from /proc):")
    print(cpu_line("per move (its share of polls too)", web, pg, moves))
    print(cpu_line("per request (move, poll, create)", web, pg, requests))
    own = window.own_cpu[1] - window.own_cpu[0]
    print(f"  the load generator itself (this process): {1000 * own / max(requests, 1):.2f} ms CPU per request, "
          f"{own / span:.2f} of a core")  # fmt: skip
    others = after.other_commits - before.other_commits
    if others > 0:
        print(
            f"  note: other databases committed {others:,} transactions in the window (in the PostgreSQL figure)"
        )


def report_blackjack(stats: load.Stats, before: load.Snapshot, after: load.Snapshot, terminals: int) -> None:
    span = after.at - before.at
    calls = stats.completed_in_window
    cards = len(stats.latencies.get("card", []))
    print(f"\nblackjack for comparison: {terminals} terminals, reported shoes")
    print(f"measured window {span:.1f} s: {calls / span:,.1f} calls/s, {cards / span:,.1f} card calls/s")
    values = [1000 * v for v in stats.latencies.get("card", [])]
    if values:
        cells = "  ".join(f"p{q} {load.percentile(values, q):.1f}" for q in (50, 95, 99))
        print(f"  card call latency in ms: {cells}")
    web, pg = cpu(before, after)
    print(cpu_line("per blackjack call (any endpoint)", web, pg, calls))
    print(cpu_line("per card call (all calls' CPU)", web, pg, cards))
    errors = sum(stats.errors.values())
    if errors:
        print(f"  {errors:,} blackjack calls refused or lost: {dict(stats.errors.most_common(5))}")


# --- main ---------------------------------------------------------------------------------------------


def gap_range(text: str) -> tuple[float, float]:
    low, _, high = text.partition("-")
    try:
        first, last = float(low), float(high or low)
    except ValueError:
        raise argparse.ArgumentTypeError(f"gap: A-B seconds, not {text!r}") from None
    if not 0 < first <= last:
        raise argparse.ArgumentTypeError(f"gap: 0 < A <= B, not {text!r}")
    return first, last


def parse_args() -> argparse.Namespace:
    here = Path(__file__).resolve().parent.parent
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--project-dir", type=Path, default=here, help="checkout to run (default: %(default)s)"
    )
    parser.add_argument("--games", type=int, default=200, help="simultaneous games (devices)")
    parser.add_argument(
        "--gap", type=gap_range, default=(1.0, 4.0), help="seconds between a game's moves, A-B"
    )
    parser.add_argument(
        "--poll", type=float, default=1.0, help="seconds between a device's polls (0: no polls, moves alone)"
    )
    parser.add_argument("--squares", type=float, default=0.5, help="share of Squares games (the rest Attack)")
    parser.add_argument("--duration", type=float, default=60.0, help="measured window of the games, seconds")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds of load before each window")
    parser.add_argument("--blackjack-terminals", type=int, default=16, help="0: no blackjack comparison")
    parser.add_argument("--blackjack-rate", type=float, default=100.0, help="offered blackjack calls/s")
    parser.add_argument("--blackjack-duration", type=float, default=30.0)
    parser.add_argument(
        "--workers", type=int, default=None, help="gunicorn workers (default: the run command's)"
    )
    parser.add_argument("--threads", type=int, default=None, help="gunicorn threads per worker")
    parser.add_argument(
        "--database-url", default=None, help=f"default: a new database on {load.DEFAULT_SERVER}"
    )
    parser.add_argument("--url", default=None, help="a running service to drive instead of starting one")
    parser.add_argument("--env", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    args.gap_low, args.gap_high = args.gap
    if args.games < 1 or args.duration <= 0 or args.warmup < 0 or args.poll < 0:
        parser.error("need at least one game, a positive duration and a poll interval (0: no polls)")
    if args.url and not args.database_url:
        parser.error("--url needs --database-url (the running service's database, to provision staff in)")
    args.project_dir = args.project_dir.resolve()
    if not (args.project_dir / "manage.py").exists():
        parser.error(f"no manage.py in {args.project_dir}")
    # What bench/load.py's terminals read from its own options.
    args.rate, args.flat_out, args.arrivals, args.drain, args.timeout = (
        args.blackjack_rate,
        False,
        "poisson",
        10.0,
        60.0,
    )
    args.shoe, args.seat_counts, args.no_open_tables = "reported", load.seat_counts("mix"), False
    return args


def run(args: argparse.Namespace, database_url: str, work: Path, tag: str) -> None:
    project: Path = args.project_dir
    env = load.service_env(database_url, work, args.env)
    print(f"project {project}, database {load.database_name(database_url)}, tag {tag}")
    server: load.Gunicorn | None = None
    try:
        if not args.url:
            load.manage(project, env, "migrate", "--noinput", "-v", "0")
        provisioned = load.provision(project, env, tag=tag, terminals=args.blackjack_terminals, extra=[])
        if args.url:
            url = args.url.rstrip("/")
            web_root = load.listening_pid(urlsplit(url).port or 80)
        else:
            workers, threads, source = load.web_concurrency(project, env)
            workers, threads = args.workers or workers, args.threads or threads
            server = load.Gunicorn(
                project, env, workers=workers, threads=threads, log=work / "gunicorn.log", access_log=None
            )
            server.wait_ready()
            url, web_root = server.url, server.process.pid
            print(f"gunicorn at {url}: {workers} workers x {threads} threads (default from {source})")
        boss = provisioned["staff"]["pit_boss"]["token"]
        meter = load.CpuMeter(web_root=web_root, database_url=database_url)
        try:
            print(
                f"{args.games} games, a move every {args.gap_low:g}-{args.gap_high:g} s and a poll every "
                f"{args.poll:g} s each; warmup {args.warmup:g} s, window {args.duration:g} s"
            )
            window, before, after, devices = asyncio.run(run_games(url, boss, meter, args))
            report_games(window, before, after, devices)
            if args.blackjack_terminals > 0:
                load.ensure_paytable(url, provisioned["staff"], project, env)
                terms = asyncio.run(load.prepare(url, provisioned, args))
                args.duration = args.blackjack_duration
                stats, bj_before, bj_after = asyncio.run(load.run_load(terms, meter, args))
                report_blackjack(stats, bj_before, bj_after, len(terms))
        finally:
            meter.close()
    finally:
        if server is not None:
            server.stop()
            print(f"server log: {server.tracebacks()} tracebacks")


def main() -> None:
    args = parse_args()
    tag = secrets.token_hex(3)
    work = Path(tempfile.mkdtemp(prefix="bench-games-"))
    try:
        if args.url:
            run(args, args.database_url, work, tag)
        else:
            with load.scratch_database(args.database_url, tag) as database_url:
                run(args, database_url, work, tag)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
