"""The table money endpoints: opener and closer, buy-ins, fills and credits (API.md, Table money)."""

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.db import IntegrityError, InternalError, ProgrammingError, connection, transaction
from rest_framework.test import APIClient

from audit.models import AuditEvent
from casino.ledger import balance_cents
from casino.models import AccountKind, LedgerEntry, LedgerTransaction, MovementKind, TableInventory
from table_money.models import BuyIn, ChipSlip, SlipCounter, SlipVoid
from tests.support.api import TableActors, buy_in, close_table, ok, open_table, post, problem, request_slip
from tests.support.gaming_day import CASINO_ZONE, Clock

pytestmark = pytest.mark.django_db

BANK = {"100000": 5, "10000": 50}  # 1,000,000 cents


def snapshot() -> tuple[int, ...]:
    return (
        ChipSlip.objects.count(),
        SlipVoid.objects.count(),
        BuyIn.objects.count(),
        TableInventory.objects.count(),
        LedgerEntry.objects.count(),
        AuditEvent.objects.count(),
        sum(SlipCounter.objects.values_list("last_number", flat=True)),
    )


@pytest.fixture
def opened(table: TableActors, supervisors: tuple[APIClient, APIClient]) -> TableActors:
    ok(open_table(supervisors[0], table, BANK), 201)
    return table


# --- opener and closer -----------------------------------------------------------------------------


def test_the_opener_records_both_signers_and_issues_the_bank_from_the_cage(
    table: TableActors, supervisors: tuple[APIClient, APIClient]
) -> None:
    body = ok(open_table(supervisors[0], table, BANK), 201)

    assert body["kind"] == "opener"
    assert body["total_cents"] == 1_000_000
    assert body["chips"] == {"10000": 50, "100000": 5}
    assert body["dealer"] == {
        "kind": "dealer",
        "id": table.provisioned.dealer.pk,
        "name": table.provisioned.dealer.badge,
    }
    assert body["supervisor"]["kind"] == "user"
    assert (body["gaming_day"], body["shift"]) == ("2026-11-20", "day")
    assert body["previous_closer_cents"] is None
    assert body["transfer_cents"] == 1_000_000
    assert balance_cents(table=table.table, kind=AccountKind.TRAY) == 1_000_000
    assert LedgerTransaction.objects.get(kind=MovementKind.OPENER).gaming_day == dt.date(2026, 11, 20)
    assert AuditEvent.objects.filter(event_type="casino.table.opened").count() == 1


def test_a_shift_change_is_a_closer_for_the_ended_shift_and_an_opener_for_the_new_one(
    opened: TableActors,
    supervisors: tuple[APIClient, APIClient],
    clock: Clock,
    django_capture_on_commit_callbacks: Any,
) -> None:
    ok(buy_in(opened, 1, 10_000), 201)
    clock.set(dt.datetime(2026, 11, 20, 14, 2, tzinfo=CASINO_ZONE))  # the swing shift has begun
    opened.sign_in()  # the morning's session has ended (README, Dealer sign-in and sessions)
    problem(buy_in(opened, 1, 10_000), 409, "shift_change_required")

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        closer = ok(close_table(supervisors[0], opened, {"100000": 4, "10000": 59}), 201)
    reopened = ok(open_table(supervisors[1], opened, {"100000": 4, "10000": 59}), 201)

    assert (closer["gaming_day"], closer["shift"]) == ("2026-11-20", "day")  # the shift it ends
    assert len(callbacks) == 1  # a late closer: the day shift's report is regenerated
    assert (reopened["gaming_day"], reopened["shift"]) == ("2026-11-20", "swing")
    assert reopened["previous_closer_cents"] == 990_000
    assert reopened["transfer_cents"] == 0  # the tray holds what the ledger says: nothing to post
    assert LedgerTransaction.objects.filter(kind=MovementKind.OPENER).count() == 1
    swing = ok(buy_in(opened, 1, 5_000), 201)
    assert (swing["gaming_day"], swing["shift"]) == ("2026-11-20", "swing")


def test_a_reopening_posts_only_the_difference_between_the_count_and_the_ledger(
    opened: TableActors, supervisors: tuple[APIClient, APIClient], clock: Clock
) -> None:
    ok(close_table(supervisors[0], opened, BANK), 201)
    clock.advance(hours=5)
    opened.sign_in()  # the dealer who signs the count signs in again: the last session has ended

    body = ok(open_table(supervisors[0], opened, {"100000": 5, "10000": 49}), 201)  # 10,000 short

    assert body["previous_closer_cents"] == 1_000_000
    assert body["transfer_cents"] == -10_000
    assert balance_cents(table=opened.table, kind=AccountKind.TRAY) == 990_000


@pytest.mark.parametrize(
    ("chips", "total", "code"),
    [
        ({"10000": 5}, 60_000, "chips_do_not_add_up"),
        ({"700": 5}, 3_500, "unknown_denomination"),
        ({"0500": 2}, 1_000, "unknown_denomination"),
        ({"1" * 5000: 1}, 1_000, "unknown_denomination"),
    ],
)
def test_a_count_that_does_not_add_up_is_refused_and_changes_nothing(
    table: TableActors, supervisor: APIClient, chips: dict[str, int], total: int, code: str
) -> None:
    before = snapshot()

    body = problem(
        post(supervisor, f"/api/v1/tables/{table.table.pk}/open/", {"total_cents": total, "chips": chips}),
        422,
        code,
    )

    assert body["errors"][0]["code"] == code
    assert snapshot() == before


def test_opening_twice_or_without_a_dealer_is_refused(
    make_table: Callable[..., TableActors], supervisor: APIClient
) -> None:
    unsigned = make_table("BJ-20", signed_in=False)
    problem(open_table(supervisor, unsigned, BANK), 409, "dealer_not_signed_in")
    signed = make_table("BJ-21")
    ok(open_table(supervisor, signed, BANK), 201)
    before = snapshot()

    problem(open_table(supervisor, signed, BANK), 409, "table_already_open")
    ok(close_table(supervisor, signed, BANK), 201)
    problem(open_table(supervisor, signed, BANK), 409, "shift_already_opened")
    assert snapshot()[3] == before[3] + 1  # only the closer


def test_a_table_closes_only_between_rounds(opened: TableActors, supervisor: APIClient) -> None:
    ok(post(opened.terminal, "/api/v1/shoes/", {"mode": "reported"}), 201)
    ok(
        post(
            opened.terminal,
            "/api/v1/rounds/",
            {"seats": [{"seat": 1, "wagers": [{"kind": "primary", "amount_cents": 1_000}]}]},
        ),
        201,
    )

    problem(close_table(supervisor, opened, BANK), 409, "round_in_progress")


def test_only_supervisors_open_and_close(
    table: TableActors, make_staff: Callable[[str], tuple[Any, APIClient]]
) -> None:
    problem(open_table(table.terminal, table, BANK), 403, "role_not_allowed")
    problem(open_table(make_staff("compliance")[1], table, BANK), 403, "role_not_allowed")
    problem(
        post(make_staff("pit_boss")[1], "/api/v1/tables/999999/open/", {"total_cents": 0, "chips": {}}),
        404,
        "not_found",
    )


# --- buy-ins ---------------------------------------------------------------------------------------


def test_a_buy_in_goes_to_the_drop_and_takes_chips_from_the_tray(opened: TableActors) -> None:
    body = ok(buy_in(opened, 3, 25_000, method="marker", player="P-9"), 201)

    assert body["seat"] == 3
    assert body["amount_cents"] == 25_000
    assert (body["method"], body["player"]) == ("marker", "P-9")
    assert (body["gaming_day"], body["shift"]) == ("2026-11-20", "day")
    assert balance_cents(table=opened.table, kind=AccountKind.DROP) == 25_000
    assert balance_cents(table=opened.table, kind=AccountKind.TRAY) == 1_000_000 - 25_000
    posted = LedgerTransaction.objects.get(kind=MovementKind.BUY_IN)
    assert BuyIn.objects.get().transaction_id == posted.pk
    assert AuditEvent.objects.filter(event_type="casino.buy_in.recorded").count() == 1


def test_a_buy_in_is_idempotent(opened: TableActors) -> None:
    body = {"seat": 1, "amount_cents": 5_000, "method": "cash", "player": None}
    first = post(opened.terminal, "/api/v1/buy-ins/", body, key="buy-in-1")
    again = post(opened.terminal, "/api/v1/buy-ins/", body, key="buy-in-1")

    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert BuyIn.objects.count() == 1
    assert balance_cents(table=opened.table, kind=AccountKind.DROP) == 5_000


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"seat": 9, "amount_cents": 100, "method": "cash"}, 422, "invalid_seat"),
        ({"seat": 1, "amount_cents": 100, "method": "cheque"}, 400, "validation_error"),
        ({"seat": 1, "amount_cents": 1.5, "method": "cash"}, 400, "validation_error"),
        ({"seat": 1, "amount_cents": "100", "method": "cash"}, 400, "validation_error"),
        ({"seat": 1, "amount_cents": 0, "method": "cash"}, 400, "validation_error"),
    ],
)
def test_bad_buy_ins_change_nothing(
    opened: TableActors, body: dict[str, Any], status: int, code: str
) -> None:
    before = snapshot()

    problem(post(opened.terminal, "/api/v1/buy-ins/", body), status, code)

    assert snapshot() == before


def test_no_buy_in_at_a_closed_table(table: TableActors) -> None:
    before = snapshot()

    problem(buy_in(table, 1, 1_000), 409, "table_not_open")

    assert snapshot() == before


def test_buy_ins_are_for_terminals_with_a_dealer(opened: TableActors, supervisor: APIClient) -> None:
    problem(
        post(supervisor, "/api/v1/buy-ins/", {"seat": 1, "amount_cents": 100, "method": "cash"}),
        403,
        "terminal_only",
    )
    ok(post(opened.terminal, "/api/v1/terminal/sign-out/"))
    problem(buy_in(opened, 1, 100), 403, "dealer_not_signed_in")


# --- fills and credits -----------------------------------------------------------------------------


def test_a_fill_is_pending_until_approved_then_moves_chips_from_the_cage_exactly_once(
    opened: TableActors, supervisors: tuple[APIClient, APIClient]
) -> None:
    requested = ok(request_slip(opened.terminal, "fill", {"500": 20, "2500": 8}), 201)

    assert requested["status"] == "pending"
    assert requested["amount_cents"] == 30_000
    assert requested["number"] == 1
    assert requested["chips"] == {"500": 20, "2500": 8}
    assert [p["kind"] for p in requested["requested_by"]] == ["terminal", "dealer"]
    assert not LedgerTransaction.objects.filter(kind=MovementKind.FILL).exists()  # nothing moved

    approved = ok(post(supervisors[1], f"/api/v1/fills/{requested['id']}/approve/", key="approve-1"))
    replayed = post(supervisors[1], f"/api/v1/fills/{requested['id']}/approve/", key="approve-1")
    twice = post(supervisors[0], f"/api/v1/fills/{requested['id']}/approve/")

    assert approved["status"] == "approved"
    assert approved["approved_by"]["kind"] == "user"
    assert (replayed.status_code, replayed["Idempotent-Replayed"]) == (200, "true")
    problem(twice, 409, "slip_not_pending")
    assert LedgerTransaction.objects.filter(kind=MovementKind.FILL).count() == 1
    assert balance_cents(table=opened.table, kind=AccountKind.TRAY) == 1_030_000
    assert AuditEvent.objects.filter(event_type="casino.fill.approved").count() == 1


def test_a_credit_returns_chips_to_the_cage(
    opened: TableActors, supervisors: tuple[APIClient, APIClient]
) -> None:
    credit = ok(request_slip(supervisors[0], "credit", {"100000": 2}, table=opened.table.pk), 201)

    ok(post(supervisors[1], f"/api/v1/credits/{credit['id']}/approve/"))

    assert balance_cents(table=opened.table, kind=AccountKind.TRAY) == 800_000
    entries = dict(
        LedgerEntry.objects.filter(transaction__kind=MovementKind.CREDIT).values_list(
            "account__kind", "amount_cents"
        )
    )
    assert entries == {"tray": -200_000, "cage": 200_000}


def test_the_requester_may_not_approve_their_own_slip(
    opened: TableActors, supervisors: tuple[APIClient, APIClient]
) -> None:
    credit = ok(request_slip(supervisors[0], "credit", {"100000": 1}, table=opened.table.pk), 201)

    problem(post(supervisors[0], f"/api/v1/credits/{credit['id']}/approve/"), 403, "approver_is_requester")
    assert ChipSlip.objects.get().status == "pending"


def test_the_requester_may_not_void_their_own_slip_either(
    opened: TableActors, supervisors: tuple[APIClient, APIClient]
) -> None:
    credit = ok(request_slip(supervisors[0], "credit", {"100000": 1}, table=opened.table.pk), 201)
    entries = LedgerEntry.objects.count()

    problem(
        post(supervisors[0], f"/api/v1/credits/{credit['id']}/void/", {"reason": "not needed"}),
        403,
        "approver_is_requester",
    )

    assert (ChipSlip.objects.get().status, SlipVoid.objects.count()) == ("pending", 0)
    assert LedgerEntry.objects.count() == entries
    assert not AuditEvent.objects.filter(event_type="casino.credit.voided").exists()
    ok(post(supervisors[1], f"/api/v1/credits/{credit['id']}/void/", {"reason": "not needed"}))
    assert ChipSlip.objects.get().status == "void"


def test_a_credit_cannot_take_more_than_the_tray_holds(
    opened: TableActors, supervisors: tuple[APIClient, APIClient]
) -> None:
    credit = ok(request_slip(opened.terminal, "credit", {"1000000": 2}), 201)
    before = snapshot()

    problem(post(supervisors[0], f"/api/v1/credits/{credit['id']}/approve/"), 422, "credit_exceeds_tray")

    assert snapshot() == before


def test_who_may_request_and_approve(
    opened: TableActors,
    make_table: Callable[..., TableActors],
    supervisor: APIClient,
    make_staff: Callable[[str], tuple[Any, APIClient]],
) -> None:
    other = make_table("BJ-30")
    problem(request_slip(opened.terminal, "fill", {"500": 2}, table=other.table.pk), 403, "other_table")
    missing = problem(request_slip(supervisor, "fill", {"500": 2}), 400, "validation_error")
    assert missing["errors"][0]["field"] == "table"
    problem(
        request_slip(make_staff("compliance")[1], "fill", {"500": 2}, table=opened.table.pk),
        403,
        "role_not_allowed",
    )
    fill = ok(request_slip(opened.terminal, "fill", {"500": 2}), 201)
    problem(post(opened.terminal, f"/api/v1/fills/{fill['id']}/approve/"), 403, "role_not_allowed")
    problem(
        post(supervisor, f"/api/v1/credits/{fill['id']}/approve/"), 404, "not_found"
    )  # a fill, not a credit
    problem(post(supervisor, "/api/v1/fills/987654/approve/"), 404, "not_found")


def test_slips_need_an_open_table_and_chips_that_add_up(table: TableActors, supervisor: APIClient) -> None:
    before = snapshot()

    problem(request_slip(table.terminal, "fill", {"500": 2}), 409, "table_not_open")
    problem(
        post(table.terminal, "/api/v1/fills/", {"amount_cents": 5_000, "chips": {"500": 2}}),
        422,
        "chips_do_not_add_up",
    )
    problem(
        post(table.terminal, "/api/v1/credits/", {"amount_cents": 5_000, "chips": {"500": -10}}),
        400,
        "validation_error",
    )
    problem(
        post(table.terminal, "/api/v1/credits/", {"amount_cents": 5_000, "chips": ["500"]}),
        400,
        "validation_error",
    )

    assert snapshot() == before


def test_a_void_is_a_new_record_and_moves_an_approved_slips_chips_back(
    opened: TableActors, supervisors: tuple[APIClient, APIClient]
) -> None:
    fill = ok(request_slip(opened.terminal, "fill", {"10000": 3}), 201)
    ok(post(supervisors[0], f"/api/v1/fills/{fill['id']}/approve/"))

    problem(
        post(supervisors[0], f"/api/v1/fills/{fill['id']}/void/", {"reason": ""}), 400, "validation_error"
    )
    voided = ok(post(supervisors[0], f"/api/v1/fills/{fill['id']}/void/", {"reason": "counted twice"}))
    problem(
        post(supervisors[1], f"/api/v1/fills/{fill['id']}/void/", {"reason": "again"}),
        409,
        "slip_already_void",
    )
    problem(post(supervisors[1], f"/api/v1/fills/{fill['id']}/approve/"), 409, "slip_not_pending")

    assert voided["status"] == "void"
    assert voided["void"]["reason"] == "counted twice"
    assert voided["approved_by"] is not None  # the approval stays on record
    slip = ChipSlip.objects.get(pk=fill["id"])
    assert SlipVoid.objects.get(slip=slip).reversal is not None
    assert balance_cents(table=opened.table, kind=AccountKind.TRAY) == 1_000_000
    assert LedgerTransaction.objects.filter(kind=MovementKind.FILL).count() == 2  # the fill and its reversal


def test_slips_and_table_money_records_are_never_deleted_or_rewritten(
    opened: TableActors, supervisors: tuple[APIClient, APIClient]
) -> None:
    fill = ok(request_slip(opened.terminal, "fill", {"10000": 3}), 201)
    ok(post(supervisors[0], f"/api/v1/fills/{fill['id']}/void/", {"reason": "not needed"}))
    ok(buy_in(opened, 1, 1_000), 201)

    for statement in (
        "DELETE FROM casino_chipslip",
        "UPDATE casino_chipslip SET amount_cents = 1",
        "UPDATE casino_chipslip SET status = 'pending'",
        "DELETE FROM casino_slipvoid",
        "UPDATE casino_buyin SET amount_cents = 1",
        "DELETE FROM casino_tableinventory",
    ):
        with (
            pytest.raises((InternalError, ProgrammingError, IntegrityError)),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(statement)
