"""The admin's skill-game pages in a real headless Chromium: a game in play shows its log and its
commitment, its deck and salt hidden; a Make 21 match shows no hand."""

from typing import Any

import pytest
from django.utils import timezone
from selenium.webdriver.remote.webdriver import WebDriver

from audit.context import AuditActor
from casino.engine.cards import ALL_CARDS
from skill_games import services
from skill_games.models import Game
from tests.support.console import admin_log_in
from tests.support.factories import StaffFactory

pytestmark = pytest.mark.django_db(transaction=True)

PIT_BOSS = AuditActor(kind="system", username="tests:pit boss")


def test_the_admin_reads_a_match_with_its_decks_hidden(chromium: WebDriver, live_server: Any) -> None:
    created = services.create_game(
        kind="make21",
        body={"players": 3},
        user_id=None,
        actor=PIT_BOSS,
        now=timezone.now(),
        decks=[ALL_CARDS] * 3,
    )
    game = Game.objects.get(pk=created.game.pk)
    StaffFactory.create(username="configurer", role="admin", password="admin-pass-2026")
    reader = admin_log_in(chromium, live_server.url, "configurer", "admin-pass-2026")

    reader.open(f"/admin/skill_games/game/{game.pk}/change/")
    reader.wait_for(lambda b: "move log, in order" in b.page_source.lower(), "the move log")
    text = reader.text()
    assert "hidden until the reveal" in text
    assert game.commitments[0] in text
    assert game.salts[0] not in text
    assert " ".join(str(card) for card in ALL_CARDS[:6]) not in text
    reader.screenshot("skill-game-admin")
