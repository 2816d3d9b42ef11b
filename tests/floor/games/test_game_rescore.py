"""Re-scoring a skill game on the console from its log and its reveal (red on any difference:
the stored score against the recomputed one, the commitment against the SHA-256 of the revealed
order and salt), and the deal's verification; before the end, nothing of the deck is shown."""

import pytest
from django.test import Client

from skill_games.models import Game
from tests.floor.games.conftest import assert_not_shown, deck_with, page, play, play_out, start
from tests.support.database import as_superuser_bypassing_triggers
from tests.support.gaming_day import Clock

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("kind", ["attack", "squares"])
def test_a_finished_game_re_scores_to_its_stored_score(pit_boss: Client, clock: Clock, kind: str) -> None:
    table = play_out(start(kind))

    html = page(pit_boss, f"/floor/games/{table.id}/rescore/")

    assert '<p class="verdict ok" id="verdict">' in html
    assert "mismatch" not in html
    assert "matches the stored score" in html


def test_a_tampered_stored_score_is_red_on_the_re_score_page(pit_boss: Client, clock: Clock) -> None:
    attack = play_out(start("attack"))
    stored = attack.game.score
    assert stored is not None
    with as_superuser_bypassing_triggers() as cursor:
        cursor.execute(
            "UPDATE skill_games_game SET score = jsonb_set(score, '{total}', to_jsonb(%s::int)) WHERE id = %s",
            [stored["total"] + 1000, attack.id],
        )

    html = page(pit_boss, f"/floor/games/{attack.id}/rescore/")

    assert '<p class="verdict mismatch" id="verdict">' in html
    assert "1 score part" in html
    row = html.split("<td>Total</td>")[1].split("</tr>")[0]
    assert f">{stored['total'] + 1000}</td>" in row
    assert f">{stored['total']}</td>" in row
    assert "differs" in row
    assert html.split("<td>Total</td>")[0].rsplit("<tr", 1)[1].startswith(' class="mismatch"')


def test_a_tampered_salt_fails_the_commitment_in_red(pit_boss: Client, clock: Clock) -> None:
    squares = play_out(start("squares"))
    with as_superuser_bypassing_triggers() as cursor:
        cursor.execute("UPDATE skill_games_game SET salts = ARRAY[%s] WHERE id = %s", ["00" * 32, squares.id])

    rescored = page(pit_boss, f"/floor/games/{squares.id}/rescore/")
    deal = page(pit_boss, f"/floor/games/{squares.id}/deck/")

    assert '<p class="verdict mismatch" id="verdict">' in rescored
    assert "the deck&#x27;s check" in rescored or "the deck's check" in rescored
    assert '<p class="verdict mismatch" id="verdict">' in deal
    assert "<strong>differs</strong>" in deal


def test_an_unfinished_game_re_scores_its_score_so_far_and_reveals_nothing(
    pit_boss: Client, clock: Clock
) -> None:
    deck = deck_with("KH QD AS")
    attack = start("attack", deck)
    for column in (1, 2, 1):
        play(attack, {"move": "place", "column": column})

    rescored = page(pit_boss, f"/floor/games/{attack.id}/rescore/")
    deal = page(pit_boss, f"/floor/games/{attack.id}/deck/")

    assert "No final score is stored yet" in rescored
    assert "mismatch" not in rescored
    assert 'id="score-so-far"' in rescored
    assert "<dd>50</dd>" in rescored
    game = Game.objects.get(pk=attack.id)
    assert game.commitments[0] in deal
    assert game.salts[0] not in deal
    assert game.salts[0] not in rescored
    assert 'id="not-revealed"' in deal
    assert 'id="order"' not in deal
    assert_not_shown(deal + rescored, [str(card) for card in deck])


def test_the_deal_verification_shows_commitment_order_salt_and_the_rule(
    pit_boss: Client, clock: Clock
) -> None:
    attack = play_out(start("attack"))
    game = attack.game

    html = page(pit_boss, f"/floor/games/{attack.id}/deck/")

    assert '<p class="verdict ok" id="verdict">' in html
    assert game.commitments[0] in html
    assert game.salts[0] in html
    assert f"<li>{game.decks[0][0]}</li>" in html
    assert f"<li>{game.decks[0][51]}</li>" in html
    assert "lower-case hex SHA-256 of the ASCII bytes of the shuffled order" in html
    assert "mismatch" not in html
