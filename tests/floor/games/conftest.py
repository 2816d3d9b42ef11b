"""Skill games for the console's pages: created and played through the kit's services on a known
deck, with the clock fixed in the day shift of gaming day 2026-11-20 (moved by the test), and
staff of each console role signed in."""

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from audit.context import AuditActor
from casino.engine.cards import ALL_CARDS
from floor.rounds.cards import ShownCard
from make21.engine.game import Make21State
from skill_games import selectors, services
from skill_games.models import Game
from skill_games.registry import STAFF
from skill_games.selectors import adapter_of
from tests.skill_games.conftest import Deck, deck_with
from tests.support.factories import StaffFactory
from tests.support.gaming_day import Clock, day_shift_clock

SYSTEM = AuditActor(kind="system", username="test")
__all__ = ["Deck", "Table", "assert_not_shown", "deck_with", "page", "play", "play_out", "start", "total_of"]


@dataclass
class Table:
    """A game being played: its id, and the `needs` of its latest answer."""

    id: int
    needs: dict[str, Any] | None

    @property
    def game(self) -> Game:
        return Game.objects.get(pk=self.id)


def total_of(table: Table) -> Any:
    """The score total stored when the game ended."""
    score = table.game.score
    assert score is not None
    return score["total"]


def play(table: Table, body: dict[str, Any], *, at: dt.datetime | None = None) -> Table:
    snapshot = services.play_move(
        game_id=table.id, seat=1, body=body, expected_seq=None, actor=SYSTEM, now=at or timezone.now()
    )
    table.needs = adapter_of(snapshot.game).view(snapshot.state, STAFF)["needs"]
    return table


def start(kind: str, deck: Deck = ALL_CARDS, **settings: Any) -> Table:
    snapshot = services.create_game(
        kind=kind, body=settings, user_id=None, actor=SYSTEM, now=timezone.now(), deck=deck
    )
    return Table(snapshot.game.pk, adapter_of(snapshot.game).view(snapshot.state, STAFF)["needs"])


def play_out(table: Table, *, step: Callable[[], None] = lambda: None) -> Table:
    """Play the game to its end: Attack's card on the first legal column, Squares' on the first
    empty position, cashing in each full square."""
    while table.needs is not None:
        step()
        needs = table.needs
        if "columns" in needs:
            play(table, {"move": "place", "column": needs["columns"][0]})
        elif "cash_in" in needs["moves"]:
            play(table, {"move": "cash_in"})
        else:
            play(table, {"move": "place", "position": needs["positions"][0]})
    return table


def page(client: Client, path: str, status: int = 200) -> str:
    answer = client.get(path)
    assert answer.status_code == status, (path, answer.status_code)
    return answer.content.decode()


def assert_not_shown(html: str, codes: list[str]) -> None:
    for code in codes:
        assert f'title="{code}"' not in html, code
        assert f"<li>{code}</li>" not in html, code
        assert ShownCard(code).label not in html, code


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Clock:
    return day_shift_clock(monkeypatch, settings)


@pytest.fixture
def signed_in(db: None) -> Callable[[str], Client]:
    """A browser-less client signed in as a new staff member of `role`."""

    def make(role: str) -> Client:
        staff = StaffFactory.create(role=role)
        client = Client()
        client.force_login(User.objects.get(pk=staff.user.pk))
        return client

    return make


@pytest.fixture
def pit_boss(signed_in: Callable[[str], Client]) -> Client:
    return signed_in("pit_boss")


# --- a Make 21 match -------------------------------------------------------------------------

SECOND_DECK = tuple(reversed(ALL_CARDS))


def new_match() -> int:
    snapshot = services.create_game(
        kind="make21",
        body={"players": 2, "games": 2},
        user_id=None,
        actor=SYSTEM,
        now=timezone.now(),
        decks=(ALL_CARDS, SECOND_DECK),
    )
    return snapshot.game.pk


def play_game_out(game_id: int) -> Make21State:
    """The seats in turn take a set-mode pile that faces them, else play their first card on P1,
    until the game in play ends."""
    snapshot = selectors.get_game_snapshot(game_id=game_id, now=timezone.now())
    assert snapshot is not None
    current: Make21State = snapshot.state
    game_no = current.game_no
    while not current.finished and current.game_no == game_no:
        seat = current.to_move
        assert seat is not None
        body: dict[str, Any] = (
            {"move": "take"}
            if current.facing
            else {"move": "play", "cards": [str(current.hand(seat)[0])], "pile": "P1"}
        )
        current = services.play_move(
            game_id=game_id, seat=seat, body=body, expected_seq=None, actor=SYSTEM, now=timezone.now()
        ).state
    return current
