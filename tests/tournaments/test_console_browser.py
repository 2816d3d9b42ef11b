"""The tournament pages in a real Chromium: the director creates a tournament in dollars and casino
time, files it and reads its posted rules; the cage cashier registers an entry and prints its slip,
numbered, with the entry's token and its QR code shown once. Each page is a screenshot."""

import datetime as dt
from collections.abc import Callable
from typing import cast

import pytest
from django.contrib.auth.models import User

from audit.context import AuditActor
from patrons import services as patrons
from tests.support.console import Console
from tests.support.factories import StaffFactory
from tests.support.gaming_day import Clock
from tests.tournaments.conftest import settings_body
from tournaments import services
from tournaments.models import Entry, Tournament, TournamentState

pytestmark = pytest.mark.django_db(transaction=True)

ACTOR = AuditActor(kind="system", username="test:browser")


def test_the_director_creates_a_tournament_files_it_and_reads_the_posted_rules(
    console: Callable[..., Console], clock: Clock
) -> None:
    director = console("tournament_director")
    director.wait_for_text("No tournament yet.")  # the director's console is the tournaments
    director.follow("a[href='/floor/tournaments/new/']")
    director.wait_for_text("Create a tournament")
    for name, text in (
        ("name", "Friday Night Attack"),
        ("buy_in", "100"),
        ("fee", "15.50"),
        ("added", "500"),
        ("guarantee", "2,500"),
        ("max_entries", "30"),
        ("reentries", "1"),
        ("registration_closes_at", "2026-11-20 19:00"),
        ("heats", "2026-11-20 19:30\n2026-11-20 20:00"),
        ("prizes", "50, 30, 20"),
    ):
        director.type_into(f"[name={name}]", text)
    director.select_value("[name=game]", "attack")
    director.select_value("[name=deal]", "duplicate")
    director.screenshot("tournament-create-form")
    director.follow("#tournament-new button[type=submit]")

    director.wait_for_text("is created as a draft")
    (tournament,) = Tournament.objects.all()
    assert "$2,500.00" in director.read("#tournament-settings")
    assert "2026-11-20 19:00 PST" in director.read("#tournament-settings")
    director.type_into("[name=reference]", "NGC-2026-301")
    director.browser.execute_script("document.querySelector('[name=filed_on]').value = '2026-11-18'")
    director.follow("#tournament-file button[type=submit]")

    director.wait_for_text("registration is open")
    assert director.read("#tournament-state") == "Registering"
    rules = tournament.rules.get()
    assert rules.sha256 in director.read("#rules-version")
    posted = director.read("#posted-rules")
    assert posted.startswith("Friday Night Attack: a Blackjack Attack tournament.")
    assert "$115.50" in posted
    director.screenshot("tournament-filed-rules")
    assert Tournament.objects.get(pk=tournament.pk).state == TournamentState.REGISTERING


def test_the_cage_registers_an_entry_and_its_slip_shows_the_number_and_the_qr_code(
    console: Callable[..., Console], clock: Clock
) -> None:
    director = cast(User, StaffFactory.create(role="tournament_director").user)
    tournament = services.create_tournament(
        body=settings_body(clock), user=director, actor=ACTOR, now=clock()
    )
    services.file_tournament(
        tournament_id=tournament.pk,
        reference="NGC-1",
        filed_on=dt.date(2026, 11, 18),
        actor=ACTOR,
        now=clock(),
    )
    patron = patrons.create_patron(name="Ana Ruiz", user=director, actor=ACTOR, now=clock()).number

    cashier = console("cage_cashier")
    cashier.wait_for_text("Cage: chip redemptions")
    cashier.follow("nav a[href='/floor/tournaments/']")
    cashier.follow("a[href='/floor/tournaments/entries/new/']")
    cashier.wait_for_text("Register a tournament entry")
    cashier.select_value("[name=tournament]", str(tournament.pk))
    cashier.type_into("[name=patron]", str(patron))
    cashier.click("#id_paid_with_0")
    cashier.type_into("[name=nickname]", "Ana")
    cashier.follow("#tournament-entry button[type=submit]")

    cashier.wait_for_text("Entry No. 1")
    (entry,) = Entry.objects.all()
    token = cashier.read(".token-text")
    assert token.startswith(entry.key_prefix)
    assert f"/play/?token={token}" in cashier.read("#play-url")
    assert cashier.attribute("#entry-token svg.qr", "width")
    slip = cashier.read("#entry-slip")
    for text in (str(patron), "$25.00 in cash", "version 1", "Friday Attack"):
        assert text in slip, text
    cashier.screenshot("tournament-entry-slip")

    cashier.open(f"/floor/tournaments/entries/{entry.pk}/slip/")
    cashier.wait_for_text("was shown once")
    assert token not in cashier.text()
    cashier.screenshot("tournament-entry-slip-reloaded")
