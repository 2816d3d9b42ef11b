"""The skill games on the console: the games of a gaming day, and a game's story replayed from its
log (no card the rules keep hidden before the end; the whole deck after the reveal)."""

from collections.abc import Callable

import pytest
from django.test import Client

from casino.engine.cards import ALL_CARDS
from tests.floor.games.conftest import assert_not_shown, deck_with, page, play, play_out, start, total_of
from tests.support.gaming_day import Clock

pytestmark = pytest.mark.django_db


def test_the_day_lists_its_games_with_state_seats_times_score_and_tournament(
    pit_boss: Client, clock: Clock
) -> None:
    attack = start("attack", deck_with("KH QD AS"))
    clock.advance(seconds=2)
    for column in (1, 2, 1):
        play(attack, {"move": "place", "column": column})
    clock.advance(minutes=1)
    squares = play_out(start("squares"))

    html = page(pit_boss, "/floor/games/day/2026-11-20/")

    assert f'href="/floor/games/{attack.id}/"' in html
    assert f'href="/floor/games/{squares.id}/"' in html
    assert "Blackjack Attack" in html
    assert "Blackjack Squares" in html
    assert "2026-11-20 10:00:00 PST" in html  # started, casino local time
    assert "ends 2026-11-20 10:05:00 PST" in html  # Attack's 300-second clock
    assert "ended 2026-11-20 10:01:02 PST" in html  # Squares, played out at once
    assert html.count("Practice") == 2
    assert "Seat 1" in html
    assert ">50</td>" in html  # Attack's score so far: one Catch 21
    assert f">{total_of(squares)}</td>" in html
    # The next day has none, and the picker's day goes to the day's own page.
    assert "No skill games started on this gaming day." in page(pit_boss, "/floor/games/day/2026-11-21/")
    answer = pit_boss.get("/floor/games/?gaming_day=2026-11-19")
    assert (answer.status_code, answer["Location"]) == (302, "/floor/games/day/2026-11-19/")
    answer = pit_boss.get("/floor/games/")
    assert (answer.status_code, answer["Location"]) == (302, "/floor/games/day/2026-11-20/")


def test_a_bad_day_is_a_400_page_that_says_what_to_enter(pit_boss: Client, clock: Clock) -> None:
    assert "2026-11-20" in page(pit_boss, "/floor/games/?gaming_day=yesterday", 400)
    assert "is not a gaming day" in page(pit_boss, "/floor/games/day/1999-12-31/", 400)


def test_an_unfinished_attack_game_shows_no_undealt_card(pit_boss: Client, clock: Clock) -> None:
    deck = deck_with("KH QD AS")
    attack = start("attack", deck)
    clock.advance(seconds=1, milliseconds=250)
    play(attack, {"move": "place", "column": 1})
    clock.advance(seconds=2)
    play(attack, {"move": "place", "column": 2})

    html = page(pit_boss, f"/floor/games/{attack.id}/")

    assert "Blackjack Attack · game" in html
    assert "Playing" in html
    assert "2026-11-20 10:00:01 PST" in html
    assert "0:01.250" in html
    assert "2026-11-20 10:00:03 PST" in html
    assert "0:03.250" in html
    assert "place, column 1" in html
    assert "place, column 2" in html
    assert 'title="KH"' in html
    assert 'title="QD"' in html
    assert 'title="AS"' in html
    assert "Result: stays" in html
    assert_not_shown(html, [str(card) for card in deck[3:]])
    assert "revealed-deck" not in html
    assert "The deck order and its salt stay secret until the game ends" in html


def test_a_finished_attack_game_tells_every_move_and_shows_the_whole_deck(
    pit_boss: Client, clock: Clock
) -> None:
    attack = play_out(start("attack"), step=lambda: clock.advance(seconds=1))
    game = attack.game

    html = page(pit_boss, f"/floor/games/{attack.id}/")

    assert game.seq == 52
    assert html.count("place, column") == 52
    assert "Result: catch 21" in html
    assert "Result: five card charlie" in html
    assert f'<dd id="score-total">{total_of(attack)}</dd>' in html
    assert "No-Bust bonus" in html
    assert "Black Jack Attack" in html
    assert "Time bonus" in html
    assert "At the end" in html
    assert "revealed-deck" in html
    for card in ALL_CARDS:
        assert f'title="{card}"' in html


def test_an_unfinished_squares_game_never_shows_the_bottom_card(pit_boss: Client, clock: Clock) -> None:
    deck = deck_with("6S 7H 8D", bottom="3C")
    squares = start("squares", deck)
    for position in (1, 2, 3):
        clock.advance(seconds=5)
        play(squares, {"move": "place", "position": position})

    html = page(pit_boss, f"/floor/games/{squares.id}/")

    assert "Blackjack Squares · game" in html
    assert "place, position 3" in html
    assert "0:15.000" in html
    assert 'title="6S"' in html
    assert 'title="8D"' in html
    assert_not_shown(html, [str(card) for card in deck[4:]])  # deck[3] is the current card
    assert 'title="3C"' not in html


def test_a_swap_brings_the_bottom_card_in_and_only_then_is_it_shown(pit_boss: Client, clock: Clock) -> None:
    squares = start("squares", deck_with("6S", bottom="3C"))
    play(squares, {"move": "place", "position": 1})
    play(squares, {"move": "swap", "position": 1})

    html = page(pit_boss, f"/floor/games/{squares.id}/")

    assert "swap, position 1" in html
    assert 'title="3C"' in html  # face up now: the swap brought it in


def test_a_finished_squares_game_shows_its_squares_and_the_revealed_deck(
    pit_boss: Client, clock: Clock
) -> None:
    squares = play_out(start("squares", deck_with(bottom="3C")))

    html = page(pit_boss, f"/floor/games/{squares.id}/")

    assert html.count("cash in") == 5
    squares_scored = ", ".join(str(value) for value in squares.game.score["squares"])  # type: ignore[index]
    assert f"<dt>Squares</dt><dd>{squares_scored}</dd>" in html
    assert f'<dd id="score-total">{total_of(squares)}</dd>' in html
    assert "revealed-deck" in html
    assert 'title="3C"' in html


def test_an_unknown_game_is_a_404(pit_boss: Client, clock: Clock) -> None:
    for path in ("/floor/games/999999/", "/floor/games/999999/rescore/", "/floor/games/999999/deck/"):
        assert pit_boss.get(path).status_code == 404


@pytest.mark.parametrize("role", ["floor_supervisor", "pit_boss", "compliance", "admin"])
def test_every_console_role_reads_the_games(
    signed_in: Callable[[str], Client], clock: Clock, role: str
) -> None:
    client = signed_in(role)
    attack = play_out(start("attack"))

    for path in (
        "/floor/games/day/2026-11-20/",
        f"/floor/games/{attack.id}/",
        f"/floor/games/{attack.id}/rescore/",
        f"/floor/games/{attack.id}/deck/",
    ):
        assert client.get(path).status_code == 200, path
    assert 'href="/floor/games/"' in page(client, "/floor/rounds/")  # the console's navigation


@pytest.mark.parametrize("role", ["cage_cashier", "count_team"])
def test_the_cage_and_the_count_team_are_refused(
    signed_in: Callable[[str], Client], clock: Clock, role: str
) -> None:
    client = signed_in(role)
    attack = start("attack")

    for path in (
        "/floor/games/",
        "/floor/games/day/2026-11-20/",
        f"/floor/games/{attack.id}/",
        f"/floor/games/{attack.id}/rescore/",
        f"/floor/games/{attack.id}/deck/",
    ):
        assert client.get(path).status_code == 403, path


def test_a_visitor_is_sent_to_sign_in(client: Client, clock: Clock) -> None:
    attack = start("attack")

    answer = client.get(f"/floor/games/{attack.id}/")

    assert answer.status_code == 302
    assert answer["Location"].startswith("/floor/login/")
