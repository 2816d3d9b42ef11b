"""Make 21's refused moves through the API: malformed and hostile bodies, seats that are not to
move, cards that are not the seat's, another game's token, a reused Idempotency-Key. Each is
answered with its code (never a 500), in the rules' order (game over, clock, expected_seq, seat,
cards, the rest), so a seat that is not to move learns nothing about a hand, and none changes
anything: the row, the log and every seat's answer stay as they were."""

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from audit.models import AuditEvent
from skill_games.models import Game, Move
from tests.skill_games.conftest import Match, Played, make21_deck
from tests.support.api import ok, post, problem

pytestmark = pytest.mark.django_db

A, B, C = 1, 2, 3
# After A's KS on P1: A holds 6D 8H, B 5H 2C, C 9C 3D.
DECK = make21_deck("KS 6D", "5H 2C", "9C 3D", draw="8H 4S TH")


def what_everyone_sees(match: Match, staff: APIClient) -> list[Any]:
    row = Game.objects.values().get(pk=match.id)
    answers = [match.read(seat) for seat in (A, B, C)] + [match.read(staff)]
    for answer in answers:
        answer.pop("server_time")
    moves = list(Move.objects.filter(game_id=match.id).order_by("seq").values())
    events = AuditEvent.objects.filter(subject_type="skill_game", subject_id=str(match.id)).count()
    return [row, answers, moves, events]


@pytest.fixture
def match(start_match: Callable[..., Match]) -> Match:
    played = start_match(DECK)
    played.play(A, "KS", "P1")  # B is to move
    return played


MALFORMED: list[tuple[dict[str, Any], int, str]] = [
    # Wrong types: the request's shape (400).
    ({"move": "play", "cards": "5H", "pile": "P1"}, 400, "validation_error"),
    ({"move": "play", "cards": [5], "pile": "P1"}, 400, "validation_error"),
    ({"move": "play", "cards": [["5H"]], "pile": "P1"}, 400, "validation_error"),
    ({"move": "play", "cards": [None], "pile": "P1"}, 400, "validation_error"),
    ({"move": "play", "cards": ["5H"], "pile": 1}, 400, "validation_error"),
    ({"move": "play", "cards": ["5H"], "pile": ["P1"]}, 400, "validation_error"),
    ({"move": ["play"], "cards": ["5H"], "pile": "P1"}, 400, "validation_error"),
    ({"move": "play", "cards": ["5H"] * 53, "pile": "P1"}, 400, "validation_error"),
    ({"move": "play", "cards": ["5H" * 9], "pile": "P1"}, 400, "validation_error"),
    ({"move": "take", "expected_seq": "1"}, 400, "validation_error"),
    # Cards that are not the seat's (422 card_not_in_hand), checked before the rest.
    ({"move": "play", "cards": ["AS"], "pile": "P1"}, 422, "card_not_in_hand"),
    ({"move": "play", "cards": ["5H", "2C", "KD"], "pile": "P1"}, 422, "card_not_in_hand"),
    ({"move": "play", "cards": ["5H", "5H"], "pile": "P1"}, 422, "card_not_in_hand"),
    ({"move": "play", "cards": ["ZZ"], "pile": "P1"}, 422, "card_not_in_hand"),
    ({"move": "play", "cards": ["5h"], "pile": "P1"}, 422, "card_not_in_hand"),
    ({"move": "play", "cards": ["A\x00S"], "pile": "P1"}, 422, "card_not_in_hand"),
    ({"move": "play", "cards": ["AS"], "pile": "P3"}, 422, "card_not_in_hand"),
    ({"move": "double", "cards": ["6D"]}, 422, "card_not_in_hand"),  # A's card, not B's
    # The rest: moves, piles and fields the game does not have, and illegal moves (422).
    ({"move": "fold"}, 422, "move_not_allowed"),
    ({"move": "place", "column": 1}, 422, "move_not_allowed"),
    ({"move": ""}, 422, "move_not_allowed"),
    ({"move": "play", "cards": ["5H"], "pile": "P3"}, 422, "move_not_allowed"),
    ({"move": "play", "cards": ["5H"], "pile": ""}, 422, "move_not_allowed"),
    ({"move": "play", "cards": ["5H"]}, 422, "move_not_allowed"),
    ({"move": "play", "cards": [], "pile": "P1"}, 422, "move_not_allowed"),
    ({"move": "play", "pile": "P1"}, 422, "move_not_allowed"),
    ({"move": "play", "cards": ["5H"], "pile": "P1", "column": 2}, 422, "move_not_allowed"),
    ({"move": "double", "cards": ["5H"], "pile": "P1"}, 422, "move_not_allowed"),
    ({"move": "double", "cards": ["5H"]}, 422, "move_not_allowed"),  # P2 is empty
    ({"move": "take", "cards": ["5H"]}, 422, "move_not_allowed"),
    ({"move": "take"}, 422, "move_not_allowed"),  # no set-mode pile faces B
    ({"move": "extend", "cards": ["5H"]}, 422, "move_not_allowed"),
    ({"move": "play", "cards": ["5H", "2C"], "pile": "P1"}, 422, "move_not_allowed"),  # KS 5H 2C: 17
    # expected_seq comes before the seat and the cards.
    ({"move": "play", "cards": ["AS"], "pile": "P1", "expected_seq": 0}, 409, "stale_game"),
]


def test_malformed_and_illegal_moves_are_refused_with_their_code_and_change_nothing(
    match: Match, pit_boss: APIClient
) -> None:
    before = what_everyone_sees(match, pit_boss)

    for body, status, code in MALFORMED:
        problem(match.move(B, body), status, code)

    assert what_everyone_sees(match, pit_boss) == before
    ok(match.move(B, {"move": "play", "cards": ["5H"], "pile": "P1", "expected_seq": 1}))


def test_a_seat_that_is_not_to_move_learns_nothing_about_any_hand(match: Match, pit_boss: APIClient) -> None:
    before = what_everyone_sees(match, pit_boss)
    bodies: list[dict[str, Any]] = [
        {"move": "play", "cards": ["9C"], "pile": "P2"},  # C's own card
        {"move": "play", "cards": ["5H"], "pile": "P1"},  # B's card
        {"move": "play", "cards": ["AS"], "pile": "P1"},  # the draw pile's
        {"move": "play", "cards": ["ZZ"], "pile": "P3"},
        {"move": "double", "cards": ["9C", "9C"]},
        {"move": "fold"},
        {"move": "take"},
    ]

    details = {
        problem(match.move(seat, body), 422, "not_your_turn")["detail"] for seat in (A, C) for body in bodies
    }

    assert details == {"Seat 1 is not the one to move.", "Seat 3 is not the one to move."}
    assert what_everyone_sees(match, pit_boss) == before


def test_staff_and_other_games_tokens_do_not_move(
    match: Match, pit_boss: APIClient, start: Callable[..., Played]
) -> None:
    other = start("attack")
    before = what_everyone_sees(match, pit_boss)
    body = {"move": "play", "cards": ["5H"], "pile": "P1"}

    problem(post(other.seat, f"{match.url}moves/", body), 403, "other_game")
    problem(post(match.seats[B], f"{other.url}moves/", {"move": "place", "column": 1}), 403, "other_game")
    problem(post(pit_boss, f"{match.url}moves/", body), 403, "seat_only")

    assert what_everyone_sees(match, pit_boss) == before
    assert other.read()["seq"] == 0


def test_a_reused_idempotency_key_with_another_body_is_refused(match: Match, pit_boss: APIClient) -> None:
    first = ok(match.move(B, {"move": "play", "cards": ["5H"], "pile": "P1"}, key="b-move-1"))
    after = what_everyone_sees(match, pit_boss)

    again = match.move(B, {"move": "play", "cards": ["5H"], "pile": "P1"}, key="b-move-1")
    reused = match.move(B, {"move": "play", "cards": ["2C"], "pile": "P2"}, key="b-move-1")

    assert again.status_code == 200
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first
    problem(reused, 422, "idempotency_key_reused")
    assert what_everyone_sees(match, pit_boss) == after


def test_a_move_after_the_last_game_is_game_over_for_every_seat(start_match: Callable[..., Match]) -> None:
    played = start_match(make21_deck("KS 6D", "5H 2C"), players=2, games=1, turn_limit_s=5)
    assert played.play_out("P2")["state"] == "finished"
    assert Game.objects.get(pk=played.id).end_reason == "played"

    for seat in (A, B):
        problem(played.move(seat, {"move": "take"}), 409, "game_over")
