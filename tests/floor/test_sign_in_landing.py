"""Where signing in to the console takes each role: the page it works on, unless the sign-in
was asked for by another page of the console."""

import pytest
from django.test import Client
from django.utils import timezone

from kernel.gaming_day import gaming_day_and_shift
from tests.support.factories import StaffFactory

pytestmark = pytest.mark.django_db


def _today_page() -> str:
    return f"/floor/compliance/{gaming_day_and_shift(timezone.now())[0].isoformat()}/"


# Where signing in takes each role: the page it works on (the admin configures in the admin site
# and reads the whole floor here).
LANDINGS = [
    ("floor_supervisor", "/floor/"),
    ("pit_boss", "/floor/"),
    ("admin", "/floor/"),
    ("compliance", "compliance today"),
    ("cage_cashier", "/floor/cage/"),
    ("count_team", "/floor/count/"),
]


@pytest.mark.parametrize(("role", "page"), LANDINGS)
@pytest.mark.parametrize("came_from", ["the sign-in page", "the root", "the floor"])
def test_signing_in_lands_each_role_on_the_page_it_works_on(role: str, page: str, came_from: str) -> None:
    StaffFactory.create(username=f"lands-{role}", role=role, password="pass-2026-lands")
    client = Client()
    sign_in_page = {
        "the sign-in page": "/floor/login/",
        "the root": client.get("/", follow=True).redirect_chain[-1][0],  # where `/` sends a visitor
        "the floor": client.get("/floor/")["Location"],
    }[came_from]

    landed = client.post(
        sign_in_page, {"username": f"lands-{role}", "password": "pass-2026-lands"}, follow=True
    )

    expected = _today_page() if page == "compliance today" else page
    assert landed.redirect_chain[-1][0] == expected
    assert landed.status_code == 200


def test_compliance_still_reads_the_floor_and_a_page_asked_for_is_where_signing_in_goes() -> None:
    StaffFactory.create(username="lands-reader", role="compliance", password="pass-2026-lands")
    client = Client()
    asked = client.get("/floor/rounds/")["Location"]

    landed = client.post(asked, {"username": "lands-reader", "password": "pass-2026-lands"}, follow=True)
    floor = client.get("/floor/")

    assert landed.redirect_chain[-1][0] == "/floor/rounds/"
    assert floor.status_code == 200
    navigation = floor.content.decode().split('<nav class="mainnav">')[1].split("</nav>")[0]
    assert 'href="/floor/compliance/"' in navigation


def test_a_page_on_another_site_is_not_where_signing_in_goes() -> None:
    StaffFactory.create(username="lands-away", role="compliance", password="pass-2026-lands")

    landed = Client().post(
        "/floor/login/?next=https://elsewhere.example/",
        {"username": "lands-away", "password": "pass-2026-lands"},
        follow=True,
    )

    assert landed.redirect_chain[-1][0] == _today_page()
