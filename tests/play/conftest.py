"""The player page's fixtures: a practice game created on a known deck, and its seat token."""

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.utils import timezone

from audit.context import AuditActor
from casino.engine.cards import ALL_CARDS, Card
from skill_games import services

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
