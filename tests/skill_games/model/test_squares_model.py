"""Random games of Blackjack Squares through the API against the independent model of RULES.md
§3.2 (`squares_model`): every answer, every refusal (an eighth swap, a swap of an empty position, a
cash-in with a position empty...), the log, the end (the fifth cash-in, or the time limit with
-126 for every square not cashed in), and the reveal."""

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from tests.skill_games.conftest import Played
from tests.skill_games.model.common import squares_choice
from tests.skill_games.model.drive import Session, play_many, shuffled
from tests.skill_games.model.squares_model import SquaresModel
from tests.support.gaming_day import Clock

pytestmark = pytest.mark.django_db


def choose(model: SquaresModel, rng: random.Random) -> dict[str, Any]:
    return squares_choice(model.empty(), model.filled(), rng)


def play(seed: int, start: Callable[..., Played], clock: Clock, seen: Counter[str]) -> None:
    rng = random.Random(seed)
    deck = shuffled(rng)
    ending = rng.choices(("cashed_out", "left_alone", "runs_out"), weights=(78, 12, 10))[0]
    settings = (
        {"limit_s": 60} if ending == "runs_out" else rng.choice(({}, {"limit_s": 600}, {"limit_s": 7200}))
    )
    model = SquaresModel(list(deck), limit_s=settings.get("limit_s", 1800))
    game = Session.start(start, clock, model, deck, "squares", **settings)
    pace = 2000 if ending == "runs_out" else rng.choice((100, 800, 3000))
    turn, at = 0, rng.randint(0, 60)
    while model.ended is None:
        if ending == "left_alone" and turn == at:
            game.left_alone(rng, {"move": "cash_in"})
            break
        turn += 1
        body = choose(model, rng)
        if rng.random() < 0.2:
            body["expected_seq"] = model.seq if rng.random() < 0.8 else abs(model.seq + rng.choice((-1, 1)))
        game.wait(rng.randint(0, 2 * pace))
        kind, position = body["move"], body.get("position")
        refusal = (
            "an eighth swap"
            if kind == "swap" and model.swaps_used == 7
            else "a swap of an empty position"
            if kind == "swap" and position in model.empty()
            else "a cash_in with a position empty"
            if kind == "cash_in" and model.empty()
            else "a place on a taken position"
            if kind == "place" and position in model.filled()
            else "another refusal"
        )
        if not game.send(body) and model.ended is None and "expected_seq" not in body:
            seen[refusal] += 1
    game.after_the_end(rng, {"move": "cash_in"} if rng.random() < 0.5 else {"move": "place", "position": 1})
    seen.update(game.refused)
    seen[f"ended {model.ended}"] += 1
    seen["seven swaps"] += model.swaps_used == 7
    seen["-126"] += -126 in model.score()["squares"]
    seen.update(record["move"] for record in model.records)


def test_a_few_random_games_agree_with_the_model(start: Callable[..., Played], clock: Clock) -> None:
    seen = play_many(play, range(5), start, clock)
    assert seen["ended cashed_out"] + seen["ended time_up"] == 5


def test_forty_random_games_agree_with_the_model(start: Callable[..., Played], clock: Clock) -> None:
    seen = play_many(play, range(2000, 2040), start, clock)
    assert seen["ended cashed_out"] + seen["ended time_up"] == 40
    for what in (
        "an eighth swap",
        "a swap of an empty position",
        "a cash_in with a position empty",
        "a place on a taken position",
        "move_not_allowed",
        "game_over",
        "time_up",
        "stale_game",
        "seven swaps",
        "-126",
        "swap",
        "cash_in",
    ):
        assert seen[what] > 0, (what, seen)
