"""skill_games 0003-0004: a game's one deck becomes the first (and only) deck of its deal, kept as
it was, revealed if it was; and back again while every game has one deck."""

from collections.abc import Iterator

import pytest
from django.db import DatabaseError, connection

from casino.engine.cards import ALL_CARDS
from tests.support.migrations import latest, migrate

BEFORE = [("skill_games", "0002_log_guards")]
DECK = [str(card) for card in ALL_CARDS]


def rows(sql: str) -> list[tuple[object, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return list(cursor.fetchall())


@pytest.fixture
def at_0002() -> Iterator[None]:
    migrate(BEFORE)
    try:
        yield
    finally:
        migrate(latest())


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("at_0002")
def test_one_deck_games_keep_their_deal_both_ways() -> None:
    with connection.cursor() as cursor:
        for revealed in ("NULL", "now()"):
            state = "'playing'" if revealed == "NULL" else "'finished'"
            end = "NULL, NULL, ''" if revealed == "NULL" else "now(), '{\"total\": 5}', 'played'"
            cursor.execute(
                "INSERT INTO skill_games_game (kind, state, seq, started_at, settings, deck_order, salt_hex, "  # noqa: S608
                f"commitment, revealed_at, finished_at, score, end_reason, created_at) VALUES ('attack', {state}, "
                f"0, now(), '{{}}', %s, %s, %s, {revealed}, {end}, now())",
                [DECK, "ab" * 32, "cd" * 32],
            )

    migrate(latest())

    assert rows("SELECT decks, salts, commitments, decks_revealed FROM skill_games_game ORDER BY id") == [
        ([DECK], ["ab" * 32], ["cd" * 32], 0),
        ([DECK], ["ab" * 32], ["cd" * 32], 1),
    ]
    with pytest.raises(DatabaseError, match="committed deal"), connection.cursor() as cursor:
        cursor.execute("UPDATE skill_games_game SET salts = ARRAY['00'] WHERE decks_revealed = 0")

    migrate(BEFORE)

    assert (
        rows("SELECT deck_order, salt_hex, commitment FROM skill_games_game ORDER BY id")
        == [(DECK, "ab" * 32, "cd" * 32)] * 2
    )
