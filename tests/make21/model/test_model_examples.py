"""Every example of RULES.md §3.3 on the independent model of Make 21, then the rules the examples do
not show (the deal, the button, drawing, the endgame, the score, the turn clock and its automatic
moves, the refusals and their order, what each caller sees): the model is proved here, from the rule
text, before it is held against the service."""

import copy
from typing import Any

import pytest

from tests.make21.model.make21_model import (
    Make21Model,
    double_ok,
    is_run,
    judge,
    makes_21,
    play_outcome,
    shown_total,
)
from tests.skill_games.model.common import Refused

LIMIT = 60_000
A, B, C = 1, 2, 3  # RULES.md's seats: C deals, A moves, B is next, C previous
# Every card; the ones a position does not name fill hands and the draw pile in this order, 7s and
# Aces last, so that a filler card is never a surprise.
CARDS = [rank + suit for rank in "23456890TJQK7A".replace("0", "") for suit in "SHDC"]


def arranged(
    hands: dict[int, list[str]],
    piles: dict[str, list[str]] | None = None,
    *,
    players: int = 3,
    draws: tuple[str, ...] = (),
    endgame: bool = False,
    games: int = 1,
) -> Make21Model:
    """Game 1 of a match at `players` seats, just dealt (seat n deals, seat 1 moves first, the
    dealer is the previous player): each seat in `hands` holds exactly those cards (the others two
    filler cards), `draws` are the top of the draw pile, and `piles` are laid on the piles. An
    `endgame` has no draw pile. The cards a position leaves out of play go to the dealer's
    collection, so the 52 stay accounted for."""
    piles = piles or {}
    named = [*(c for h in hands.values() for c in h), *(c for p in piles.values() for c in p), *draws]
    assert len(set(named)) == len(named)
    rest = [card for card in CARDS if card not in named]
    dealt = {}
    for seat in range(1, players + 1):
        held = list(hands.get(seat, []))
        dealt[seat] = held + [rest.pop(0) for _ in range(2 - len(held))]
    laid = [card for cards in piles.values() for card in cards]
    first = [dealt[seat][0] for seat in dealt] + [dealt[seat][1] for seat in dealt]
    deck = [*first, *draws, *rest, *laid]
    others = [list(CARDS) for _ in range(games - 1)]
    model = Make21Model([deck, *others], players, games, LIMIT)
    away = model.collections[players - 1]
    for pile, cards in piles.items():
        model.draw = [card for card in model.draw if card not in cards]
        model.piles[pile] = list(cards)
    for seat, held in hands.items():
        away += [card for card in model.hands[seat - 1] if card not in held]
        model.hands[seat - 1] = list(held)
    if endgame:
        away += model.draw
        model.draw = []
    return model


def play(cards: str, pile: str) -> dict[str, Any]:
    return {"move": "play", "cards": cards.split(), "pile": pile}


def refused(model: Make21Model, body: dict[str, Any], seat: int, at_ms: int = 0) -> str:
    """The code `model` refuses `body` with; the refusal changes nothing."""
    model.tick(at_ms)  # the deadlines up to then act first, by themselves
    before = copy.deepcopy(model)
    with pytest.raises(Refused) as refusal:
        model.move(body, seat, at_ms)
    assert model == before
    return refusal.value.code


def last(model: Make21Model) -> dict[str, Any]:
    return model.records[-1]


def taken(model: Make21Model) -> tuple[str, int | None, int]:
    """The last move's outcome, who collected and how many cards."""
    record = model.records[-1]
    return record["outcome"], record["taken_by"], record["cards_taken"]


def to_move(model: Make21Model) -> int:
    needs = model.needs()
    assert needs is not None
    return int(needs["seat"])


def collected(model: Make21Model) -> dict[int, int]:
    return {s["seat"]: s["collected"] for s in model.board()["seats"]}


def pile(model: Make21Model, name: str) -> dict[str, Any]:
    return next(p for p in model.board()["piles"] if p["pile"] == name)


# --- the examples of RULES.md §3.3 ----------------------------------------------------------------


def test_a_hit_21_goes_to_the_next_player_who_then_plays_a_normal_turn() -> None:
    model = arranged({A: ["6D", "2C"]}, {"P1": ["KS", "5H"]})
    model.move(play("6D", "P1"), A, 1000)
    assert last(model) == {
        "seq": 1,
        "seat": A,
        "move": "play",
        "cards": ["6D"],
        "pile": "P1",
        "game_no": 1,
        "outcome": "hit_21",
        "taken_by": B,
        "cards_taken": 3,
        "automatic": False,
        "elapsed_ms": 1000,
    }
    assert pile(model, "P1") == {"pile": "P1", "cards": [], "total": 0, "set_mode": None}
    assert collected(model)[B] == 3
    assert model.needs() == {"seat": B, "mode": "normal", "pile": None, "deadline": 1000 + LIMIT}
    model.move(play(model.hands[B - 1][0], "P2"), B, 2000)
    assert last(model)["seat"] == B


def test_two_cards_make_a_hit_21_and_two_that_do_not_are_refused() -> None:
    model = arranged({A: ["4C", "2D"]}, {"P1": ["KS", "5H"]})
    model.move(play("4C 2D", "P1"), A, 0)
    assert taken(model) == ("hit_21", B, 4)
    model = arranged({A: ["4C", "9D"]}, {"P1": ["KS", "5H"]})
    assert refused(model, play("4C 9D", "P1"), A) == "move_not_allowed"


@pytest.mark.parametrize("second", [["9C", "6D"], ["AC", "4D"]])
def test_a_double_21_gives_both_piles_and_the_bridge_to_the_next_player(second: list[str]) -> None:
    model = arranged({A: ["6S", "3H"]}, {"P1": ["KS", "5H"], "P2": second})
    assert model.game(A)["needs"]["moves"] == ["play", "double"]
    model.move({"move": "double", "cards": ["6S"]}, A, 0)
    assert taken(model) == ("double_21", B, 5)
    assert [p["cards"] for p in model.board()["piles"]] == [[], []]
    assert collected(model)[B] == 5


def test_a_7_sends_the_pile_to_the_previous_player_then_the_next_one_plays() -> None:
    model = arranged({A: ["7S", "3H"]}, {"P2": ["9C", "4H"]})
    dealer = collected(model)[C]
    model.move(play("7S", "P2"), A, 0)
    assert taken(model) == ("seven", C, 3)
    assert collected(model)[C] == dealer + 3
    assert to_move(model) == B
    model = arranged({A: ["7S", "3H"]})
    model.move(play("7S", "P1"), A, 0)
    assert taken(model) == ("seven", C, 1)


def test_a_flush_enters_set_mode_is_extended_and_taken_by_who_cannot_extend() -> None:
    model = arranged({A: ["4S", "2H"], B: ["2S", "QD"], C: ["8H", "3C"]}, {"P1": ["5S", "9S"], "P2": ["4D"]})
    model.move(play("4S", "P1"), A, 0)
    assert last(model)["outcome"] == "set_mode"
    assert pile(model, "P1") == {
        "pile": "P1",
        "cards": ["5S", "9S", "4S"],
        "total": 18,
        "set_mode": {"kind": "flush", "suit": "S"},
    }
    assert model.game(B)["needs"] == {
        "seat": B,
        "mode": "set_mode",
        "pile": "P1",
        "deadline": LIMIT,
        "moves": ["extend", "take"],
    }
    assert refused(model, play("QD", "P2"), B) == "move_not_allowed"
    model.move({"move": "extend", "cards": ["2S"]}, B, 0)
    assert taken(model)[:2] == ("extended", None)
    assert pile(model, "P1")["total"] == 20
    assert model.game(C)["needs"]["moves"] == ["take"]
    for body in (
        {"move": "extend", "cards": ["8H"]},
        {"move": "extend", "cards": ["3C"]},
        play("8H", "P2"),
        play("3C", "P1"),
        {"move": "double", "cards": ["3C"]},
    ):
        assert refused(model, body, C) == "move_not_allowed"
    before = collected(model)[C]
    model.move({"move": "take"}, C, 0)
    assert last(model) | {"seq": 0} == {
        "seq": 0,
        "seat": C,
        "move": "take",
        "game_no": 1,
        "outcome": "take",
        "taken_by": C,
        "cards_taken": 4,
        "automatic": False,
        "elapsed_ms": 0,
    }
    assert collected(model)[C] == before + 4
    assert pile(model, "P1") == {"pile": "P1", "cards": [], "total": 0, "set_mode": None}
    assert model.needs() == {"seat": A, "mode": "normal", "pile": None, "deadline": LIMIT}


def test_an_extension_to_21_is_a_hit_21_for_the_player_after() -> None:
    model = arranged({A: ["4S", "2H"], B: ["3S", "QD"], C: ["8H", "3C"]}, {"P1": ["5S", "9S"]})
    model.move(play("4S", "P1"), A, 0)
    before = collected(model)[C]
    model.move({"move": "extend", "cards": ["3S"]}, B, 0)
    assert taken(model) == ("hit_21", C, 4)
    assert collected(model)[C] == before + 4
    assert model.game(C)["needs"] == {
        "seat": C,
        "mode": "normal",
        "pile": None,
        "deadline": LIMIT,
        "moves": ["play"],
    }


def test_a_set_over_21_is_no_bust_and_the_same_card_off_suit_busts() -> None:
    model = arranged({A: ["9D", "2H"]}, {"P2": ["KD", "QD"]})
    model.move(play("9D", "P2"), A, 0)
    assert last(model)["outcome"] == "set_mode"
    assert pile(model, "P2")["total"] == 29
    assert pile(model, "P2")["set_mode"] == {"kind": "flush", "suit": "D"}
    model = arranged({A: ["9C", "2H"]}, {"P2": ["KD", "QD"]})
    model.move(play("9C", "P2"), A, 0)
    assert taken(model) == ("bust", A, 3)
    assert collected(model)[A] == 3


def test_when_every_play_busts_the_player_must_bust() -> None:
    model = arranged({A: ["5C", "6H"]}, {"P1": ["KS", "9H"], "P2": ["TC", "8D"]})
    assert model.game(A)["needs"]["moves"] == ["play"]
    for card in ("5C", "6H"):
        for name in ("P1", "P2"):
            assert play_outcome(model.piles[name], [card]) == "bust"
            assert refused(model, {"move": "double", "cards": [card]}, A) == "move_not_allowed"
        assert refused(model, play("5C 6H", "P1"), A) == "move_not_allowed"
    assert refused(model, play("5C 6H", "P2"), A) == "move_not_allowed"
    assert refused(model, {"move": "double", "cards": ["5C", "6H"]}, A) == "move_not_allowed"
    model.move(play("5C", "P1"), A, 0)
    assert taken(model) == ("bust", A, 3)


def test_a_flush_that_is_a_run_locks_as_a_flush() -> None:
    model = arranged({A: ["6C", "2H"], B: ["KC", "3H"]}, {"P1": ["4C", "5C"]})
    model.move(play("6C", "P1"), A, 0)
    assert pile(model, "P1")["set_mode"] == {"kind": "flush", "suit": "C"}
    assert pile(model, "P1")["total"] == 15
    assert refused(model, {"move": "extend", "cards": ["3H"]}, B) == "move_not_allowed"
    model.move({"move": "extend", "cards": ["KC"]}, B, 0)
    assert last(model)["outcome"] == "extended"
    assert pile(model, "P1")["total"] == 25
    assert pile(model, "P1")["set_mode"] == {"kind": "flush", "suit": "C"}
    # Had A played 6C 7C: a flush (and a run) with a 7 in it, so C takes the 4 cards.
    model = arranged({A: ["6C", "7C"]}, {"P1": ["4C", "5C"]})
    model.move(play("6C 7C", "P1"), A, 0)
    assert taken(model) == ("seven", C, 4)


@pytest.mark.parametrize(
    ("laid", "card", "cards_taken"),
    [
        ({"P1": ["AS", "5H"]}, play("5D", "P1"), 3),
        ({"P2": ["AH"]}, play("AC", "P2"), 2),
        ({"P1": ["QH", "KS"]}, play("AD", "P1"), 3),  # a run too, but 21 comes first
    ],
)
def test_aces_are_read_for_the_player(
    laid: dict[str, list[str]], card: dict[str, Any], cards_taken: int
) -> None:
    model = arranged({A: [*card["cards"], "2H"]}, laid)
    model.move(card, A, 0)
    assert taken(model) == ("hit_21", B, cards_taken)


def test_facing_a_set_a_player_who_cannot_extend_must_take_and_a_fitting_7_goes_back() -> None:
    model = arranged({A: ["4S", "2H"], B: ["7H", "9D"]}, {"P1": ["5S", "9S"]})
    model.move(play("4S", "P1"), A, 0)
    assert model.game(B)["needs"]["moves"] == ["take"]
    for body in ({"move": "extend", "cards": ["7H"]}, {"move": "extend", "cards": ["9D"]}, play("7H", "P2")):
        assert refused(model, body, B) == "move_not_allowed"
    model.move({"move": "take"}, B, 0)
    assert (last(model)["taken_by"], last(model)["cards_taken"]) == (B, 3)
    model = arranged({A: ["4S", "2H"], B: ["7S", "9D"]}, {"P1": ["5S", "9S"]})
    model.move(play("4S", "P1"), A, 0)
    assert model.game(B)["needs"]["moves"] == ["extend", "take"]
    model.move({"move": "extend", "cards": ["7S"]}, B, 0)
    assert taken(model) == ("seven", A, 4)
    assert pile(model, "P1") == {"pile": "P1", "cards": [], "total": 0, "set_mode": None}


def test_a_rank_set_and_a_pair_that_does_not_make_one() -> None:
    model = arranged({A: ["KD", "2H"]}, {"P1": ["KS", "KH"]})
    model.move(play("KD", "P1"), A, 0)
    assert last(model)["outcome"] == "set_mode"
    assert pile(model, "P1")["set_mode"] == {"kind": "rank", "rank": "K"}
    assert pile(model, "P1")["total"] == 30
    model = arranged({A: ["QS", "QD"]}, {"P1": ["KS", "KH"], "P2": ["QC", "6H"]})
    assert refused(model, play("QS QD", "P2"), A) == "move_not_allowed"


def test_the_end_example_fewest_win_most_lose() -> None:
    assert judge({"1": 20, "2": 14, "3": 14}) == ([2, 3], [1])


# --- the deal, the button, the turns --------------------------------------------------------------


def test_the_deal_goes_one_card_at_a_time_from_the_dealers_left_and_the_button_moves() -> None:
    decks = [list(CARDS), list(reversed(CARDS)), list(CARDS)]
    model = Make21Model(decks, 3, 3, LIMIT)
    deck = decks[0]
    assert model.hands == [[deck[0], deck[3]], [deck[1], deck[4]], [deck[2], deck[5]]]
    assert model.draw == deck[6:]
    board = model.board()
    assert (board["game_no"], board["games"], board["dealer"], board["draw_pile"]) == (1, 3, 3, 46)
    assert board["last"] is None
    assert model.needs() == {"seat": 1, "mode": "normal", "pile": None, "deadline": LIMIT}
    model.tick(10**9)  # nobody moves: the clock plays the whole match
    assert model.ended == "match_over"
    firsts = [next(r for r in model.records if r["game_no"] == g) for g in (1, 2, 3)]
    assert [r["seat"] for r in firsts] == [1, 2, 3]  # the dealers are 3, 1, 2
    assert [model.dealer(g) for g in (1, 2, 3)] == [3, 1, 2]
    assert [r["seq"] for r in model.records] == list(range(1, len(model.records) + 1))
    assert all(r["automatic"] for r in model.records)
    for game in model.finished:
        cards = [card for held in game["collections"] for card in held] + game["discarded"]
        assert sorted(cards) == sorted(CARDS)


def test_game_two_deals_from_the_dealers_left_when_game_one_ends() -> None:
    model = arranged({A: ["5D"], B: [], C: []}, endgame=True, games=2)
    model.move(play("5D", "P1"), A, 4321)
    assert model.game_no == 2
    deck = model.decks[1]
    assert model.dealer() == 1
    assert model.hands == [[deck[2], deck[5]], [deck[0], deck[3]], [deck[1], deck[4]]]
    assert model.needs() == {"seat": 2, "mode": "normal", "pile": None, "deadline": 4321 + LIMIT}
    assert model.board()["last"] is None
    assert model.previous == 1  # the dealer, on the game's first turn
    assert model.score()["games"][0] == {"game_no": 1, "collected": model.collected(1)}
    assert model.score()["games"][1] == {"game_no": 2, "collected": {"1": 0, "2": 0, "3": 0}}


def test_the_mover_draws_back_up_to_two_in_order() -> None:
    model = arranged({A: ["5D", "6D"], B: ["4S", "2H"]}, {"P1": ["KS", "5H"]}, draws=("2C", "8C", "9C"))
    model.move(play("5D", "P2"), A, 0)
    assert model.game(A)["hand"] == ["6D", "2C"]
    model.move(play("4S 2H", "P1"), B, 0)  # a Hit 21; two drawn together, in order
    assert model.game(B)["hand"] == ["8C", "9C"]
    assert model.board()["draw_pile"] == 52 - 6 - 2 - 3  # the deal, P1 laid, the three drawn


def test_empty_hands_are_skipped_and_the_mover_may_be_its_own_next_player() -> None:
    model = arranged({A: ["5D", "3S"], B: [], C: ["4H"]}, endgame=True)
    model.move(play("5D", "P1"), A, 0)
    assert to_move(model) == C
    model.move(play("4H", "P2"), C, 0)
    assert to_move(model) == A
    assert model.previous == C


def test_alone_with_cards_a_players_own_21_comes_back_to_it() -> None:
    model = arranged({A: ["6D", "3S"], B: [], C: []}, {"P1": ["KS", "5H"]}, endgame=True)
    model.move(play("6D", "P1"), A, 0)
    assert taken(model) == ("hit_21", A, 3)
    assert to_move(model) == A


def test_with_nobody_next_a_21_stays_and_is_discarded_and_the_game_ends() -> None:
    model = arranged({A: ["6D"], B: [], C: []}, {"P1": ["KS", "5H"]}, endgame=True)
    model.move(play("6D", "P1"), A, 0)
    assert taken(model) == ("hit_21", None, 0)
    assert model.ended == "match_over"
    assert model.finished[0]["discarded"] == ["KS", "5H", "6D"]
    assert pile(model, "P1")["cards"] == []  # discarded with the game
    game = model.game(A)
    assert (game["state"], game["needs"], game["hand"]) == ("finished", None, [])
    assert game["board"]["last"]["outcome"] == "hit_21"


def test_a_double_with_nobody_next_is_discarded_the_bridge_once() -> None:
    model = arranged({A: ["6S"], B: [], C: []}, {"P1": ["KS", "5H"], "P2": ["9C", "6D"]}, endgame=True)
    model.move({"move": "double", "cards": ["6S"]}, A, 0)
    assert taken(model)[:2] == ("double_21", None)
    assert model.finished[0]["discarded"] == ["KS", "5H", "6S", "9C", "6D"]


# --- the outcomes the examples do not show ----------------------------------------------------------


def test_a_bridge_ace_is_read_the_same_on_both_piles() -> None:
    assert double_ok(["KS"], ["5H", "5D"], ["AH"])  # 11 on both
    assert double_ok(["KS"], ["AS"], ["AH"])  # 11 on both: K A, and A A with the other Ace 10
    assert double_ok(["AS"], ["AC"], ["AH"])  # A A on both
    assert not double_ok(["TS"], ["KH", "QH"], ["AH"])  # 11 on one, 1 on the other
    assert not double_ok(["5S", "6H"], ["9C", "2D"], ["AH"])  # 10 only in a pile of two Aces
    assert not makes_21(["5S", "6H", "AH"])
    assert not double_ok(["9S", "2H"], [], ["TD"])  # both piles must hold cards
    assert double_ok(["KS", "5H"], ["9C", "6D"], ["2C", "4H"])  # two cards on both


def test_a_two_card_double_and_a_double_with_a_7() -> None:
    model = arranged({A: ["2C", "4H"]}, {"P1": ["KS", "5H"], "P2": ["9C", "6D"]})
    model.move({"move": "double", "cards": ["2C", "4H"]}, A, 0)
    assert taken(model) == ("double_21", B, 6)
    model = arranged({A: ["7S", "4H"]}, {"P1": ["9S", "5H"], "P2": ["8C", "6D"]})
    model.move({"move": "double", "cards": ["7S"]}, A, 0)
    assert taken(model) == ("seven", C, 5)
    assert [p["cards"] for p in model.board()["piles"]] == [[], []]


def test_a_two_card_play_with_a_7_must_still_make_a_set() -> None:
    model = arranged({A: ["9H", "7D"]}, {"P1": ["4C", "5C"]})
    assert refused(model, play("9H 7D", "P1"), A) == "move_not_allowed"
    model = arranged({A: ["6H", "7D"]}, {"P1": ["4C", "5S"]})  # 4 5 6 7: a run
    model.move(play("6H 7D", "P1"), A, 0)
    assert taken(model) == ("seven", C, 4)


def test_a_voluntary_bust_is_legal_when_a_safe_play_exists() -> None:
    model = arranged({A: ["5C", "2H"]}, {"P1": ["KS", "9H"]})
    model.move(play("5C", "P1"), A, 0)
    assert taken(model)[:2] == ("bust", A)


def test_runs_extend_at_both_ends_and_an_ace_ends_high_or_low() -> None:
    model = arranged({A: ["JD", "2H"], B: ["8S", "QS"]}, {"P1": ["9H", "TC"]})
    model.move(play("JD", "P1"), A, 0)
    assert pile(model, "P1")["set_mode"] == {"kind": "run"}
    model.move({"move": "extend", "cards": ["8S", "QS"]}, B, 0)
    assert last(model)["outcome"] == "extended"
    assert pile(model, "P1") == {
        "pile": "P1",
        "cards": ["9H", "TC", "JD", "8S", "QS"],
        "total": 47,
        "set_mode": {"kind": "run"},
    }
    for run in (["JS", "QH", "KD", "AC"], ["AS", "2H", "3D"]):
        assert is_run(run)
    for other in (["KS", "AH", "2D"], ["4S", "6H", "9D"], ["4S", "4H", "5D"]):
        assert not is_run(other)


def test_a_set_mode_pile_stays_in_set_mode_over_21() -> None:
    model = arranged({A: ["9D", "2H"], B: ["2D", "3H"]}, {"P2": ["KD", "QD"]})
    model.move(play("9D", "P2"), A, 0)
    model.move({"move": "extend", "cards": ["2D"]}, B, 0)
    assert last(model)["outcome"] == "extended"
    assert model.needs() == {"seat": C, "mode": "set_mode", "pile": "P2", "deadline": LIMIT}
    assert pile(model, "P2")["total"] == 31


def test_shown_totals() -> None:
    assert shown_total([]) == 0
    assert shown_total(["AS", "5H"]) == 16
    assert shown_total(["AS", "5H", "9D"]) == 15
    assert shown_total(["AS", "AH"]) == 21
    assert shown_total(["AS", "AH", "AD"]) == 13
    assert shown_total(["KD", "QD", "9D"]) == 29


def test_the_score_over_a_match_and_ties() -> None:
    assert judge({"1": 5, "2": 5}) == ([1, 2], [])
    assert judge({"1": 3, "2": 5, "3": 5}) == ([1], [2, 3])
    model = Make21Model([list(CARDS), list(CARDS)], 2, 2, LIMIT)
    model.tick(10**9)
    score = model.score()
    assert [g["game_no"] for g in score["games"]] == [1, 2]
    assert score["total"] == {s: model.collected(1)[s] + model.collected(2)[s] for s in ("1", "2")}
    assert (score["winners"], score["losers"]) == judge(score["total"])


# --- the turn clock -------------------------------------------------------------------------------


def test_a_move_before_the_deadline_counts_and_restarts_the_clock() -> None:
    model = arranged({A: ["5D", "2H"]})
    model.move(play("5D", "P1"), A, LIMIT - 1)
    assert model.needs() == {"seat": B, "mode": "normal", "pile": None, "deadline": 2 * LIMIT - 1}


def test_at_the_deadline_the_server_moves_and_only_the_timed_out_seat_hears_time_up() -> None:
    model = arranged({A: ["5D", "2H"]})
    assert refused(model, play("5D", "P1"), A, LIMIT) == "time_up"
    assert last(model) == {
        "seq": 1,
        "seat": A,
        "move": "play",
        "cards": ["5D"],
        "pile": "P1",
        "game_no": 1,
        "outcome": "stays",
        "taken_by": None,
        "cards_taken": 0,
        "automatic": True,
        "elapsed_ms": LIMIT,
    }
    assert refused(model, play(model.hands[C - 1][0], "P1"), C, LIMIT + 5) == "not_your_turn"
    assert refused(model, {"move": "take", "expected_seq": 0}, A, LIMIT + 5) == "time_up"
    model.move(play(model.hands[B - 1][0], "P1"), B, LIMIT + 10)
    assert refused(model, play("2H", "P2"), A, LIMIT + 20) == "not_your_turn"


def test_deadlines_chain_when_nobody_moves() -> None:
    model = arranged({})
    model.tick(3 * LIMIT + 5)
    assert [(r["seat"], r["elapsed_ms"], r["automatic"]) for r in model.records] == [
        (A, LIMIT, True),
        (B, 2 * LIMIT, True),
        (C, 3 * LIMIT, True),
    ]
    assert model.needs() == {"seat": A, "mode": "normal", "pile": None, "deadline": 4 * LIMIT}


def test_the_automatic_move_takes_a_set_facing_the_seat() -> None:
    model = arranged({A: ["4S", "2H"], B: ["2S", "QD"]}, {"P1": ["5S", "9S"]})
    model.move(play("4S", "P1"), A, 1000)
    model.tick(1000 + LIMIT)
    assert last(model) | {"seq": 0} == {
        "seq": 0,
        "seat": B,
        "move": "take",
        "game_no": 1,
        "outcome": "take",
        "taken_by": B,
        "cards_taken": 3,
        "automatic": True,
        "elapsed_ms": 1000 + LIMIT,
    }


@pytest.mark.parametrize(
    ("held", "laid", "chosen"),
    [
        (["5C", "6H"], {"P1": ["KS", "9H"], "P2": ["TC", "8D"]}, play("5C", "P1")),  # all bust
        (["5C", "6H"], {"P1": ["KS", "9H"], "P2": ["TC"]}, play("5C", "P2")),
        (["9C", "2H"], {"P1": ["KS", "9H"], "P2": ["QD", "4D", "4C"]}, play("2H", "P1")),
        (["9C", "3H"], {"P1": ["KS", "QH"], "P2": ["QD", "4D", "4C"]}, play("3H", "P2")),
        (["7C", "2H"], {"P1": ["KS", "9H"]}, play("7C", "P1")),  # a 7 is no bust
        (["QC", "3H"], {"P1": ["5S", "6S"]}, play("QC", "P1")),  # a Hit 21
        (["8S", "2H"], {"P1": ["KD", "QH"], "P2": ["9S", "TS"]}, play("8S", "P2")),  # a set
    ],
)
def test_the_automatic_play_is_the_first_that_does_not_bust(
    held: list[str], laid: dict[str, list[str]], chosen: dict[str, Any]
) -> None:
    model = arranged({A: held}, laid)
    assert model.automatic_move() == chosen
    model.tick(LIMIT)
    assert last(model)["automatic"]
    assert {k: last(model)[k] for k in ("move", "cards", "pile")} == chosen


def test_card_one_is_the_one_held_longer() -> None:
    model = arranged(
        {A: ["5D", "9C"], B: ["3D", "4D"]},
        {"P1": ["KS", "9H"], "P2": ["TC", "8D"]},
        players=2,
        draws=("2S",),
    )
    model.move(play("5D", "P2"), A, 0)  # a bust; A holds 9C (card 1) and 2S (card 2)
    model.move(play("3D", "P2"), B, 0)
    assert model.automatic_move() == play("9C", "P2")  # 2S would make 21 on P1, but comes second


def test_the_clock_restarts_when_the_next_game_is_dealt_and_the_match_ends() -> None:
    model = arranged({A: ["5D"], B: [], C: []}, endgame=True, games=2)
    model.tick(LIMIT)
    assert model.game_no == 2
    assert model.needs() == {"seat": 2, "mode": "normal", "pile": None, "deadline": 2 * LIMIT}
    model.tick(10**9)
    assert model.ended == "match_over"
    assert model.deadline() is None
    assert last(model)["automatic"]
    for seat in (1, 2, 3):  # the seat whose turn timed out into the last record too
        assert refused(model, {"move": "take"}, seat, 10**9) == "game_over"


def test_a_seat_alone_with_cards_hears_time_up_while_its_automatic_move_is_the_last() -> None:
    model = arranged({A: ["5D", "6D"], B: [], C: []}, endgame=True)
    model.tick(LIMIT)
    assert model.needs() == {"seat": A, "mode": "normal", "pile": None, "deadline": 2 * LIMIT}
    assert refused(model, play("6D", "P2"), A, LIMIT + 1) == "time_up"


# --- refusals and their order, and what each caller sees --------------------------------------------


def test_checks_run_in_order_clock_expected_seq_seat_cards_the_rest() -> None:
    model = arranged({A: ["5D", "2H"], B: ["4S", "3H"]})
    assert refused(model, {**play("5D", "P1"), "expected_seq": 3}, B) == "stale_game"
    assert refused(model, play("9S", "P9"), B) == "not_your_turn"
    assert refused(model, play("9S", "P9"), A) == "card_not_in_hand"
    assert refused(model, play("5D 5D", "P1"), A) == "card_not_in_hand"
    assert refused(model, play("5D 2H 9S", "P1"), A) == "card_not_in_hand"
    assert refused(model, play("5D", "P3"), A) == "move_not_allowed"
    assert refused(model, {"move": "play", "cards": [], "pile": "P1"}, A) == "move_not_allowed"
    assert refused(model, {"move": "play", "cards": "5D", "pile": "P1"}, A) == "validation_error"
    assert refused(model, {"move": "play", "cards": ["5D"], "pile": None}, B) == "validation_error"
    assert (
        refused(model, {"move": "play", "cards": ["5D"], "pile": "P1", "column": 2}, A) == "move_not_allowed"
    )
    assert refused(model, {"move": "extend", "cards": ["5D"], "pile": "P1"}, A) == "move_not_allowed"
    assert refused(model, {"move": "extend", "cards": ["5D"]}, A) == "move_not_allowed"
    assert refused(model, {"move": "take"}, A) == "move_not_allowed"
    assert refused(model, {"move": "hit", "cards": ["9S"]}, A) == "move_not_allowed"
    assert refused(model, {"move": "double", "cards": ["5D"]}, A) == "move_not_allowed"
    model.move({**play("5D", "P1"), "expected_seq": 0}, A, 0)
    assert model.seq == 1


def test_a_hand_and_the_moves_are_shown_to_their_seat_only() -> None:
    model = arranged({A: ["5D", "2H"], B: ["4S", "3H"]})
    staff, mover, other = model.game(), model.game(A), model.game(B)
    assert "hand" not in staff
    assert "moves" not in staff["needs"]
    assert (mover["hand"], mover["needs"]["moves"]) == (["5D", "2H"], ["play"])
    assert other["hand"] == ["4S", "3H"]
    assert "moves" not in other["needs"]
    assert staff["board"] == mover["board"] == other["board"]
    assert staff["score"] == {
        "games": [{"game_no": 1, "collected": model.collected(1)}],
        "total": model.collected(1),
        "winners": [],
        "losers": [],
    }
    assert (staff["state"], staff["seq"]) == ("playing", 0)
