"""A random Make 21 player, for the model's own tests and for driving the service: from what one seat
sees (the API's answer to that seat: its `hand`, `needs` and `board`) a move, mostly one the rules
allow (from `needs.moves` and the hand) and now and then one they refuse. Pure functions of the view
and a `random.Random`."""

import random
from typing import Any

from tests.make21.model.make21_model import (
    PILES,
    Lock,
    card_choices,
    double_ok,
    extends,
    is_set,
    play_outcome,
)

CARDS = [rank + suit for rank in "A23456789TJQK" for suit in "SHDC"]
REFUSED = 0.12  # how often the player tries a move the rules refuse (or may refuse)
BAD_PILES = ("P3", "p1", "", None, 1, "P1 ")
OTHER_MOVES = ("pass", "hit", "place", "swap", "Take", None)


def piles(view: dict[str, Any]) -> dict[str, list[str]]:
    return {pile["pile"]: list(pile["cards"]) for pile in view["board"]["piles"]}


def set_mode(view: dict[str, Any]) -> tuple[str, Lock] | None:
    """The pile in set-mode and its lock, if any."""
    return next(
        ((pile["pile"], pile["set_mode"]) for pile in view["board"]["piles"] if pile["set_mode"]),
        None,
    )


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A move for the seat whose view this is (also when it is not its turn: then it is refused)."""
    if rng.random() < REFUSED:
        return refused_move(view, rng)
    return allowed_move(view, rng)


def allowed_move(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A move among those `needs.moves` lists: an extension or a take facing a set-mode pile; else a
    double when one is listed, a two-card set now and then, and one card, more often one that does
    not bust."""
    hand = list(view.get("hand") or [])
    moves = (view.get("needs") or {}).get("moves") or []
    laid = piles(view)
    facing = set_mode(view)
    if "take" in moves and facing is not None:
        name, lock = facing
        fits = [cards for cards in card_choices(hand) if extends(laid[name], lock, cards)]
        if fits and rng.random() < 0.7:
            return {"move": "extend", "cards": rng.choice(fits)}
        return {"move": "take"}
    if not hand:
        return {"move": "take"}
    if "double" in moves and rng.random() < 0.7:
        bridges = [cards for cards in card_choices(hand) if double_ok(laid["P1"], laid["P2"], cards)]
        if bridges:
            return {"move": "double", "cards": rng.choice(bridges)}
    sets = [
        (cards, pile)
        for cards in card_choices(hand)
        if len(cards) == 2
        for pile in PILES
        if is_set([*laid[pile], *cards])
    ]
    if sets and rng.random() < 0.5:
        cards, pile = rng.choice(sets)
        return {"move": "play", "cards": cards, "pile": pile}
    singles = [([card], pile) for card in hand for pile in PILES]
    safe = [(cards, pile) for cards, pile in singles if play_outcome(laid[pile], cards) != "bust"]
    cards, pile = rng.choice(safe if safe and rng.random() < 0.6 else singles)
    return {"move": "play", "cards": cards, "pile": pile}


def refused_move(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A move the rules refuse, or may: a card not held or named twice, three cards, no card, a pile
    that is not P1 or P2, a 7 on a set-mode pile it does not extend or a card on the other pile,
    an extension with no set-mode pile, a double or a two-card play that may not make 21 or a set,
    a take with nothing to take, a move that does not exist."""
    hand = list(view.get("hand") or [])
    laid = piles(view)
    on_table = {card for cards in laid.values() for card in cards}
    elsewhere = [card for card in CARDS if card not in hand and card not in on_table]
    card = rng.choice(hand) if hand else rng.choice(CARDS)
    pile = rng.choice(PILES)
    facing = set_mode(view)
    kind = rng.choice(
        ("not_held", "twice", "three", "none", "pile", "seven", "extend", "double", "pair", "take", "other")
    )
    if kind == "not_held":
        return {
            "move": rng.choice(("play", "double", "extend")),
            "cards": [rng.choice(elsewhere)],
            "pile": pile,
        }
    if kind == "twice":
        return {"move": "play", "cards": [card, card], "pile": pile}
    if kind == "three":
        three = [*hand, *rng.sample(elsewhere, 3 - len(hand))]
        return {"move": rng.choice(("play", "double")), "cards": three, "pile": pile}
    if kind == "none":
        return {"move": "play", "cards": rng.choice(([], None, card, [1])), "pile": pile}
    if kind == "pile":
        return {"move": "play", "cards": [card], "pile": rng.choice(BAD_PILES)}
    if kind == "seven":
        sevens = [c for c in hand if c[0] == "7"]
        if facing is not None and sevens:
            return {"move": "extend", "cards": [rng.choice(sevens)]}
        other = next((p for p in PILES if facing is None or p != facing[0]), pile)
        return {"move": "play", "cards": [card], "pile": other}
    if kind == "extend":
        return {"move": "extend", "cards": rng.sample(hand, rng.randint(1, len(hand))) if hand else [card]}
    if kind == "double":
        return {"move": "double", "cards": rng.sample(hand, rng.randint(1, len(hand))) if hand else [card]}
    if kind == "pair":
        return {"move": "play", "cards": hand if len(hand) == 2 else [card], "pile": pile}
    if kind == "take":
        return {"move": "take"}
    return {"move": rng.choice(OTHER_MOVES), "cards": [card], "pile": pile}
