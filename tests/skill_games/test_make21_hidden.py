"""Make 21's hidden information wherever data leaves the service (RULES.md §3.3): two matches with
the same public history, dealt from decks that differ only in cards still hidden (a hand and the
draw pile), look the same to everyone but the seat whose hand differs: the other seats' and
staff's answers, the move log, the admin's page, the console's story, deal and re-score pages,
and the audit trail."""

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from rest_framework.test import APIClient

from audit.models import AuditEvent
from casino.engine.cards import ALL_CARDS, Card, parse_card
from skill_games.models import Game, Seat
from tests.skill_games.conftest import Match, make21_deck
from tests.support.factories import StaffFactory

pytestmark = pytest.mark.django_db

A, B, C = 1, 2, 3
# A holds KS and 6D; B 5H 2C; C 9C 3D; the draw pile starts 8H 4S TH.
DEALT = make21_deck("KS 6D", "5H 2C", "9C 3D", draw="8H 4S TH")


def swapped(deck: tuple[Card, ...], first: str, second: str) -> tuple[Card, ...]:
    a, b = parse_card(first), parse_card(second)
    return tuple(b if card == a else a if card == b else card for card in deck)


# The same deal but for A's 6D, swapped with a card deep in the draw pile, and two draw pile cards
# swapped with each other: no card that is face up differs.
REDEALT = swapped(swapped(DEALT, "6D", "JC"), "QH", "2S")


def admin() -> Client:
    client = Client()
    client.force_login(User.objects.get(pk=StaffFactory.create(role="admin").user.pk))
    return client


def html(client: Client, path: str) -> str:
    answer = client.get(path)
    assert answer.status_code == 200, (path, answer.status_code)
    return answer.content.decode()


def normalised(text: str, game: Game) -> str:
    """`text` with what differs between two games whatever their cards (the ids, the commitments,
    the seats' token prefixes, a form's CSRF token) named instead."""
    for i, commitment in enumerate(game.commitments):
        text = text.replace(commitment, f"<commitment {i}>")
    for seat in Seat.objects.filter(game_id=game.pk):
        text = text.replace(seat.key_prefix, f"<seat {seat.number}>")
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "<csrf>", text)
    text = re.sub(r'"X-CSRFToken": "[^"]*"', "<csrf>", text)
    text = re.sub(r'value="\d+"( id="id_\w+-\d+-id")', r'value="<row>"\1', text)  # the inlines' row ids
    return re.sub(rf"\b{game.pk}\b", "<game>", text)


def everything_seen(match: Match, *, readers: dict[str, APIClient], client: Client) -> dict[str, str]:
    game = Game.objects.get(pk=match.id)
    seen: dict[str, Any] = {}
    for name, reader in readers.items():
        answer = match.read(reader)
        seen[f"answer of {name}"] = answer
        seen[f"log read by {name}"] = match.log(reader)
    for page in ("", "deck/", "rescore/"):
        seen[f"console {page or 'story'}"] = html(client, f"/floor/games/{match.id}/{page}")
    seen["admin"] = html(client, f"/admin/skill_games/game/{match.id}/change/")
    seen["audit"] = list(
        AuditEvent.objects.filter(subject_type="skill_game", subject_id=str(match.id))
        .order_by("id")
        .values_list("event_type", "after")
    )
    return {name: normalised(str(value), game) for name, value in seen.items()}


def played(start_match: Callable[..., Match], deck: tuple[Card, ...]) -> Match:
    match = start_match(deck)
    match.play(A, "KS", "P1")
    match.play(B, "5H", "P1")
    match.play(C, "9C", "P2")
    return match


def test_a_redeal_of_the_hidden_cards_changes_nothing_but_its_owners_view(
    start_match: Callable[..., Match], pit_boss: APIClient
) -> None:
    with connection.cursor() as cursor:  # ids nothing else on the pages could be mistaken for
        cursor.execute("SELECT setval(pg_get_serial_sequence('skill_games_game', 'id'), 777000)")
    client = admin()
    first, second = played(start_match, DEALT), played(start_match, REDEALT)
    assert first.read(A)["hand"] == ["6D", "8H"]
    assert second.read(A)["hand"] == ["JC", "8H"]

    seen_first = everything_seen(
        first, readers={"B": first.seats[B], "C": first.seats[C], "staff": pit_boss}, client=client
    )
    seen_second = everything_seen(
        second, readers={"B": second.seats[B], "C": second.seats[C], "staff": pit_boss}, client=client
    )

    assert set(seen_first) == set(seen_second)
    for name in seen_first:
        assert seen_first[name] == seen_second[name], name
    assert normalised(str(first.read(A)), Game.objects.get(pk=first.id)) != normalised(
        str(second.read(A)), Game.objects.get(pk=second.id)
    )
    for page in (seen_first["console story"], seen_first["admin"]):
        # A's cards, as words (a random CSRF token may hold the letters).
        assert re.search(r"\b(6D|8H)\b", page) is None


def test_a_finished_games_hands_are_shown_on_the_story_from_its_reveal(
    start_match: Callable[..., Match],
) -> None:
    match = start_match(make21_deck("KS 6D", "5H 2C"), players=2, games=1)
    client = admin()
    story = html(client, f"/floor/games/{match.id}/")
    assert "Hands (revealed)" not in story
    assert match.play_out("P2")["state"] == "finished"

    story = html(client, f"/floor/games/{match.id}/")
    admin_page = html(client, f"/admin/skill_games/game/{match.id}/change/")

    assert "Hands (revealed)" in story
    assert story.count("Hands (revealed)") >= 50
    assert 'title="6D"' in story.split("<h2>Moves, in order</h2>")[0]  # A's hand at the start
    game = Game.objects.get(pk=match.id)
    assert " ".join(game.decks[0]) in admin_page
    assert game.salts[0] in admin_page
    assert [card for card in ALL_CARDS if str(card) not in game.decks[0]] == []
