"""A fill or credit through the cage, as MICS has it: approved by a second supervisor (the one
ledger movement), then issued by a cage cashier to a named runner and signed into the tray at the
table (a fill), or received by the cage from the runner (a credit). Each step is signed once, in
order, by someone who neither requested nor approved the slip; the chain shows on the table page,
the cage's page and the printed slip, whose first print is the original and every later one a
reprint."""

from typing import Any

import pytest
from django.utils import timezone

from audit.models import AuditEvent
from casino.models import LedgerTransaction
from kernel.errors import ConflictError, ForbiddenError, NotFoundError, ServiceError
from kernel.forms import SUBMISSION_KEY_FIELD, new_submission_key
from table_money.models import ChipSlip, HandoverStep, SlipHandover, SlipKind, SlipPrint
from table_money.services import accounting
from tests.floor.form_keys import post_form
from tests.support.api import ok, request_slip
from tests.support.floor_operations import (
    SYSTEM,
    Tables,
    clock,  # noqa: F401  (the fixed clock of the day shift, autouse)
    open_now,
    page_messages,
    requested_fill,
    signed_in,
    staff_user,
)

pytestmark = pytest.mark.django_db


def _approved(slip: ChipSlip, *, by: Any) -> ChipSlip:
    return accounting.approve_slip(
        kind=SlipKind(slip.kind), slip_id=slip.pk, user=by, actor=SYSTEM, now=timezone.now()
    )


def _issue(slip: ChipSlip, *, by: Any, runner: tuple[str, str] = ("Sam Ortiz", "S-414")) -> SlipHandover:
    return accounting.sign_at_cage(
        kind=SlipKind(slip.kind),
        slip_id=slip.pk,
        runner_name=runner[0],
        runner_badge=runner[1],
        cashier=by,
        actor=SYSTEM,
        now=timezone.now(),
    )


@pytest.fixture
def people(make_table: Tables) -> dict[str, Any]:
    actors = make_table("BJ-CHAIN")
    requester = staff_user("floor_supervisor", pits=(actors.table.pit,))
    approver = staff_user("pit_boss", pits=(actors.table.pit,))
    open_now(actors, by=requester)
    return {
        "actors": actors,
        "requester": requester,
        "approver": approver,
        "cashier": staff_user("cage_cashier"),
    }


def test_a_fill_is_issued_by_the_cage_and_received_at_the_table_moving_money_once(
    people: dict[str, Any],
) -> None:
    slip = _approved(
        requested_fill(people["actors"], by=people["requester"], chips={"10000": 20}), by=people["approver"]
    )
    transactions = LedgerTransaction.objects.count()

    issued = _issue(slip, by=people["cashier"])
    received = accounting.receive_fill_at_table(
        slip_id=slip.pk, supervisor=people["requester"], actor=SYSTEM, now=timezone.now()
    )

    assert (issued.step, issued.runner_name, issued.runner_badge, issued.signed_by) == (
        HandoverStep.ISSUED_BY_CAGE,
        "Sam Ortiz",
        "S-414",
        people["cashier"],
    )
    assert received.step == HandoverStep.RECEIVED_AT_TABLE
    assert received.dealer is not None
    assert received.dealer.pk == people["actors"].provisioned.dealer.pk
    assert LedgerTransaction.objects.count() == transactions  # the approval was the movement
    assert list(
        AuditEvent.objects.filter(event_type__startswith="casino.fill.")
        .order_by("pk")
        .values_list("event_type", flat=True)
    ) == [
        "casino.fill.requested",
        "casino.fill.approved",
        "casino.fill.issued_by_cage",
        "casino.fill.received_at_table",
    ]


def test_a_credit_is_received_by_the_cage_from_its_runner(people: dict[str, Any]) -> None:
    credit = accounting.request_slip(
        kind=SlipKind.CREDIT,
        table_id=people["actors"].table.pk,
        amount_cents=50_000,
        chips={"50000": 1},
        terminal=None,
        user=people["requester"],
        actor=SYSTEM,
        now=timezone.now(),
    )
    _approved(credit, by=people["approver"])
    received = _issue(credit, by=people["cashier"], runner=("Lee Park", "S-9"))
    assert (received.step, received.runner_name) == (HandoverStep.RECEIVED_BY_CAGE, "Lee Park")
    with pytest.raises(ConflictError) as again:
        _issue(credit, by=people["cashier"])
    assert again.value.code == "slip_step_done"


def test_each_step_in_order_once_by_someone_who_neither_requested_nor_approved(
    people: dict[str, Any],
) -> None:
    pending = requested_fill(people["actors"], by=people["requester"], chips={"10000": 5})

    refusals = []
    for call in (
        lambda: _issue(pending, by=people["cashier"]),  # not approved yet
        lambda: accounting.receive_fill_at_table(
            slip_id=pending.pk, supervisor=people["approver"], actor=SYSTEM, now=timezone.now()
        ),
    ):
        with pytest.raises(ConflictError) as refused:
            call()
        refusals.append(refused.value.code)
    assert refusals == ["slip_not_approved", "slip_not_approved"]

    slip = _approved(pending, by=people["approver"])
    with pytest.raises(ConflictError) as early:
        accounting.receive_fill_at_table(
            slip_id=slip.pk, supervisor=people["approver"], actor=SYSTEM, now=timezone.now()
        )
    assert early.value.code == "slip_step_out_of_order"
    with pytest.raises(ForbiddenError) as own:
        _issue(slip, by=people["approver"])
    assert own.value.code == "cage_signer_is_requester"
    with pytest.raises(ServiceError) as nameless:
        _issue(slip, by=people["cashier"], runner=("  ", "S-1"))
    assert nameless.value.code == "runner_required"
    with pytest.raises(NotFoundError):  # a fill is not received as a credit
        accounting.sign_at_cage(
            kind=SlipKind.CREDIT,
            slip_id=slip.pk,
            runner_name="Sam",
            runner_badge="S-1",
            cashier=people["cashier"],
            actor=SYSTEM,
            now=timezone.now(),
        )
    assert not SlipHandover.objects.exists()

    _issue(slip, by=people["cashier"])
    with pytest.raises(ConflictError) as twice:
        _issue(slip, by=people["cashier"])
    assert twice.value.code == "slip_step_done"
    accounting.void_slip(
        kind=SlipKind.FILL,
        slip_id=slip.pk,
        reason="wrong rack",
        user=people["approver"],
        actor=SYSTEM,
        now=timezone.now(),
    )
    with pytest.raises(ConflictError) as void:
        accounting.receive_fill_at_table(
            slip_id=slip.pk, supervisor=people["requester"], actor=SYSTEM, now=timezone.now()
        )
    assert void.value.code == "slip_not_approved"
    assert SlipHandover.objects.count() == 1


def test_the_cage_page_lists_the_slips_and_issues_a_fill_to_a_named_runner(people: dict[str, Any]) -> None:
    approved = _approved(
        requested_fill(people["actors"], by=people["requester"], chips={"10000": 20}), by=people["approver"]
    )
    requested_fill(people["actors"], by=people["requester"], chips={"2500": 4})
    cashier = signed_in(people["cashier"])
    page = cashier.get("/floor/cage/").content.decode()
    assert "Fill #1" in page
    assert "Fill #2" in page
    assert "Waits for a supervisor" in page  # the pending one: no button
    assert page.count("Issue the chips") == 1
    url = f"/floor/cage/slips/{approved.pk}/sign/"

    nameless = post_form(
        cashier, url, {"runner_name": "", "runner_badge": "S-414"}, page="/floor/cage/", follow=True
    )
    assert "name the runner and their badge. Nothing was recorded." in " ".join(page_messages(nameless))
    assert not SlipHandover.objects.exists()

    issued = post_form(
        cashier, url, {"runner_name": "Sam Ortiz", "runner_badge": "S-414"}, page="/floor/cage/", follow=True
    )
    assert "Fill #1 for $2,000.00 at BJ-CHAIN is issued to Sam Ortiz (badge S-414)." in page_messages(issued)
    assert "carried by Sam Ortiz (badge S-414)" in issued.content.decode()
    assert SlipHandover.objects.get().step == HandoverStep.ISSUED_BY_CAGE
    # Only the cage signs there; a supervisor is refused.
    supervisor = signed_in(people["requester"])
    refused = supervisor.post(
        url, {"runner_name": "X", "runner_badge": "Y", SUBMISSION_KEY_FIELD: new_submission_key()}
    )
    assert refused.status_code == 403
    assert SlipHandover.objects.count() == 1


def test_the_table_signs_the_fill_in_and_the_print_shows_the_chain_original_then_reprint(
    people: dict[str, Any],
) -> None:
    slip = _approved(
        requested_fill(people["actors"], by=people["requester"], chips={"10000": 20}), by=people["approver"]
    )
    base = f"/floor/tables/{people['actors'].table.pk}"
    supervisor = signed_in(people["requester"])
    assert "Received at the table" not in supervisor.get(f"{base}/").content.decode()  # not issued yet
    _issue(slip, by=people["cashier"])
    assert "Awaiting: received at the table" in supervisor.get(f"{base}/").content.decode()

    received = post_form(supervisor, f"{base}/slips/{slip.pk}/receive/", {}, page=f"{base}/", follow=True)
    assert "Fill #1 for $2,000.00 is received at BJ-CHAIN." in page_messages(received)

    first = supervisor.get(f"{base}/slips/{slip.pk}/print/").content.decode()
    second = signed_in(people["approver"]).get(f"{base}/slips/{slip.pk}/print/").content.decode()
    assert "ORIGINAL" in first
    assert "REPRINT" not in first
    assert "REPRINT (copy 2)" in second
    dealer = people["actors"].provisioned.dealer
    for text in (
        "Requested",
        "Approved",
        "Issued by the cage",
        "carried by Sam Ortiz (badge S-414)",
        "Received at the table",
        f"counted in by {dealer.name}",
    ):
        assert text in second, text
    assert list(SlipPrint.objects.order_by("copy").values_list("copy", "printed_by")) == [
        (1, people["requester"].pk),
        (2, people["approver"].pk),
    ]
    assert AuditEvent.objects.filter(event_type="casino.fill.printed").count() == 2


def test_a_slip_requested_at_the_terminal_names_its_dealer_once(people: dict[str, Any]) -> None:
    actors = people["actors"]
    ok(request_slip(actors.terminal, "fill", {"10000": 1}), 201)
    page = signed_in(people["approver"]).get(f"/floor/tables/{actors.table.pk}/").content.decode()
    dealer = actors.provisioned.dealer
    assert f"{dealer.name} at the terminal" in page
    assert f"Dealer {dealer.name}" not in page


def test_only_who_may_approve_sees_approve_and_void(people: dict[str, Any]) -> None:
    slip = requested_fill(people["actors"], by=people["requester"], chips={"10000": 1})
    base = f"/floor/tables/{people['actors'].table.pk}"
    approve, void = f"{base}/slips/{slip.pk}/approve/", f"{base}/slips/{slip.pk}/void/"
    for viewer, shown in (
        (people["requester"], False),
        (people["approver"], True),
        (staff_user("compliance"), False),
    ):
        page = signed_in(viewer).get(f"{base}/").content.decode()
        assert (f'action="{approve}"' in page, void in page) == (shown, shown)


def test_hostile_signatures_are_refused_and_record_nothing(people: dict[str, Any]) -> None:
    slip = _approved(
        requested_fill(people["actors"], by=people["requester"], chips={"10000": 5}), by=people["approver"]
    )
    cashier = signed_in(people["cashier"])
    url = f"/floor/cage/slips/{slip.pk}/sign/"
    for body in (
        {"runner_name": "x" * 101, "runner_badge": "S-1"},
        {"runner_name": "Sam", "runner_badge": "b" * 33},
        {"runner_name": "Sam"},
        {"runner_name": "   ", "runner_badge": "   "},
    ):
        answer = post_form(cashier, url, body, page="/floor/cage/", follow=True)
        assert answer.status_code == 200
        assert "Nothing was recorded" in " ".join(page_messages(answer))
    key = {SUBMISSION_KEY_FIELD: new_submission_key(), "runner_name": "Sam", "runner_badge": "S-1"}
    assert cashier.post("/floor/cage/slips/999999/sign/", key).status_code == 404
    assert cashier.post(url, {"runner_name": "Sam", "runner_badge": "S-1"}).status_code == 302  # no key
    assert not SlipHandover.objects.exists()

    _issue(slip, by=people["cashier"])
    receive = f"/floor/tables/{people['actors'].table.pk}/slips/{slip.pk}/receive/"
    for role in ("compliance", "cage_cashier"):
        refused = signed_in(staff_user(role)).post(receive, {SUBMISSION_KEY_FIELD: new_submission_key()})
        assert refused.status_code in (403, 404), role
    outsider = staff_user("pit_boss")  # runs no pit of this table
    assert signed_in(outsider).post(receive, {SUBMISSION_KEY_FIELD: new_submission_key()}).status_code == 404
    assert SlipHandover.objects.count() == 1
