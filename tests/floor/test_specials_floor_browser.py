"""A special-card table on the console in a real headless Chromium, as a pit boss of its pit sees
it: its floor card with the match in play and no money, then the match's page from the card's
link, then the table's page with the match, its rounds and its points ledger."""

from collections.abc import Callable

import pytest
from selenium.webdriver.common.by import By

from casino.models import GameKind, StaffRole
from tests.support.api import TableActors
from tests.support.console import Console
from tests.support.live_floor import open_for_play, staff
from tests.support.rounds import open_shoe
from tests.support.specials import open_a_round, play_a_round, start

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_pit_boss_follows_a_special_card_table_card_to_its_match(
    console: Callable[..., Console], make_table: Callable[..., TableActors]
) -> None:
    actors = make_table("SP-01", game=GameKind.SPECIAL_POINTS, signed_in=False, pit_name="Pit 1")
    make_table("BJ-01", signed_in=False, pit_name="Pit 1")
    open_for_play(actors, supervisor=staff(StaffRole.PIT_BOSS, pits=("Pit 1",)))
    open_shoe(actors)
    match = start(actors)
    for _ in range(3):
        play_a_round(actors, match)
    open_a_round(actors, match)
    boss = console(StaffRole.PIT_BOSS, pits=(actors.table.pit,))

    boss.open("/floor/")
    boss.wait_for_text("SP-01")
    card = boss.read(f"#table-{actors.table.pk}")
    assert f"#{match['id']}, 3 rounds played; round 4 in play. Points: seat 1 8, seat 2 2" in card
    assert "Played for points, not money" in card
    for money in ("Hold", "Drop", "Limits"):
        assert money not in card
    assert "Hold" in boss.read(f"#pit-map .table-card:not(#table-{actors.table.pk})")  # blackjack's card
    boss.screenshot("specials-floor-card-pit_boss")

    boss.follow(f"#table-{actors.table.pk} a[href='/floor/rounds/specials/matches/{match['id']}/']")
    boss.wait_for_text(f"Match {match['id']} · SP-01")
    assert "In play, 3 rounds played, round 4 being played" in boss.read(".match-state")
    assert boss.read("#seat-1 .points") == "8"
    assert boss.read("#seat-2 .points") == "2"
    assert "Round 3" in boss.read("table.rounds")
    boss.screenshot("specials-match-pit_boss")

    boss.follow(f"a[href='/floor/tables/{actors.table.pk}/']")
    boss.wait_for_text(f"Match {match['id']} in play")
    assert "Points ledger of match" in boss.text()
    assert "Request a fill" not in boss.text()
    boss.screenshot("specials-table-pit_boss")


def test_compliance_reads_a_finished_match_from_the_table_page(
    console: Callable[..., Console], make_table: Callable[..., TableActors]
) -> None:
    actors = make_table("SP-02", game=GameKind.SPECIAL_POINTS, pit_name="High limit")
    open_shoe(actors)
    match = start(actors, start_points=5, win_points=6, lose_points=4)
    play_a_round(actors, match)
    reader = console(StaffRole.COMPLIANCE)

    reader.open(f"/floor/tables/{actors.table.pk}/")
    reader.wait_for_text(f"Match {match['id']}, the last one played: finished")
    assert "Request a fill" not in reader.text()
    reader.follow(f".match-in-play a[href='/floor/rounds/specials/matches/{match['id']}/']")
    assert reader.read(".match-state") == "Finished after 1 round: won by seat 1 (Ana); seat 2 out"
    assert reader.read("#seat-1").endswith("Winner")
    assert reader.read("#seat-2").endswith("Eliminated")
    reader.screenshot("specials-match-finished-compliance")


def test_the_pit_boss_opens_and_closes_a_points_table_with_no_count(
    console: Callable[..., Console], make_table: Callable[..., TableActors]
) -> None:
    actors = make_table("SP-03", game=GameKind.SPECIAL_POINTS, pit_name="Pit 1")
    boss = console(StaffRole.PIT_BOSS, pits=(actors.table.pit,))

    boss.open(f"/floor/tables/{actors.table.pk}/")
    boss.wait_for_text("Open it (no chips are counted).")
    boss.follow(f"a[href='/floor/tables/{actors.table.pk}/open/']")
    boss.wait_for_text("played for points, not money")
    assert "Opener total" not in boss.text()
    assert not boss.browser.find_elements(By.CSS_SELECTOR, "table.count-form")
    boss.screenshot("specials-open-pit_boss")
    boss.click("form button.primary")
    boss.wait_for_text("SP-03 is open for the")
    assert "(points, no chips counted)" in boss.text()
    assert "Points, not money: no chips counted." in boss.read(".latest-count")
    assert "$" not in boss.read(".latest-count")
    boss.screenshot("specials-opened-pit_boss")

    boss.follow(f"a[href='/floor/tables/{actors.table.pk}/close/']")
    boss.wait_for_text("Closing the")
    boss.click("form button.primary")
    boss.wait_for_text("SP-03 is closed for the")
