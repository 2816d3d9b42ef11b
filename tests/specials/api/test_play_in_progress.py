"""The house asks each table's game, through the game registry, whether a round is in play: neither
the shoe nor the table is closed under a round of any game, and a new shoe does not replace it."""

from collections.abc import Callable

import pytest
from rest_framework.test import APIClient

from casino.games import games, play_in_progress
from casino.models import GameKind, Shoe, TableInventory
from tests.support.api import TableActors, close_table, ok, open_table, post, problem
from tests.support.rounds import open_round, open_shoe, primary
from tests.support.specials import API, start

pytestmark = pytest.mark.django_db

BANK = {"100000": 5}


def blackjack_round(
    make_table: Callable[..., TableActors], make_specials_table: Callable[..., TableActors]
) -> TableActors:
    actors = make_table("BJ-01")
    open_shoe(actors)
    open_round(actors, [{"seat": 1, "player": None, "wagers": [primary(1_000)]}])
    return actors


def specials_round(
    make_table: Callable[..., TableActors], make_specials_table: Callable[..., TableActors]
) -> TableActors:
    actors = make_specials_table()
    match = start(actors)
    ok(post(actors.terminal, f"{API}/matches/{match['id']}/rounds/"), 201)
    return actors


ROUND_IN_PLAY: dict[str, Callable[..., TableActors]] = {
    GameKind.TIE_BONUS: blackjack_round,
    GameKind.SPECIAL_POINTS: specials_round,
}


def test_every_registered_game_is_covered_here() -> None:
    assert {game.kind for game in games()} == set(ROUND_IN_PLAY)


@pytest.mark.parametrize("game", list(ROUND_IN_PLAY))
def test_a_shoe_is_not_closed_or_replaced_under_a_round_in_play(
    game: str, make_table: Callable[..., TableActors], make_specials_table: Callable[..., TableActors]
) -> None:
    actors = ROUND_IN_PLAY[game](make_table, make_specials_table)
    shoe = Shoe.objects.get(table=actors.table, closed_at__isnull=True)
    assert play_in_progress(actors.table)

    problem(post(actors.terminal, f"/api/v1/shoes/{shoe.pk}/close/"), 409, "round_in_progress")
    problem(post(actors.terminal, "/api/v1/shoes/", {"mode": "reported"}), 409, "round_in_progress")

    assert list(Shoe.objects.filter(table=actors.table).values_list("pk", "closed_at")) == [(shoe.pk, None)]


@pytest.mark.parametrize("game", list(ROUND_IN_PLAY))
def test_a_table_is_not_closed_under_a_round_in_play(
    game: str,
    make_table: Callable[..., TableActors],
    make_specials_table: Callable[..., TableActors],
    supervisor: APIClient,
) -> None:
    actors = ROUND_IN_PLAY[game](make_table, make_specials_table)
    ok(open_table(supervisor, actors, BANK), 201)

    problem(close_table(supervisor, actors, BANK), 409, "round_in_progress")

    assert list(TableInventory.objects.filter(table=actors.table).values_list("kind", flat=True)) == [
        "opener"
    ]
