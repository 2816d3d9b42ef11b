"""Properties of every Make 21 match on the independent model (RULES.md §3.3), over random matches of
2-5 players: the random player of `players.py` (mostly legal moves, sometimes refused ones), moves
from seats not to move, stale `expected_seq`s, late moves and idle turns the clock plays."""

import contextlib
import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.make21.model.make21_model import (
    PILES,
    Make21Model,
    card_choices,
    is_run,
    judge,
    low_total,
    makes_21,
    malformed,
    purity,
)
from tests.make21.model.players import CARDS, choose
from tests.skill_games.model.common import Refused

MATCHES = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MOVES_A_GAME = 2 * 52  # every move but a take plays a card, and every take follows a card played


def fingerprint(model: Make21Model) -> tuple[str, int, int]:
    """The model's state, cheaply: the log and the games ended only grow."""
    state = {k: v for k, v in vars(model).items() if k not in ("decks", "records", "finished")}
    return json.dumps(state, sort_keys=True), len(model.records), len(model.finished)


def check_cards(model: Make21Model) -> None:
    """The 52 cards of each game are all accounted for, each once: in the game in play in a hand,
    the draw pile, a pile or a collection; in an ended game collected or discarded."""
    for game in model.finished:
        kept = [card for cards in game["collections"] for card in cards] + game["discarded"]
        assert sorted(kept) == sorted(model.decks[game["game_no"] - 1])
    if model.ended is None:
        held = [card for hand in model.hands for card in hand]
        laid = [card for pile in PILES for card in model.piles[pile]]
        taken = [card for cards in model.collections for card in cards]
        assert sorted([*held, *model.draw, *laid, *taken]) == sorted(model.decks[model.game_no - 1])


def check_piles(model: Make21Model) -> None:
    """At a turn's start no pile holds a 7 or reads 21; at most one pile is in set-mode, it faces
    the seat to move and is still its locked type; the other piles are neither sets nor busts."""
    if model.ended is not None:
        return
    locked = [pile for pile in PILES if model.locks[pile] is not None]
    assert len(locked) <= 1
    needs = model.needs()
    assert needs is not None
    assert (needs["mode"], needs["pile"]) == (("set_mode", locked[0]) if locked else ("normal", None))
    for pile in PILES:
        cards, lock = model.piles[pile], model.locks[pile]
        assert not any(card[0] == "7" for card in cards)
        assert not makes_21(cards)
        if lock is None:
            assert purity(cards) is None
            assert low_total(cards) <= 21
        elif lock["kind"] == "flush":
            assert {card[1] for card in cards} == {lock["suit"]}
        elif lock["kind"] == "rank":
            assert {card[0] for card in cards} == {lock["rank"]}
        else:
            assert is_run(cards)


def check_turn(model: Make21Model) -> None:
    """The seat to move holds cards; hands hold at most 2 (exactly 2 while the draw pile lasts); the
    clock runs from the last logged move (or the start); the moves listed are exactly those of
    which some body is legal."""
    assert model.seq == len(model.records)
    assert [r["seq"] for r in model.records] == list(range(1, model.seq + 1))
    times = [r["elapsed_ms"] for r in model.records]
    assert times == sorted(times)
    if model.ended is not None:
        assert model.needs() is None
        return
    assert model.mover is not None
    assert model.hands[model.mover - 1]
    for hand in model.hands:
        assert len(hand) == 2 if model.draw else len(hand) <= 2
    assert model.clock_from == (model.records[-1]["elapsed_ms"] if model.records else 0)
    assert model.deadline() == model.clock_from + model.turn_limit_ms
    hand = model.hands[model.mover - 1]
    bodies: list[dict[str, Any]] = [{"move": "take"}]
    for cards in card_choices(hand):
        bodies += [{"move": "play", "cards": cards, "pile": pile} for pile in PILES]
        bodies += [{"move": "double", "cards": cards}, {"move": "extend", "cards": cards}]
    legal = {body["move"] for body in bodies if model.legal(body)}
    assert sorted(legal) == sorted(model.allowed())
    assert model.legal(model.automatic_move())


def check_views(model: Make21Model) -> None:
    """A hand to its seat only, the moves to the seat to move only; the board and score are the
    same for all; the score adds up and is judged when the match ends."""
    staff = model.game()
    assert "hand" not in staff
    for seat in model.seats():
        view = model.game(seat)
        assert view["hand"] == model.hands[seat - 1]
        assert (view["board"], view["score"], view["seq"]) == (staff["board"], staff["score"], staff["seq"])
        if view["needs"] is not None:
            assert ("moves" in view["needs"]) == (seat == model.mover)
    board, score = staff["board"], staff["score"]
    assert [s["collected"] for s in board["seats"]] == [len(c) for c in model.collections]
    assert [s["hand_size"] for s in board["seats"]] == [len(h) for h in model.hands]
    assert board["draw_pile"] == len(model.draw)
    for key in map(str, model.seats()):
        assert score["total"][key] == sum(game["collected"][key] for game in score["games"])
    assert sum(score["total"].values()) <= 52 * model.game_no
    if model.ended is None:
        assert (score["winners"], score["losers"]) == ([], [])
        assert [g["game_no"] for g in score["games"]] == list(range(1, model.game_no + 1))
    else:
        assert (score["winners"], score["losers"]) == judge(score["total"])
        assert len(score["games"]) == model.games


def check_records(model: Make21Model) -> None:
    """Who collected fits the outcome; no game takes more moves than its cards allow."""
    for record in model.records:
        outcome, taken_by = record["outcome"], record["taken_by"]
        if outcome in ("take", "bust"):
            assert taken_by == record["seat"]
        if outcome in ("stays", "set_mode", "extended"):
            assert (taken_by, record["cards_taken"]) == (None, 0)
        if outcome == "seven":
            assert taken_by is not None
            assert any(card[0] == "7" for card in record["cards"])
        assert ("cards" in record) == (record["move"] != "take")
        assert ("pile" in record) == (record["move"] == "play")
    per_game = Counter(record["game_no"] for record in model.records)
    assert all(moves <= MOVES_A_GAME for moves in per_game.values())


def check_replay(model: Make21Model) -> None:
    """State and score come from the log alone: the records replayed on the same decks (each move at
    its time, each automatic one by the clock) give the same log and the same state."""
    again = Make21Model(model.decks, model.players, model.games, model.turn_limit_ms)
    for record in model.records:
        if record["automatic"]:
            again.tick(record["elapsed_ms"])
        else:
            body = {key: record[key] for key in ("move", "cards", "pile") if key in record}
            again.move(body, record["seat"], record["elapsed_ms"])
    assert again.records == model.records
    assert fingerprint(again) == fingerprint(model)
    assert again.finished == model.finished


def check(model: Make21Model) -> None:
    check_cards(model)
    check_piles(model)
    check_turn(model)
    check_views(model)


def play_match(
    seed: int, players: int, games: int, limit_ms: int, *, idle: float, wrong_seat: float, seen: Counter[str]
) -> Make21Model:
    """One match played to its end: each step either waits past the deadline (the clock moves) or
    sends the random player's move, from the seat to move or another, sometimes late or stale; a
    refusal changes nothing; after the end, a move is `game_over`."""
    rng = random.Random(seed)
    decks = [rng.sample(CARDS, 52) for _ in range(games)]
    model = Make21Model(decks, players, games, limit_ms)
    check(model)
    now = 0
    for _ in range(20 * MOVES_A_GAME * games):
        if model.ended is not None:
            break
        deadline = model.deadline()
        assert deadline is not None
        if rng.random() < idle:
            now = deadline + rng.choice((0, 1, rng.randint(0, 2 * limit_ms)))
            model.tick(now)
            check(model)
            continue
        now += rng.choice((0, 1, rng.randint(0, limit_ms // 2)))
        mover = (model.needs() or {}).get("seat", 1)
        seat = rng.randint(1, players) if rng.random() < wrong_seat else mover
        body = choose(model.game(seat), rng)
        if rng.random() < 0.05:  # chosen in time, sent late: the deadline acts first
            now = deadline + rng.choice((0, 1, rng.randint(0, limit_ms)))
        if rng.random() < 0.1:
            body["expected_seq"] = model.seq + rng.choice((0, 0, -1, 1))
        model.tick(now)
        check(model)
        before = fingerprint(model)
        try:
            model.move(body, seat, now)
        except Refused as refused:
            assert fingerprint(model) == before, body
            seen[refused.code] += 1
            continue
        check(model)
        seen["accepted"] += 1
    assert model.ended == "match_over"
    check_records(model)
    check_replay(model)
    seen.update(record["outcome"] for record in model.records)
    seen["automatic"] += sum(record["automatic"] for record in model.records)
    before = fingerprint(model)
    late = choose(model.game(1), rng)
    with pytest.raises(Refused) as refusal:
        model.move(late, rng.randint(1, players), now + rng.randint(0, limit_ms))
    assert refusal.value.code == ("validation_error" if malformed(late) else "game_over")
    assert fingerprint(model) == before
    seen["game_over"] += 1
    return model


@MATCHES
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 5),
    games=st.integers(1, 3),
    limit_ms=st.sampled_from([5_000, 60_000]),
    idle=st.sampled_from([0.0, 0.05, 0.3]),
    wrong_seat=st.sampled_from([0.0, 0.1, 0.3]),
)
def test_random_matches_keep_every_rule(
    seed: int, players: int, games: int, limit_ms: int, idle: float, wrong_seat: float
) -> None:
    play_match(seed, players, games, limit_ms, idle=idle, wrong_seat=wrong_seat, seen=Counter())


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5), moves=st.integers(0, 60))
def test_a_match_left_alone_ends_by_the_clock(seed: int, players: int, moves: int) -> None:
    """From any position, nobody moving: the deadlines chain until every game has ended."""
    rng = random.Random(seed)
    model = Make21Model([rng.sample(CARDS, 52) for _ in range(2)], players, 2, 10_000)
    now = 0
    for _ in range(moves):
        if model.ended is not None:
            break
        seat = (model.needs() or {}).get("seat", 1)
        now += rng.randint(0, 9_000)
        with contextlib.suppress(Refused):
            model.move(choose(model.game(seat), rng), seat, now)
    count = len(model.records)
    model.tick(now + 10**9)
    assert model.ended == "match_over"
    automatic = model.records[count:]
    assert all(record["automatic"] for record in automatic)
    assert len(automatic) <= 2 * MOVES_A_GAME
    check_cards(model)
    check_records(model)
    check_views(model)


def test_random_matches_go_where_the_rules_have_something_to_say() -> None:
    """Seeded matches reach every outcome and every refusal."""
    seen: Counter[str] = Counter()
    for seed in range(30):
        rng = random.Random(seed)
        play_match(
            seed,
            rng.randint(2, 5),
            rng.randint(1, 3),
            rng.choice((5_000, 60_000)),
            idle=rng.choice((0.0, 0.05, 0.2)),
            wrong_seat=rng.choice((0.05, 0.2)),
            seen=seen,
        )
    for what in (
        "stays",
        "seven",
        "hit_21",
        "double_21",
        "set_mode",
        "extended",
        "bust",
        "take",
        "automatic",
        "move_not_allowed",
        "card_not_in_hand",
        "not_your_turn",
        "time_up",
        "stale_game",
        "game_over",
    ):
        assert seen[what] > 0, (what, seen)
