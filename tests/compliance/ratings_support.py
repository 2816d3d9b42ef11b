"""Shared steps of the player-rating tests: patrons on file, a paytable report with known edges,
and rounds played through the terminal API with a patron at a seat."""

from typing import Any

from casino.models import Table
from tests.support.api import TableActors, ok, post
from tests.support.gaming_day import price_paytable
from tests.support.rounds import play_round

# The edges the report of paytable v1 gives in these tests (per unit of handle).
PRIMARY_EDGE = 0.00406


def price_paytable_v1(table: Table) -> None:
    """Give paytable v1 (the one in force) a report with the known edges, for `table`'s house rules:
    the parts of the stored report format that theoretical win reads."""
    price_paytable(version=1, table=table, primary=PRIMARY_EDGE)


def seat(number: int, patron: int | None, *wagers: tuple[str, int]) -> dict[str, Any]:
    return {
        "seat": number,
        "player": None,
        "patron": patron,
        "wagers": [{"kind": kind, "amount_cents": cents} for kind, cents in wagers],
    }


def open_reported_shoe(actors: TableActors) -> None:
    ok(post(actors.terminal, "/api/v1/shoes/", {"mode": "reported"}), 201)


# Rounds of one seat whose outcome is known (the dealer stands on soft 17; RULES.md §1).
def push_18_with_t18(actors: TableActors, patron: int, *, seat_number: int = 2) -> dict[str, Any]:
    """$100 primary and $2 on T18: 18 against the dealer's 18, a push that pays T18 45 to 1."""
    return play_round(
        actors,
        [seat(seat_number, patron, ("primary", 10_000), ("T18", 200))],
        ["TS", "9H", "8C", "9D"],
        [{"seat": seat_number, "hand": 0, "action": "stand"}],
    )


def win_19_against_17(actors: TableActors, patron: int | None, *, seat_number: int = 2) -> dict[str, Any]:
    """$50 primary: 19 beats the dealer's 17."""
    return play_round(
        actors,
        [seat(seat_number, patron, ("primary", 5_000))],
        ["TS", "7H", "9C", "TD"],
        [{"seat": seat_number, "hand": 0, "action": "stand"}],
    )


def lose_17_with_t20(actors: TableActors, patron: int, *, seat_number: int = 2) -> dict[str, Any]:
    """$25 primary and $5 on T20: 17 loses to the dealer's 19, and T20 loses."""
    return play_round(
        actors,
        [seat(seat_number, patron, ("primary", 2_500), ("T20", 500))],
        ["9S", "TH", "8D", "9C"],
        [{"seat": seat_number, "hand": 0, "action": "stand"}],
    )


def double_11_to_21(actors: TableActors, patron: int, *, seat_number: int = 2) -> dict[str, Any]:
    """$20 primary doubled to $40 on 11, drawing to 21; the dealer's 15 draws to 22 and busts."""
    return play_round(
        actors,
        [seat(seat_number, patron, ("primary", 2_000))],
        ["6S", "5H", "5D", "TC"],
        [{"seat": seat_number, "hand": 0, "action": "double"}],
        ["TS", "7C"],
    )


def insured_19_against_ace(actors: TableActors, patron: int, *, seat_number: int = 2) -> dict[str, Any]:
    """$10 primary and $5 insurance against the dealer's Ace: no Blackjack, so insurance loses,
    and 19 beats the dealer's soft 18."""
    return play_round(
        actors,
        [seat(seat_number, patron, ("primary", 1_000))],
        ["TS", "AH", "9C", "7D"],
        [
            {"seat": seat_number, "hand": 0, "action": "insurance", "amount_cents": 500},
            {"seat": seat_number, "hand": 0, "action": "stand"},
        ],
    )
