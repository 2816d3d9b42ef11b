"""Make 21 through the API (RULES.md §3.3; API.md "Skill games"): a match created with one token a
seat and one committed deck a game, each seat's answers with its own hand, RULES.md's examples
played by the seats, the log's records, a match of two games with the button moving and each
game's deck revealed as it ends, and the settings the match does not take."""

import hashlib
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from audit.models import AuditEvent
from casino.engine.cards import ALL_CARDS
from skill_games.models import Game
from tests.skill_games.conftest import GAMES, Match, make21_deck
from tests.support.api import ok, post, problem
from tests.support.gaming_day import Clock

pytestmark = pytest.mark.django_db

# Seats A, B, C of RULES.md's examples: C deals game 1, A moves first, B is next, C previous.
A, B, C = 1, 2, 3


def events(game_id: int) -> list[AuditEvent]:
    return list(AuditEvent.objects.filter(subject_type="skill_game", subject_id=str(game_id)).order_by("id"))


def hashes_to_its_commitment(reveal: dict[str, Any]) -> bool:
    text = ",".join(reveal["order"]) + ":" + reveal["salt"]
    return hashlib.sha256(text.encode("ascii")).hexdigest() == reveal["commitment"]


# --- creation ----------------------------------------------------------------------------------


def test_a_match_is_created_with_a_token_a_seat_and_a_commitment_a_game(
    start_match: Callable[..., Match], clock: Clock
) -> None:
    match = start_match(players=3, games=3, turn_limit_s=60)
    created = match.created

    assert [seat["seat"] for seat in created["seats"]] == [1, 2, 3]
    assert len({seat["token"] for seat in created["seats"]}) == 3
    assert (created["game"], created["state"], created["seq"]) == ("make21", "playing", 0)
    assert created["started_at"] == "2026-11-20T18:00:00.000Z"
    assert created["ends_at"] is None  # no overall limit: the turn clock only
    assert created["needs"] == {
        "seat": 1,
        "mode": "normal",
        "pile": None,
        "deadline": "2026-11-20T18:01:00.000Z",
    }
    assert "hand" not in created  # the creator is staff
    assert (created["reveal"], created["reveals"]) == (None, [])
    board = created["board"]
    assert (board["game_no"], board["games"], board["dealer"], board["draw_pile"]) == (1, 3, 3, 46)
    assert board["seats"] == [{"seat": n, "hand_size": 2, "collected": 0} for n in (1, 2, 3)]
    row = Game.objects.get(pk=match.id)
    assert row.settings == {"players": 3, "games": 3, "turn_limit_s": 60}
    assert created["commitment"] == row.commitments[0]
    assert len(row.decks) == len(row.salts) == len(set(row.commitments)) == 3
    (event,) = events(match.id)
    assert event.event_type == "skill_games.game.created"
    assert event.after is not None
    assert event.after["commitments"] == row.commitments
    assert not {"order", "salt", "decks", "salts"} & set(event.after)  # commitments only


def test_games_default_to_one_a_seat_and_the_turn_limit_to_a_minute(
    start_match: Callable[..., Match],
) -> None:
    match = start_match(players=4)

    assert Game.objects.get(pk=match.id).settings == {"players": 4, "games": 4, "turn_limit_s": 60}
    assert len(match.created["seats"]) == 4
    assert match.created["board"]["dealer"] == 4


@pytest.mark.parametrize(
    ("settings", "field"),
    [
        ({"players": 1}, "players"),
        ({"players": 6}, "players"),
        ({}, "players"),
        ({"players": 3, "games": 0}, "games"),
        ({"players": 3, "games": 21}, "games"),
        ({"players": 3, "turn_limit_s": 4}, "turn_limit_s"),
        ({"players": 3, "turn_limit_s": 601}, "turn_limit_s"),
        ({"players": 3, "limit_s": 600}, "limit_s"),
    ],
)
def test_settings_out_of_range_are_invalid_game_settings(
    pit_boss: APIClient, settings: dict[str, int], field: str
) -> None:
    refused = problem(post(pit_boss, GAMES, {"game": "make21", **settings}), 422, "invalid_game_settings")

    assert refused["errors"][0]["field"] == field
    assert not Game.objects.exists()
    assert not AuditEvent.objects.filter(subject_type="skill_game").exists()


def test_settings_of_the_wrong_type_are_a_validation_error(pit_boss: APIClient) -> None:
    for body in ({"players": "3"}, {"players": 3, "games": 2.5}, {"players": True}):
        problem(post(pit_boss, GAMES, {"game": "make21", **body}), 400, "validation_error")
    assert not Game.objects.exists()


# --- views ---------------------------------------------------------------------------------------


def test_each_seat_sees_its_own_hand_and_only_the_seat_to_move_its_moves(
    start_match: Callable[..., Match], pit_boss: APIClient
) -> None:
    match = start_match(make21_deck("KS 6D", "5H 2C", "9C 3D"))

    first, second, third, staff = match.read(A), match.read(B), match.read(C), match.read(pit_boss)

    assert (first["hand"], second["hand"], third["hand"]) == (["KS", "6D"], ["5H", "2C"], ["9C", "3D"])
    assert "hand" not in staff
    assert first["needs"]["moves"] == ["play"]
    for other in (second, third, staff):
        assert "moves" not in other["needs"]
        assert other["needs"] == {key: value for key, value in first["needs"].items() if key != "moves"}
        assert other["board"] == first["board"]
        assert other["score"] == first["score"]


# --- RULES.md §3.3's examples, played by the seats --------------------------------------------


def opening(start_match: Callable[..., Match], a: str, b: str, c: str, draw: str) -> Match:
    """A plays its first card on P1, B its first on P1, C its first on P2: A moves again, B is next,
    C previous."""
    match = start_match(make21_deck(a, b, c, draw=draw))
    match.play(A, a.split()[0], "P1")
    match.play(B, b.split()[0], "P1")
    match.play(C, c.split()[0], "P2")
    return match


def test_a_card_that_makes_21_gives_the_pile_to_the_next_player_who_then_plays(
    start_match: Callable[..., Match],
) -> None:
    match = opening(start_match, "KS 6D", "5H 2C", "9C 3D", draw="8H 4S TH")
    assert match.read(A)["board"]["piles"][0] == {
        "pile": "P1",
        "cards": ["KS", "5H"],
        "total": 15,
        "set_mode": None,
    }

    after = match.play(A, "6D", "P1")

    assert after["board"]["last"] == {
        "seat": A,
        "move": "play",
        "cards": ["6D"],
        "pile": "P1",
        "outcome": "hit_21",
        "taken_by": B,
        "cards_taken": 3,
        "automatic": False,
    }
    assert after["board"]["piles"][0]["cards"] == []
    assert after["needs"]["seat"] == B
    assert after["needs"]["mode"] == "normal"
    assert after["score"]["total"] == {"1": 0, "2": 3, "3": 0}
    assert after["hand"] == ["8H", "AS"]  # A drew back up to two: 8H, then the first card under the draw
    record = match.log(B)[-1]
    assert {key: record[key] for key in ("seq", "game_no", "outcome", "taken_by", "cards_taken")} == {
        "seq": 4,
        "game_no": 1,
        "outcome": "hit_21",
        "taken_by": B,
        "cards_taken": 3,
    }


def test_two_cards_that_make_21_give_the_next_player_four_and_two_that_do_not_are_refused(
    start_match: Callable[..., Match],
) -> None:
    refused_one = opening(start_match, "KS 4C", "5H 2C", "9C 3D", draw="9D 4S TH")
    refused = problem(
        refused_one.move(A, {"move": "play", "cards": ["4C", "9D"], "pile": "P1"}), 422, "move_not_allowed"
    )
    assert "28" in refused["detail"]
    assert refused_one.read(A)["seq"] == 3

    made = opening(start_match, "KS 4C", "5H 2C", "9C 3D", draw="2D 4S TH")
    after = made.play(A, "4C 2D", "P1")
    assert (after["board"]["last"]["outcome"], after["board"]["last"]["taken_by"]) == ("hit_21", B)
    assert after["board"]["last"]["cards_taken"] == 4


def test_a_double_21_gives_both_piles_and_the_bridge_to_the_next_player(
    start_match: Callable[..., Match],
) -> None:
    # P1 KS 5H, P2 9C 6D, and the mover (B here) holds 6S: the next player (C) takes 5.
    match = start_match(make21_deck("9C 6D", "KS 6S", "5H 2C", draw="8H 4S TH 3H"))
    match.play(A, "9C", "P2")
    match.play(B, "KS", "P1")
    match.play(C, "5H", "P1")
    before = match.play(A, "6D", "P2")
    assert match.read(B)["needs"]["moves"] == ["play", "double"]
    assert "moves" not in before["needs"]

    after = match.play(B, "6S")

    last = after["board"]["last"]
    assert "pile" not in last  # a double names no pile: it goes on both
    assert (last["move"], last["cards"], last["outcome"], last["taken_by"], last["cards_taken"]) == (
        "double",
        ["6S"],
        "double_21",
        C,
        5,
    )
    assert [pile["cards"] for pile in after["board"]["piles"]] == [[], []]


def test_a_seven_sends_the_pile_to_the_previous_player(start_match: Callable[..., Match]) -> None:
    match = start_match(make21_deck("9C 7S", "4H 2C", "2D 3C", draw="8H 4S TH 3H"))
    match.play(A, "9C", "P2")
    match.play(B, "4H", "P2")
    match.play(C, "2D", "P1")

    after = match.play(A, "7S", "P2")

    assert (after["board"]["last"]["outcome"], after["board"]["last"]["taken_by"]) == ("seven", C)
    assert after["board"]["last"]["cards_taken"] == 3
    assert after["needs"]["seat"] == B


def test_a_flush_enters_set_mode_an_extension_passes_it_on_and_who_cannot_extend_takes(
    start_match: Callable[..., Match],
) -> None:
    match = start_match(make21_deck("5S 4S", "9S 2S", "KD 8H", draw="TH 4D 3C"))
    match.play(A, "5S", "P1")
    match.play(B, "9S", "P1")
    match.play(C, "KD", "P2")

    flush = match.play(A, "4S", "P1")
    assert flush["board"]["piles"][0] == {
        "pile": "P1",
        "cards": ["5S", "9S", "4S"],
        "total": 18,
        "set_mode": {"kind": "flush", "suit": "S"},
    }
    assert flush["board"]["last"]["outcome"] == "set_mode"
    assert match.read(B)["needs"] == {
        "seat": B,
        "mode": "set_mode",
        "pile": "P1",
        "deadline": "2026-11-20T18:01:00.000Z",
        "moves": ["extend", "take"],
    }
    extended = ok(match.move(B, {"move": "extend", "cards": ["2S"]}))
    assert extended["board"]["piles"][0]["total"] == 20
    assert extended["board"]["last"]["outcome"] == "extended"
    assert match.read(C)["hand"] == ["8H", "3C"]
    assert match.read(C)["needs"]["moves"] == ["take"]

    problem(match.move(C, {"move": "play", "cards": ["8H"], "pile": "P2"}), 422, "move_not_allowed")
    problem(match.move(C, {"move": "extend", "cards": ["8H"]}), 422, "move_not_allowed")
    problem(match.move(C, {"move": "double", "cards": ["8H"]}), 422, "move_not_allowed")
    taken = ok(match.move(C, {"move": "take"}))

    assert taken["board"]["last"] == {
        "seat": C,
        "move": "take",
        "outcome": "take",
        "taken_by": C,
        "cards_taken": 4,
        "automatic": False,
    }
    log = match.log(A)
    assert [record["seq"] for record in log] == [1, 2, 3, 4, 5, 6]
    assert (log[4]["move"], log[4]["cards"], "pile" in log[4]) == ("extend", ["2S"], False)
    assert (log[5]["move"], log[5]["outcome"], "cards" in log[5], "pile" in log[5]) == (
        "take",
        "take",
        False,
        False,
    )


def test_a_play_over_21_busts_and_goes_to_the_mover(start_match: Callable[..., Match]) -> None:
    match = start_match(make21_deck("KD 9C", "QD 2C", "2H 3C", draw="TH 4D 3H"))
    match.play(A, "KD", "P2")
    match.play(B, "QD", "P2")
    match.play(C, "2H", "P1")

    after = match.play(A, "9C", "P2")

    assert (after["board"]["last"]["outcome"], after["board"]["last"]["taken_by"]) == ("bust", A)
    assert after["score"]["total"] == {"1": 3, "2": 0, "3": 0}


# --- a match of two games ------------------------------------------------------------------------


def test_a_match_of_two_games_moves_the_button_and_reveals_each_deck_as_its_game_ends(
    start_match: Callable[..., Match], clock: Clock, pit_boss: APIClient
) -> None:
    second_deck = tuple(reversed(ALL_CARDS))
    match = start_match(ALL_CARDS, second_deck, players=2, games=2, turn_limit_s=5)
    row = Game.objects.get(pk=match.id)
    assert match.created["commitment"] == row.commitments[0]

    after_first = match.play_out()

    assert after_first["state"] == "playing"
    board = after_first["board"]
    assert (board["game_no"], board["dealer"], board["draw_pile"]) == (2, 1, 48)
    assert after_first["needs"]["seat"] == 2  # the dealer's left plays first
    assert after_first["commitment"] == row.commitments[1]
    assert after_first["reveal"] is None
    (first_reveal,) = after_first["reveals"]
    assert first_reveal["game_no"] == 1
    assert first_reveal["order"] == [str(card) for card in ALL_CARDS]
    assert first_reveal["commitment"] == row.commitments[0]
    assert hashes_to_its_commitment(first_reveal)
    first_total = after_first["score"]["games"][0]["collected"]
    assert sum(first_total.values()) <= 52
    log = match.log(pit_boss)
    assert {record["game_no"] for record in log} == {1}
    assert [event.event_type for event in events(match.id)] == [
        "skill_games.game.created",
        "skill_games.game.revealed",
    ]
    assert events(match.id)[1].after == first_reveal

    # Game 2 is left to the turn clock: its deadlines chain, every one a move made for the seat.
    clock.advance(seconds=1200)
    final = match.read(pit_boss)

    assert final["state"] == "finished"
    assert final["needs"] is None
    assert final["commitment"] == row.commitments[1]
    assert final["reveal"] == {key: value for key, value in final["reveals"][1].items() if key != "game_no"}
    assert [reveal["game_no"] for reveal in final["reveals"]] == [1, 2]
    assert final["reveals"][1]["order"] == [str(card) for card in second_deck]
    assert all(hashes_to_its_commitment(reveal) for reveal in final["reveals"])
    score = final["score"]
    assert [game["game_no"] for game in score["games"]] == [1, 2]
    totals = {seat: sum(game["collected"][seat] for game in score["games"]) for seat in ("1", "2")}
    assert score["total"] == totals
    assert score["winners"] or score["losers"]
    game_two = [record for record in match.log(pit_boss) if record["game_no"] == 2]
    assert game_two
    assert all(record["automatic"] for record in game_two)
    assert [record["elapsed_s"] for record in game_two] == [
        game_two[0]["elapsed_s"] + 5 * i for i in range(len(game_two))
    ]
    assert [event.event_type for event in events(match.id)] == [
        "skill_games.game.created",
        "skill_games.game.revealed",
        "skill_games.game.ended",
        "skill_games.game.revealed",
    ]
    stored = Game.objects.get(pk=match.id)
    assert (stored.end_reason, stored.decks_revealed, stored.score) == ("time_up", 2, score)
    # The clock made the last move: that seat is late, the other finds the match over.
    last_seat = game_two[-1]["seat"]
    problem(match.move(last_seat, {"move": "take"}), 409, "time_up")
    problem(match.move(3 - last_seat, {"move": "take"}), 409, "game_over")


# Each: the seats' hands (A, B, C), the moves played (seat, cards, pile), and what the last did.
MORE_EXAMPLES = {
    "a seven on an empty pile goes to the previous player, the dealer on the first turn": (
        ("7S 2D", "4H 2C", "9C 3D"),
        [(A, "7S", "P1")],
        {"outcome": "seven", "taken_by": C, "cards_taken": 1},
        None,
    ),
    "a flush over 21 is a set, not a bust": (
        ("KD 9D", "QD 2C", "2H 3C"),
        [(A, "KD", "P2"), (B, "QD", "P2"), (C, "2H", "P1"), (A, "9D", "P2")],
        {"outcome": "set_mode", "taken_by": None, "cards_taken": 0},
        {"pile": "P2", "cards": ["KD", "QD", "9D"], "total": 29, "set_mode": {"kind": "flush", "suit": "D"}},
    ),
    "a flush that is also a run locks as a flush": (
        ("4C 6C", "5C 2D", "KH 3S"),
        [(A, "4C", "P1"), (B, "5C", "P1"), (C, "KH", "P2"), (A, "6C", "P1")],
        {"outcome": "set_mode"},
        {"pile": "P1", "cards": ["4C", "5C", "6C"], "total": 15, "set_mode": {"kind": "flush", "suit": "C"}},
    ),
    "two Aces make 21": (
        ("2S AC", "AH 3D", "4S 5D"),
        [(A, "2S", "P1"), (B, "AH", "P2"), (C, "4S", "P1"), (A, "AC", "P2")],
        {"outcome": "hit_21", "taken_by": B, "cards_taken": 2},
        None,
    ),
    "a rank set": (
        ("KS KD", "KH 2C", "9C 3D"),
        [(A, "KS", "P1"), (B, "KH", "P1"), (C, "9C", "P2"), (A, "KD", "P1")],
        {"outcome": "set_mode"},
        {"pile": "P1", "cards": ["KS", "KH", "KD"], "total": 30, "set_mode": {"kind": "rank", "rank": "K"}},
    ),
    "Q K A is a run, but 21 comes first": (
        ("QH AD", "KS 2C", "9C 3D"),
        [(A, "QH", "P1"), (B, "KS", "P1"), (C, "9C", "P2"), (A, "AD", "P1")],
        {"outcome": "hit_21", "taken_by": B, "cards_taken": 3},
        None,
    ),
}


@pytest.mark.parametrize(("hands", "plays", "last", "pile"), MORE_EXAMPLES.values(), ids=MORE_EXAMPLES.keys())
def test_more_of_the_rules_examples_through_the_api(
    start_match: Callable[..., Match],
    hands: tuple[str, str, str],
    plays: list[tuple[int, str, str]],
    last: dict[str, Any],
    pile: dict[str, Any] | None,
) -> None:
    match = start_match(make21_deck(*hands, draw="8H 4D TH"))

    answer: dict[str, Any] = {}
    for seat, cards, on in plays:
        answer = match.play(seat, cards, on)

    assert last.items() <= answer["board"]["last"].items()
    if pile is not None:
        assert pile in answer["board"]["piles"]
