"""Builders for Make 21's tests: decks with chosen top cards, tables set up mid-game, moves."""

from collections.abc import Sequence

from casino.engine.cards import ALL_CARDS, Card, parse_card
from make21.engine.game import (
    Double,
    Extend,
    Make21Move,
    Make21State,
    Match,
    Play,
    Take,
    apply_move,
    new_match,
)
from make21.engine.rules import Pile, purity_set

A, B, C = 1, 2, 3  # RULES.md's seats A, B, C (C deals, A moves, B is next, C previous)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_card(word) for word in text.split())


def deck_with(top: str) -> tuple[Card, ...]:
    """A deck whose first cards are `top`, the others after them in `ALL_CARDS` order."""
    first = cards(top)
    return (*first, *(card for card in ALL_CARDS if card not in first))


def match(*tops: str, players: int = 3, turn_limit_ms: int = 60_000) -> Make21State:
    """A new match of one game per deck top given, each deck `deck_with(top)`."""
    return new_match(
        [deck_with(top) for top in tops], players=players, games=len(tops), turn_limit_ms=turn_limit_ms
    )


def table(
    hands: Sequence[str | None],
    *,
    p1: str = "",
    p2: str = "",
    set_mode: str | None = None,
    to_move: int = A,
    previous: int | None = None,
    dealer: int | None = None,
    draw: str = "",
    draw_size: int | None = None,
    collected: Sequence[int] | None = None,
    games: int = 1,
    turn_limit_ms: int = 60_000,
) -> Make21State:
    """A game in play, set up as an example describes it: each seat's hand (None: two cards nobody
    names), the piles (`set_mode` names the pile in set-mode, locked to the set it makes), the seat
    to move and the previous one (the dealer, seat n, unless told), the draw pile's top cards and
    its size (all the other cards unless told). Every card is somewhere: game 1's deck lists the
    cards out (hands, piles, collections), then the draw pile; the cards beyond `draw_size` are in
    the collections, `collected[i]` of them seat i + 1's, the others the last seat's."""
    players = len(hands)
    named = [card for text in (*(h or "" for h in hands), p1, p2, draw) for card in cards(text)]
    spare = [card for card in reversed(ALL_CARDS) if card not in named]
    held = tuple(cards(text) if text is not None else (spare.pop(), spare.pop()) for text in hands)
    top = cards(draw)
    rest = [card for card in ALL_CARDS if card not in named and all(card not in h for h in held)]
    pile_cards = (cards(p1), cards(p2))
    piles = tuple(
        Pile(pile, purity_set(pile) if set_mode == name else None)
        for name, pile in zip(("P1", "P2"), pile_cards, strict=True)
    )
    draw_pile = (*top, *rest)
    size = len(draw_pile) if draw_size is None else draw_size
    gone = draw_pile[size:]
    counts = [*(collected or ()), *[0] * (players - len(collected or ()))]
    assert sum(counts) <= len(gone), "the collections hold the cards out of the draw pile"
    counts[-1] += len(gone) - sum(counts)
    starts = [sum(counts[:i]) for i in range(players)]
    collections = tuple(gone[start : start + count] for start, count in zip(starts, counts, strict=True))
    out = (*(card for h in held for card in h), *pile_cards[0], *pile_cards[1], *draw_pile[size:])
    deck = (*out, *draw_pile[:size])
    dealer_seat = players if dealer is None else dealer
    return Make21State(
        Match(players, games, turn_limit_ms, (deck, *(ALL_CARDS,) * (games - 1))),
        1,
        dealer_seat,
        held,
        draw_pile[:size],
        (piles[0], piles[1]),
        collections,
        to_move,
        dealer_seat if previous is None else previous,
    )


def make_move(kind: str, played: tuple[Card, ...], *, pile: str = "P1", seat: int, at_ms: int) -> Make21Move:
    """A move by its API name: `play` (on `pile`), `double`, `extend` or `take` (no cards)."""
    if kind == "play":
        return Play(played, pile, seat=seat, at_ms=at_ms)
    if kind == "double":
        return Double(played, seat=seat, at_ms=at_ms)
    if kind == "extend":
        return Extend(played, seat=seat, at_ms=at_ms)
    return Take(seat=seat, at_ms=at_ms)


def moved(
    state: Make21State, kind: str, text: str = "", pile: str = "P1", *, by: int | None, at_ms: int | None
) -> Make21State:
    """`kind` made by seat `by` (the seat to move unless told) a millisecond after the last move
    (or at `at_ms`)."""
    seat = state.to_move if by is None else by
    assert seat is not None
    at = state.last_at_ms + 1 if at_ms is None else at_ms
    return apply_move(state, make_move(kind, cards(text), pile=pile, seat=seat, at_ms=at))


def play(
    state: Make21State, text: str, pile: str = "P1", *, by: int | None = None, at_ms: int | None = None
) -> Make21State:
    return moved(state, "play", text, pile, by=by, at_ms=at_ms)


def double(state: Make21State, text: str, *, by: int | None = None, at_ms: int | None = None) -> Make21State:
    return moved(state, "double", text, by=by, at_ms=at_ms)


def extend(state: Make21State, text: str, *, by: int | None = None, at_ms: int | None = None) -> Make21State:
    return moved(state, "extend", text, by=by, at_ms=at_ms)


def take(state: Make21State, *, by: int | None = None, at_ms: int | None = None) -> Make21State:
    return moved(state, "take", by=by, at_ms=at_ms)


def pile(state: Make21State, name: str) -> tuple[Card, ...]:
    return state.piles[0 if name == "P1" else 1].cards
