"""Who reaches the floor console, and what each sees."""

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.support.console import Console
from tests.support.factories import ProvisionedTableFactory, StaffFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_pit_boss_sees_the_tables_of_their_pit_only(console: Callable[..., Console]) -> None:
    mine = ProvisionedTableFactory.create(name="BJ-MINE", pit_name="Pit 1")
    ProvisionedTableFactory.create(name="BJ-OTHER", pit_name="Pit 2")
    boss = console("pit_boss", pits=(mine.table.pit,))
    boss.open("/floor/")
    boss.wait_for_text("BJ-MINE")
    assert "BJ-OTHER" not in boss.text()


def test_the_root_sends_a_visitor_to_sign_in(client: Any) -> None:
    response = client.get("/", follow=True)
    assert response.redirect_chain[-1][0].startswith("/floor/login/")


def test_a_supervisor_assigned_to_no_pit_is_told_so_and_sees_no_table(client: Any) -> None:
    ProvisionedTableFactory.create(name="BJ-ANY", pit_name="Pit 1")
    supervisor = StaffFactory.create(username="new-supervisor", role="floor_supervisor")
    client.force_login(User.objects.get(pk=supervisor.user.pk))

    page = client.get("/floor/").content.decode()

    assert "No tables in your pits. An administrator assigns you to pits" in page
    assert "BJ-ANY" not in page


@pytest.mark.parametrize(
    ("role", "console"), [("count_team", "/floor/count/"), ("cage_cashier", "/floor/cage/")]
)
def test_the_count_team_and_the_cage_land_on_their_own_console(client: Any, role: str, console: str) -> None:
    staff = StaffFactory.create(username=f"{role}-1", role=role, password="pass-2026-lands")
    client.force_login(staff.user)

    landing = client.get("/floor/")
    page = client.get(console)

    assert (landing.status_code, landing["Location"]) == (302, console)
    assert page.status_code == 200
    navigation = page.content.decode().split('<nav class="mainnav">')[1].split("</nav>")[0]
    assert 'href="/floor/rounds/"' not in navigation  # no links to pages the role cannot open


HUGE = "9" * 30  # beyond any bigint


@pytest.mark.parametrize(
    "path",
    [
        f"/floor/tables/{HUGE}/",
        f"/floor/tables/{HUGE}/slips/{HUGE}/print/",
        f"/floor/rounds/{HUGE}/",
        f"/floor/rounds/{HUGE}/reverify/",
        f"/floor/rounds/shoes/{HUGE}/",
        f"/floor/rounds/specials/{HUGE}/",
        f"/floor/rounds/?table={HUGE}",
        f"/floor/rounds/?table=abc&number={HUGE}",
        f"/floor/rule-changes/new/?table={HUGE}",
        f"/floor/rule-changes/{HUGE}/",
        f"/floor/patrons/{HUGE}/",
        "/floor/patrons/?q=%00",
        f"/floor/compliance/{HUGE}/",
        "/floor/compliance/2026-13-45/",
        "/floor/ratings/99999-01-01/",
        "/floor/ratings/?gaming_day=%00",
    ],
)
def test_hostile_ids_and_queries_on_the_console_are_refused_never_a_500(client: Any, path: str) -> None:
    staff = StaffFactory.create(username="boss-hostile", role="pit_boss", password="pass-2026-hostile")
    client.force_login(staff.user)

    response = client.get(path)

    assert response.status_code in (200, 400, 403, 404), (path, response.status_code)


@pytest.mark.parametrize(
    "path",
    [
        f"/floor/compliance/{HUGE}/",
        "/floor/compliance/2026-13-45/",
        "/floor/compliance/0001-01-01/title31.pdf",
    ],
)
def test_hostile_days_on_the_compliance_pages_are_refused_never_a_500(client: Any, path: str) -> None:
    staff = StaffFactory.create(username="compliance-hostile", role="compliance", password="pass-2026-c")
    client.force_login(staff.user)

    response = client.get(path)

    assert response.status_code in (200, 400, 404), (path, response.status_code)
