"""The database keeps the game's record honest whatever the code does (skill_games migration 0002):
the move log is append-only, a committed deal and a seat's token never change, and a finished
game keeps its end and score."""

from collections.abc import Callable

import pytest
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from skill_games.models import Game, GameState, Move, Seat
from tests.skill_games.conftest import Played


def deleted(table: str, row_id: int) -> None:
    """A raw DELETE, past the ORM's own protection of referenced rows: the database must refuse it."""
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {table} WHERE id = %s", [row_id])  # noqa: S608


def refused(change: Callable[[], object]) -> str:
    with pytest.raises(DatabaseError) as caught, transaction.atomic():
        change()
    return str(caught.value)


@pytest.fixture
def played(start: Callable[..., Played]) -> Played:
    game = start("attack")
    game.move({"move": "place", "column": 1})
    return game


@pytest.mark.django_db
def test_the_move_log_is_append_only(played: Played) -> None:
    moves = Move.objects.filter(game_id=played.id)
    assert "append-only" in refused(lambda: moves.update(seat=2))
    assert "append-only" in refused(lambda: moves.delete())
    assert list(moves.values_list("seq", "seat")) == [(1, 1)]


@pytest.mark.django_db
def test_the_committed_deal_cannot_change(played: Played) -> None:
    games = Game.objects.filter(pk=played.id)
    deck = list(games.get().decks[0])
    swapped = [deck[1], deck[0], *deck[2:]]
    assert "committed deal" in refused(lambda: games.update(decks=[swapped]))
    assert "committed deal" in refused(lambda: games.update(salts=["00" * 32]))
    assert "committed deal" in refused(lambda: games.update(commitments=["00" * 32]))
    assert "cannot go back" in refused(lambda: games.update(seq=0))
    assert "append-only" in refused(lambda: deleted("skill_games_game", played.id))
    assert games.get().decks == [deck]


@pytest.mark.django_db
def test_a_seat_token_cannot_be_replaced(played: Played) -> None:
    seats = Seat.objects.filter(game_id=played.id)
    assert "token cannot change" in refused(lambda: seats.update(key_hash="0" * 64))
    assert "append-only" in refused(lambda: deleted("skill_games_seat", seats.get().pk))


@pytest.mark.django_db
def test_a_finished_game_keeps_its_end_and_score(played: Played) -> None:
    games = Game.objects.filter(pk=played.id)
    now = timezone.now()
    games.update(
        state=GameState.FINISHED, finished_at=now, end_reason="played", score={"total": 1}, due_at=None
    )
    assert "keeps its end" in refused(lambda: games.update(score={"total": 999}))
    assert "keeps its end" in refused(lambda: games.update(state=GameState.PLAYING, finished_at=None))
    games.update(decks_revealed=1, revealed_at=now)
    assert "reveal cannot change" in refused(lambda: games.update(revealed_at=None))
    assert "reveal cannot change" in refused(lambda: games.update(decks_revealed=0))
    assert games.get().score == {"total": 1}
