"""The special-card game's admin pages in a real headless Chromium: the admin reads a match, its
points ledger and a round's cards, declarations and specials in order (the floor roles and
compliance read special rounds on the floor console; the admin site refuses them these pages)."""

import datetime as dt
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from casino.models import GameKind
from kernel.gaming_day import casino_zone
from specials.models import Match
from tests.support.api import TableActors, client_with_token, post
from tests.support.console import admin_log_in
from tests.support.factories import ProvisionedTableFactory, StaffFactory, restore_migrated_rows
from tests.support.specials import API, act, card, start

pytestmark = pytest.mark.django_db(transaction=True)


def played_round() -> tuple[int, int]:
    restore_migrated_rows()
    made = ProvisionedTableFactory.create(name="SP-ADMIN", game=GameKind.SPECIAL_POINTS)
    actors = TableActors(provisioned=made, terminal=client_with_token(made.terminal_token))
    actors.sign_in()
    assert post(actors.terminal, "/api/v1/shoes/", {"mode": "reported"}).status_code == 201
    match = start(actors)
    round_ = post(actors.terminal, f"{API}/matches/{match['id']}/rounds/").json()
    for text in ("AS",):
        round_ = card(actors, round_, text)
    round_ = act(actors, round_, seat=1, action="declare_ace", value=11)
    for text in ("9H", "7C", "8D", "5S", "KD"):
        round_ = card(actors, round_, text)
    round_ = act(actors, round_, seat=1, action="stand")
    round_ = act(actors, round_, seat=2, action="use_special")
    round_ = act(actors, round_, seat=2, action="stand")
    assert round_["state"] == "finished"
    return match["id"], round_["id"]


def test_the_admin_reads_a_match_and_its_round(chromium: WebDriver, live_server: Any) -> None:
    match_id, round_id = played_round()
    StaffFactory.create(username="configurer", role="admin", password="admin-pass-2026")
    reader = admin_log_in(chromium, live_server.url, "configurer", "admin-pass-2026")

    reader.open(f"/admin/specials/match/{match_id}/change/")
    reader.wait_for(lambda b: "points ledger" in b.page_source.lower())
    ledger = reader.read("#points_ledger-group")
    assert "seat 1: start 5, balance 5" in ledger
    assert "seat 1: win +1, balance 6" in ledger
    assert "seat 2: lose -1, balance 4" in ledger
    assert chromium.find_elements(By.NAME, "_save") == []

    opened_at = Match.objects.get(pk=match_id).opened_at.astimezone(casino_zone())
    shown = reader.read(".field-opened_at .readonly")
    assert shown == opened_at.strftime("%Y-%m-%d %H:%M %Z")  # casino local time with its zone, not UTC
    assert opened_at.utcoffset() != dt.timedelta(0)
    assert shown.endswith(("PST", "PDT"))

    reader.open(f"/admin/specials/specialsround/{round_id}/change/")
    reader.wait_for(lambda b: "Seat 1:" in b.page_source)
    page = reader.read("#content")
    assert "Seat 1: AS=11 8D=8 = 19 (stood)" in page
    assert "Seat 2: 9H=9 5S=5 = 15 (stood); plus one" in page
    assert "7C KD = 17" in page
    assert "Seat 1: win (+1), 6 points" in page
    assert "Seat 2: lose (-1), 4 points" in page
    assert "seat 1 declares the Ace 11" in page
    assert "use_special" in page
