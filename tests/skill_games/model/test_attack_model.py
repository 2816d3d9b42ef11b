"""Random games of Blackjack Attack through the API against the independent model of RULES.md §3.1
(`attack_model`): every answer, every refusal, the log, the end (played out with its bonuses, or
left alone until 0:00 with its points so far and no bonus), and the reveal."""

import random
from collections import Counter
from collections.abc import Callable

import pytest

from tests.skill_games.conftest import Played
from tests.skill_games.model.attack_model import CLOCK_MS, AttackModel
from tests.skill_games.model.drive import Session, play_many, shuffled
from tests.support.gaming_day import Clock

pytestmark = pytest.mark.django_db


def play(seed: int, start: Callable[..., Played], clock: Clock, seen: Counter[str]) -> None:
    """One game: a player who mostly aims for scores, sometimes undoes (twice in a row too), tries
    columns that are not legal and moves that do not exist, at a pace of its own; some games are
    left alone until the clock runs out, some play right at its last millisecond."""
    rng = random.Random(seed)
    deck = shuffled(rng)
    model = AttackModel(list(deck))
    game = Session.start(start, clock, model, deck, "attack")
    ending = rng.choices(("played_out", "left_alone", "last_millisecond"), weights=(80, 12, 8))[0]
    pace = rng.choice((100, 800, 1500, 3000, 5500))  # the mean wait between moves, ms
    turn, at = 0, rng.randint(0, 55)  # when the game is left alone, or played at 299.999 s
    while model.ended is None:
        if ending == "left_alone" and turn == at:
            game.left_alone(rng, {"move": "place", "column": rng.choice((1, 2, 3, 4))})
            break
        if ending == "last_millisecond" and turn == at:
            game.wait(max(0, CLOCK_MS - 1 - game.now_ms))
            pace = 1
        turn += 1
        legal = model.legal()
        r = rng.random()
        body: dict[str, object]
        if r < 0.08:
            body = {"move": "undo"}
        elif r < 0.12:
            body = {
                "move": "place",
                "column": rng.choice([n for n in (1, 2, 3, 4) if n not in legal] or [0, 5, 9]),
            }
        elif r < 0.13:
            body = {"move": rng.choice(("swap", "cash_in", "hit"))}
        else:
            aimed = [n for n in legal if model.scores_on(n)]
            body = {"move": "place", "column": rng.choice(aimed if aimed and rng.random() < 0.6 else legal)}
        if rng.random() < 0.2:
            body["expected_seq"] = model.seq if rng.random() < 0.8 else abs(model.seq + rng.choice((-1, 1)))
        game.wait(rng.randint(0, 2 * pace))
        illegal = body["move"] == "place" and body["column"] not in legal
        if game.send(body):
            if body["move"] == "undo" and rng.random() < 0.5:
                seen["an Undo straight after an Undo refused"] += not game.send({"move": "undo"})
        elif model.ended is None and "expected_seq" not in body:
            seen["a column that is not legal refused"] += illegal
    game.after_the_end(rng, {"move": "undo"} if rng.random() < 0.5 else {"move": "place", "column": 1})
    if model.ended == "deck_played_out":  # RULES.md §3.1: exactly two Black Jack Attacks
        assert model.score()["black_jack_attack"] == 2
    seen.update(game.refused)
    seen[f"ended {model.ended}"] += 1
    seen.update(record["outcome"]["result"] for record in model.records)
    seen["time_bonus"] += bool(model.score()["time_bonus"])
    seen["no_bust_bonus"] += bool(model.score()["no_bust_bonus"])


def test_a_few_random_games_agree_with_the_model(start: Callable[..., Played], clock: Clock) -> None:
    seen = play_many(play, range(5), start, clock)
    assert seen["ended deck_played_out"] + seen["ended time_up"] == 5


def test_forty_random_games_agree_with_the_model(start: Callable[..., Played], clock: Clock) -> None:
    # Seed 1071 plays a whole deck without a bust, which random play rarely does.
    seen = play_many(play, [*range(1000, 1039), 1071], start, clock)
    assert seen["ended deck_played_out"] + seen["ended time_up"] == 40
    # The games went where the rules have something to say.
    for what in ("move_not_allowed", "game_over", "time_up", "stale_game", "bust", "stays", "undone"):
        assert seen[what] > 0, (what, seen)
    for what in (
        "catch_21",
        "black_jack_attack",
        "catch_21+five_card_charlie",
        "time_bonus",
        "no_bust_bonus",
    ):
        assert seen[what] > 0, (what, seen)
