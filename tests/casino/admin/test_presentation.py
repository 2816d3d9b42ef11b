"""How the admin site presents the floor's records to the admin (issue 12, item 5): proper names
and plurals, dollars, chips as a denomination table, casino local time with its zone, alarms in
red, and inlines visible (read-only) to whoever may read their parent: the admin, as the floor
roles and compliance open no round, slip or table page here (tests/casino/admin/test_admin_roles.py)."""

import datetime as dt
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.apps import apps
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db import models
from django.test import Client
from django.utils import timezone

from audit.context import AuditActor
from audit.models import AuditCheckpoint, AuditEvent, RefusalTally
from blackjack.models import Round, RoundEvent, Settlement, SettlementLine, Wager
from bonus_tie.models import PaytableVersion
from casino.admin_display import chips_table
from casino.models import (
    Account,
    LedgerEntry,
    LedgerTransaction,
    Shoe,
    StaffProfile,
    Table,
    TableInventory,
    TableLimit,
)
from casino.services.provisioning import ProvisionedStaff
from history.models import TableHistory
from kernel.formatting import dollars
from kernel.forms import DollarsField
from kernel.gaming_day import casino_zone, gaming_day_and_shift
from reports import services as reports
from reports.models import ShiftReport
from specials.models import Match, SpecialsRound
from table_money.models import BuyIn, ChipSlip
from tests.support.api import TableActors, buy_in, close_table, ok, open_table, post, request_slip
from tests.support.rounds import play_round, wager

PRESENTED_APPS = ("casino", "bonus_tie", "specials", "audit", "history")


def presented_models() -> list[type[models.Model]]:
    return [model for model in apps.get_models() if model._meta.app_label in PRESENTED_APPS]


# --- names and plurals (no database) --------------------------------------------------------------


def test_every_model_of_the_floor_apps_names_its_rows_itself() -> None:
    unnamed = [model.__name__ for model in presented_models() if model.__str__ is models.Model.__str__]

    assert unnamed == []


def _table() -> Table:
    return Table(pk=3, name="BJ-01")


@pytest.mark.parametrize(
    ("row", "name"),
    [
        (Round(pk=98, table=_table(), state="settled"), "Round 98 at BJ-01 (settled)"),
        (Round(pk=99, table=_table(), state="ready_to_settle"), "Round 99 at BJ-01 (ready to settle)"),
        (ChipSlip(kind="fill", number=12, table=_table(), amount_cents=500_000), "Fill #12 BJ-01 $5,000.00"),
        (
            Wager(round_id=98, seat=3, hand=1, kind="primary", source="double", amount_cents=2_500),
            "Round 98 seat 3 hand 1: primary $25.00 (double down)",
        ),
        (RoundEvent(round_id=98, number=5, kind="card", card="KH"), "Round 98 event 5: card KH"),
        (
            RoundEvent(
                round_id=98, number=6, kind="action", seat=2, hand=0, action="double", amount_cents=1_000
            ),
            "Round 98 event 6: seat 2 hand 0 double $10.00",
        ),
        (Settlement(round_id=98, paid_cents=19_200), "Settlement of round 98: paid $192.00"),
        (
            SettlementLine(seat=2, hand=0, kind="T18", amount_cents=200, result="win", paid_cents=9_200),
            "Seat 2 hand 0 T18 $2.00: win, paid $92.00",
        ),
        (
            TableInventory(
                kind="opener",
                table=_table(),
                gaming_day=dt.date(2026, 11, 20),
                shift="day",
                total_cents=12_000_000,
            ),
            "Opener of BJ-01, 2026-11-20 day shift, $120,000.00",
        ),
        (
            BuyIn(pk=4, amount_cents=1_234_567, method="cash", table=_table(), seat=3),
            "Buy-in 4: $12,345.67 cash at BJ-01 seat 3",
        ),
        (
            TableLimit(table=_table(), kind="primary", min_cents=500, max_cents=500_000),
            "BJ-01 primary $5.00 to $5,000.00",
        ),
        (Account(kind="tray", table=_table()), "Table chip tray (bank) at BJ-01"),
        (Account(kind="cage"), "Cage"),
        (
            LedgerEntry(account=Account(kind="cage"), amount_cents=-500_000),
            "Cage -$5,000.00",
        ),
        (LedgerTransaction(pk=7, kind="fill", table=_table()), "Ledger transaction 7: Fill at BJ-01"),
        (Shoe(pk=4, table=_table(), mode="electronic"), "Shoe 4 at BJ-01 (electronic)"),
        (PaytableVersion(version=3, status="approved"), "Paytable v3 (approved)"),
        (Match(pk=4, table=_table(), state="playing"), "Match 4 at BJ-01 (playing)"),
        (SpecialsRound(number=2, match_id=4, state="finished"), "Round 2 of match 4 (finished)"),
        (AuditCheckpoint(pk=9, ok=False, events=1_200), "Checkpoint 9: chains BROKEN, 1,200 events"),
        (TableHistory(pgh_id=15, pgh_label="update", pgh_obj_id=3), "Change 15: update of row 3"),
    ],
)
def test_rows_are_named_as_a_pit_boss_reads_them(row: models.Model, name: str) -> None:
    assert str(row) == name
    assert "object (" not in str(row)


EXPECTED_PLURALS: dict[type[models.Model], str] = {
    TableInventory: "table inventories",
    BuyIn: "buy-ins",
    LedgerEntry: "ledger entries",
    Account: "ledger accounts",
    StaffProfile: "staff members",
    ChipSlip: "chip slips",
    SpecialsRound: "specials rounds",
    Match: "matches",
    RefusalTally: "refusal tallies",
    TableHistory: "table changes",
}


def test_plurals_are_english() -> None:
    for model, plural in EXPECTED_PLURALS.items():
        assert model._meta.verbose_name_plural == plural
    # Django's default plural only adds an "s": "inventorys", "historys", "matchs", "entrys".
    wrong = re.compile(r"([^aeiou]ys|chs|shs|ss|xs)$")
    shown = [model for model in presented_models() if admin.site.is_registered(model)]
    assert [
        str(m._meta.verbose_name_plural) for m in shown if wrong.search(str(m._meta.verbose_name_plural))
    ] == []


# --- dollars and chips ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "cents"),
    [("1,250.00", 125_000), ("1250", 125_000), ("$5", 500), ("0.01", 1), ("12,345.6", 1_234_560), ("", None)],
)
def test_money_inputs_take_dollars(typed: str, cents: int | None) -> None:
    assert DollarsField(required=False).clean(typed) == cents


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("1.005", "1.005 has a fraction of a cent: amounts are in whole cents."),
        ("-5", "An amount cannot be negative."),
        ("12,34", "'12,34' is not an amount in dollars: write it like 1,250.00 or 1250."),
        ("five", "'five' is not an amount in dollars: write it like 1,250.00 or 1250."),
        ("1e3", "'1e3' is not an amount in dollars: write it like 1,250.00 or 1250."),
    ],
)
def test_money_inputs_refuse_what_is_not_dollars_and_cents(typed: str, message: str) -> None:
    with pytest.raises(ValidationError) as refused:
        DollarsField().clean(typed)

    assert refused.value.messages == [message]


def test_money_inputs_show_the_stored_cents_as_dollars() -> None:
    assert DollarsField().prepare_value(125_000) == "1,250.00"


def test_chips_are_a_denomination_table_with_its_total() -> None:
    html = chips_table({"2500": 8, "100000": 3, "500": 20})

    rows = re.findall(r"<tr><td[^>]*>([^<]*)</td><td[^>]*>([^<]*)</td><td[^>]*>([^<]*)</td></tr>", html)
    assert rows == [
        ("$1,000.00", "3", "$3,000.00"),
        ("$25.00", "8", "$200.00"),
        ("$5.00", "20", "$100.00"),
    ]
    assert 'Total</th><th class="money">$3,300.00</th>' in html
    assert "{" not in html


# --- pages, through Django's test client ----------------------------------------------------------


def signed_in(make_staff: Callable[[str], tuple[ProvisionedStaff, Any]], role: str) -> Client:
    staff, _ = make_staff(role)
    client = Client()
    assert client.login(username=staff.user.get_username(), password=staff.password)
    return client


def settled_round(actors: TableActors) -> Round:
    ok(post(actors.terminal, "/api/v1/shoes/", {"mode": "reported"}), 201)
    # A tie on 18: the primary 100.00 pushes, the T18 2.00 wins 45 to 1 (paid 92.00).
    played = play_round(
        actors,
        [{"seat": 2, "wagers": [wager("primary", 10_000), wager("T18", 200)]}],
        ["TS", "9H", "8C", "9D"],
        [{"seat": 2, "hand": 0, "action": "stand"}],
    )
    return Round.objects.get(pk=played["id"])


@pytest.mark.django_db
def test_a_rounds_page_shows_its_wagers_cards_and_settlement_in_dollars_read_only(
    make_table: Callable[..., TableActors],
    make_staff: Callable[[str], tuple[ProvisionedStaff, Any]],
) -> None:
    round_ = settled_round(make_table("BJ-P1"))

    page = signed_in(make_staff, "admin").get(f"/admin/blackjack/round/{round_.pk}/change/")
    assert page.status_code == 200
    assert_round_page(page.content.decode(), round_)
    for role in ("floor_supervisor", "pit_boss", "compliance"):  # they read rounds on the floor console
        refused = signed_in(make_staff, role).get(f"/admin/blackjack/round/{round_.pk}/change/")
        assert refused.status_code in (302, 403)
        assert "BJ-P1" not in refused.content.decode()


def assert_round_page(html: str, round_: Round) -> None:
    wagers = html.split('id="wagers-group"')[1].split('id="events-group"')[0]
    assert "$100.00" in wagers
    assert "$2.00" in wagers
    cards = html.split('id="events-group"')[1]
    assert "Cards and actions, in dealing order" in cards
    assert all(card in cards for card in ("TS", "9H", "8C", "9D"))
    settlement = html.split('class="settlement"')[1]
    assert "$92.00" in settlement
    assert "Paid $192.00" in settlement
    assert "House net -$90.00" in settlement
    assert f"Round {round_.pk} at BJ-P1 (settled)" in html
    assert "object (" not in html
    assert 'name="wagers-0-amount_cents"' not in html  # shown, never editable
    assert 'name="_save"' not in html


@pytest.mark.django_db
def test_list_columns_show_dollars_and_casino_local_time_with_its_zone(
    make_table: Callable[..., TableActors],
    make_staff: Callable[[str], tuple[ProvisionedStaff, Any]],
) -> None:
    round_ = settled_round(make_table("BJ-P2"))
    client = signed_in(make_staff, "admin")

    rounds = client.get("/admin/blackjack/round/").content.decode()
    settlements = client.get("/admin/blackjack/settlement/").content.decode()

    opened = round_.opened_at.astimezone(casino_zone())
    assert opened.strftime("%Y-%m-%d %H:%M %Z") in rounds
    assert opened.tzname() in ("PST", "PDT")
    assert "$102.00" in settlements  # wagered
    assert "$192.00" in settlements  # paid
    assert "-$90.00" in settlements  # house net
    assert "10200" not in settlements


@pytest.mark.django_db
def test_a_slips_page_shows_its_chips_as_a_denomination_table(
    make_table: Callable[..., TableActors],
    make_staff: Callable[[str], tuple[ProvisionedStaff, Any]],
) -> None:
    supervisor = make_staff("floor_supervisor")[1]
    actors = make_table("BJ-P3")
    ok(open_table(supervisor, actors, {"100000": 2}), 201)
    fill = ok(request_slip(actors.terminal, "fill", {"10000": 2, "2500": 4}), 201)

    page = signed_in(make_staff, "admin").get(f"/admin/table_money/chipslip/{fill['id']}/change/")

    html = page.content.decode()
    assert page.status_code == 200
    chips = html.split('class="chips"')[1].split("</table>")[0]
    assert re.findall(r"<td[^>]*>([^<]*)</td>", chips) == [
        "$100.00",
        "2",
        "$200.00",
        "$25.00",
        "4",
        "$100.00",
    ]
    assert "$300.00" in chips
    assert f"Fill #{fill['number']} BJ-P3 $300.00" in html
    assert "&quot;10000&quot;" not in html  # never the raw JSON keyed in cents
    assert '"10000": 2' not in html
    assert "object (" not in html


@pytest.mark.django_db
def test_a_hold_outside_the_expected_range_is_a_red_alarm_not_a_green_tick(
    make_table: Callable[..., TableActors],
    make_staff: Callable[[str], tuple[ProvisionedStaff, Any]],
    settings: Any,
) -> None:
    settings.CASINO_HOLD_ALERT_MIN_DROP_CENTS = 0  # this test's drops are small: each hold counts
    supervisor = make_staff("floor_supervisor")[1]
    actors = make_table("BJ-P4")
    ok(open_table(supervisor, actors, {"100000": 2}), 201)
    ok(buy_in(actors, 1, 10_000), 201)
    # Closed with what it opened with: the win is the 100.00 drop, a hold of 100 %, outside 10-20 %.
    ok(close_table(supervisor, actors, {"100000": 2}), 201)
    day, shift = gaming_day_and_shift(timezone.now())
    reports.produce_shift_reports(
        gaming_day=day, shift=shift, actor=AuditActor(kind="system"), now=timezone.now()
    )
    assert ShiftReport.objects.get(table=actors.table).hold_outside_range

    html = signed_in(make_staff, "admin").get("/admin/reports/shiftreport/").content.decode()

    row = html.split('class="field-hold_alarm"')[1].split("</td>")[0]
    assert 'class="alarm"' in row
    assert "Hold outside the expected 10.00-20.00 %" in row
    assert "icon-yes" not in html


@pytest.mark.django_db
def test_an_existing_tables_limits_read_in_dollars_and_a_new_tables_money_is_typed_in_dollars(
    make_table: Callable[..., TableActors],
    make_staff: Callable[[str], tuple[ProvisionedStaff, Any]],
) -> None:
    actors = make_table("BJ-P5", signed_in=False)
    Table.objects.filter(pk=actors.table.pk).update(aggregate_limit_cents=2_500_000)
    limit = TableLimit.objects.get(table=actors.table, kind="primary")
    client = signed_in(make_staff, "admin")

    existing = client.get(f"/admin/casino/table/{actors.table.pk}/change/").content.decode()
    added = client.post(
        "/admin/casino/table/add/",
        {
            "pit": actors.table.pit_id, "name": "BJ-P6", "game": "tie_bonus_blackjack", "is_active": "on",
            "decks": 6, "penetration_percent": 75, "blackjack_pays_num": 3, "blackjack_pays_den": 2,
            "max_hands": 4, "aggregate_limit_cents": "12,500.50",
            "limits-TOTAL_FORMS": 1, "limits-INITIAL_FORMS": 0, "limits-0-kind": "primary",
            "limits-0-min_cents": "10", "limits-0-max_cents": "5,000",
        },
    )  # fmt: skip
    refused = client.post(
        "/admin/casino/table/add/",
        {"pit": actors.table.pit_id, "name": "BJ-P7", "game": "tie_bonus_blackjack", "decks": 6,
         "penetration_percent": 75, "blackjack_pays_num": 3, "blackjack_pays_den": 2, "max_hands": 4,
         "aggregate_limit_cents": "125.005", "limits-TOTAL_FORMS": 0, "limits-INITIAL_FORMS": 0},
    )  # fmt: skip

    assert "$25,000.00" in existing.split("field-aggregate_limit_cents")[1]
    assert f"{dollars(limit.min_cents)}" in existing.split('id="limits-group"')[1]
    assert 'name="aggregate_limit_cents"' not in existing
    assert added.status_code == 302, added.content.decode()[-3000:]
    new = Table.objects.get(name="BJ-P6")
    assert new.aggregate_limit_cents == 1_250_050
    assert TableLimit.objects.get(table=new).min_cents == 1_000
    assert TableLimit.objects.get(table=new).max_cents == 500_000
    assert refused.status_code == 200
    assert "has a fraction of a cent: amounts are in whole cents." in refused.content.decode()
    assert not Table.objects.filter(name="BJ-P7").exists()


@pytest.mark.django_db
def test_the_audit_trail_shows_times_in_casino_local_time_with_its_zone(
    make_staff: Callable[[str], tuple[ProvisionedStaff, Any]],
) -> None:
    client = signed_in(make_staff, "compliance")  # creating the staff member is itself an event
    event = AuditEvent.objects.get(event_type="casino.staff.created")

    detail = client.get(f"/admin/audit/auditevent/{event.pk}/change/").content.decode()
    listing = client.get("/admin/audit/auditevent/").content.decode()

    shown = event.occurred_at.astimezone(casino_zone()).strftime("%Y-%m-%d %H:%M:%S %Z")
    assert shown in detail.split("field-occurred_at")[1]
    assert shown in listing
    assert "object (" not in detail
