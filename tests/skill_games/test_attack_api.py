"""A whole game of Blackjack Attack through the API (API.md "Skill games"), on a known deck: the
game as created, every move, the end with its bonuses, the reveal against the commitment, and
the score against a replay of the log alone."""

import hashlib
from collections.abc import Callable

import pytest

from attack.engine.game import Place, Undo, replay
from attack.engine.view import score
from audit.models import AuditEvent
from casino.engine.cards import parse_card
from tests.skill_games.conftest import Played, deck_with
from tests.support.api import ok, problem
from tests.support.gaming_day import Clock

pytestmark = pytest.mark.django_db


def test_a_game_is_created_with_its_commitment_clock_and_one_seat_token(
    start: Callable[..., Played], clock: Clock
) -> None:
    game = start("attack", deck_with("KH AS"))

    created = game.created
    assert created["game"] == "attack"
    assert created["state"] == "playing"
    assert created["seq"] == 0
    assert created["reveal"] is None
    assert created["tournament"] is None
    assert created["started_at"] == "2026-11-20T18:00:00.000Z"
    assert created["ends_at"] == "2026-11-20T18:05:00.000Z"
    assert len(created["commitment"]) == 64
    assert created["needs"] == {"seat": 1, "moves": ["place"], "columns": [1, 2, 3, 4], "must_bust": False}
    assert created["board"]["current"] == "KH"
    assert created["board"]["cards_left"] == 52
    assert [seat["seat"] for seat in created["seats"]] == [1]
    assert created["seats"][0]["token"] == game.token
    # Shown once: a later read lists the seat without its token.
    assert game.read()["seats"] == [{"seat": 1}]
    (event,) = AuditEvent.objects.filter(event_type="skill_games.game.created", subject_id=str(game.id))
    assert event.after is not None
    assert event.after["commitment"] == created["commitment"]


def test_the_seed_example_catch_21_then_a_streak(start: Callable[..., Played], clock: Clock) -> None:
    """RULES.md §3.1: KH→1, QD→2, AS→1 (+50), AC→2 (+50 +25), JS→3 (+75 +25): 225."""
    game = start("attack", deck_with("KH QD AS AC JS"))
    for column in (1, 2, 1, 2, 3):
        clock.advance(seconds=1)
        answer = ok(game.move({"move": "place", "column": column}))

    assert answer["seq"] == 5
    assert answer["score"]["points"] == 225
    assert answer["score"]["total"] == 225
    assert answer["score"]["no_bust_bonus"] is None
    log = game.log()
    assert [(r["seq"], r["move"], r["column"], r["outcome"]["result"]) for r in log] == [
        (1, "place", 1, "stays"),
        (2, "place", 2, "stays"),
        (3, "place", 1, "catch_21"),
        (4, "place", 2, "catch_21"),
        (5, "place", 3, "black_jack_attack"),
    ]
    assert [r["elapsed_s"] for r in log] == [1.0, 2.0, 3.0, 4.0, 5.0]
    assert log[0]["at"] == "2026-11-20T18:00:01.000Z"
    assert all(r["automatic"] is False and r["seat"] == 1 for r in log)


def test_a_whole_game_is_played_out_revealed_and_scored_from_its_log_alone(
    start: Callable[..., Played], clock: Clock
) -> None:
    game = start("attack")
    answer = game.created
    while answer["needs"] is not None:
        clock.advance(seconds=1, milliseconds=500)
        if answer["seq"] == 10:  # one Undo on the way: it is logged and replayed too
            answer = ok(game.move({"move": "undo", "expected_seq": answer["seq"]}))
            continue
        column = answer["needs"]["columns"][0]
        answer = ok(game.move({"move": "place", "column": column, "expected_seq": answer["seq"]}))

    assert answer["state"] == "finished"
    assert answer["seq"] == 54  # 52 cards, one placed twice around an Undo
    assert answer["board"]["cards_left"] == 0
    final = answer["score"]
    assert final["no_bust_bonus"] is not None
    assert final["time_bonus"] == 1000 * (300 - 81) // 300  # 54 moves 1.5 s apart: 81 s, 219 s left
    # The reveal: order and salt hash to the commitment published at the start.
    reveal = answer["reveal"]
    assert reveal["commitment"] == game.created["commitment"]
    text = ",".join(reveal["order"]) + ":" + reveal["salt"]
    assert hashlib.sha256(text.encode("ascii")).hexdigest() == game.created["commitment"]
    # The score from the revealed order and the log alone.
    moves = [
        Place(column=r["column"], at_ms=round(r["elapsed_s"] * 1000))
        if r["move"] == "place"
        else Undo(at_ms=round(r["elapsed_s"] * 1000))
        for r in game.log()
    ]
    replayed = replay([parse_card(c) for c in reveal["order"]], moves, now_ms=300_000)
    assert score(replayed).to_dict() == final
    # A move after the last card: game over.
    problem(game.move({"move": "undo"}), 409, "game_over")
    events = AuditEvent.objects.filter(subject_type="skill_game", subject_id=str(game.id))
    assert list(events.order_by("id").values_list("event_type", flat=True)) == [
        "skill_games.game.created",
        "skill_games.game.ended",
        "skill_games.game.revealed",
    ]
    ended = events.get(event_type="skill_games.game.ended").after
    assert ended is not None
    assert ended["score"] == final


def test_refused_moves_change_nothing_and_come_in_the_rules_order(
    start: Callable[..., Played], clock: Clock
) -> None:
    game = start("attack", deck_with("TH QS 9C KD 8S TC 7D QH 5H"))
    for column in (1, 1, 2, 2, 3, 3, 4, 4):
        ok(game.move({"move": "place", "column": column}))

    refused = problem(game.move({"move": "undo", "expected_seq": 3}), 409, "stale_game")
    assert refused["errors"][0]["field"] == "expected_seq"
    problem(game.move({"move": "swap", "position": 1}), 422, "move_not_allowed")
    problem(game.move({"move": "place"}), 422, "move_not_allowed")
    problem(game.move({"move": "place", "column": 9}), 422, "move_not_allowed")
    problem(game.move({"move": ["place"]}), 400, "validation_error")
    problem(game.move({"move": "place", "column": "1"}), 400, "validation_error")
    # 5H fits nowhere: any column, and it busts.
    busted = ok(game.move({"move": "place", "column": 2, "expected_seq": 8}))
    assert busted["board"]["busts"] == 1
    assert game.log()[-1]["outcome"] == {"card": "5H", "result": "bust", "points": 0}
    assert busted["seq"] == 9
