"""Issue 13's gaming day, played through the API from the openers to the soft count: two patrons
across two tables (cash and markers, a cage cash-out), fills, credits, voids, closers and the count
team. The MTL, the one CTR, the player ratings and the daily report are checked against figures
computed by hand (the arithmetic beside each) and against the ledger's balances, to the cent; the
daily report's PDF is rendered to PNG and read back, provisional and final.

Casino time is America/Los_Angeles, the gaming day 2026-11-20 starts at 06:00 (day shift 06-14,
swing 14-22, grave 22-06). Paytable v1's report gives primary 0.406 %, T18 26.198 %, T20 20.51 %,
LS 20.802 % and RS 23.569 %; theo is rounded half to even per wager kind."""

import csv
import datetime as dt
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pypdfium2 as pdfium
import pytest
from django.conf import settings as django_settings
from django.test import Client
from rest_framework.test import APIClient

from casino.ledger import balance_cents
from casino.models import Account, AccountKind, LedgerEntry, MovementKind
from casino.services.provisioning import ProvisionedStaff
from floor.compliance.day import latest_worksheets
from reports import tasks
from table_money.models import CashDirection, CtrWorksheet, MtlEntry
from tests.compliance.counted_drop_support import record_count, second_count_agreeing
from tests.compliance.ratings_support import open_reported_shoe, price_paytable_v1, seat
from tests.support.api import (
    TableActors,
    cash_buy_in,
    close_table,
    new_patron,
    ok,
    open_table,
    post,
    redeem,
    request_slip,
)
from tests.support.gaming_day import CASINO_ZONE, GAMING_DAY, Clock, day_shift_clock

pytestmark = pytest.mark.django_db

MakeStaff = Callable[[str], tuple[ProvisionedStaff, APIClient]]
DAY = "2026-11-20"
REPORTS = "/api/v1/reports/shifts/"
SCREENSHOT = Path(django_settings.BASE_DIR) / ".local" / "screenshots" / "gaming-day-report-page-1.png"

OPENER_A = {"100000": 30, "10000": 100}  # 4,000,000
OPENER_B = {"100000": 20}  # 2,000,000
# The trays as the ledger has them at closing (worked out at each closer below).
CLOSER_A = {"100000": 11, "10000": 9, "500": 3}  # 1,191,500
CLOSER_B = {"100000": 12, "10000": 9, "500": 16}  # 1,298,000


def at(hour: int, minute: int = 0, *, day: int = 20) -> dt.datetime:
    return dt.datetime(2026, 11, day, hour, minute, tzinfo=CASINO_ZONE)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Clock:
    settings.CASINO_SOFT_COUNT_PER = "shift"
    settings.CASINO_MTL_THRESHOLD_CENTS = 300_000
    settings.CASINO_CTR_THRESHOLD_CENTS = 1_000_000
    settings.CASINO_RATING_BREAK_ROUNDS = 10
    settings.CASINO_RATING_BREAK_MINUTES = 20
    settings.CASINO_EXPECTED_HOLD_BP = (1000, 2000)
    settings.CASINO_LICENSEE, settings.CASINO_PROPERTY = "Example Gaming LLC", "Example Casino"
    return day_shift_clock(monkeypatch, settings, at=at(9))


@pytest.fixture
def worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """The broker hands each enqueued report regeneration to its task at once, as a worker would."""
    from config.celery import app

    monkeypatch.setattr(
        app, "send_task", lambda name, kwargs: getattr(tasks, name.rsplit(".", 1)[-1]).apply(kwargs=kwargs)
    )


def play(
    actors: TableActors, seats: list[dict[str, Any]], steps: list[str | dict[str, Any]]
) -> dict[str, Any]:
    """Open a round and run `steps` in order (a card to deal, or an action), then settle it."""
    opened = ok(post(actors.terminal, "/api/v1/rounds/", {"seats": seats}), 201)
    for step in steps:
        if isinstance(step, str):
            ok(post(actors.terminal, f"/api/v1/rounds/{opened['id']}/cards/", {"card": step}))
        else:
            ok(post(actors.terminal, f"/api/v1/rounds/{opened['id']}/actions/", step))
    return ok(post(actors.terminal, f"/api/v1/rounds/{opened['id']}/settle/"))


def stand(seat_number: int) -> dict[str, Any]:
    return {"seat": seat_number, "hand": 0, "action": "stand"}


def pdf_text(pdf: bytes, *, save_first_page_to: Path | None = None) -> list[str]:
    document = pdfium.PdfDocument(pdf)
    try:
        if save_first_page_to is not None:
            save_first_page_to.parent.mkdir(parents=True, exist_ok=True)
            document[0].render(scale=1.5).to_pil().save(save_first_page_to)
        return [str(page.get_textpage().get_text_range()) for page in document]
    finally:
        document.close()


def beat_at(clock: Clock, moment: dt.datetime) -> None:
    """What beat runs at a shift's end: the reports of the shift that has just ended."""
    clock.set(moment)
    tasks.produce_reports_for_finished_shift.apply().get()


def test_a_gaming_day_played_through_the_api_files_its_title31_ratings_and_daily_report(
    clock: Clock, worker: None, make_table: Callable[..., TableActors], make_staff: MakeStaff,
    django_capture_on_commit_callbacks: Any,
) -> None:  # fmt: skip
    supervisor, boss = make_staff("floor_supervisor")[1], make_staff("pit_boss")[1]
    cashier = make_staff("cage_cashier")[1]
    counter, witness = make_staff("count_team")[1], make_staff("count_team")[1]
    compliance_staff, compliance = make_staff("compliance")
    table_a = make_table("BJ-A", pit_name="Main pit")
    table_b = make_table("BJ-B", pit_name="Main pit")
    price_paytable_v1(table_a.table)
    ana = new_patron(supervisor, "Ana Ruiz", identification_type="passport", identification_reference="X1")
    ben = new_patron(supervisor, "Ben Cole")

    # --- 09:00 - 09:40, BJ-A: Ana in seat 1, Ben in seat 3 -------------------------------------
    ok(open_table(supervisor, table_a, OPENER_A), 201)
    ok(open_table(supervisor, table_b, OPENER_B), 201)
    open_reported_shoe(table_a)
    open_reported_shoe(table_b)
    clock.set(at(9, 10))
    ok(cash_buy_in(table_a, 1_200_000, patron=ana, seat=1), 201)  # $12,000 cash: MTL, and a CTR
    clock.set(at(9, 12))
    ok(cash_buy_in(table_a, 400_000, patron=ben, seat=3), 201)  # $4,000 cash: MTL
    ok(cash_buy_in(table_a, 500_000, patron=ben, seat=3, method="marker"), 201)  # credit, not cash

    clock.set(at(9, 20))
    # R1: Ana 18 ties the dealer's 18 (primary pushes, T18 pays 45 to 1); Ben's 19 wins.
    r1 = play(
        table_a,
        [seat(1, ana, ("primary", 10_000), ("T18", 200)), seat(3, ben, ("primary", 5_000))],
        ["TS", "9S", "9H", "8C", "TC", "9D", stand(1), stand(3)],
    )
    assert r1["settlement"]["house_net_cents"] == (10_200 + 5_000) - (10_000 + 9_200 + 10_000)  # -14,000
    clock.set(at(9, 25))
    # R2: Ana doubles 11 ($20 to $40) to 21, Ben stands on 19 with $5 on T20; the dealer's 15 busts.
    r2 = play(
        table_a,
        [seat(1, ana, ("primary", 2_000)), seat(3, ben, ("primary", 2_500), ("T20", 500))],
        [
            "6S",
            "9S",
            "5H",
            "5D",
            "TH",
            "TC",
            {"seat": 1, "hand": 0, "action": "double"},
            "TS",
            stand(3),
            "7C",
        ],
    )
    assert r2["settlement"]["house_net_cents"] == (4_000 + 3_000) - (8_000 + 5_000)  # -6,000
    clock.set(at(9, 30))
    # R3: Ana's 17 (with LS and RS) and Ben's 17 lose to the dealer's 19.
    r3 = play(
        table_a,
        [seat(1, ana, ("primary", 5_000), ("LS", 1_000), ("RS", 500)), seat(3, ben, ("primary", 5_000))],
        ["TS", "9C", "9H", "7C", "8D", "TD", stand(1), stand(3)],
    )
    assert r3["settlement"]["house_net_cents"] == 6_500 + 5_000
    clock.set(at(9, 32))
    misdealt = ok(
        post(table_a.terminal, "/api/v1/rounds/", {"seats": [seat(1, ana, ("primary", 1_000))]}), 201
    )
    ok(post(supervisor, f"/api/v1/rounds/{misdealt['id']}/void/", {"reason": "misdeal"}))

    clock.set(at(9, 35))
    fill = ok(request_slip(table_a.terminal, "fill", {"100000": 3}), 201)  # Fill #1, $3,000
    ok(post(boss, f"/api/v1/fills/{fill['id']}/approve/"))
    wrong = ok(request_slip(table_a.terminal, "fill", {"2500": 20}), 201)  # Fill #2, $500, voided
    ok(post(boss, f"/api/v1/fills/{wrong['id']}/approve/"))
    ok(post(boss, f"/api/v1/fills/{wrong['id']}/void/", {"reason": "wrong table"}))
    credit = ok(request_slip(supervisor, "credit", {"100000": 10}, table=table_a.table.pk), 201)  # $10,000
    ok(post(boss, f"/api/v1/credits/{credit['id']}/approve/"))
    clock.set(at(9, 40))
    # Opener - buy-ins + house net of R1-R3 + fill - credit:
    # 4,000,000 - 2,100,000 + (-14,000 - 6,000 + 11,500) + 300,000 - 1,000,000 = 1,191,500.
    assert balance_cents(table=table_a.table, kind=AccountKind.TRAY) == 1_191_500
    ok(close_table(supervisor, table_a, CLOSER_A), 201)

    # --- 10:00 - 10:25, BJ-B: Ana in seat 2, Ben in seat 4 -------------------------------------
    clock.set(at(10))
    table_b.sign_in()  # the dealer's terminal has been idle since 09:00
    ok(cash_buy_in(table_b, 150_000, patron=ana, seat=2), 201)  # under the MTL line; Ana's cash in: $13,500
    ok(cash_buy_in(table_b, 350_000, patron=ben, seat=4), 201)  # MTL; Ben's cash in: $7,500
    clock.set(at(10, 5))
    # R4: Ana's 19 beats the dealer's 17; Ben's 17 pushes.
    r4 = play(
        table_b,
        [seat(2, ana, ("primary", 10_000)), seat(4, ben, ("primary", 2_000))],
        ["TS", "9S", "7H", "9C", "8H", "TD", stand(2), stand(4)],
    )
    assert r4["settlement"]["house_net_cents"] == 12_000 - (20_000 + 2_000)  # -10,000
    clock.set(at(10, 10))
    # R5: Ana's 20 ties the dealer's 20 (T20 pays 25 to 1); Ben's 18 loses.
    r5 = play(
        table_b,
        [seat(2, ana, ("primary", 5_000), ("T20", 400)), seat(4, ben, ("primary", 3_000))],
        ["TS", "9S", "TH", "TC", "9D", "TD", stand(2), stand(4)],
    )
    assert r5["settlement"]["house_net_cents"] == 8_400 - (5_000 + 10_400)  # -7,000
    clock.set(at(10, 15))
    # R6: Ana's 17 and Ben's 18 lose to the dealer's 20.
    r6 = play(
        table_b,
        [seat(2, ana, ("primary", 10_000)), seat(4, ben, ("primary", 5_000))],
        ["TS", "9S", "TH", "7C", "9D", "TD", stand(2), stand(4)],
    )
    assert r6["settlement"]["house_net_cents"] == 15_000
    clock.set(at(10, 20))
    credit_b = ok(request_slip(boss, "credit", {"100000": 2}, table=table_b.table.pk), 201)  # $2,000
    ok(post(supervisor, f"/api/v1/credits/{credit_b['id']}/approve/"))
    clock.set(at(10, 25))
    # 2,000,000 - 500,000 + (-10,000 - 7,000 + 15,000) - 200,000 = 1,298,000
    assert balance_cents(table=table_b.table, kind=AccountKind.TRAY) == 1_298_000
    ok(close_table(boss, table_b, CLOSER_B), 201)

    clock.set(at(10, 40))
    cashed = ok(redeem(cashier, 600_000, patron=ana), 201)  # $6,000 out: MTL, no CTR
    assert cashed["mtl_logged"] is True

    # --- Title 31 -------------------------------------------------------------------------------
    logged = MtlEntry.objects.filter(gaming_day=GAMING_DAY).order_by("occurred_at", "pk")
    assert [(e.direction, e.patron.number, e.amount_cents, e.location) for e in logged] == [  # type: ignore[union-attr]
        (CashDirection.CASH_IN, ana, 1_200_000, "BJ-A"),
        (CashDirection.CASH_IN, ben, 400_000, "BJ-A"),
        (CashDirection.CASH_IN, ben, 350_000, "BJ-B"),
        (CashDirection.CASH_OUT, ana, 600_000, "Cage"),
    ]
    (ctr,) = latest_worksheets(gaming_day=GAMING_DAY)
    # Ana's cash in: 1,200,000 + 150,000 = 1,350,000 > 1,000,000; her $6,000 out is under the line,
    # Ben's cash in 400,000 + 350,000 = 750,000 is too (his $5,000 marker is credit).
    assert (ctr.patron.number, ctr.direction, ctr.total_cents, ctr.identified) == (  # type: ignore[union-attr]
        ana,
        CashDirection.CASH_IN,
        1_350_000,
        True,
    )
    assert [(t["location"], t["amount_cents"]) for t in ctr.transactions] == [
        ("BJ-A", 1_200_000),
        ("BJ-B", 150_000),
    ]
    assert ctr.revision == 2
    assert not CtrWorksheet.objects.filter(patron__number=ben).exists()
    console = Client()
    console.force_login(cast(Any, compliance_staff.user))
    exported = list(
        csv.reader(io.StringIO(console.get(f"/floor/compliance/{DAY}/title31.csv").content.decode()))
    )
    assert [(r[0], r[1], r[2], r[4], r[5]) for r in exported if r and r[0] in ("MTL", "CTR")] == [
        ("MTL", "cash_in", f"Patron {ana} Ana Ruiz", "12000.00", "BJ-A"),
        ("MTL", "cash_in", f"Patron {ben} Ben Cole", "4000.00", "BJ-A"),
        ("MTL", "cash_in", f"Patron {ben} Ben Cole", "3500.00", "BJ-B"),
        ("MTL", "cash_out", f"Patron {ana} Ana Ruiz", "6000.00", "Cage"),
        ("CTR", "cash_in", f"Patron {ana} Ana Ruiz", "13500.00", "BJ-A; BJ-B"),
    ]

    # --- ratings (the voided round is not rated) ------------------------------------------------
    rated = ok(compliance.get("/api/v1/ratings/", {"gaming_day": DAY}))
    sessions = [
        (
            s["patron"]["number"], s["table"]["name"], s["started_at"], s["ended_at"], s["rounds"], s["hands"],
            s["average_bet_cents"], s["handle_cents"], s["paid_cents"], s["actual_win_cents"], s["theo_win_cents"],
        )
        for s in rated["sessions"]
    ]  # fmt: skip
    assert sessions == [
        # Ana at BJ-A, 09:20-09:30 (17:20Z-17:30Z): opening bets 10,200 + 2,000 + 6,500 = 18,700 / 3
        # = 6,233.3; handle 10,200 + 4,000 + 6,500 = 20,700; paid 19,200 + 8,000 = 27,200; theo:
        # primary 19,000 x 0.00406 = 77.14 -> 77, T18 200 x 0.26198 = 52.396 -> 52,
        # LS 1,000 x 0.20802 = 208.02 -> 208, RS 500 x 0.23569 = 117.845 -> 118: 455.
        (
            ana,
            "BJ-A",
            "2026-11-20T17:20:00Z",
            "2026-11-20T17:30:00Z",
            3,
            3,
            6_233,
            20_700,
            27_200,
            -6_500,
            455,
        ),
        # Ana at BJ-B, 10:05-10:15: opening 10,000 + 5,400 + 10,000 = 25,400 / 3 = 8,466.7; paid
        # 20,000 + 15,400; theo: primary 25,000 x 0.00406 = 101.5 -> 102 (half to even),
        # T20 400 x 0.2051 = 82.04 -> 82: 184.
        (
            ana,
            "BJ-B",
            "2026-11-20T18:05:00Z",
            "2026-11-20T18:15:00Z",
            3,
            3,
            8_467,
            25_400,
            35_400,
            -10_000,
            184,
        ),
        # Ben at BJ-A: opening 5,000 + 3,000 + 5,000 = 13,000 / 3 = 4,333.3; paid 10,000 + 5,000;
        # theo: primary 12,500 x 0.00406 = 50.75 -> 51, T20 500 x 0.2051 = 102.55 -> 103: 154.
        (
            ben,
            "BJ-A",
            "2026-11-20T17:20:00Z",
            "2026-11-20T17:30:00Z",
            3,
            3,
            4_333,
            13_000,
            15_000,
            -2_000,
            154,
        ),
        # Ben at BJ-B: 2,000 + 3,000 + 5,000 = 10,000 / 3 = 3,333.3; paid 2,000;
        # theo 10,000 x 0.00406 = 40.6 -> 41.
        (ben, "BJ-B", "2026-11-20T18:05:00Z", "2026-11-20T18:15:00Z", 3, 3, 3_333, 10_000, 2_000, 8_000, 41),
    ]
    assert rated["patrons"] == 2
    # 20,700 + 25,400 + 13,000 + 10,000 = 69,100 handle; 455 + 184 + 154 + 41 = 834 theo;
    # opening bets 18,700 + 25,400 + 13,000 + 10,000 = 67,100 over 12 rounds = 5,591.7.
    assert {
        k: rated["totals"][k]
        for k in (
            "rounds",
            "handle_cents",
            "paid_cents",
            "actual_win_cents",
            "theo_win_cents",
            "average_bet_cents",
        )
    } == {
        "rounds": 12,
        "handle_cents": 69_100,
        "paid_cents": 79_600,
        "actual_win_cents": -10_500,
        "theo_win_cents": 834,
        "average_bet_cents": 5_592,
    }

    # --- PROVISIONAL: the day shift still runs (11:00) ------------------------------------------
    clock.set(at(11))
    tasks.produce_shift_reports.apply(kwargs={"gaming_day": DAY, "shift": "day"}).get()
    running = ok(supervisor.get(REPORTS, {"gaming_day": DAY}))
    assert running["provisional"] is True
    assert running["provisional_reasons"] == [
        "the day shift has not ended",
        "the swing shift has not begun",
        "the grave shift has not begun",
        "BJ-A day: no soft count",
        "BJ-B day: no soft count",
    ]
    assert running["daily"]["provisional"] is True
    assert [(t["table"]["name"], t["complete"]) for t in running["daily"]["tables"]] == [
        ("BJ-A", False),
        ("BJ-B", False),
    ]
    provisional_pdf = supervisor.get(REPORTS, {"gaming_day": DAY}, HTTP_ACCEPT="application/pdf")
    assert provisional_pdf.status_code == 200
    pages = pdf_text(provisional_pdf.content)
    for number, page in enumerate(pages, start=1):
        assert "Example Gaming LLC - Example Casino" in page
        assert "time zone America/Los_Angeles" in page
        assert "Generated at 2026-11-20 11:00:00 PST by floor_supervisor-" in page
        assert f"Page {number} of {len(pages)}" in page
        assert "PROVISIONAL" in page
        assert "Daily report - gaming day 2026-11-20, shifts day, swing, grave" in page
    assert "PROVISIONAL: the day shift has not ended" in pages[0]

    # --- the shifts end; beat stores their reports -----------------------------------------------
    beat_at(clock, at(14, 0))
    after_day = ok(supervisor.get(REPORTS, {"gaming_day": DAY, "shift": "day"}))
    assert after_day["provisional_reasons"] == ["BJ-A day: no soft count", "BJ-B day: no soft count"]
    beat_at(clock, at(22, 0))
    beat_at(clock, at(6, 0, day=21))

    # --- 06:30 next morning: the count team counts the day shift's boxes --------------------------
    clock.set(at(6, 30, day=21))
    # BJ-A's box: $15,950 in bills (the $16,000 of cash typed in, $50 short) and the $5,000 marker.
    with django_capture_on_commit_callbacks(execute=True):
        counted_a = ok(
            record_count(counter, table_a.table, gaming_day=DAY, currency={"10000": 159, "500": 10},
                         markers_cents=500_000),
            201,
        )  # fmt: skip
        agreed_a = ok(second_count_agreeing(witness, counted_a["id"]), 201)
        counted_b = ok(record_count(counter, table_b.table, gaming_day=DAY, currency={"10000": 50}), 201)
        agreed_b = ok(second_count_agreeing(witness, counted_b["id"]), 201)
    assert (agreed_a["total_cents"], agreed_b["total_cents"]) == (2_095_000, 500_000)

    # --- the final daily report ------------------------------------------------------------------
    final = ok(supervisor.get(REPORTS, {"gaming_day": DAY}))
    assert (final["provisional"], final["provisional_reasons"]) == (False, [])
    day_rows = {t["table"]["name"]: t for t in final["tables"] if t["shift"] == "day"}
    assert day_rows["BJ-A"]["drop_basis"] == "counted"  # regenerated when the count was signed
    daily = {t["table"]["name"]: t for t in final["daily"]["tables"]}
    figures = (
        "opener_cents", "closer_cents", "estimated_drop_cents", "counted_drop_cents", "drop_difference_cents",
        "drop_cents", "drop_basis", "markers_cents", "fills_cents", "credits_cents", "win_cents", "hold_bp",
        "hold_percent", "rounds_settled", "rounds_voided", "hands_dealt", "handle_cents", "payouts_cents",
        "house_net_cents", "win_minus_house_net_cents", "theo_win_cents", "complete", "provisional",
    )  # fmt: skip
    assert {name: daily["BJ-A"][name] for name in figures} == {
        "opener_cents": 4_000_000,
        "closer_cents": 1_191_500,
        "estimated_drop_cents": 2_100_000,  # 1,200,000 + 400,000 cash + 500,000 marker
        "counted_drop_cents": 2_095_000,  # 1,595,000 bills + 500,000 marker
        "drop_difference_cents": -5_000,
        "drop_cents": 2_095_000,
        "drop_basis": "counted",
        "markers_cents": 500_000,
        "fills_cents": 300_000,  # Fill #2 approved and voided: nothing
        "credits_cents": 1_000_000,
        # 2,095,000 + 1,000,000 - 300,000 + (1,191,500 - 4,000,000) = -13,500
        "win_cents": -13_500,
        "hold_bp": -64,  # -13,500 / 2,095,000 = -64.44 bp
        "hold_percent": "-0.64",
        "rounds_settled": 3,
        "rounds_voided": 1,
        "hands_dealt": 6,
        # primary 19,000 + 12,500, T18 200, T20 500, LS 1,000, RS 500
        "handle_cents": 33_700,
        "payouts_cents": 42_200,  # 19,200 + 10,000 + 8,000 + 5,000
        "house_net_cents": -8_500,
        "win_minus_house_net_cents": -5_000,  # the $50 the box came up short
        # primary 31,500 x 0.00406 = 127.89 -> 128, T18 52, T20 103, LS 208, RS 118
        "theo_win_cents": 609,
        "complete": True,
        "provisional": False,
    }
    assert {name: daily["BJ-B"][name] for name in figures} == {
        "opener_cents": 2_000_000,
        "closer_cents": 1_298_000,
        "estimated_drop_cents": 500_000,  # 150,000 + 350,000 cash
        "counted_drop_cents": 500_000,
        "drop_difference_cents": 0,
        "drop_cents": 500_000,
        "drop_basis": "counted",
        "markers_cents": 0,
        "fills_cents": 0,
        "credits_cents": 200_000,
        "win_cents": -2_000,  # 500,000 + 200,000 + (1,298,000 - 2,000,000)
        "hold_bp": -40,  # -2,000 / 500,000
        "hold_percent": "-0.40",
        "rounds_settled": 3,
        "rounds_voided": 0,
        "hands_dealt": 6,
        "handle_cents": 35_400,  # primary 25,000 + 10,000, T20 400
        "payouts_cents": 37_400,  # 20,000 + 2,000 + 5,000 + 10,400
        "house_net_cents": -2_000,
        "win_minus_house_net_cents": 0,
        "theo_win_cents": 224,  # primary 35,000 x 0.00406 = 142.1 -> 142, T20 82
        "complete": True,
        "provisional": False,
    }
    (casino,) = final["daily"]["casinos"]
    (pit,) = final["daily"]["pits"]
    for rollup in (casino, pit):
        assert {name: rollup[name] for name in figures if name != "complete"} == {
            "opener_cents": 6_000_000,
            "closer_cents": 2_489_500,
            "estimated_drop_cents": 2_600_000,
            "counted_drop_cents": 2_595_000,
            "drop_difference_cents": -5_000,
            "drop_cents": 2_595_000,
            "drop_basis": "counted",
            "markers_cents": 500_000,
            "fills_cents": 300_000,
            "credits_cents": 1_200_000,
            # 2,595,000 + 1,200,000 - 300,000 + (2,489,500 - 6,000,000) = -15,500
            "win_cents": -15_500,
            "hold_bp": -60,  # -15,500 / 2,595,000 = -59.73 bp
            "hold_percent": "-0.60",
            "rounds_settled": 6,
            "rounds_voided": 1,
            "hands_dealt": 12,
            "handle_cents": 69_100,
            "payouts_cents": 79_600,
            "house_net_cents": -10_500,
            "win_minus_house_net_cents": -5_000,
            "theo_win_cents": 833,  # 609 + 224 (the ratings' 834 round per patron session)
            "provisional": False,
        }
        assert (rollup["tables"], rollup["tables_incomplete"]) == (2, 0)

    # --- the same figures from the ledger ----------------------------------------------------------
    for name, table, counted_minus_estimated in (("BJ-A", table_a.table, -5_000), ("BJ-B", table_b.table, 0)):
        row = daily[name]
        opener_issue = sum(
            LedgerEntry.objects.filter(
                transaction__table=table,
                transaction__kind=MovementKind.OPENER,
                account__kind=AccountKind.TRAY,
            ).values_list("amount_cents", flat=True)
        )
        cage_for_table = sum(
            LedgerEntry.objects.filter(transaction__table=table, account__kind=AccountKind.CAGE)
            .exclude(transaction__kind=MovementKind.OPENER)
            .values_list("amount_cents", flat=True)
        )
        drop = balance_cents(table=table, kind=AccountKind.DROP)
        tray = balance_cents(table=table, kind=AccountKind.TRAY)
        players = balance_cents(table=table, kind=AccountKind.PATRONS) + balance_cents(
            table=table, kind=AccountKind.WAGERS
        )
        assert opener_issue == row["opener_cents"]
        assert tray == row["closer_cents"]
        assert drop == row["estimated_drop_cents"]
        assert cage_for_table == row["credits_cents"] - row["fills_cents"]
        assert -players == row["house_net_cents"]
        # The ledger's win is on the drop typed in; the report's on the drop counted.
        assert drop + (tray - opener_issue) + cage_for_table + counted_minus_estimated == row["win_cents"]
    cage = Account.objects.get(kind=AccountKind.CAGE, table=None)
    # Openers issued, fills out, credits back, and Ana's $6,000 of chips back through the window.
    assert sum(cage.entries.values_list("amount_cents", flat=True)) == (
        -4_000_000 - 2_000_000 - 300_000 + 1_000_000 + 200_000 + 600_000
    )
    cage_cash = Account.objects.get(kind=AccountKind.CAGE_CASH, table=None)
    assert sum(cage_cash.entries.values_list("amount_cents", flat=True)) == -600_000

    # --- the final PDF, rendered and read back -----------------------------------------------------
    final_pdf = compliance.get(REPORTS, {"gaming_day": DAY}, HTTP_ACCEPT="application/pdf")
    assert final_pdf.status_code == 200
    pages = pdf_text(final_pdf.content, save_first_page_to=SCREENSHOT)
    text = "\n".join(pages)
    for number, page in enumerate(pages, start=1):
        assert "Example Gaming LLC - Example Casino" in page
        assert "Generated at 2026-11-21 06:30:00 PST by compliance-" in page
        assert f"Page {number} of {len(pages)}" in page
    assert (
        "Daily report - gaming day 2026-11-20, shifts day, swing, grave - time zone America/Los_Angeles"
        in text
    )
    assert "PROVISIONAL" not in text
    # The daily rows as computed above, in dollars: opener, closer, drop (basis), estimated drop,
    # counted - estimated, fills, credits, win, hold (! outside 10-20 %), rounds, hands, handle,
    # house net, theo.
    for line in (
        "daily BJ-A $40,000.00 $11,915.00 $20,950.00 (counted) $21,000.00 -$50.00 $3,000.00 $10,000.00 "
        "-$135.00 -0.64 % ! 3 6 $337.00 -$85.00 $6.09",
        "daily BJ-B $20,000.00 $12,980.00 $5,000.00 (counted) $5,000.00 $0.00 $0.00 $2,000.00 "
        "-$20.00 -0.40 % ! 3 6 $354.00 -$20.00 $2.24",
        "daily Casino total: Main casino $60,000.00 $24,895.00 $25,950.00 (counted) $26,000.00 -$50.00 $3,000.00 "
        "$12,000.00 -$155.00 -0.60 % ! 6 12 $691.00 -$105.00 $8.33",
        "Fill #1 $3,000.00 approved",
        "Fill #2 $500.00 VOID (approved, reversed) wrong table",
        "Credit #1 $10,000.00 approved",
        "Credit #2 $2,000.00 approved",
    ):
        assert line in text, line
    for role in ("Pit boss", "Shift manager", "Revenue audit"):
        assert role in text
    assert SCREENSHOT.stat().st_size > 10_000


def test_a_table_closed_after_one_counted_shift_is_counted_for_the_day(
    clock: Clock, make_table: Callable[..., TableActors], make_staff: MakeStaff
) -> None:
    """Counted per shift, a table idle in the swing and grave shifts needs no count for them: its
    day rests on the day shift's count, and shows that shift's opener and closer."""
    supervisor = make_staff("floor_supervisor")[1]
    counter, witness = make_staff("count_team")[1], make_staff("count_team")[1]
    table = make_table("BJ-C", pit_name="Main pit")
    ok(open_table(supervisor, table, {"100000": 10}), 201)
    ok(cash_buy_in(table, 50_000, patron=None), 201)
    ok(close_table(supervisor, table, {"100000": 9, "10000": 5}), 201)  # 950,000
    for moment in (at(14), at(22), at(6, day=21)):
        beat_at(clock, moment)
    entered = ok(record_count(counter, table.table, gaming_day=DAY, currency={"10000": 4}), 201)  # 40,000
    ok(second_count_agreeing(witness, entered["id"]), 201)
    tasks.produce_shift_reports.apply(kwargs={"gaming_day": DAY, "shift": "day"}).get()

    (daily,) = ok(supervisor.get(REPORTS, {"gaming_day": DAY}))["daily"]["tables"]

    assert (daily["opener_cents"], daily["closer_cents"]) == (1_000_000, 950_000)
    assert (daily["counted_drop_cents"], daily["drop_basis"], daily["drop_difference_cents"]) == (
        40_000,
        "counted",
        -10_000,
    )
    # 40,000 + (950,000 - 1,000,000) = -10,000
    assert (daily["win_cents"], daily["complete"], daily["provisional"]) == (-10_000, True, False)
