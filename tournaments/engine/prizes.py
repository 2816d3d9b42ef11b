"""The prize pool and its split (RULES.md §4 "Entries and money", "Results and prizes").

- Pool = buy-ins + added money, plus the overlay: what the house adds when a guarantee is set and
  the pool is below it as registration closes. Revenue = fees - added money - overlay.
- Place k's prize is floor(pool x bp_k / 10,000); the cents left over go to first place.
- With fewer entries than paid places, the unpaid places' share goes to first place.
- Entries tied over places k..m share those places' prizes equally, the cents left over one each
  in entry-number order.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby

from casino.engine.money import basis_points_of, check_cents, split_evenly, sum_cents
from tournaments.engine.standings import Standing


@dataclass(frozen=True, slots=True)
class PoolFigures:
    buy_ins_cents: int
    fees_cents: int
    added_cents: int
    overlay_cents: int

    @property
    def pool_cents(self) -> int:
        return sum_cents((self.buy_ins_cents, self.added_cents, self.overlay_cents))

    @property
    def revenue_cents(self) -> int:
        """The tournament's own revenue once every prize is paid: buy-ins + fees - prizes."""
        return self.fees_cents - self.added_cents - self.overlay_cents


def overlay_cents(*, buy_ins_cents: int, added_cents: int, guarantee_cents: int) -> int:
    """What the house adds so that the pool reaches the guarantee (0 when it already does)."""
    pool = sum_cents((buy_ins_cents, added_cents))
    return max(0, check_cents(guarantee_cents, field="guarantee_cents") - pool)


def place_prizes(*, pool_cents: int, prizes_bp: Sequence[int], entries: int) -> list[int]:
    """Each paid place's prize, first place first: its share rounded down, the cents left over and
    the share of the places no entry reached given to first place."""
    shares = [basis_points_of(pool_cents, bp) for bp in prizes_bp]
    if entries < len(shares):
        shares[entries:] = [0] * (len(shares) - entries)
    shares[0] += pool_cents - sum(shares)
    return shares


def split_prizes(
    *, pool_cents: int, prizes_bp: Sequence[int], standings: Sequence[Standing]
) -> dict[int, int]:
    """Each entry's prize (by entry number, 0 for none) from the standings, best first; they add
    up to the pool exactly (nothing is paid without an entry)."""
    if not standings:
        return {}
    places = place_prizes(pool_cents=pool_cents, prizes_bp=prizes_bp, entries=len(standings))
    prizes: dict[int, int] = {}
    for place, tied in groupby(standings, key=lambda standing: standing.place):
        entries = sorted(standing.entry for standing in tied)
        shared = sum(places[place - 1 : place - 1 + len(entries)])
        prizes.update(zip(entries, split_evenly(shared, len(entries)), strict=True))
    return prizes
