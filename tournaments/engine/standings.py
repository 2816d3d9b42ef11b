"""Standings: entries ranked by their tournament score, equal scores sharing a place (RULES.md §4
[decided: no tie-break beyond the score])."""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Standing:
    place: int  # 1 + how many entries scored better
    entry: int  # the entry's number
    score: int


def tournament_score(heat_scores: Iterable[int]) -> int:
    """An entry's score: the sum of its heat scores."""
    return sum(heat_scores)


def rank(scores: Mapping[int, int], *, lower_wins: bool) -> tuple[Standing, ...]:
    """Each entry (by number) with its score and place, best first, entry numbers in order within
    a place."""
    sign = 1 if lower_wins else -1
    ordered = sorted(scores.items(), key=lambda item: (sign * item[1], item[0]))
    standings: list[Standing] = []
    for position, (entry, score) in enumerate(ordered, start=1):
        shared = standings and standings[-1].score == score
        standings.append(
            Standing(place=standings[-1].place if shared else position, entry=entry, score=score)
        )
    return tuple(standings)
