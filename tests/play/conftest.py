"""The player page's fixtures: a practice game created on a known deck, and its seat token; the
clock fixed (and moved by the test)."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.utils import timezone

from audit.context import AuditActor
from casino.engine.cards import ALL_CARDS, Card
from skill_games import services
from tests.support.gaming_day import Clock, day_shift_clock

PIT_BOSS = AuditActor(kind="system", username="tests:pit boss")


@dataclass(frozen=True)
class Dealt:
    id: int
    token: str


@pytest.fixture
def deal() -> Callable[..., Dealt]:
    """A game of `kind` dealt from `deck` (top card first), now."""

    def deal(kind: str, deck: tuple[Card, ...] = ALL_CARDS, **settings: int) -> Dealt:
        snapshot = services.create_game(
            kind=kind, body=settings, user_id=None, actor=PIT_BOSS, now=timezone.now(), deck=deck
        )
        assert snapshot.tokens is not None
        return Dealt(id=snapshot.game.pk, token=snapshot.tokens[1])

    return deal


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Clock:
    return day_shift_clock(monkeypatch, settings)
