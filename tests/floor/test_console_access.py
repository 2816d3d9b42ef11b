"""Who reaches the floor console, and what each sees."""

from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone

from casino.services.provisioning import provision_table
from tests.floor.conftest import Console

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_pit_boss_sees_the_tables_of_their_pit_only(console: Callable[..., Console]) -> None:
    mine = provision_table(name="BJ-MINE", decks=6, pit_name="Pit 1", now=timezone.now())
    provision_table(name="BJ-OTHER", decks=6, pit_name="Pit 2", now=timezone.now())
    boss = console("pit_boss", pits=(mine.table.pit,))
    boss.open("/floor/")
    boss.wait_for_text("BJ-MINE")
    assert "BJ-OTHER" not in boss.text()


def test_the_root_sends_a_visitor_to_sign_in(client: Any) -> None:
    response = client.get("/", follow=True)
    assert response.redirect_chain[-1][0].startswith("/floor/login/")
