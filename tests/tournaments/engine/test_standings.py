"""Standings: ranked by score, equal scores sharing a place (RULES.md §4)."""

from hypothesis import given
from hypothesis import strategies as st

from tournaments.engine.standings import Standing, rank, tournament_score


def test_higher_is_better_and_ties_share_a_place() -> None:
    assert rank({1: 120, 2: 300, 3: 120, 4: 0}, lower_wins=False) == (
        Standing(place=1, entry=2, score=300),
        Standing(place=2, entry=1, score=120),
        Standing(place=2, entry=3, score=120),
        Standing(place=4, entry=4, score=0),
    )


def test_fewer_cards_is_better_for_a_game_ranked_low() -> None:
    assert rank({1: 20, 2: 14, 3: 14, 4: 30}, lower_wins=True) == (
        Standing(place=1, entry=2, score=14),
        Standing(place=1, entry=3, score=14),
        Standing(place=3, entry=1, score=20),
        Standing(place=4, entry=4, score=30),
    )


def test_a_tournament_score_is_the_sum_of_the_heats() -> None:
    # An entry that never started heat 2 of Squares scores -630 there.
    assert tournament_score([51, -630]) == -579
    assert tournament_score([]) == 0


@given(st.dictionaries(st.integers(1, 500), st.integers(-1000, 1000), max_size=30), st.booleans())
def test_a_place_is_one_more_than_the_entries_that_did_better(
    scores: dict[int, int], lower_wins: bool
) -> None:
    standings = rank(scores, lower_wins=lower_wins)
    assert sorted(s.entry for s in standings) == sorted(scores)
    for standing in standings:
        better = [e for e, s in scores.items() if (s < standing.score if lower_wins else s > standing.score)]
        assert standing.place == 1 + len(better)
        assert standing.score == scores[standing.entry]
