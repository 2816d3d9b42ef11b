"""A tournament's cash in Title 31 (RULES.md §4): a cash entry is cash in, a cash prize and the
refund of a cash entry cash out, each on the MTL at the threshold and aggregated into the patron's
CTR worksheet with their table buy-ins and chip redemptions; chips are not cash. A cash prize that
would take a patron who is not identified over the CTR line is stopped at the cage."""

import csv
import io
from collections.abc import Callable
from typing import Any, cast

import pytest
from django.test import Client

from table_money.models import CageCash, CashDirection, CtrWorksheet, MtlEntry
from tests.support.api import TableActors, cash_buy_in, ok, open_table, post, problem, redeem
from tests.support.gaming_day import Clock

from .conftest import Run, Staff
from .money_support import pay, play_out, squares_run

pytestmark = pytest.mark.django_db

BANK = {"100000": 60}


@pytest.fixture
def limits(settings: Any) -> None:
    settings.CASINO_MTL_THRESHOLD_CENTS = 300_000
    settings.CASINO_CTR_THRESHOLD_CENTS = 1_000_000
    settings.CASINO_PRIZE_REPORTING_THRESHOLD_CENTS = 200_000


@pytest.fixture
def table(make_table: Callable[..., TableActors], staff: Staff, limits: None) -> TableActors:
    actors = make_table("BJ-T31-T")
    supervisor = staff.make("floor_supervisor")[1]
    ok(open_table(supervisor, actors, BANK), 201)
    return actors


def _latest(direction: str) -> list[CtrWorksheet]:
    rows = CtrWorksheet.objects.filter(direction=direction).order_by("subject_key", "-revision")
    return list(rows.distinct("subject_key"))


def test_a_cash_entry_and_a_cash_prize_join_the_patrons_table_cash(
    create: Callable[..., Run], patron: Callable[..., int], staff: Staff, clock: Clock, table: TableActors
) -> None:
    run = squares_run(create, clock, buy_in_cents=400_000, fee_cents=50_000, prizes_bp=[10000])
    player = patron(identification_type="drivers_license", identification_reference="D-1234567")
    other = patron(identification_type="passport", identification_reference="P-77")
    ok(cash_buy_in(table, 600_000, patron=player), 201)
    first = run.entered(player, "cash")
    run.entered(other, "chips")  # chips are not cash: nothing for Title 31

    (entry_row,) = CageCash.objects.all()
    assert (entry_row.direction, entry_row.amount_cents, entry_row.description) == (
        "cash_in",
        450_000,
        f"Tournament {run.id} entry {first.number}",
    )
    logged = MtlEntry.objects.get(cage_cash=entry_row)
    assert (logged.location, logged.where, logged.direction) == (
        "Cage",
        f"Cage: Tournament {run.id} entry 1",
        "cash_in",
    )
    assert logged.employee.startswith("Cashier ")
    (ctr,) = _latest(CashDirection.CASH_IN)  # $6,000 at the table + $4,500 at the cage
    assert ctr.total_cents == 1_050_000
    assert [t["source"] for t in ctr.transactions] == ["buy_in", "cage"]
    assert ctr.transactions[1]["description"] == f"Tournament {run.id} entry 1"

    # The pool ($8,000) is shared by the two entries tied at -630: $4,000 each.
    approved = play_out(run)
    prizes = {p["entry"]: p for p in approved["prizes"]}
    assert prizes[first.number]["amount_cents"] == 400_000
    ok(redeem(staff.cashier, 700_000, patron=player), 201)
    ok(pay(run, prizes[first.number]["id"], "cash"))
    ok(pay(run, prizes[2]["id"], "chips"))
    (out,) = _latest(CashDirection.CASH_OUT)  # $7,000 redeemed + the $4,000 prize
    assert out.total_cents == 1_100_000
    assert sorted(t["source"] for t in out.transactions) == ["cage", "redemption"]
    assert CageCash.objects.filter(direction="cash_out").count() == 1

    # A later table buy-in recomputes the cash-in worksheet with the entry still in it.
    table.sign_in()  # the dealer's sign-in has lapsed over the tournament's hour
    ok(cash_buy_in(table, 100_000, patron=player), 201)
    (ctr,) = _latest(CashDirection.CASH_IN)
    assert (ctr.total_cents, ctr.revision) == (1_150_000, 2)

    day = ok(staff.compliance.get("/api/v1/title31/", {"gaming_day": "2026-11-20"}))
    cage_lines = [line for line in day["mtl"] if line["kind"] == "cage"]
    assert [(line["direction"], line["amount_cents"], line["reference"]) for line in cage_lines] == [
        ("in", 450_000, f"Tournament {run.id} entry 1"),
        ("out", 400_000, f"Tournament {run.id} prize of entry 1"),
    ]
    assert sorted((line["direction"], line["total_cents"]) for line in day["ctr"]) == [
        ("in", 1_150_000),
        ("out", 1_100_000),
    ]
    response = staff.compliance.get("/api/v1/title31/", {"gaming_day": "2026-11-20"}, HTTP_ACCEPT="text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [row["reference"] for row in rows if row["kind"] == "cage"] == [
        f"Tournament {run.id} entry 1",
        f"Tournament {run.id} prize of entry 1",
    ]

    officer = Client()
    officer.force_login(cast(Any, staff.make("compliance")[0].user))
    page = officer.get("/floor/compliance/2026-11-20/")
    assert page.status_code == 200
    assert f"Cage: Tournament {run.id} entry 1" in page.content.decode()
    on_file = officer.get(f"/floor/patrons/{player}/")
    assert f"Cage: Tournament {run.id} prize of entry 1" in on_file.content.decode()


def test_a_cash_prize_over_the_ctr_line_waits_for_the_identification(
    create: Callable[..., Run], patron: Callable[..., int], staff: Staff, clock: Clock, limits: None
) -> None:
    run = squares_run(create, clock, buy_in_cents=100_000, fee_cents=10_000, prizes_bp=[10000])
    player = patron()
    run.entered(player, "chips")
    (prize,) = play_out(run)["prizes"]
    assert prize["amount_cents"] == 100_000  # under the reporting threshold: no stop for the W-2G
    ok(redeem(staff.cashier, 950_000, patron=player), 201)

    body = problem(pay(run, prize["id"], "cash"), 409, "identification_required")
    assert "over the CTR line" in body["detail"]
    assert not CageCash.objects.exists()
    assert run.read()["state"] == "results_approved"
    ok(pay(run, prize["id"], "chips"))  # chips are not currency: no stop
    assert not CageCash.objects.exists()
    assert not _latest(CashDirection.CASH_OUT)


def test_the_refund_of_a_cash_entry_is_cash_out(
    create: Callable[..., Run], patron: Callable[..., int], staff: Staff, clock: Clock, limits: None
) -> None:
    run = squares_run(create, clock, buy_in_cents=300_000, fee_cents=20_000)
    player = patron()
    run.entered(player, "cash")
    run.entered(patron(), "chips")
    ok(post(staff.director, f"{run.url}cancel/", {"reason": "the kiosks are down"}))
    ok(post(staff.pit_boss, f"{run.url}cancel/approve/"))
    refunds = CageCash.objects.filter(direction="cash_out")
    assert [(r.amount_cents, r.description) for r in refunds] == [
        (320_000, f"Tournament {run.id} refund of entry 1")
    ]
    assert MtlEntry.objects.filter(direction="cash_out", cage_cash__isnull=False).count() == 1


def _console(staff: Staff, role: str) -> Client:
    client = Client()
    client.force_login(cast(Any, staff.make(role)[0].user))
    return client


def test_prizes_at_the_reporting_threshold_are_listed_for_the_tax_forms(
    create: Callable[..., Run], patron: Callable[..., int], staff: Staff, clock: Clock, limits: None
) -> None:
    run = squares_run(create, clock, buy_in_cents=150_000, fee_cents=10_000, prizes_bp=[7000, 3000])
    winner = patron(
        identification_type="passport",
        identification_reference="P-5550123",
        tin="123456789",
        tin_type="ssn_itin",
    )
    second = patron(identification_type="passport", identification_reference="P-88")
    run.entered(winner, "cash")
    run.entered(second, "chips")
    run.entered(patron(), "chips")
    prizes = play_out(run)["prizes"]  # $4,500 shared by three tied entries: $1,500 each
    assert {p["amount_cents"] for p in prizes} == {150_000}
    for prize in prizes:
        ok(pay(run, prize["id"], "chips" if prize["entry"] == 2 else "cash"))
    assert not [p for p in prizes if p["amount_cents"] >= 200_000]

    bigger = squares_run(
        create, clock, name="High roller", buy_in_cents=300_000, fee_cents=0, prizes_bp=[10000]
    )
    run_winner = bigger.entered(winner, "chips")
    (big,) = play_out(bigger)["prizes"]
    ok(pay(bigger, big["id"], "chips"))

    officer = _console(staff, "compliance")
    page = officer.get("/floor/compliance/prizes/", {"year": "2026"})
    assert page.status_code == 200
    body = page.content.decode()
    assert "High roller" in body
    assert "$3,000.00" in body
    assert "123456789" in body
    assert "Friday Attack" not in body  # its prizes were under the threshold
    assert run_winner.number == 1
    admin_body = _console(staff, "admin").get("/floor/compliance/prizes/", {"year": "2026"}).content.decode()
    assert "123456789" not in admin_body
    assert "6789" in admin_body
    assert _console(staff, "pit_boss").get("/floor/compliance/prizes/").status_code == 403
    assert "High roller" not in officer.get("/floor/compliance/prizes/", {"year": "2025"}).content.decode()
    assert (
        "High roller"
        in officer.get(
            "/floor/compliance/prizes/", {"from": "2026-11-20", "to": "2026-11-20"}
        ).content.decode()
    )

    export = officer.get("/floor/compliance/prizes.csv", {"year": "2026"})
    rows = list(csv.reader(io.StringIO(export.content.decode())))
    (line,) = [row for row in rows if row and row[0] == str(bigger.id)]
    assert (line[1], line[5], line[6], line[7]) == ("High roller", "123456789", "3000.00", "chips")
    day = officer.get("/floor/compliance/2026-11-20/").content.decode()
    assert "/floor/compliance/prizes/?year=2026" in day
