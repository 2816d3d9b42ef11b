"""Round detail in a real headless Chromium: a pit boss reads a disputed round and re-verifies
it; compliance checks a closed electronic shoe; a pit boss reads a special-card round."""

from collections.abc import Callable

import pytest
from selenium.webdriver.common.by import By

from blackjack.models import Round
from casino.models import GameKind
from tests.support.api import TableActors
from tests.support.console import Console
from tests.support.round_stories import (
    call,
    play_disputed_round,
    play_electronic_round_and_close_shoe,
    play_special_round,
)

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_pit_boss_reads_a_disputed_round_and_re_verifies_it(
    table: TableActors, console: Callable[..., Console]
) -> None:
    settled = play_disputed_round(table)
    boss = console("pit_boss", pits=(table.table.pit,))

    boss.open(f"/floor/rounds/{settled['id']}/")
    boss.wait_for_text("casino.round.settled")
    play = boss.read("table.play")
    assert play.index("10♠") < play.index("6♣") < play.index("9♥") < play.index("9♦") < play.index("10♥")
    lines = boss.read("table.settlement-lines")
    assert "T18 $2.00 Win $90.00 $92.00" in lines
    assert "$100.00 Win $100.00 $200.00" in lines
    boss.screenshot("round-detail-pit_boss")

    boss.follow("#reverify")
    boss.wait_for_text("matches to the cent")
    assert "verdict ok" in (boss.attribute("#verdict", "class") or "")
    boss.screenshot("round-reverify-pit_boss")


def test_compliance_verifies_a_closed_electronic_shoe(
    table: TableActors, console: Callable[..., Console]
) -> None:
    shoe, settled = play_electronic_round_and_close_shoe(table)
    reader = console("compliance")

    reader.open(f"/floor/rounds/shoes/{shoe['id']}/")
    reader.wait_for_text("Verified: the revealed order and salt hash to the published commitment")
    assert reader.read("#commitment") == shoe["commitment"]
    reader.click("details.reveal summary")
    reader.wait_for(lambda b: b.find_element(By.CSS_SELECTOR, "ol.reveal-order").is_displayed())
    assert Round.objects.get(pk=settled["id"]).shoe_id == shoe["id"]
    reader.screenshot("shoe-verify-compliance")


def test_a_pit_boss_reads_a_special_card_round(
    make_table: Callable[..., TableActors], console: Callable[..., Console]
) -> None:
    actors = make_table("SP-01", game=GameKind.SPECIAL_POINTS)
    call(actors, "/api/v1/shoes/", {"mode": "reported"}, status=201)
    finished = play_special_round(actors)
    boss = console("pit_boss", pits=(actors.table.pit,))

    boss.open(f"/floor/rounds/specials/{finished['id']}/")
    boss.wait_for_text("specials.round.action_taken")
    assert "Seat 2 win +1 6" in boss.read("table.outcome")
    boss.screenshot("specials-round")
    boss.follow("#reverify")
    boss.wait_for_text("The replay matches the stored round")
