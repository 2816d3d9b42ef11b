"""A duplicate Blackjack Attack tournament through the API, from creation to the last prize
(issue 24's first story): 8 entries (two of them one patron's re-entries), cash and chips, two
heats on committed decks, an entry that never starts a heat, results proposed and approved by
two people, every prize paid once; the money checked against the ledger at the end."""

from collections.abc import Callable
from typing import Any

import pytest
from django.db.models import Sum

from casino.engine.cards import ALL_CARDS, parse_card
from casino.engine.shoe import verify_commitment
from casino.ledger_checks import find_violations
from casino.models import AccountKind, LedgerEntry
from skill_games.models import Game
from tests.support.api import client_with_token, ok, post, problem
from tournaments import services
from tournaments.models import Entry, Tournament, owner_key

from .conftest import Run, Staff

pytestmark = pytest.mark.django_db


def _balance(tournament_id: int, kind: AccountKind) -> int:
    total = LedgerEntry.objects.filter(account__owner=owner_key(tournament_id), account__kind=kind)
    return int(total.aggregate(s=Sum("amount_cents"))["s"] or 0)


def _play_a_card(device: Any, game: dict[str, Any], column: int) -> dict[str, Any]:
    return ok(post(device, f"/api/v1/games/{game['id']}/moves/", {"move": "place", "column": column}))


def test_a_duplicate_attack_tournament_from_creation_to_the_last_prize(
    create: Callable[..., Run], patron: Callable[..., int], staff: Staff, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(services, "shuffled_deck", lambda: ALL_CARDS)
    run = create()
    created = run.read()
    assert created["state"] == "draft"
    assert created["rules"]["text"].startswith("Friday Attack: a Blackjack Attack tournament.")
    assert "scores 0" in created["rules"]["text"]
    assert [heat["commitment"] is not None for heat in created["heats"]] == [True, True]
    assert all(heat["reveal"] is None for heat in created["heats"])

    problem(run.enter(patron()), 409, "registration_closed")  # not filed yet
    assert run.file()["state"] == "registering"

    regular = patron(identification_type="passport", identification_reference="X1")
    others = [patron(identification_type="passport", identification_reference=f"P{i}") for i in range(6)]
    entries = [run.entered(regular, "cash"), run.entered(regular, "chips")]  # an entry and a re-entry
    problem(run.enter(regular), 409, "reentry_limit")
    entries += [
        run.entered(number, "chips" if i % 2 else "cash", nickname=f"P{i}") for i, number in enumerate(others)
    ]
    assert [entry.number for entry in entries] == list(range(1, 9))
    problem(run.enter(patron()), 409, "tournament_full")
    assert Entry.objects.filter(tournament_id=run.id, patron__number=regular).count() == 2

    problem(post(entries[0].device, f"{run.url}games/"), 409, "heat_not_started")
    run.advance(minutes=60)  # registration closes: 8 x $20 + $50 added = $210, the house adds $40
    detail = run.read()
    assert detail["state"] == "running"
    assert detail["overlay_cents"] == 4000
    assert detail["pool_cents"] == 25000
    problem(run.enter(patron()), 409, "registration_closed")

    run.advance(minutes=5)  # heat 1 starts
    games = {}
    for entry in entries[:7]:  # entry 8 never starts heat 1
        game = ok(post(entry.device, f"{run.url}games/"), 201)
        assert game["tournament"] == {"id": run.id, "heat": 1, "entry": entry.number}
        assert game["reveal"] is None
        games[entry.number] = game
    problem(post(entries[0].device, f"{run.url}games/"), 409, "already_played")
    seat = {number: games[number]["seats"][0]["token"] for number in games}
    # Entries 1 and 2 play a card each; the others let their clocks run out.
    _play_a_card(client_with_token(seat[1]), games[1], 1)
    _play_a_card(client_with_token(seat[2]), games[2], 1)
    run.advance(minutes=2)  # the start window is over
    problem(post(entries[7].device, f"{run.url}games/"), 409, "heat_closed")
    assert (
        Game.objects.filter(tournament_id=run.id, decks_revealed=0).count() == 7
    )  # held until the heat closes
    run.advance(minutes=5)  # every heat-1 game has run out of time: the heat closes
    heats = run.read()["heats"]
    assert heats[0]["closed_at"] is not None
    order = heats[0]["reveal"]["order"]
    assert verify_commitment(
        tuple(parse_card(card) for card in order),
        bytes.fromhex(heats[0]["reveal"]["salt"]),
        heats[0]["commitment"],
    )
    for dealt in Game.objects.filter(tournament_id=run.id):
        assert dealt.decks[0] == order  # every game of the heat dealt the same, now revealed
        assert dealt.decks_revealed == 1

    run.advance(minutes=8)  # heat 2 starts: nobody plays it
    run.advance(minutes=3)
    assert run.read()["state"] == "playing_done"

    board = run.leaderboard()
    assert sorted(row["entry"] for row in board) == list(range(1, 9))
    assert [row["place"] for row in board] == sorted(row["place"] for row in board)
    assert sum(row["prize_cents"] for row in board) == 25000
    assert all(not row["name"].startswith("Patron") for row in board)  # nicknames or entry numbers
    # Entry 8 never started a heat: 0 for each.
    assert next(row for row in board if row["entry"] == 8)["score"] == 0

    # Results: proposed by the director, approved by someone else.
    results = ok(post(staff.director, f"{run.url}results/"), 201)
    assert sum(row["prize_cents"] for row in results["standings"]) == 25000
    problem(post(staff.director, f"{run.url}results/approve/"), 403, "approver_is_proposer")
    problem(post(staff.cashier, f"{run.url}results/approve/"), 403, "role_not_allowed")
    approved = ok(post(staff.compliance, f"{run.url}results/approve/"))
    assert approved["approved"] is True

    for prize in approved["prizes"]:
        paid = ok(post(staff.cashier, f"/api/v1/prizes/{prize['id']}/pay/", {"paid_with": "cash"}))
        assert paid["paid_at"] is not None
        problem(
            post(staff.cashier, f"/api/v1/prizes/{prize['id']}/pay/", {"paid_with": "cash"}),
            409,
            "prize_already_paid",
        )

    final = run.read()
    assert final["state"] == "paid"
    money = final["money"]
    assert money["buy_ins_cents"] == 16000
    assert money["fees_cents"] == 4000
    assert money["pool_balance_cents"] == 0
    assert money["prizes_paid_cents"] == 25000
    assert _balance(run.id, AccountKind.POOL) == 0
    # The tournament's revenue: fees - added money - overlay.
    assert -_balance(run.id, AccountKind.REVENUE) == 4000 - 5000 - 4000
    assert Tournament.objects.get(pk=run.id).state == "paid"
    assert find_violations() == []
