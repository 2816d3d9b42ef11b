"""Make 21's turn clock through the API (RULES.md §3.3 "Time"; API.md): at a seat's deadline the
server moves for it, logged as automatic at the deadline's time; deadlines chain when nobody
moves, applied exactly once whether a request or the beat task comes first; a late move from the
seat that timed out is `409 time_up` while that move is the last in the log, from another seat
`422 not_your_turn`."""

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from audit.context import AuditActor
from skill_games import services
from skill_games.models import Game, Move
from skill_games.tasks import finish_due_games
from tests.skill_games.conftest import Match, make21_deck
from tests.support.api import client_with_token, ok, post, problem
from tests.support.factories import StaffFactory
from tests.support.gaming_day import Clock
from tests.support.races import race

A, B, C = 1, 2, 3
# A holds KS 6D, B 5H 2C, C 9C 3D; the draw pile starts 8H 4S TH.
DECK = make21_deck("KS 6D", "5H 2C", "9C 3D", draw="8H 4S TH")


def automatic_records(log: list[dict[str, Any]]) -> list[tuple[int, float, str, list[str], str | None]]:
    return [(r["seat"], r["elapsed_s"], r["move"], r["cards"], r["pile"]) for r in log if r["automatic"]]


@pytest.mark.django_db
def test_at_the_deadline_the_server_moves_for_the_seat_and_the_deadlines_chain(
    start_match: Any, clock: Clock, pit_boss: APIClient
) -> None:
    match: Match = start_match(DECK, turn_limit_s=5)
    clock.advance(seconds=4, milliseconds=999)
    assert match.read(pit_boss)["seq"] == 0

    clock.advance(milliseconds=1)
    after_one = match.read(pit_boss)

    assert after_one["seq"] == 1
    assert after_one["board"]["last"] == {
        "seat": A,
        "move": "play",
        "cards": ["KS"],
        "pile": "P1",
        "outcome": "stays",
        "taken_by": None,
        "cards_taken": 0,
        "automatic": True,
    }
    assert after_one["needs"]["seat"] == B
    assert after_one["needs"]["deadline"] == "2026-11-20T18:00:10.000Z"
    (record,) = match.log(C)
    assert (record["at"], record["elapsed_s"], record["automatic"]) == ("2026-11-20T18:00:05.000Z", 5.0, True)

    clock.advance(seconds=11)  # 16 s: the deadlines at 10 s and 15 s have acted too
    after_three = match.read(A)

    assert after_three["seq"] == 3
    assert automatic_records(match.log(pit_boss)) == [
        (A, 5.0, "play", ["KS"], "P1"),
        (B, 10.0, "play", ["5H"], "P1"),  # 15 on P1: no bust
        (C, 15.0, "play", ["9C"], "P2"),  # 24 on P1 would bust; the empty P2 does not
    ]
    assert after_three["needs"] == {
        "seat": A,
        "mode": "normal",
        "pile": None,
        "deadline": "2026-11-20T18:00:20.000Z",
        "moves": ["play"],
    }
    assert Move.objects.filter(game_id=match.id).count() == 3
    assert match.read(pit_boss)["seq"] == 3  # read again: nothing acts twice


@pytest.mark.django_db
def test_the_clock_plays_the_rules_automatic_move(
    start_match: Any, clock: Clock, pit_boss: APIClient
) -> None:
    match: Match = start_match(DECK, turn_limit_s=5)
    match.play(A, "KS", "P1")
    match.play(B, "5H", "P1")
    clock.advance(seconds=5)

    log = match.log(pit_boss)

    # C holds 9C 3D: 9C on P1 (24) busts, 9C on the empty P2 does not.
    assert automatic_records(log) == [(C, 5.0, "play", ["9C"], "P2")]


@pytest.mark.django_db
def test_a_late_move_is_time_up_from_the_seat_that_timed_out_and_not_your_turn_from_another(
    start_match: Any, clock: Clock
) -> None:
    match: Match = start_match(DECK, turn_limit_s=5)
    clock.advance(seconds=5)  # the clock plays A's KS on P1; B is to move

    late = problem(match.move(A, {"move": "play", "cards": ["6D"], "pile": "P2"}), 409, "time_up")
    other = problem(match.move(C, {"move": "play", "cards": ["9C"], "pile": "P2"}), 422, "not_your_turn")

    assert late["errors"][0]["field"] == "at"
    assert other["errors"][0]["field"] == "seat"
    assert match.read(B)["seq"] == 1
    # A late move with a stale expected_seq is still late: the clock is checked first.
    problem(match.move(A, {"move": "take", "expected_seq": 0}), 409, "time_up")
    ok(match.move(B, {"move": "play", "cards": ["5H"], "pile": "P1", "expected_seq": 1}))
    # The clock's move is no longer the last in the log: A is simply not the seat to move.
    problem(match.move(A, {"move": "play", "cards": ["6D"], "pile": "P2"}), 422, "not_your_turn")
    assert match.read(C)["needs"]["seat"] == C


@pytest.mark.django_db
def test_the_beat_task_logs_each_automatic_move_once_at_its_deadline(
    start_match: Any, clock: Clock, pit_boss: APIClient
) -> None:
    match: Match = start_match(DECK, turn_limit_s=5)
    clock.advance(seconds=12)

    assert finish_due_games() == {"games": [match.id]}
    assert finish_due_games() == {"games": []}

    row = Game.objects.get(pk=match.id)
    assert row.seq == 2
    assert row.due_at == row.started_at + dt.timedelta(seconds=15)
    assert [r["elapsed_s"] for r in match.log(pit_boss)] == [5.0, 10.0]
    assert match.read(pit_boss)["seq"] == 2
    clock.advance(seconds=3)
    assert finish_due_games() == {"games": [match.id]}
    assert [r["elapsed_s"] for r in match.log(pit_boss)] == [5.0, 10.0, 15.0]


SYSTEM = AuditActor(kind="system", username="test")


def created_match(*, seconds_ago: float, deck: tuple[Any, ...] = DECK) -> tuple[int, dict[int, str], str]:
    """A match of three created `seconds_ago` on the real clock (a minute a turn): its id, the seats'
    tokens and a pit boss's token."""
    boss = StaffFactory.create(role="pit_boss")
    snapshot = services.create_game(
        kind="make21",
        body={"players": 3, "turn_limit_s": 60},
        user_id=boss.user.pk,
        actor=SYSTEM,
        now=timezone.now() - dt.timedelta(seconds=seconds_ago),
        deck=deck,
    )
    return snapshot.game.pk, snapshot.tokens or {}, boss.token


@pytest.mark.django_db(transaction=True)
def test_the_deadlines_act_once_when_the_beat_task_and_requests_race() -> None:
    game_id, tokens, boss = created_match(seconds_ago=125)  # the deadlines at 60 s and 120 s are due
    staff, late_seat = client_with_token(boss), client_with_token(tokens[B])
    url = f"/api/v1/games/{game_id}/"

    def call(i: int) -> Any:
        if i % 4 == 0:
            return finish_due_games()
        if i % 4 == 1:
            return staff.get(url).status_code
        return post(late_seat, f"{url}moves/", {"move": "play", "cards": ["2C"], "pile": "P2"}).status_code

    results = race(call)

    assert sorted(r for r in results if isinstance(r, int)) == [200, 200] + [409] * 4
    moves = Move.objects.filter(game_id=game_id).order_by("seq")
    assert [(m.seat, m.elapsed_ms, m.automatic) for m in moves] == [(A, 60_000, True), (B, 120_000, True)]
    assert Game.objects.get(pk=game_id).seq == 2


@pytest.mark.django_db(transaction=True)
def test_two_devices_racing_on_one_turn_make_one_move() -> None:
    game_id, tokens, _ = created_match(seconds_ago=0)
    url = f"/api/v1/games/{game_id}/moves/"
    devices = [client_with_token(tokens[A]) for _ in range(4)]
    plays = [("KS", "P1"), ("6D", "P1"), ("KS", "P2"), ("6D", "P2")]

    results = race(
        lambda i: post(devices[i], url, {"move": "play", "cards": [plays[i][0]], "pile": plays[i][1]}),
        threads=4,
    )

    assert sorted(r.status_code for r in results) == [200, 422, 422, 422]
    assert {r.json()["code"] for r in results if r.status_code == 422} == {"not_your_turn"}
    assert Game.objects.get(pk=game_id).seq == 1
    (move,) = Move.objects.filter(game_id=game_id)
    accepted = next(r.json() for r in results if r.status_code == 200)
    assert accepted["board"]["last"]["cards"] == move.move["cards"]
