"""A tournament's game as the kit deals it (RULES.md §4): its tournament, heat and entries; a held
reveal (a duplicate heat's deck stays secret once the game ends, until the heat closes); seats
that take their entries' own tokens."""

import pytest

from audit.context import AuditActor
from casino.engine.cards import ALL_CARDS
from kernel.keys import new_api_key
from skill_games import services
from skill_games.models import Game, GameState, Seat
from skill_games.selectors import get_game_snapshot
from skill_games.services import TournamentSeating
from tests.support.api import client_with_token, ok
from tests.support.gaming_day import Clock

pytestmark = pytest.mark.django_db

SYSTEM = AuditActor(kind="system", username="test")


def test_a_held_reveal_waits_for_the_heat_then_comes_once(clock: Clock) -> None:
    now = clock()
    snapshot = services.create_game(
        kind="attack",
        body={},
        user_id=None,
        actor=SYSTEM,
        now=now,
        deck=ALL_CARDS,
        tournament=TournamentSeating(tournament_id=7, heat=2, entries=(5,), reveal_held=True),
    )
    game_id = snapshot.game.pk
    seat = Seat.objects.get(game_id=game_id)
    assert (snapshot.game.tournament_id, snapshot.game.tournament_heat, seat.tournament_entry) == (7, 2, 5)
    assert services.reveal_held_game(game_id=game_id, actor=SYSTEM, now=now) is False  # still played

    clock.advance(minutes=10)
    later = clock()
    assert services.apply_due_deadline(game_id=game_id, now=later, actor=SYSTEM)
    ended = Game.objects.get(pk=game_id)
    assert ended.state == GameState.FINISHED
    assert (ended.decks_revealed, ended.revealed_at) == (0, None)  # held

    assert services.reveal_held_game(game_id=game_id, actor=SYSTEM, now=later) is True
    assert services.reveal_held_game(game_id=game_id, actor=SYSTEM, now=later) is False
    revealed = Game.objects.get(pk=game_id)
    assert (revealed.decks_revealed, revealed.revealed_at) == (1, later)
    answer = ok(client_with_token(snapshot.tokens[1]).get(f"/api/v1/games/{game_id}/"))  # type: ignore[index]
    assert answer["tournament"] == {"id": 7, "heat": 2, "entry": 5}
    assert answer["reveal"]["order"] == [str(card) for card in ALL_CARDS]


def test_a_table_seats_its_entries_on_their_own_tokens(clock: Clock) -> None:
    now = clock()
    keys = [new_api_key() for _ in range(3)]
    snapshot = services.create_game(
        kind="make21",
        body={"players": 3, "games": 1},
        user_id=None,
        actor=SYSTEM,
        now=now,
        tournament=TournamentSeating(
            tournament_id=9,
            heat=1,
            entries=(4, 5, 6),
            reveal_held=False,
            seat_keys=tuple((key.prefix, key.key_hash) for key in keys),
        ),
    )
    assert snapshot.tokens == {}  # nothing to show: each entry holds its token already
    game_id = snapshot.game.pk
    for number, key in enumerate(keys, start=1):
        answer = ok(client_with_token(key.key).get(f"/api/v1/games/{game_id}/"))
        assert answer["tournament"] == {"id": 9, "heat": 1, "entry": 3 + number}
        assert "hand" in answer
    assert get_game_snapshot(game_id=game_id, now=now) is not None
