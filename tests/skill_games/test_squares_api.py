"""A whole game of Blackjack Squares through the API (API.md "Skill games"), with swaps: the deck's
bottom card is in no answer and no log record, for the seat or for staff, until a swap brings it
in; the score equals a replay of the log alone."""

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from casino.engine.cards import ALL_CARDS, parse_card
from squares.engine.game import CashIn, Place, Swap, replay
from squares.engine.view import score
from tests.skill_games.conftest import Played, deck_with
from tests.support.api import ok, problem
from tests.support.gaming_day import Clock

pytestmark = pytest.mark.django_db

CARD = re.compile(r'"([2-9TJQKA][SHDC])"')


def cards_in(*answers: Any) -> set[str]:
    return set(CARD.findall(json.dumps(answers)))


def test_the_seed_example_square_scores_51(start: Callable[..., Played], clock: Clock) -> None:
    """RULES.md §3.2: `AS 5H 5D / KC 9S 2H / QD 8C 4S` scores 51."""
    game = start("squares", deck_with("AS 5H 5D KC 9S 2H QD 8C 4S"), limit_s=600)
    assert game.created["ends_at"] == "2026-11-20T18:10:00.000Z"
    for position in range(1, 10):
        answer = ok(game.move({"move": "place", "position": position}))
    assert answer["needs"]["moves"] == ["swap", "cash_in"]
    cashed = ok(game.move({"move": "cash_in"}))
    assert cashed["score"] == {"squares": [51], "total": 51}
    assert cashed["board"]["square"] == 2
    assert game.log()[-1]["outcome"] == {"square": 1, "score": 51}


def test_refusals_of_the_rules(start: Callable[..., Played], clock: Clock) -> None:
    game = start("squares")
    problem(game.move({"move": "swap", "position": 1}), 422, "move_not_allowed")  # an empty position
    problem(game.move({"move": "cash_in"}), 422, "move_not_allowed")  # positions empty
    problem(game.move({"move": "undo"}), 422, "move_not_allowed")  # Attack's move
    problem(game.move({"move": "place"}), 422, "move_not_allowed")
    ok(game.move({"move": "place", "position": 1}))
    problem(game.move({"move": "place", "position": 1}), 422, "move_not_allowed")  # taken
    assert game.read()["seq"] == 1


def test_a_whole_game_with_swaps_never_shows_the_bottom_card_before_it_comes_in(
    start: Callable[..., Played], clock: Clock, pit_boss: APIClient
) -> None:
    deck = ALL_CARDS
    game = start("squares", deck)
    answer = game.created
    shown: set[str] = set()
    swapped_in = 0
    while answer["needs"] is not None:
        clock.advance(seconds=2)
        needs = answer["needs"]
        if "cash_in" in needs["moves"]:
            body: dict[str, Any] = {"move": "cash_in"}
        elif needs["swappable"] and len(needs["swappable"]) == 4 and swapped_in < 7:
            body = {"move": "swap", "position": needs["swappable"][0]}
            swapped_in += 1
        else:
            body = {"move": "place", "position": needs["positions"][0]}
        answer = ok(game.move({**body, "expected_seq": answer["seq"]}))
        board = answer["board"]
        shown |= {card for card in board["positions"] if card} | (
            {board["current"]} if board["current"] else set()
        )
        # The cards still hidden: under the current card down to the bottom, which no answer,
        # no log record and no staff read may name (the current card is face up).
        top = 52 - board["cards_left"] - swapped_in  # cards placed (swaps take from the bottom)
        hidden = {str(card) for card in deck[top + 1 : 52 - swapped_in]}
        if answer["state"] == "playing":
            seen = cards_in(answer, game.log(), game.read(pit_boss), game.log(pit_boss), game.read())
            assert seen & hidden == set(), (answer["seq"], seen & hidden)

    assert swapped_in == 7
    assert answer["state"] == "finished"
    assert answer["seq"] == 45 + 7 + 5
    assert answer["board"]["cards_left"] == 0
    assert len(answer["score"]["squares"]) == 5
    assert str(deck[-1]) in shown  # the first swap brought the bottom card in
    moves = []
    for r in game.log():
        at = round(r["elapsed_s"] * 1000)
        moves.append(
            CashIn(at_ms=at)
            if r["move"] == "cash_in"
            else (Swap if r["move"] == "swap" else Place)(position=r["position"], at_ms=at)
        )
    order = [parse_card(c) for c in answer["reveal"]["order"]]
    assert score(replay(order, moves, now_ms=answer["seq"] * 2000, limit_s=1800)).to_dict() == answer["score"]
