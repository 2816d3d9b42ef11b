"""Scripted hands for the house-edge tests: a player's decisions and the cards they need."""

from dataclasses import dataclass, field


class _NeedCard(Exception):
    pass


@dataclass
class _Hand:
    cards: list[int]
    split_from: int | None = None
    doubled: bool = False
    surrendered: bool = False
    done: bool = False

    @property
    def total(self) -> tuple[int, bool]:
        hard = sum(self.cards)
        if 1 in self.cards and hard + 10 <= 21:
            return hard + 10, True
        return hard, False


@dataclass
class _Script:
    """Deals a fixed sequence of card values; asks for more when it runs out."""

    values: tuple[int, ...]
    used: int = field(default=0)

    def draw(self) -> int:
        if self.used == len(self.values):
            raise _NeedCard
        self.used += 1
        return self.values[self.used - 1]
