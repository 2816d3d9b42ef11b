"""The prize split of RULES.md §4, its worked examples and its properties."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.strategies import DrawFn, composite

from tournaments.engine.prizes import PoolFigures, overlay_cents, place_prizes, split_prizes
from tournaments.engine.standings import Standing, rank


def _standings(*rows: tuple[int, int, int]) -> tuple[Standing, ...]:
    return tuple(Standing(place=place, entry=entry, score=score) for place, entry, score in rows)


@pytest.mark.parametrize(
    ("pool", "bp", "entries", "expected"),
    [
        (10_000, [5000, 3000, 2000], 3, [5000, 3000, 2000]),
        # Each place rounded down; the cents left over go to first place.
        (10_001, [5000, 3000, 2000], 3, [5001, 3000, 2000]),
        (1_003, [5000, 3000, 2000], 3, [503, 300, 200]),
        (999, [3334, 3333, 3333], 3, [335, 332, 332]),
        # Fewer entries than paid places: the unpaid places' share goes to first place.
        (1_000, [5000, 3000, 2000], 2, [700, 300, 0]),
        (1_000, [5000, 3000, 2000], 1, [1000, 0, 0]),
        (0, [10000], 4, [0]),
    ],
)
def test_place_prizes_round_down_and_give_first_place_the_rest(
    pool: int, bp: list[int], entries: int, expected: list[int]
) -> None:
    assert place_prizes(pool_cents=pool, prizes_bp=bp, entries=entries) == expected


def test_no_tie_pays_each_place_its_prize() -> None:
    standings = _standings((1, 4, 90), (2, 2, 80), (3, 1, 70), (4, 3, 60))
    assert split_prizes(pool_cents=10_001, prizes_bp=[5000, 3000, 2000], standings=standings) == {
        4: 5001,
        2: 3000,
        1: 2000,
        3: 0,
    }


def test_a_tie_across_paid_places_shares_their_sum() -> None:
    # Places 2 and 3 tied: 3000 + 2000 shared equally.
    standings = _standings((1, 1, 90), (2, 2, 80), (2, 3, 80), (4, 4, 10))
    assert split_prizes(pool_cents=10_000, prizes_bp=[5000, 3000, 2000], standings=standings) == {
        1: 5000,
        2: 2500,
        3: 2500,
        4: 0,
    }


def test_a_tie_leftover_cent_goes_in_entry_number_order() -> None:
    # Pool 1003 at 50/25/25: places 503, 250, 250. Entries 7 and 2 tie for first: 753 shared,
    # the odd cent to entry 2 (the lower entry number), whatever the order they are listed in.
    standings = _standings((1, 7, 50), (1, 2, 50), (3, 5, 10))
    assert split_prizes(pool_cents=1_003, prizes_bp=[5000, 2500, 2500], standings=standings) == {
        2: 377,
        7: 376,
        5: 250,
    }


def test_a_tie_over_the_last_paid_place_and_an_unpaid_one() -> None:
    # Places 3 and 4 tied, only 3 paid: the 2000 of place 3 shared by both.
    standings = _standings((1, 1, 9), (2, 2, 8), (3, 3, 5), (3, 4, 5), (5, 5, 1))
    assert split_prizes(pool_cents=10_000, prizes_bp=[5000, 3000, 2000], standings=standings) == {
        1: 5000,
        2: 3000,
        3: 1000,
        4: 1000,
        5: 0,
    }


def test_three_leftover_cents_one_each_in_entry_number_order() -> None:
    # Pool 10 at 100%: four entries tied share 10 cents: 3, 3, 2, 2.
    standings = _standings((1, 9, 0), (1, 3, 0), (1, 5, 0), (1, 1, 0))
    assert split_prizes(pool_cents=10, prizes_bp=[10000], standings=standings) == {1: 3, 3: 3, 5: 2, 9: 2}


def test_no_entry_no_prize() -> None:
    assert split_prizes(pool_cents=500, prizes_bp=[10000], standings=()) == {}


def test_pool_and_revenue_figures() -> None:
    # 8 entries of $20 + $5 fee, $50 added, guarantee $250: the house adds $40.
    overlay = overlay_cents(buy_ins_cents=16_000, added_cents=5_000, guarantee_cents=25_000)
    figures = PoolFigures(buy_ins_cents=16_000, fees_cents=4_000, added_cents=5_000, overlay_cents=overlay)
    assert overlay == 4_000
    assert figures.pool_cents == 25_000
    assert figures.revenue_cents == 4_000 - 5_000 - 4_000


def test_no_overlay_when_the_pool_reaches_the_guarantee() -> None:
    assert overlay_cents(buy_ins_cents=20_000, added_cents=5_000, guarantee_cents=25_000) == 0
    assert overlay_cents(buy_ins_cents=20_000, added_cents=0, guarantee_cents=0) == 0


@composite
def prize_tables(draw: DrawFn) -> list[int]:
    """Non-increasing basis points adding up to 10,000."""
    cuts = sorted(draw(st.lists(st.integers(1, 9_999), max_size=8, unique=True)))
    shares = [b - a for a, b in zip([0, *cuts], [*cuts, 10_000], strict=True)]
    return sorted(shares, reverse=True)


@composite
def results(draw: DrawFn) -> tuple[int, list[int], tuple[Standing, ...]]:
    pool = draw(st.integers(0, 10**10))
    bp = draw(prize_tables())
    scores = draw(st.lists(st.integers(-5, 5), min_size=1, max_size=14))
    lower_wins = draw(st.booleans())
    return pool, bp, rank(dict(enumerate(scores, start=1)), lower_wins=lower_wins)


# Generation can stall on a loaded machine; the assertions are untouched.
RELAXED = settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)


@RELAXED
@given(results())
def test_prizes_add_up_to_the_pool_to_the_cent(case: tuple[int, list[int], tuple[Standing, ...]]) -> None:
    pool, bp, standings = case
    prizes = split_prizes(pool_cents=pool, prizes_bp=bp, standings=standings)
    assert sum(prizes.values()) == pool
    assert set(prizes) == {standing.entry for standing in standings}
    assert all(prize >= 0 for prize in prizes.values())


@RELAXED
@given(results())
def test_tied_entries_prizes_differ_by_at_most_a_cent(
    case: tuple[int, list[int], tuple[Standing, ...]],
) -> None:
    pool, bp, standings = case
    prizes = split_prizes(pool_cents=pool, prizes_bp=bp, standings=standings)
    for place in {standing.place for standing in standings}:
        tied = sorted(s.entry for s in standings if s.place == place)
        amounts = [prizes[entry] for entry in tied]
        assert max(amounts) - min(amounts) <= 1
        assert amounts == sorted(amounts, reverse=True)  # the extra cents to the lower entry numbers


@RELAXED
@given(results())
def test_a_better_place_never_gets_less(case: tuple[int, list[int], tuple[Standing, ...]]) -> None:
    pool, bp, standings = case
    prizes = split_prizes(pool_cents=pool, prizes_bp=bp, standings=standings)
    for better in standings:
        for worse in standings:
            if better.place < worse.place:
                assert prizes[better.entry] >= prizes[worse.entry]


@given(st.integers(0, 10**10), prize_tables(), st.integers(1, 12))
def test_place_prizes_are_non_increasing_and_add_up(pool: int, bp: list[int], entries: int) -> None:
    places = place_prizes(pool_cents=pool, prizes_bp=bp, entries=entries)
    assert sum(places) == pool
    assert places == sorted(places, reverse=True)
