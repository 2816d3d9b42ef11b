"""The database itself keeps the points ledger honest (RULES.md §2: every change of a balance is
a recorded entry, never an overwritten number), whatever code writes to it."""

from collections.abc import Callable
from typing import Any

import pytest
from django.db import IntegrityError, InternalError, ProgrammingError, transaction
from django.utils import timezone

from casino.models import GameKind, Shoe, ShoeMode
from specials.models import Match, MatchPlayer, PointsEntry, SpecialCard, SpecialsRound, SpecialsRoundEvent
from tests.support.api import TableActors

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(make_table: Callable[..., TableActors]) -> Match:
    actors = make_table("SP-01", signed_in=False, game=GameKind.SPECIAL_POINTS)
    terminal = actors.provisioned.terminal
    match = Match.objects.create(
        table=actors.table, start_points=5, win_points=10, lose_points=0,
        terminal=terminal, dealer=actors.provisioned.dealer, opened_at=timezone.now(),
    )  # fmt: skip
    for seat in (1, 2):
        MatchPlayer.objects.create(match=match, seat=seat, special=SpecialCard.SWAP)
    return match


@pytest.fixture
def round_(match: Match) -> SpecialsRound:
    now = timezone.now()
    shoe = Shoe.objects.create(table=match.table, mode=ShoeMode.REPORTED, decks=6, opened_at=now)
    return SpecialsRound.objects.create(
        match=match, number=1, shoe=shoe, terminal=match.terminal, dealer=match.dealer, opened_at=now
    )


def entry(
    match: Match, seq: int, seat: int, delta: int, balance: int, reason: str, **extra: Any
) -> PointsEntry:
    return PointsEntry.objects.create(
        match=match, seq=seq, seat=seat, delta=delta, balance=balance, reason=reason,
        created_at=timezone.now(), **extra,
    )  # fmt: skip


def refused(make: Callable[[], object]) -> None:
    with pytest.raises((IntegrityError, InternalError, ProgrammingError)), transaction.atomic():
        make()


def test_a_balance_is_the_previous_balance_plus_the_delta(match: Match, round_: SpecialsRound) -> None:
    entry(match, 1, 1, 5, 5, "start")
    entry(match, 2, 2, 5, 5, "start")
    refused(lambda: entry(match, 3, 1, 1, 7, "win", round=round_))
    entry(match, 3, 1, 1, 6, "win", round=round_)
    entry(match, 4, 2, -1, 4, "lose", round=round_)
    assert [(e.seat, e.balance) for e in PointsEntry.objects.filter(match=match)] == [
        (1, 5), (2, 5), (1, 6), (2, 4)
    ]  # fmt: skip


def test_entries_are_numbered_without_gaps(match: Match) -> None:
    entry(match, 1, 1, 5, 5, "start")
    refused(lambda: entry(match, 3, 2, 5, 5, "start"))
    refused(lambda: entry(match, 1, 2, 5, 5, "start"))


def test_a_seat_starts_once_and_plays_only_after_starting(match: Match, round_: SpecialsRound) -> None:
    refused(lambda: entry(match, 1, 1, 1, 1, "win", round=round_))
    entry(match, 1, 1, 5, 5, "start")
    refused(lambda: entry(match, 2, 1, 5, 10, "start"))


def test_a_win_is_plus_one_and_a_loss_minus_one_in_a_round(match: Match, round_: SpecialsRound) -> None:
    entry(match, 1, 1, 5, 5, "start")
    refused(lambda: entry(match, 2, 1, 2, 7, "win", round=round_))
    refused(lambda: entry(match, 2, 1, -1, 4, "lose"))
    refused(lambda: entry(match, 2, 1, 1, 6, "lose", round=round_))


def test_entries_are_never_changed_or_removed(match: Match) -> None:
    first = entry(match, 1, 1, 5, 5, "start")
    refused(lambda: PointsEntry.objects.filter(pk=first.pk).update(balance=9))
    refused(lambda: PointsEntry.objects.filter(pk=first.pk).delete())
    assert PointsEntry.objects.get(pk=first.pk).balance == 5


def test_round_events_are_never_changed(round_: SpecialsRound) -> None:
    event = SpecialsRoundEvent.objects.create(
        round=round_, number=1, kind="card", seat=1, card="AS", created_at=timezone.now()
    )
    refused(lambda: SpecialsRoundEvent.objects.filter(pk=event.pk).update(card="KS"))
    refused(lambda: SpecialsRoundEvent.objects.filter(pk=event.pk).delete())


def test_a_used_special_card_stays_used(match: Match, round_: SpecialsRound) -> None:
    player = MatchPlayer.objects.get(match=match, seat=1)
    MatchPlayer.objects.filter(pk=player.pk).update(special_used_in=round_)
    refused(lambda: MatchPlayer.objects.filter(pk=player.pk).update(special_used_in=None))
    refused(lambda: MatchPlayer.objects.filter(pk=player.pk).update(special=SpecialCard.PLUS_ONE))


def test_thresholds_are_ordered_and_a_table_runs_one_match(match: Match) -> None:
    def another(**points: int) -> Match:
        return Match.objects.create(
            table=match.table,
            terminal=match.terminal,
            dealer=match.dealer,
            opened_at=timezone.now(),
            **points,
        )

    refused(lambda: another(start_points=5, win_points=10, lose_points=0))
    Match.objects.filter(pk=match.pk).update(state="finished", finished_at=timezone.now())
    refused(lambda: another(start_points=10, win_points=10, lose_points=0))
    refused(lambda: another(start_points=0, win_points=10, lose_points=0))
    assert another(start_points=5, win_points=10, lose_points=0).pk
