"""Every example of RULES.md §3.3 (Make 21), as written there: seats A, B, C; C deals; A moves, B is
next, C previous."""

import pytest

from casino.engine.errors import RuleError
from make21.engine.game import Make21State, apply_move
from make21.engine.rules import Outcome, SetKind, SetLock, judge, play_outcome
from make21.engine.view import allowed_moves, board, needs, score
from tests.make21.helpers import A, B, C, cards, double, extend, make_move, pile, play, table, take


def last(state: Make21State) -> tuple[Outcome, int | None, int]:
    record = state.last
    assert record is not None
    return record.outcome, record.taken_by, record.cards_taken


def refused(state: Make21State, kind: str, text: str = "", where: str = "P1") -> str:
    """The code the seat to move's `kind` move is refused with (nothing changes: states are
    immutable)."""
    assert state.to_move is not None
    move = make_move(kind, cards(text), pile=where, seat=state.to_move, at_ms=state.last_at_ms + 1)
    with pytest.raises(RuleError) as error:
        apply_move(state, move)
    return error.value.code


# P1 `KS 5H`: A plays `6D`: Hit 21, B takes 3 cards, then plays a normal turn. A plays `4C 2D`
# instead: Hit 21, B takes 4. `4C 9D` (28) is refused.


def test_a_card_that_makes_21_gives_the_pile_to_the_next_player_who_then_plays_a_normal_turn() -> None:
    state = table(["6D 4C", None, None], p1="KS 5H")

    after = play(state, "6D", "P1")

    assert last(after) == (Outcome.HIT_21, B, 3)
    assert after.collections[B - 1] == cards("KS 5H 6D")
    assert pile(after, "P1") == ()
    assert after.to_move == B
    shown = needs(after, B)
    assert shown is not None
    assert (shown["mode"], shown["pile"]) == ("normal", None)


def test_two_cards_that_make_21_give_the_next_player_four() -> None:
    state = table(["4C 2D", None, None], p1="KS 5H")

    after = play(state, "4C 2D", "P1")

    assert last(after) == (Outcome.HIT_21, B, 4)
    assert after.collected == {A: 0, B: 4, C: 0}


def test_two_cards_that_make_no_set_are_refused() -> None:
    state = table(["4C 9D", None, None], p1="KS 5H")

    assert refused(state, "play", "4C 9D") == "move_not_allowed"


# P1 `KS 5H`, P2 `9C 6D` (or `AC 4D`, Ace 11): A doubles with `6S`; B takes 5.


@pytest.mark.parametrize("p2", ["9C 6D", "AC 4D"])
def test_a_double_21_gives_both_piles_and_the_bridge_to_the_next_player(p2: str) -> None:
    state = table(["6S 2H", None, None], p1="KS 5H", p2=p2)

    after = double(state, "6S")

    assert last(after) == (Outcome.DOUBLE_21, B, 5)
    assert after.collections[B - 1] == (*cards("KS 5H 6S"), *cards(p2))
    assert (pile(after, "P1"), pile(after, "P2")) == ((), ())
    assert after.to_move == B


# `7S` on P2 `9C 4H`: C takes 3, then B plays. On an empty pile: C takes 1.


def test_a_seven_sends_the_pile_to_the_previous_player() -> None:
    state = table(["7S 2H", None, None], p2="9C 4H", previous=C)

    after = play(state, "7S", "P2")

    assert last(after) == (Outcome.SEVEN, C, 3)
    assert after.collections[C - 1] == cards("9C 4H 7S")
    assert after.to_move == B


def test_a_seven_on_an_empty_pile_sends_itself_to_the_previous_player() -> None:
    state = table(["7S 2H", None, None], previous=C)

    after = play(state, "7S", "P1")

    assert last(after) == (Outcome.SEVEN, C, 1)
    assert (pile(after, "P1"), after.to_move) == ((), B)


# P1 `5S 9S`: A plays `4S`: flush (18), set-mode. B extends with `2S` (20); C holds `8H 3C`, cannot
# extend or touch P2, and takes 4. Had B played `3S` (21), C would take 4 at once as a Hit 21, then
# play a normal turn.


def flush_for_b() -> Make21State:
    state = table(["4S KD", "2S 3S", "8H 3C"], p1="5S 9S", p2="TD")
    after = play(state, "4S", "P1")
    assert last(after) == (Outcome.SET_MODE, None, 0)
    assert after.piles[0].lock == SetLock(SetKind.FLUSH, suit=cards("4S")[0].suit)
    assert board(after)["piles"][0]["total"] == 18
    assert board(after)["piles"][0]["set_mode"] == {"kind": "flush", "suit": "S"}
    assert needs(after, None) == {"seat": B, "mode": "set_mode", "pile": "P1", "deadline": 60_001}
    return after


def test_a_flush_enters_set_mode_and_an_extension_passes_it_on() -> None:
    state = extend(flush_for_b(), "2S")

    assert last(state) == (Outcome.EXTENDED, None, 0)
    assert board(state)["piles"][0]["total"] == 20
    assert state.to_move == C
    assert state.facing == "P1"


def test_a_player_who_cannot_extend_may_not_touch_the_other_pile_and_takes() -> None:
    state = extend(flush_for_b(), "2S")

    assert needs(state, C) == {
        "seat": C,
        "mode": "set_mode",
        "pile": "P1",
        "deadline": 60_002,
        "moves": ["take"],
    }
    assert refused(state, "extend", "8H") == "move_not_allowed"
    assert refused(state, "extend", "3C") == "move_not_allowed"
    assert refused(state, "extend", "8H 3C") == "move_not_allowed"
    assert refused(state, "play", "8H", "P2") == "move_not_allowed"
    assert refused(state, "play", "3C", "P1") == "move_not_allowed"
    after = take(state)

    assert last(after) == (Outcome.TAKE, C, 4)
    assert after.collections[C - 1] == cards("5S 9S 4S 2S")
    assert after.facing is None


def test_an_extension_that_makes_21_is_a_hit_21_the_next_player_takes_at_once() -> None:
    state = extend(flush_for_b(), "3S")

    assert last(state) == (Outcome.HIT_21, C, 4)
    assert state.collections[C - 1] == cards("5S 9S 4S 3S")
    assert state.to_move == C
    assert state.facing is None  # C then plays a normal turn


# P2 `KD QD`: A plays `9D`: 29 but a flush, set-mode, no bust. `9C` instead busts: A takes 3.


def test_a_flush_over_21_is_a_set_not_a_bust() -> None:
    state = play(table(["9D 9C", None, None], p2="KD QD"), "9D", "P2")

    assert last(state) == (Outcome.SET_MODE, None, 0)
    assert board(state)["piles"][1]["total"] == 29
    assert state.facing == "P2"


def test_a_bust_goes_to_the_mover() -> None:
    state = play(table(["9D 9C", None, None], p2="KD QD"), "9C", "P2")

    assert last(state) == (Outcome.BUST, A, 3)
    assert state.collections[A - 1] == cards("KD QD 9C")


# P1 `KS 9H`, P2 `TC 8D`, A holds `5C 6H`: every play busts, none makes a set or a double. A must
# bust; `5C` on P1: A takes 3.


def test_a_player_whose_every_play_busts_must_bust() -> None:
    state = table(["5C 6H", None, None], p1="KS 9H", p2="TC 8D")

    for card in cards("5C 6H"):
        for name in ("P1", "P2"):
            assert play_outcome(pile(state, name), (card,)) is Outcome.BUST
    for two in ("5C 6H", "6H 5C"):
        assert refused(state, "play", two, "P1") == "move_not_allowed"
        assert refused(state, "play", two, "P2") == "move_not_allowed"
    for bridge in ("5C", "6H", "5C 6H"):
        assert refused(state, "double", bridge) == "move_not_allowed"
    assert needs(state, A) == {
        "seat": A,
        "mode": "normal",
        "pile": None,
        "deadline": 60_000,
        "moves": ["play"],
    }

    after = play(state, "5C", "P1")

    assert last(after) == (Outcome.BUST, A, 3)
    assert after.collections[A - 1] == cards("KS 9H 5C")


# P1 `4C 5C`: A plays `6C`: flush and run, locked as a flush (15). B may extend with `KC` (25, run
# broken), not with `3H`. Had A played `6C 7C`, C would take 4.


def test_a_flush_that_is_also_a_run_locks_as_a_flush() -> None:
    state = play(table(["6C 7C", "KC 3H", None], p1="4C 5C"), "6C", "P1")

    assert state.piles[0].lock == SetLock(SetKind.FLUSH, suit=cards("6C")[0].suit)
    assert board(state)["piles"][0]["total"] == 15
    assert refused(state, "extend", "3H") == "move_not_allowed"

    after = extend(state, "KC")

    assert last(after) == (Outcome.EXTENDED, None, 0)
    assert board(after)["piles"][0]["total"] == 25
    assert after.piles[0].lock == state.piles[0].lock


def test_a_seven_may_complete_a_two_card_flush_and_sends_it_to_the_previous_player() -> None:
    state = table(["6C 7C", None, None], p1="4C 5C", previous=C)

    after = play(state, "6C 7C", "P1")

    assert last(after) == (Outcome.SEVEN, C, 4)
    assert after.collections[C - 1] == cards("4C 5C 6C 7C")


# Aces: P1 `AS 5H` + `5D` reads 21, B takes 3. P2 `AH` + `AC` is `A A` = 21, B takes 2. P1 `QH KS` +
# `AD` is a run, but 21 comes first: B takes 3.


@pytest.mark.parametrize(
    ("p1", "p2", "card", "where", "taken"),
    [
        ("AS 5H", "", "5D", "P1", 3),  # the Ace as 11
        ("", "AH", "AC", "P2", 2),  # A A: one Ace 10, the other 11
        ("QH KS", "", "AD", "P1", 3),  # Q K A is a run, but a Hit 21 first
    ],
)
def test_the_server_reads_the_aces_for_the_player(
    p1: str, p2: str, card: str, where: str, taken: int
) -> None:
    state = table([f"{card} 2C", None, None], p1=p1, p2=p2)

    after = play(state, card, where)

    assert last(after) == (Outcome.HIT_21, B, taken)
    assert after.facing is None


# P1 in set-mode (spades) faces B, who holds `7H 9D`: neither extends, so B must take. Holding `7S`,
# B may play it: A, the previous player, takes P1.


def spades_in_set_mode_facing_b(hand: str) -> Make21State:
    state = table([None, hand, None], p1="5S 9S 4S", set_mode="P1", to_move=B, previous=A)
    shown = needs(state, B)
    assert shown is not None
    assert (shown["mode"], shown["pile"]) == ("set_mode", "P1")
    return state


def test_a_player_who_cannot_extend_must_take() -> None:
    state = spades_in_set_mode_facing_b("7H 9D")

    assert allowed_moves(state) == ("take",)
    assert refused(state, "extend", "7H") == "move_not_allowed"
    assert refused(state, "extend", "9D") == "move_not_allowed"
    assert refused(state, "play", "7H", "P2") == "move_not_allowed"

    assert last(take(state)) == (Outcome.TAKE, B, 3)


def test_a_seven_of_the_locked_suit_extends_and_sends_the_pile_to_the_previous_player() -> None:
    state = spades_in_set_mode_facing_b("7S 9D")

    assert allowed_moves(state) == ("extend", "take")
    after = extend(state, "7S")

    assert last(after) == (Outcome.SEVEN, A, 4)
    assert after.collections[A - 1] == cards("5S 9S 4S 7S")
    assert after.facing is None
    assert after.to_move == C


# P1 `KS KH`: A plays `KD`: rank set (30), set-mode. Holding `QS QD` instead of `KD`, A may not play
# them on P2 `QC 6H`: the 6 spoils the rank set and 36 is not 21.


def test_three_of_a_rank_is_a_rank_set() -> None:
    state = play(table(["KD 2C", None, None], p1="KS KH"), "KD", "P1")

    assert last(state) == (Outcome.SET_MODE, None, 0)
    assert board(state)["piles"][0]["set_mode"] == {"kind": "rank", "rank": "K"}
    assert board(state)["piles"][0]["total"] == 30


def test_an_irrelevant_card_spoils_a_rank_set() -> None:
    state = table(["QS QD", None, None], p1="KS KH", p2="QC 6H")

    assert refused(state, "play", "QS QD", "P2") == "move_not_allowed"


# End: A 20 cards, B 14, C 14, 4 discarded (sum 52): B and C win, A loses.


def test_fewest_cards_win_and_most_lose() -> None:
    assert judge({A: 20, B: 14, C: 14}) == ((B, C), (A,))


def test_the_game_ends_when_every_hand_is_empty_and_the_piles_are_discarded() -> None:
    state = table(["2D", "", ""], p1="3S 9H", p2="4C", draw_size=0, collected=[20, 14, 14])

    after = play(state, "2D", "P2")

    assert after.finished
    (result,) = after.results
    assert result.collected == {A: 20, B: 14, C: 14}
    assert sorted(result.discarded, key=str) == sorted(cards("3S 9H 4C 2D"), key=str)
    assert sum(result.collected.values()) + len(result.discarded) == 52
    shown = score(after)
    assert (shown["winners"], shown["losers"]) == ([B, C], [A])
