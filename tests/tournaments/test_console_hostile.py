"""Hostile input on every form of the tournament pages: each field of each form replaced in turn by
malformed, oversized, negative, out-of-range and odd values, ids that name nothing, a POST without
its CSRF token or its submission key. Every answer is a page with a message (never a 500), and
whatever is refused changes nothing."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client

from audit.models import AuditEvent
from casino.models import LedgerTransaction
from kernel.forms import new_submission_key
from tests.support.gaming_day import Clock
from tests.tournaments.console_support import PAGES, Floor, Person, floor_of
from tournaments.models import Cancellation, Entry, Prize, Results, Tournament

pytestmark = pytest.mark.django_db

HOSTILE: list[Any] = [
    "",
    "-1",
    "9" * 40,
    "9" * 5000,
    "A\x00S",
    "\U0001f4a5\u202e",
    "\uff11\uff12",  # fullwidth digits
    "1,2,,3",
    "<script>alert(1)</script>",
    '{"a": ' * 50 + "1" + "}" * 50,
    "[" * 20_000 + "]" * 20_000,
    "2026-02-30 10:00",
    "9999-12-31 23:59",
    "0001-01-01 00:00",
    ["1", "2"],  # a field sent twice
]
OK_STATUSES = {200, 302, 400, 403, 404, 409}


def _state() -> tuple[int, ...]:
    """Everything a tournament form could change."""
    return (
        Tournament.objects.count(),
        Tournament.objects.filter(state="draft").count(),
        Entry.objects.count(),
        Results.objects.count(),
        Results.objects.filter(approved_at__isnull=False).count(),
        Cancellation.objects.count(),
        Cancellation.objects.filter(approved_at__isnull=False).count(),
        Prize.objects.filter(paid_at__isnull=False).count(),
        LedgerTransaction.objects.count(),
        AuditEvent.objects.count(),
    )


@dataclass
class Target:
    who: Person
    path: str
    body: dict[str, Any]


@pytest.fixture
def floor(clock: Clock) -> Floor:
    return floor_of(clock)


def _create(floor: Floor) -> Target:
    return Target(
        floor.director,
        f"{PAGES}new/",
        {
            "name": "Hostile",
            "game": "attack",
            "buy_in": "10",
            "fee": "1",
            "added": "0",
            "guarantee": "0",
            "max_entries": "8",
            "reentries": "0",
            "registration_closes_at": "2026-11-20 18:00",
            "heats": "2026-11-20 18:30",
            "start_window_s": "120",
            "deal": "duplicate",
            "prizes": "100",
            "game_settings": "{}",
        },
    )


def _file(floor: Floor) -> Target:
    tournament = floor.tournament()
    return Target(
        floor.director, f"{PAGES}{tournament.pk}/file/", {"reference": "NGC-1", "filed_on": "2026-11-18"}
    )


def _cancel(floor: Floor) -> Target:
    tournament = floor.tournament()
    return Target(floor.director, f"{PAGES}{tournament.pk}/cancel/", {"reason": "Kiosks down"})


def _entry(floor: Floor) -> Target:
    tournament = floor.filed()
    return Target(
        floor.cashier,
        f"{PAGES}entries/new/",
        {
            "tournament": str(tournament.pk),
            "patron": str(floor.patron()),
            "paid_with": "cash",
            "nickname": "Ana",
        },
    )


def _prize(floor: Floor) -> Target:
    tournament = floor.filed()
    floor.enter(tournament, floor.patron())
    floor.approved(floor.proposed(floor.played(tournament)))
    (prize,) = Prize.objects.all()
    return Target(floor.cashier, f"{PAGES}prizes/{prize.pk}/pay/", {"paid_with": "cash"})


def _approve_results(floor: Floor) -> Target:
    tournament = floor.filed()
    floor.enter(tournament, floor.patron())
    floor.proposed(floor.played(tournament))
    return Target(floor.pit_boss, f"{PAGES}{tournament.pk}/results/approve/", {})


FORMS: dict[str, Callable[[Floor], Target]] = {
    "create": _create,
    "file": _file,
    "cancel": _cancel,
    "entry": _entry,
    "prize": _prize,
    "approve_results": _approve_results,
}


def _post(who: Person, path: str, body: dict[str, Any]) -> Any:
    return who.client.post(path, {**body, "submission_key": new_submission_key()})


@pytest.mark.parametrize("form", FORMS)
def test_hostile_values_in_every_field_are_refused_on_the_page_and_change_nothing(
    form: str, floor: Floor
) -> None:
    target = FORMS[form](floor)
    fields = [*target.body, "submission_key", "unexpected"]
    before = _state()
    for field in fields:
        for value in HOSTILE:
            answer = target.who.client.post(
                target.path, {**target.body, "submission_key": new_submission_key(), field: value}
            )
            assert answer.status_code in OK_STATUSES, (form, field, value, answer.status_code)
            after = _state()
            # A value that is fine here records (and the next ones may be refused for the state).
            assert answer.status_code == 302 or after == before, (form, field, value)
            before = after


@pytest.mark.parametrize("form", FORMS)
def test_without_csrf_or_submission_key_nothing_is_recorded(form: str, floor: Floor) -> None:
    target = FORMS[form](floor)
    before = _state()

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(target.who.user)
    no_csrf = strict.post(target.path, {**target.body, "submission_key": new_submission_key()})
    no_key = target.who.client.post(target.path, target.body)
    bad_key = target.who.client.post(target.path, {**target.body, "submission_key": "x" * 43 + "!"})

    assert no_csrf.status_code == 403
    assert no_key.status_code in (400, 409)
    assert bad_key.status_code in (400, 409)
    assert "nothing was recorded" in no_key.content.decode().lower()
    assert _state() == before


@pytest.mark.parametrize(
    "path",
    [
        f"{PAGES}99999/file/",
        f"{PAGES}{'9' * 30}/file/",
        f"{PAGES}99999/cancel/",
        f"{PAGES}99999/results/",
        f"{PAGES}-1/file/",
        f"{PAGES}abc/file/",
    ],
)
def test_an_unknown_tournament_is_404(path: str, floor: Floor) -> None:
    assert (
        _post(floor.director, path, {"reference": "X", "filed_on": "2026-11-18", "reason": "x"}).status_code
        == 404
    )


@pytest.mark.parametrize(
    ("role", "path"),
    [
        ("pit_boss", f"{PAGES}99999/results/approve/"),
        ("compliance", f"{PAGES}{'9' * 30}/cancel/approve/"),
        ("cashier", f"{PAGES}prizes/99999/pay/"),
        ("cashier", f"{PAGES}prizes/{'9' * 30}/pay/"),
    ],
)
def test_an_unknown_tournament_or_prize_for_a_button_is_404(role: str, path: str, floor: Floor) -> None:
    before = _state()
    assert _post(getattr(floor, role), path, {"paid_with": "cash"}).status_code == 404
    assert _state() == before
