"""A closed or deactivated table deals nothing and takes no money; a shoe has the table's decks.

One rule decides (casino.services.table_state); these tests drive it through the API as a
terminal and a supervisor would, with the clock held in the day shift.
"""

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from blackjack.models import Round, RoundEvent, Wager
from casino.models import LedgerEntry, Shoe, Table
from table_money.models import BuyIn, ChipSlip
from tests.support.api import TableActors, buy_in, close_table, ok, open_table, post, problem, request_slip
from tests.support.gaming_day import Clock, day_shift_clock
from tests.support.rounds import ROUNDS, deal, open_round, open_shoe, primary

pytestmark = pytest.mark.django_db

BANK = {"100000": 5}
ONE_SEAT = [{"seat": 1, "player": None, "wagers": [primary(1_000)]}]


@pytest.fixture(autouse=True)
def clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Clock:
    return day_shift_clock(monkeypatch, settings)


def rows() -> tuple[int, ...]:
    return (
        Shoe.objects.count(),
        Round.objects.count(),
        Wager.objects.count(),
        RoundEvent.objects.count(),
        LedgerEntry.objects.count(),
        BuyIn.objects.count(),
        ChipSlip.objects.count(),
    )


def deactivate(actors: TableActors) -> None:
    Table.objects.filter(pk=actors.table.pk).update(is_active=False)  # as the admin's checkbox does
    actors.sign_in()  # deactivating the table ended the dealer's session; a dealer signs in again


def every_dealing_call_is_refused(actors: TableActors, round_id: int, status: int, code: str) -> None:
    before = rows()
    problem(post(actors.terminal, "/api/v1/shoes/", {"mode": "reported"}), status, code)
    problem(post(actors.terminal, ROUNDS, {"seats": ONE_SEAT}), status, code)
    problem(post(actors.terminal, f"{ROUNDS}{round_id}/cards/", {"card": "9C"}), status, code)
    action = {"seat": 1, "hand": 0, "action": "stand"}
    problem(post(actors.terminal, f"{ROUNDS}{round_id}/actions/", action), status, code)
    problem(post(actors.terminal, f"{ROUNDS}{round_id}/settle/", {}), status, code)
    problem(buy_in(actors, 1, 10_000), status, code)
    problem(request_slip(actors.terminal, "fill", {"10000": 1}), status, code)
    assert rows() == before


def play_to_settle(actors: TableActors, round_id: int) -> dict[str, Any]:
    deal(actors.terminal, round_id, ["9C", "7D", "8C", "TD"])  # seat 1 holds 17 against the dealer's 7
    ok(post(actors.terminal, f"{ROUNDS}{round_id}/actions/", {"seat": 1, "hand": 0, "action": "stand"}))
    return ok(post(actors.terminal, f"{ROUNDS}{round_id}/settle/", {}))


def test_a_deactivated_table_deals_nothing_and_takes_no_money(
    table: TableActors, supervisor: APIClient
) -> None:
    ok(open_table(supervisor, table, BANK), 201)
    open_shoe(table)
    opened = open_round(table, ONE_SEAT)
    pending = ok(request_slip(table.terminal, "fill", {"10000": 1}), 201)
    deactivate(table)

    every_dealing_call_is_refused(table, opened["id"], 409, "table_inactive")
    problem(post(supervisor, f"/api/v1/fills/{pending['id']}/approve/", {}), 409, "table_inactive")
    assert ChipSlip.objects.get(pk=pending["id"]).status == "pending"

    # The round in progress is frozen; a supervisor voids it and every wager goes back.
    voided = ok(post(supervisor, f"{ROUNDS}{opened['id']}/void/", {"reason": "table taken out of service"}))
    assert voided["state"] == "void"


def test_a_table_closed_for_the_shift_deals_nothing_and_takes_no_money(
    table: TableActors, supervisor: APIClient
) -> None:
    ok(open_table(supervisor, table, BANK), 201)
    open_shoe(table)
    settled = play_to_settle(table, open_round(table, ONE_SEAT)["id"])
    ok(close_table(supervisor, table, BANK), 201)

    every_dealing_call_is_refused(table, settled["id"], 409, "table_not_open")


def test_closing_a_table_is_refused_while_a_round_is_open_and_the_round_can_be_finished(
    table: TableActors, supervisor: APIClient
) -> None:
    ok(open_table(supervisor, table, BANK), 201)
    open_shoe(table)
    opened = open_round(table, ONE_SEAT)

    problem(close_table(supervisor, table, BANK), 409, "round_in_progress")

    assert play_to_settle(table, opened["id"])["state"] == "settled"
    ok(close_table(supervisor, table, BANK), 201)


def test_after_the_shift_ends_the_open_round_finishes_but_nothing_new_starts_until_the_shift_change(
    table: TableActors, supervisor: APIClient, clock: Clock
) -> None:
    ok(open_table(supervisor, table, BANK), 201)
    open_shoe(table)
    opened = open_round(table, ONE_SEAT)
    clock.advance(hours=4)  # 14:00: the swing shift
    table.sign_in()  # the next shift's dealer

    assert play_to_settle(table, opened["id"])["state"] == "settled"
    before = rows()
    problem(post(table.terminal, ROUNDS, {"seats": ONE_SEAT}), 409, "shift_change_required")
    problem(post(table.terminal, "/api/v1/shoes/", {"mode": "reported"}), 409, "shift_change_required")
    problem(buy_in(table, 1, 10_000), 409, "shift_change_required")
    assert rows() == before

    ok(close_table(supervisor, table, BANK), 201)
    ok(open_table(supervisor, table, BANK), 201)
    assert open_round(table, ONE_SEAT)["state"] == "dealing"


def test_a_table_that_was_never_opened_deals_but_takes_no_money(table: TableActors) -> None:
    open_shoe(table)
    assert open_round(table, ONE_SEAT)["state"] == "dealing"
    problem(buy_in(table, 1, 10_000), 409, "table_not_open")
    problem(request_slip(table.terminal, "fill", {"10000": 1}), 409, "table_not_open")


def test_a_reopened_table_deals_again(table: TableActors, supervisor: APIClient, clock: Clock) -> None:
    ok(open_table(supervisor, table, BANK), 201)
    ok(close_table(supervisor, table, BANK), 201)
    problem(post(table.terminal, "/api/v1/shoes/", {"mode": "reported"}), 409, "table_not_open")
    clock.advance(hours=4)  # one opener per shift: the next shift opens it again
    table.sign_in()
    ok(open_table(supervisor, table, BANK), 201)
    open_shoe(table)
    assert open_round(table, ONE_SEAT)["state"] == "dealing"


def test_a_shoe_has_the_table_s_deck_count(make_table: Callable[..., TableActors]) -> None:
    eight = make_table("BJ-08", decks=8)

    refused = problem(
        post(eight.terminal, "/api/v1/shoes/", {"mode": "electronic", "decks": 6}), 422, "invalid_deck_count"
    )
    assert refused["errors"][0]["field"] == "decks"
    assert Shoe.objects.count() == 0

    assert open_shoe(eight, "electronic")["decks"] == 8  # `decks` defaults to the table's
    assert open_shoe(eight, "electronic", decks=8)["cards_remaining"] == 8 * 52
