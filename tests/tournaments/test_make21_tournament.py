"""A Make 21 tournament of 4 played to the end (RULES.md §4 `make21`): seated in entry order at
one table when heat 1 starts, one match, fewer cards collected ranks first."""

from collections.abc import Callable

import pytest

from skill_games.models import Game, Seat
from tests.support.api import ok, post, problem
from tests.support.gaming_day import Clock
from tournaments.models import EntryGame

from .conftest import Run, Staff, at

pytestmark = pytest.mark.django_db


def test_a_make21_table_of_four_played_to_the_end(
    create: Callable[..., Run], patron: Callable[..., int], staff: Staff, clock: Clock
) -> None:
    run = create(
        game="make21",
        max_entries=4,
        reentries=0,
        deal="individual",
        heats=[{"starts_at": at(clock, 65)}],
        settings={"games": 1, "turn_limit_s": 5},
        prizes_bp=[6000, 4000],
    )
    text = run.read()["rules"]["text"]
    assert "seated in entry order" in text
    assert "the lowest score wins" in text
    run.file()
    entries = [
        run.entered(patron(identification_type="passport", identification_reference=f"M{i}"))
        for i in range(4)
    ]
    problem(run.enter(patron()), 409, "tournament_full")
    run.advance(minutes=60)
    problem(post(entries[0].device, f"{run.url}games/"), 409, "heat_not_started")
    run.advance(minutes=5)  # the table is seated and the match starts

    (game,) = Game.objects.filter(tournament_id=run.id)
    assert game.settings == {"players": 4, "games": 1, "turn_limit_s": 5}
    seats = dict(Seat.objects.filter(game=game).values_list("number", "tournament_entry"))
    assert seats == {1: 1, 2: 2, 3: 3, 4: 4}

    taken = ok(post(entries[2].device, f"{run.url}games/"), 201)
    assert taken["tournament"] == {"id": run.id, "heat": 1, "entry": 3}
    assert taken["seats"] == [{"seat": n} for n in range(1, 5)]  # no token: the seat takes the entry's
    assert taken["hand"]  # the seat's own hand
    seen = ok(entries[2].device.get(f"/api/v1/games/{game.pk}/"))
    assert seen["tournament"] == {"id": run.id, "heat": 1, "entry": 3}
    assert seen["hand"] == taken["hand"]
    assert "hand" not in ok(staff.pit_boss.get(f"/api/v1/games/{game.pk}/"))

    run.advance(minutes=120)  # nobody moves: the turn clock plays the match to its end
    assert run.read()["state"] == "playing_done"
    problem(post(entries[2].device, f"{run.url}games/"), 409, "heat_closed")
    game.refresh_from_db()
    assert game.state == "finished"
    assert EntryGame.objects.filter(heat__tournament_id=run.id).count() == 4

    board = run.leaderboard()
    assert game.score is not None
    collected = {int(seat): cards for seat, cards in game.score["total"].items()}
    assert {row["entry"]: row["score"] for row in board} == collected
    scores = [row["score"] for row in board]
    assert scores == sorted(scores)  # fewer cards first
    results = ok(post(staff.director, f"{run.url}results/"), 201)
    assert sum(row["prize_cents"] for row in results["standings"]) == 4 * 2000 + 5000 + 12000
    ok(post(staff.pit_boss, f"{run.url}results/approve/"))
    for prize in run.read()["prizes"]:
        ok(post(staff.cashier, f"/api/v1/prizes/{prize['id']}/pay/", {"paid_with": "chips"}))
    assert run.read()["state"] == "paid"
    assert run.read()["money"]["pool_balance_cents"] == 0


def test_a_make21_table_short_of_players_is_not_dealt_and_cancels_with_refunds(
    create: Callable[..., Run], patron: Callable[..., int], staff: Staff, clock: Clock
) -> None:
    run = create(
        game="make21",
        max_entries=3,
        reentries=0,
        deal="individual",
        heats=[{"starts_at": at(clock, 65)}],
        settings={"games": 1},
        prizes_bp=[10000],
    )
    run.file()
    (entry,) = [run.entered(patron())]
    run.advance(minutes=60)
    assert run.read()["not_played"] is None  # registration closed, the heat not started yet
    assert run.advance(minutes=5) is False  # the heat's start: one entry cannot be dealt
    assert run.advance(minutes=1) is False  # nor later, however often the clock runs
    assert Game.objects.filter(tournament_id=run.id).count() == 0
    shown = run.read()
    assert shown["state"] == "running"
    assert shown["not_played"] == (
        "Make 21 needs at least 2 entries at its table and has 1: the table is not dealt. "
        "Cancel the tournament to refund every entry."
    )
    problem(post(entry.device, f"{run.url}games/"), 409, "heat_not_started")

    ok(post(staff.director, f"{run.url}cancel/", {"reason": "One entry: no table"}))
    ok(post(staff.pit_boss, f"{run.url}cancel/approve/"))
    shown = run.read()
    assert shown["state"] == "cancelled"
    assert shown["not_played"] is None
    assert shown["money"]["refunded_cents"] == shown["money"]["buy_ins_cents"] + shown["money"]["fees_cents"]
