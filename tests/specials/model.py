"""An independent model of the special-card points game, written from RULES.md §2 alone.

It shares no code with `specials.engine` (nor with the blackjack engine): plain lists and
integers, one method per step of play, so that a simulator can compare every answer of the API
with what the rules say should happen.
"""

from dataclasses import dataclass, field

RANK_VALUES = {"T": 10, "J": 10, "Q": 10, "K": 10, "A": 11} | {str(n): n for n in range(2, 10)}


@dataclass
class Hand:
    seat: int
    special: str
    special_used: bool
    cards: list[list] = field(default_factory=list)  # [card, declared value or None]
    discarded: list[str] = field(default_factory=list)
    plus_one: bool = False
    done: bool = False
    used_now: bool = False

    def total(self) -> int:
        return sum(value or 0 for _, value in self.cards) + (1 if self.plus_one else 0)

    def status(self) -> str:
        if self.total() > 21:
            return "bust"
        return "stood" if self.done else "playing"


def dealer_total(cards: list[str]) -> int:
    total = sum(RANK_VALUES[c[0]] if c[0] != "A" else 1 for c in cards)
    if any(c[0] == "A" for c in cards) and total + 10 <= 21:
        total += 10
    return total


class RoundModel:
    def __init__(self, players: list[tuple[int, str, bool]]) -> None:
        self.hands = [Hand(seat, special, used) for seat, special, used in players]
        self.dealer: list[str] = []
        self.deal_order = (
            [h.seat for h in self.hands] + ["dealer"] + [h.seat for h in self.hands] + ["dealer"]
        )
        self.dealt_in_deal = 0
        self.turn = 0  # index of the seat playing, once the deal is over
        self.awaiting: int | None = None  # seat waiting for a card after a hit or a swap
        self.finished = False

    def hand(self, seat: int) -> Hand:
        return next(h for h in self.hands if h.seat == seat)

    def declaring(self) -> Hand | None:
        return next((h for h in self.hands if any(v is None for _, v in h.cards)), None)

    def in_deal(self) -> bool:
        return self.dealt_in_deal < len(self.deal_order)

    def dealer_draws(self) -> bool:
        return any(h.total() <= 21 for h in self.hands) and dealer_total(self.dealer) < 17

    def needs(self) -> dict | None:
        if self.finished:
            return None
        pending = self.declaring()
        if pending is not None:
            card = next(c for c, v in pending.cards if v is None)
            return {"kind": "declare_ace", "seat": pending.seat, "card": card}
        if self.in_deal():
            to = self.deal_order[self.dealt_in_deal]
            return {"kind": "card", "to": "dealer" if to == "dealer" else {"seat": to}}
        if self.awaiting is not None:
            return {"kind": "card", "to": {"seat": self.awaiting}}
        if self.turn < len(self.hands):
            hand = self.hands[self.turn]
            allowed = ["hit", "stand"]
            if not hand.special_used and (hand.special == "SWAP" or hand.total() <= 20):
                allowed.append("use_special")
            return {"kind": "action", "seat": hand.seat, "allowed": allowed}
        return {"kind": "card", "to": "dealer"}

    def state(self) -> str:
        if self.finished:
            return "finished"
        if self.in_deal():
            return "dealing"
        return "playing" if self.turn < len(self.hands) else "dealer"

    def card(self, card: str) -> None:
        need = self.needs()
        assert need is not None
        assert need["kind"] == "card", need
        if need["to"] == "dealer":
            self.dealer.append(card)
            if self.in_deal():
                self.dealt_in_deal += 1
        else:
            hand = self.hand(need["to"]["seat"])
            hand.cards.append([card, None if card[0] == "A" else RANK_VALUES[card[0]]])
            if self.in_deal():
                self.dealt_in_deal += 1
            else:
                self.awaiting = None
        self._settle_turns()

    def declare(self, seat: int, value: int) -> None:
        hand = self.hand(seat)
        held = next(c for c in hand.cards if c[1] is None)
        held[1] = value
        self._settle_turns()

    def act(self, seat: int, action: str, discard: str | None = None) -> None:
        hand = self.hand(seat)
        if action == "hit":
            self.awaiting = seat
        elif action == "stand":
            hand.done = True
        else:
            hand.special_used = hand.used_now = True
            if hand.special == "SWAP":
                i = next(i for i, (c, _) in enumerate(hand.cards) if c == discard)
                hand.discarded.append(hand.cards.pop(i)[0])
                self.awaiting = seat
            else:
                hand.plus_one = True
        self._settle_turns()

    def _settle_turns(self) -> None:
        """Ends hands at 21 or more (at once, even in the deal), moves to the next seat, then plays
        the dealer out."""
        for hand in self.hands:
            if hand.total() >= 21:
                hand.done = True
        if self.declaring() is not None or self.in_deal() or self.awaiting is not None:
            return
        while self.turn < len(self.hands):
            if not self.hands[self.turn].done:
                return
            self.turn += 1
        if not self.dealer_draws():
            self.finished = True

    def visible_dealer(self) -> list[str]:
        return self.dealer if self.state() in ("dealer", "finished") else self.dealer[:1]

    def results(self) -> list[tuple[int, str]]:
        dealer = dealer_total(self.dealer)
        out = []
        for hand in self.hands:
            total = hand.total()
            if total > 21:
                result = "lose"
            elif dealer > 21 or total > dealer:
                result = "win"
            elif total == dealer:
                result = "draw"
            else:
                result = "lose"
            out.append((hand.seat, result))
        return out


class MatchModel:
    def __init__(self, specials: dict[int, str], start: int, win: int, lose: int) -> None:
        self.win, self.lose = win, lose
        self.points = dict.fromkeys(specials, start)
        self.specials = specials
        self.used = dict.fromkeys(specials, False)
        self.ledger = [(seat, start, start, "start") for seat in sorted(specials)]
        self.rounds_played = 0

    def new_round(self) -> RoundModel:
        return RoundModel([(seat, self.specials[seat], self.used[seat]) for seat in sorted(self.specials)])

    def finish_round(self, round_: RoundModel) -> list[dict]:
        self.rounds_played += 1
        outcome = []
        for seat, result in round_.results():
            delta = {"win": 1, "lose": -1, "draw": 0}[result]
            self.points[seat] += delta
            if delta:
                self.ledger.append((seat, delta, self.points[seat], result))
            outcome.append({"seat": seat, "result": result, "delta": delta, "points": self.points[seat]})
        for hand in round_.hands:
            self.used[hand.seat] = self.used[hand.seat] or hand.used_now
        return outcome

    @property
    def winners(self) -> list[int]:
        return [seat for seat in sorted(self.points) if self.points[seat] >= self.win]

    @property
    def eliminated(self) -> list[int]:
        return [seat for seat in sorted(self.points) if self.points[seat] <= self.lose]

    @property
    def finished(self) -> bool:
        return bool(self.winners or self.eliminated)
