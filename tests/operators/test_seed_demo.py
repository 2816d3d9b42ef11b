"""The demo `make run` loads (`seed_demo`): a login for every role, each usable; no round left in
play, so the first call of every demo table's terminal succeeds; and the demo's own licensee and
property on the filing documents."""

import datetime as dt
import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from audit.context import AuditActor
from blackjack.models import Round, RoundState
from casino.models import Shoe, StaffProfile, StaffRole, Table, TableLimit
from casino.services.rule_changes import approve_rule_change, request_rule_change
from config.management.commands.run_service import Command as RunService
from config.management.commands.seed_demo import DEMO_PIT
from kernel.gaming_day import casino_zone
from specials.models import Match, MatchState
from table_money.selectors import get_count_record
from table_money.services.soft_counts import ended_periods, record_soft_count, record_soft_count_tally
from tests.support.api import client_with_token, ok, post
from tests.support.factories import restore_migrated_rows
from tests.support.settings_loaded import settings_loaded

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(tmp_path: Path) -> dict[str, Any]:
    """The demo loaded into the test database, and its credentials file."""
    restore_migrated_rows()
    credentials_file = tmp_path / "demo-credentials.json"
    call_command("seed_demo", credentials_file=credentials_file)
    credentials: dict[str, Any] = json.loads(credentials_file.read_text())
    return credentials


def staff_of(demo: dict[str, Any], role: str) -> list[dict[str, str]]:
    return [staff for staff in demo["staff"] if staff["role"] == role]


def actor_of(login: dict[str, str]) -> AuditActor:
    return AuditActor(kind="user", username=login["username"], role=login["role"])


def test_there_is_a_login_for_every_role_two_pit_bosses_and_two_counters(demo: dict[str, Any]) -> None:
    roles = [staff["role"] for staff in demo["staff"]]

    assert set(roles) == set(StaffRole.values)
    assert roles.count(StaffRole.PIT_BOSS) == 2
    assert roles.count(StaffRole.COUNT_TEAM) == 2
    assert len({staff["username"] for staff in demo["staff"]}) == len(roles)
    for login in demo["staff"]:
        profile = StaffProfile.objects.get(user__username=login["username"])
        assert profile.role == login["role"]
        pits = list(profile.pits.values_list("name", flat=True))
        assert pits == (
            [DEMO_PIT] if login["role"] in (StaffRole.FLOOR_SUPERVISOR, StaffRole.PIT_BOSS) else []
        )
        assert authenticate(username=login["username"], password=login["password"]) == profile.user
        # Every staff token is good for the API: every staff role reads the paytables.
        assert client_with_token(login["token"]).get("/api/v1/paytables/").status_code == 200
    assert next(s for s in demo["staff"] if s["username"] == "pitboss")["password"] == "pitboss-demo-2026"


def test_make_run_prints_every_login_and_every_table(demo: dict[str, Any], tmp_path: Path) -> None:
    """The table `run_service` prints once the service starts, from the credentials file."""
    out = StringIO()
    command = RunService(stdout=out)

    command._announce("127.0.0.1:8000", tmp_path / "demo-credentials.json")

    printed = out.getvalue().splitlines()
    for login in demo["staff"]:
        line = f"{login['role']:<17} {login['username']} / {login['password']}  token {login['token']}"
        assert sum(line in row for row in printed) == 1, login
    for made in demo["tables"]:
        assert any(
            row.startswith(f"  Table {made['table']} ") and made["terminal_token"] in row
            and f"dealer badge {made['dealer']['badge']} PIN {made['dealer']['pin']}" in row
            for row in printed
        ), made  # fmt: skip
    tournament = demo["tournament"]
    closes = dt.datetime.fromisoformat(tournament["registration_closes_at"]).astimezone(casino_zone())
    assert any(
        row.startswith("  Tournament Demo Blackjack Attack: http://127.0.0.1:8000/floor/tournaments/")
        and f"(registration closes {closes:%H:%M}, casino time)" in row
        for row in printed
    )
    board = f"the board for a screen: http://127.0.0.1:8000/board/{tournament['id']}/?key={tournament['board_key']}"
    assert sum(board in row for row in printed) == 1
    for entry in tournament["entries"]:
        link = f"entry {entry['entry']} (patron {entry['patron']}): http://127.0.0.1:8000/play/?token={entry['token']}"
        assert sum(link in row for row in printed) == 1, entry


def test_the_second_pit_boss_approves_what_the_first_requests(demo: dict[str, Any]) -> None:
    requester, approver = staff_of(demo, StaffRole.PIT_BOSS)
    table = Table.objects.get(name="BJ-01")
    now = timezone.now()

    change = request_rule_change(
        table_id=table.pk, limits={"primary": (1_000, 100_000)}, rules={}, reason="Busy night",
        effective_at=now, user=StaffProfile.objects.get(user__username=requester["username"]).user,
        actor=actor_of(requester), now=now,
    )  # fmt: skip
    approve_rule_change(
        change_id=change.pk,
        user=StaffProfile.objects.get(user__username=approver["username"]).user,
        actor=actor_of(approver),
        now=now,
    )

    assert TableLimit.objects.get(table=table, kind="primary").min_cents == 1_000


def test_the_two_count_team_members_count_a_drop_box_blind(demo: dict[str, Any]) -> None:
    counter, second = staff_of(demo, StaffRole.COUNT_TEAM)
    now = timezone.now()
    ((gaming_day, shift),) = ended_periods(now=now, count=1)

    count = record_soft_count(
        table_id=Table.objects.get(name="BJ-01").pk, gaming_day=gaming_day, shift=shift, currency={"10000": 5},
        markers_cents=0, user=StaffProfile.objects.get(user__username=counter["username"]).user,
        actor=actor_of(counter), now=now, not_open_confirmed=True,
    )  # fmt: skip
    record_soft_count_tally(
        count_id=count.pk,
        currency={"10000": 5},
        markers_cents=0,
        user=StaffProfile.objects.get(user__username=second["username"]).user,
        actor=actor_of(second),
        now=now,
    )

    result = get_count_record(count_id=count.pk).result
    assert (result.status, result.total_cents) == ("complete", 50_000)


def test_no_round_is_left_in_play_and_every_table_has_a_shoe_open(demo: dict[str, Any]) -> None:
    assert sorted(t["table"] for t in demo["tables"]) == ["BJ-01", "BJ-02", "SP-01"]
    assert not Round.objects.exclude(state__in=(RoundState.SETTLED, RoundState.VOID)).exists()
    assert not Match.objects.exclude(state=MatchState.FINISHED).exists()
    assert set(Round.objects.values_list("table__name", "state")) == {
        ("BJ-01", RoundState.SETTLED),
        ("BJ-02", RoundState.SETTLED),
    }
    for made in demo["tables"]:
        terminal = ok(client_with_token(made["terminal_token"]).get("/api/v1/terminal/"))
        assert terminal["table"]["name"] == made["table"]
        assert terminal["round"] is None  # (a blackjack round; the specials matches are above)
        assert terminal["shoe"] is not None
        assert terminal["dealer"] is not None  # the demo's dealer is signed in
    assert Shoe.objects.filter(closed_at__isnull=True).count() == 3


def first_deal(terminal: Any, game: str) -> dict[str, Any]:
    """What a terminal does first at a table whose shoe is open: deal a round (a specials table
    starts a match, then deals its first round)."""
    if game == "special_points":
        match = ok(post(terminal, "/api/v1/specials/matches/", {
            "players": [{"seat": 1, "player": None, "special": None}],
            "start_points": 5, "win_points": 10, "lose_points": 0,
        }), 201)  # fmt: skip
        return ok(post(terminal, f"/api/v1/specials/matches/{match['id']}/rounds/"), 201)
    seats = [{"seat": 1, "player": None, "wagers": [{"kind": "primary", "amount_cents": 1_000}]}]
    return ok(post(terminal, "/api/v1/rounds/", {"seats": seats}), 201)


@pytest.mark.parametrize("signs_in", [False, True], ids=["dealer-still-signed-in", "dealer-signs-in"])
def test_the_first_terminal_call_on_every_demo_table_succeeds(demo: dict[str, Any], signs_in: bool) -> None:
    """With the credentials `make run` prints: the dealer signs in (a terminal whose demo session
    has ended does that first), then the terminal deals."""
    for made in demo["tables"]:
        terminal = client_with_token(made["terminal_token"])
        if signs_in:
            signed_in = ok(post(terminal, "/api/v1/terminal/sign-in/", made["dealer"]))
            assert signed_in["dealer"]["badge"] == made["dealer"]["badge"], signed_in

        dealt = first_deal(terminal, made["game"])

        assert dealt["state"] == "dealing"
        assert dealt["needs"]["kind"] == "card"  # the shoe is a reported one: the dealer deals


@pytest.mark.parametrize(
    ("env", "heading"),
    [
        ({"DJANGO_DEMO": "1"}, {"licensee": "Demo Gaming LLC", "property": "Demo casino, 1 Demo Way"}),
        (
            {
                "DJANGO_DEMO": "1",
                "CASINO_LICENSEE": "Example Gaming LLC",
                "CASINO_PROPERTY": "Example Casino",
            },
            {"licensee": "Example Gaming LLC", "property": "Example Casino"},
        ),
        (
            {"DJANGO_SECRET_KEY": "x" * 50},
            {"licensee": "Licensee not configured", "property": "Property not configured"},
        ),
    ],
    ids=["demo", "demo-configured", "production-unconfigured"],
)
def test_the_demo_heads_its_filing_documents_with_its_own_licensee_and_property(
    env: dict[str, str], heading: dict[str, str]
) -> None:
    loaded = settings_loaded(["CASINO_LICENSEE", "CASINO_PROPERTY"], **env)

    assert {"licensee": loaded["CASINO_LICENSEE"], "property": loaded["CASINO_PROPERTY"]} == heading


def test_the_demo_tournament_takes_entries_and_its_printed_tokens_are_its_entries(
    demo: dict[str, Any],
) -> None:
    printed = demo["tournament"]
    director = client_with_token(staff_of(demo, StaffRole.TOURNAMENT_DIRECTOR)[0]["token"])
    shown = ok(director.get(f"/api/v1/tournaments/{printed['id']}/"))
    assert (shown["name"], shown["game"], shown["state"], shown["entries"]) == (
        "Demo Blackjack Attack",
        "attack",
        "registering",
        3,
    )
    assert shown["settings"]["deal"] == "duplicate"
    assert [entry["entry"] for entry in printed["entries"]] == [1, 2, 3]
    assert Client().get(f"/board/{printed['id']}/?key={printed['board_key']}").status_code == 200
    for entry in printed["entries"]:
        device = client_with_token(entry["token"])
        refused = post(device, f"/api/v1/tournaments/{printed['id']}/games/")
        assert (refused.status_code, refused.json()["code"]) == (409, "heat_not_started")
