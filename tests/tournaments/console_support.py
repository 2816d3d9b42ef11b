"""The tournament console's tests: the staff signed in on the console, and tournaments brought to
the state a test needs through the services (never through the pages not under test)."""

import datetime as dt
from dataclasses import dataclass
from typing import Any, cast

from django.contrib.auth.models import User
from django.db import transaction
from django.test import Client

from audit.context import AuditActor
from patrons import services as patrons
from tests.support.factories import StaffFactory
from tests.support.gaming_day import Clock
from tests.tournaments.conftest import settings_body
from tournaments import services
from tournaments.models import Entry, Tournament

ACTOR = AuditActor(kind="system", username="test:console")
PAGES = "/floor/tournaments/"
ROLES = ("tournament_director", "cage_cashier", "pit_boss", "compliance", "floor_supervisor", "count_team")


@dataclass
class Person:
    user: User
    client: Client


def signed_in(role: str, username: str | None = None) -> Person:
    staff = StaffFactory.create(role=role, **({"username": username} if username else {}))
    user = cast(User, staff.user)
    client = Client()
    client.force_login(user)
    return Person(user=user, client=client)


@dataclass
class Floor:
    """A clock, and one signed-in person of each role that touches the tournaments."""

    clock: Clock
    director: Person
    cashier: Person
    pit_boss: Person
    compliance: Person

    def now(self) -> dt.datetime:
        return self.clock()

    def patron(self, name: str = "Ana Ruiz") -> int:
        return patrons.create_patron(name=name, user=self.cashier.user, actor=ACTOR, now=self.now()).number

    def tournament(self, **changes: Any) -> Tournament:
        return services.create_tournament(
            body=settings_body(self.clock, **changes), user=self.director.user, actor=ACTOR, now=self.now()
        )

    def filed(self, **changes: Any) -> Tournament:
        tournament = self.tournament(**changes)
        return services.file_tournament(
            tournament_id=tournament.pk,
            reference="NGC-2026-118",
            filed_on=dt.date(2026, 11, 18),
            actor=ACTOR,
            now=self.now(),
        )

    def enter(self, tournament: Tournament, patron: int, paid_with: str = "cash") -> tuple[Entry, str]:
        return services.register_entry(
            tournament_id=tournament.pk,
            patron_number=patron,
            paid_with=paid_with,
            nickname="",
            cashier=self.cashier.user,
            actor=ACTOR,
            now=self.now(),
        )

    def played(self, tournament: Tournament) -> Tournament:
        """Two hours on, past every heat's start window with nobody playing: play is done, every
        entry scores the game's no-show score."""
        self.clock.advance(minutes=120)
        with transaction.atomic():
            services.advance_tournament(tournament_id=tournament.pk, actor=ACTOR, now=self.now())
        for person in (self.director, self.cashier, self.pit_boss, self.compliance):
            person.client.force_login(person.user)  # their sessions idled out as the clock moved
        return Tournament.objects.get(pk=tournament.pk)

    def proposed(self, tournament: Tournament) -> Tournament:
        services.propose_results(
            tournament_id=tournament.pk, user=self.director.user, actor=ACTOR, now=self.now()
        )
        return Tournament.objects.get(pk=tournament.pk)

    def approved(self, tournament: Tournament) -> Tournament:
        services.approve_results(
            tournament_id=tournament.pk,
            user=self.pit_boss.user,
            role="pit_boss",
            actor=ACTOR,
            now=self.now(),
        )
        return Tournament.objects.get(pk=tournament.pk)


def floor_of(clock: Clock) -> Floor:
    return Floor(
        clock=clock,
        director=signed_in("tournament_director"),
        cashier=signed_in("cage_cashier"),
        pit_boss=signed_in("pit_boss"),
        compliance=signed_in("compliance"),
    )


def page(response: Any) -> str:
    return str(response.content.decode())
