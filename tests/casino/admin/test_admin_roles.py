"""Who enters the admin site (casino.admin_site): the admin configures there; compliance reads the
audit trail and decides paytables there and sees nothing else; every floor role, the cage and the
count team are refused every page and every change, even when flagged `is_staff` by hand, and work
on the floor console instead, which shows them their own pits only."""

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.test import Client

from blackjack.models import Round
from casino.models import Casino, LedgerTransaction, Pit, StaffProfile, Table
from casino.services.provisioning import ProvisionedStaff
from table_money.models import ChipSlip
from tests.support.api import TableActors, ok, open_table, post, request_slip
from tests.support.factories import StaffFactory, UserFactory
from tests.support.rounds import play_round, wager

pytestmark = pytest.mark.django_db

FLOOR_ROLES = ("floor_supervisor", "pit_boss", "cage_cashier", "count_team")
PIT_ROLES = ("floor_supervisor", "pit_boss")
# Names that show any pit's data: the tables, the pits, the dealer and the staff.
DATA = ("BJ-A1", "BJ-B1", "Pit 1", "Pit B", "Dealer A1", "Dealer B1", "someone-else")


@dataclass
class Floor:
    a: TableActors  # Pit 1's table, with a settled round and an approved fill
    b: TableActors  # pit B's table
    round_id: int
    slip_id: int
    ledger_id: int
    staff_id: int

    def pages(self) -> list[str]:
        """Changelists and change pages of tables, pits, rounds, slips, the ledger and staff."""
        a = self.a.table
        return [
            "/admin/casino/table/",
            f"/admin/casino/table/{a.pk}/change/",
            f"/admin/casino/table/{self.b.table.pk}/change/",
            "/admin/casino/table/add/",
            "/admin/casino/pit/",
            f"/admin/casino/pit/{a.pit_id}/change/",
            "/admin/blackjack/round/",
            f"/admin/blackjack/round/{self.round_id}/change/",
            "/admin/blackjack/settlement/",
            "/admin/table_money/chipslip/",
            f"/admin/table_money/chipslip/{self.slip_id}/change/",
            "/admin/casino/ledgertransaction/",
            f"/admin/casino/ledgertransaction/{self.ledger_id}/change/",
            "/admin/casino/account/",
            "/admin/reports/shiftreport/",
            "/admin/casino/staffprofile/",
            f"/admin/casino/staffprofile/{self.staff_id}/change/",
            "/admin/casino/dealer/",
            "/admin/casino/terminal/",
            "/admin/auth/user/",
            "/admin/specials/match/",
            "/admin/skill_games/game/",
        ]


@pytest.fixture
def floor(make_table: Callable[..., TableActors], make_staff: Callable[[str], Any]) -> Floor:
    a = make_table("BJ-A1", pit_name="Pit 1", dealer_name="Dealer A1")
    b = make_table("BJ-B1", pit_name="Pit B", dealer_name="Dealer B1")
    supervisor = make_staff("floor_supervisor")[1]
    ok(post(a.terminal, "/api/v1/shoes/", {"mode": "reported"}), 201)
    played = play_round(
        a, [{"seat": 2, "wagers": [wager("primary", 10_000)]}], ["TS", "9H", "8C", "9D"],
        [{"seat": 2, "hand": 0, "action": "stand"}],
    )  # fmt: skip
    ok(open_table(supervisor, a, {"100000": 2}), 201)
    fill = ok(request_slip(a.terminal, "fill", {"10000": 2}), 201)
    ok(post(supervisor, f"/api/v1/fills/{fill['id']}/approve/"))
    other = StaffFactory.create(username="someone-else", role="pit_boss", pits=["Pit 1"])
    return Floor(
        a=a,
        b=b,
        round_id=Round.objects.get(pk=played["id"]).pk,
        slip_id=fill["id"],
        ledger_id=LedgerTransaction.objects.filter(table=a.table)
        .order_by("pk")
        .values_list("pk", flat=True)[0],
        staff_id=StaffProfile.objects.get(user_id=other.user.pk).pk,
    )


def signed_in(role: str, *, by_hand: bool = False, pit: str = "Pit B") -> tuple[Client, ProvisionedStaff]:
    pits = [pit] if role in PIT_ROLES else []
    staff = StaffFactory.create(username=f"{role}-signed-in", role=role, pits=pits)
    if by_hand:  # someone flags the user staff of the admin site, as create_staff used to
        User.objects.filter(pk=staff.user.pk).update(is_staff=True)
    client = Client()
    assert client.login(username=staff.user.get_username(), password=staff.password)
    return client, staff


def assert_refused(response: Any, url: str) -> None:
    status = response.status_code
    assert status in (302, 403), (url, status)
    if status == 302:
        assert response["Location"].startswith("/admin/login/"), (url, response["Location"])
    body = response.content.decode()
    assert not [name for name in DATA if name in body], (url, body[:2000])


def table_form(table: Table, *, pit: Pit, name: str) -> dict[str, Any]:
    return {
        "pit": pit.pk, "name": name, "game": table.game, "is_active": "on",
        "limits-TOTAL_FORMS": 0, "limits-INITIAL_FORMS": 0,
    }  # fmt: skip


# --- who is staff of the admin site ----------------------------------------------------------


@pytest.mark.parametrize(
    ("role", "is_staff"), [*((role, False) for role in FLOOR_ROLES), ("compliance", True), ("admin", True)]
)
def test_create_staff_makes_only_the_admin_and_compliance_staff_of_the_admin_site(
    role: str, is_staff: bool
) -> None:
    pits = ["Pit B"] if role in PIT_ROLES else []
    Pit.objects.get_or_create(casino_id=_casino_id(), name="Pit B")
    staff = StaffFactory.create(username=f"new-{role}", role=role, pits=pits)

    user = User.objects.get(pk=staff.user.pk)
    assert (user.is_staff, user.is_superuser) == (is_staff, role == "admin")


def _casino_id() -> int:
    return Casino.objects.get_or_create(name="Main casino")[0].pk


def test_the_migration_clears_is_staff_of_every_role_but_the_admin_and_compliance() -> None:
    migration = importlib.import_module("casino.migrations.0015_admin_site_staff")
    Pit.objects.get_or_create(casino_id=_casino_id(), name="Pit B")
    made = {
        role: StaffFactory.create(username=f"old-{role}", role=role, pits=["Pit B"] if role in PIT_ROLES else []).user.pk
        for role in (*FLOOR_ROLES, "compliance", "admin")
    }  # fmt: skip
    unprofiled = UserFactory.create(username="no-profile", is_staff=True)
    User.objects.update(is_staff=True)  # as create_staff left every staff user before

    migration.clear_is_staff(apps, None)

    flags = dict(User.objects.values_list("pk", "is_staff"))
    assert {role: flags[pk] for role, pk in made.items()} == {
        "floor_supervisor": False,
        "pit_boss": False,
        "cage_cashier": False,
        "count_team": False,
        "compliance": True,
        "admin": True,
    }
    assert flags[unprofiled.pk] is True  # no role: the site refuses it anyway


# --- the floor roles: refused everywhere ---------------------------------------------------------


@pytest.mark.parametrize("by_hand", [False, True], ids=["as-provisioned", "is_staff-by-hand"])
@pytest.mark.parametrize("role", FLOOR_ROLES)
def test_a_floor_role_gets_no_admin_page(floor: Floor, role: str, by_hand: bool) -> None:
    client, _ = signed_in(role, by_hand=by_hand)

    for url in ["/admin/", *floor.pages(), "/admin/audit/auditevent/", "/admin/bonus_tie/paytableversion/"]:
        assert_refused(client.get(url), url)


@pytest.mark.parametrize("by_hand", [False, True], ids=["as-provisioned", "is_staff-by-hand"])
@pytest.mark.parametrize("role", FLOOR_ROLES)
def test_a_floor_role_cannot_move_rename_or_add_a_table_or_rename_a_pit(
    floor: Floor, role: str, by_hand: bool
) -> None:
    client, _ = signed_in(role, by_hand=by_hand)
    table, pit_b = floor.a.table, floor.b.table.pit

    moved = client.post(f"/admin/casino/table/{table.pk}/change/", table_form(table, pit=pit_b, name="BJ-A1"))
    renamed = client.post(
        f"/admin/casino/table/{table.pk}/change/", table_form(table, pit=table.pit, name="Mine")
    )
    added = client.post("/admin/casino/table/add/", table_form(table, pit=pit_b, name="BJ-NEW"))
    pit = client.post(
        f"/admin/casino/pit/{table.pit_id}/change/", {"name": "Renamed", "casino": table.pit.casino_id}
    )

    for url, response in (("move", moved), ("rename", renamed), ("add", added), ("pit", pit)):
        assert_refused(response, url)
    after = Table.objects.select_related("pit").get(pk=table.pk)
    assert (after.pit.name, after.name, after.is_active) == ("Pit 1", "BJ-A1", True)
    assert not Table.objects.filter(name="BJ-NEW").exists()
    assert Pit.objects.filter(name="Renamed").count() == 0


@pytest.mark.parametrize("by_hand", [False, True], ids=["as-provisioned", "is_staff-by-hand"])
@pytest.mark.parametrize("role", FLOOR_ROLES)
def test_a_floor_role_signing_in_at_the_admin_site_is_refused(floor: Floor, role: str, by_hand: bool) -> None:
    _, staff = signed_in(role, by_hand=by_hand)
    client = Client()

    response = client.post(
        "/admin/login/",
        {"username": staff.user.get_username(), "password": staff.password, "next": "/admin/"},
    )

    assert response.status_code == 200  # the form again, with its error
    assert "Please enter the correct username and password for a staff account" in response.content.decode()
    assert "_auth_user_id" not in client.session  # no session from the admin's sign-in
    assert_refused(client.get("/admin/"), "/admin/")


@pytest.mark.parametrize("role", ["admin", "compliance"])
def test_the_admin_and_compliance_sign_in_at_the_admin_site(role: str) -> None:
    _, staff = signed_in(role)
    client = Client()

    response = client.post(
        "/admin/login/",
        {"username": staff.user.get_username(), "password": staff.password, "next": "/admin/"},
    )

    assert (response.status_code, response["Location"]) == (302, "/admin/")
    assert client.get("/admin/").status_code == 200


# --- compliance: the audit trail and the paytables, nothing else ---------------------------------


def test_compliance_sees_only_the_audit_trail_history_and_paytables(floor: Floor) -> None:
    client, _ = signed_in("compliance")

    index = client.get("/admin/")
    audit = client.get("/admin/audit/auditevent/")
    paytables = client.get("/admin/bonus_tie/paytableversion/")

    assert index.status_code == 200
    html = index.content.decode()
    assert "/admin/audit/auditevent/" in html
    assert "/admin/bonus_tie/paytableversion/" in html
    assert "/admin/history/tablehistory/" in html
    for app in ("casino", "blackjack", "specials", "table_money", "reports", "patrons"):
        assert f"/admin/{app}/" not in html  # no table, pit, round, slip, report, ledger or staff page
    assert (audit.status_code, paytables.status_code) == (200, 200)
    for url in floor.pages():
        response = client.get(url)
        assert response.status_code == 403, url
        assert not [name for name in DATA if name in response.content.decode()], url


def test_compliance_cannot_move_a_table_either(floor: Floor) -> None:
    client, _ = signed_in("compliance")
    table, pit_b = floor.a.table, floor.b.table.pit

    moved = client.post(f"/admin/casino/table/{table.pk}/change/", table_form(table, pit=pit_b, name="BJ-A1"))

    assert moved.status_code == 403
    assert Table.objects.get(pk=table.pk).pit_id == table.pit_id


# --- the admin: everything --------------------------------------------------------------------


def test_the_admin_opens_every_page_and_moves_a_table_to_another_pit(floor: Floor) -> None:
    client, _ = signed_in("admin")
    table, pit_b = floor.a.table, floor.b.table.pit

    for url in ["/admin/", *floor.pages(), "/admin/audit/auditevent/", "/admin/bonus_tie/paytableversion/"]:
        assert client.get(url).status_code == 200, url
    assert "BJ-A1" in client.get("/admin/casino/table/").content.decode()
    moved = client.post(f"/admin/casino/table/{table.pk}/change/", table_form(table, pit=pit_b, name="BJ-A1"))

    assert moved.status_code == 302, moved.content.decode()[-3000:]
    assert Table.objects.get(pk=table.pk).pit_id == pit_b.pk


@pytest.mark.parametrize(
    ("role", "is_staff", "is_superuser"),
    [("compliance", True, False), ("floor_supervisor", False, False), ("admin", True, True)],
)
def test_a_role_changed_by_the_admin_brings_its_admin_site_flags(
    floor: Floor, role: str, is_staff: bool, is_superuser: bool
) -> None:
    client, _ = signed_in("admin")
    profile = StaffProfile.objects.get(pk=floor.staff_id)  # someone-else, a pit boss of Pit 1
    User.objects.filter(pk=profile.user_id).update(is_staff=True)  # flagged by hand before

    changed = client.post(
        f"/admin/casino/staffprofile/{profile.pk}/change/",
        {
            "user": profile.user_id,
            "role": role,
            "pits": [] if role != "floor_supervisor" else [floor.a.table.pit_id],
        },
    )

    assert changed.status_code == 302, changed.content.decode()[-3000:]
    user = User.objects.get(pk=profile.user_id)
    assert (StaffProfile.objects.get(pk=profile.pk).role, user.is_staff, user.is_superuser) == (
        role,
        is_staff,
        is_superuser,
    )


def test_an_inactive_admin_is_refused(floor: Floor) -> None:
    client, staff = signed_in("admin")
    User.objects.filter(pk=staff.user.pk).update(is_active=False)

    assert_refused(client.get("/admin/casino/table/"), "/admin/casino/table/")
    assert ChipSlip.objects.filter(pk=floor.slip_id).exists()


# --- the console's links to the admin site ---------------------------------------------------


@pytest.mark.parametrize(
    ("role", "pages"),
    [
        ("floor_supervisor", ["/floor/", "/floor/rounds/", "/floor/rounds/{round}/"]),
        ("pit_boss", ["/floor/", "/floor/rounds/", "/floor/rounds/{round}/", "/floor/rule-changes/"]),
        ("cage_cashier", ["/floor/cage/", "/floor/patrons/"]),
        ("count_team", ["/floor/count/"]),
    ],
)
def test_the_console_shows_a_floor_role_no_link_to_the_admin_site(
    floor: Floor, role: str, pages: list[str]
) -> None:
    client, _ = signed_in(role, pit="Pit 1")  # the round's pit: its page opens

    for page in pages:
        response = client.get(page.format(round=floor.round_id))
        assert response.status_code == 200, page
        assert 'href="/admin/' not in response.content.decode(), page


@pytest.mark.parametrize(
    ("role", "label"), [("admin", "Configuration"), ("compliance", "Audit trail and paytables")]
)
def test_the_console_links_the_admin_and_compliance_to_what_they_open_in_the_admin_site(
    floor: Floor, role: str, label: str
) -> None:
    client, _ = signed_in(role)
    paytable = f"/admin/bonus_tie/paytableversion/{Round.objects.get(pk=floor.round_id).paytable_id}/change/"

    header = client.get("/floor/").content.decode().split("</header>")[0]
    round_page = client.get(f"/floor/rounds/{floor.round_id}/").content.decode()

    assert f'<a href="/admin/">{label}</a>' in header
    assert f'href="{paytable}"' in round_page
    assert client.get("/admin/").status_code == 200
    assert client.get(paytable).status_code == 200
