"""The ratings pages of the floor console: the gaming day's ratings and the patron page's section,
scoped to the tables the user sees; a bad day is a 400 page that says what to enter."""

from collections.abc import Callable
from typing import Any, cast

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from bonus_tie.models import PaytableVersion
from casino.models import Pit, StaffProfile
from casino.services.provisioning import ProvisionedStaff
from tests.compliance.ratings_support import (
    open_reported_shoe,
    price_paytable_v1,
    push_18_with_t18,
    win_19_against_17,
)
from tests.support.api import TableActors, new_patron
from tests.support.factories import StaffFactory
from tests.support.gaming_day import Clock, day_shift_clock

pytestmark = pytest.mark.django_db

MakeStaff = Callable[[str], tuple[ProvisionedStaff, APIClient]]


@pytest.fixture(autouse=True)
def clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Clock:
    return day_shift_clock(monkeypatch, settings)


@pytest.fixture
def played(make_table: Callable[..., TableActors], make_staff: MakeStaff) -> dict[str, Any]:
    """Ana plays at BJ-01 (Main pit), Ben at BJ-09 (High limit), on gaming day 2026-11-20."""
    main, high = make_table("BJ-01"), make_table("BJ-09", pit_name="High limit")
    for actors in (main, high):
        open_reported_shoe(actors)
    price_paytable_v1(main.table)
    boss = make_staff("pit_boss")[1]
    ana, ben = new_patron(boss, "Ana Example"), new_patron(boss, "Ben Example")
    push_18_with_t18(main, ana)
    win_19_against_17(high, ben)
    return {"ana": ana, "ben": ben, "main_pit": main.table.pit, "high_pit": high.table.pit}


def console_client(role: str, *, pits: tuple[Pit, ...] = ()) -> Client:
    staff = StaffFactory.create(username=f"{role}-{len(pits)}-ratings", role=role)
    StaffProfile.objects.get(user_id=staff.user.pk).pits.set(pits)
    client = Client()
    client.force_login(cast(User, staff.user))
    return client


def page(client: Client, path: str, status: int = 200) -> str:
    response = client.get(path)
    assert response.status_code == status, (response.status_code, response.content[:500])
    return response.content.decode()


def test_compliance_reads_every_session_of_the_day(played: dict[str, Any]) -> None:
    html = page(console_client("compliance"), "/floor/ratings/2026-11-20/")

    assert "gaming day Friday, 2026-11-20" in html
    assert f'href="/floor/patrons/{played["ana"]}/"' in html
    assert f'href="/floor/patrons/{played["ben"]}/"' in html
    # Ana: handle $102.00, actual -$90.00, theo 10000 x 0.00406 + 200 x 0.26198 = 40.6 -> 41 + 52 cents.
    assert "$102.00" in html
    assert "-$90.00" in html
    assert "$0.93" in html
    # Ben's paytable report is for BJ-01's rules, which BJ-09 shares: $50.00 x 0.406 % = $0.20.
    assert "$0.20" in html
    assert "Sessions at the tables of your pits" not in html


def test_a_supervisor_reads_the_sessions_at_their_pits_tables_only(played: dict[str, Any]) -> None:
    html = page(console_client("floor_supervisor", pits=(played["main_pit"],)), "/floor/ratings/2026-11-20/")

    assert "Ana Example" in html
    assert "Ben Example" not in html
    assert "Sessions at the tables of your pits" in html


def test_the_ratings_link_opens_the_current_gaming_day_and_the_picker_another() -> None:
    client = console_client("compliance")
    assert client.get("/floor/ratings/")["Location"] == "/floor/ratings/2026-11-20/"
    assert client.get("/floor/ratings/?gaming_day=2026-11-19")["Location"] == "/floor/ratings/2026-11-19/"
    assert "No rated play on this gaming day" in page(client, "/floor/ratings/2026-11-19/")


@pytest.mark.parametrize(
    "path", ["/floor/ratings/2026-02-30/", "/floor/ratings/yesterday/", "/floor/ratings/?gaming_day=20261120"]
)
def test_a_malformed_day_is_a_400_page_that_says_what_to_enter(path: str) -> None:
    html = page(console_client("compliance"), path, status=400)
    assert "is not a gaming day: enter a date such as 2026-11-20." in html


def test_the_cage_and_the_count_team_have_no_ratings_page() -> None:
    for role in ("cage_cashier", "count_team"):
        assert console_client(role).get("/floor/ratings/2026-11-20/").status_code == 403


def test_the_patron_page_shows_the_patrons_ratings(played: dict[str, Any]) -> None:
    ana = played["ana"]
    html = page(console_client("compliance"), f"/floor/patrons/{ana}/")
    assert 'id="patron-ratings"' in html
    assert "$102.00" in html
    assert "-$90.00" in html

    other_pit = page(console_client("pit_boss", pits=(played["high_pit"],)), f"/floor/patrons/{ana}/")
    assert "No rated play at your tables yet" in other_pit

    cashier = page(console_client("cage_cashier"), f"/floor/patrons/{ana}/")
    assert 'id="patron-ratings"' not in cashier


def test_handle_without_a_house_edge_is_shown_with_the_reason(played: dict[str, Any]) -> None:
    PaytableVersion.objects.filter(version=1).update(report=None)

    html = page(console_client("compliance"), "/floor/ratings/2026-11-20/")
    assert "* Theo leaves out $102.00 of handle with no house edge:" in html
    assert "primary, T18: paytable v1 has no report yet." in html
    assert "(leaves out $152.00 of handle with no house edge)" in html
