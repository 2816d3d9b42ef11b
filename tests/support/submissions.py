"""The console's forms that record money or a decision, each a scenario to submit twice."""

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.test import Client
from django.utils import timezone

from audit.context import AuditActor
from audit.models import AuditEvent
from blackjack.models import Round
from casino.models import InventoryKind, LedgerEntry, LedgerTransaction, TableInventory
from table_money.models import (
    ChipRedemption,
    ChipSlip,
    MtlEntry,
    SlipKind,
    SlipStatus,
    SlipVoid,
    SoftCount,
    SoftCountTally,
)
from table_money.services import accounting, soft_counts
from tests.floor.form_keys import keyed
from tests.support.api import TableActors
from tests.support.floor_operations import (
    CLOSER_CHIPS,
    PREVIOUS_SHIFT,
    clock,  # noqa: F401  (the fixed clock of the day shift, autouse)
    closed_in_previous_shift,
    count_form,
    open_now,
    open_round_at,
    requested_fill,
    signed_in,
    staff_user,
)

SYSTEM = AuditActor(kind="system", username="tests")


Tables = Callable[..., TableActors]


def tally() -> dict[str, int]:
    """Everything a console money form can record, counted."""
    return {
        "redemptions": ChipRedemption.objects.count(),
        "mtl_lines": MtlEntry.objects.count(),
        "openers": TableInventory.objects.filter(kind=InventoryKind.OPENER).count(),
        "closers": TableInventory.objects.filter(kind=InventoryKind.CLOSER).count(),
        "slips": ChipSlip.objects.count(),
        "approved_slips": ChipSlip.objects.filter(status=SlipStatus.APPROVED).count(),
        "slip_voids": SlipVoid.objects.count(),
        "void_rounds": Round.objects.filter(state="void").count(),
        "soft_counts": SoftCount.objects.count(),
        "count_tallies": SoftCountTally.objects.count(),
        "ledger_transactions": LedgerTransaction.objects.count(),
        "ledger_entries": LedgerEntry.objects.count(),
        "audit_events": AuditEvent.objects.count(),
    }


@dataclass
class Scenario:
    """One money form, ready to send: who sends it, where, what, and what it records."""

    client: Client
    url: str  # where the form posts
    page: str  # where the form is rendered
    body: dict[str, Any]
    done: str  # the first answer's message
    records: dict[str, int]  # what one submission adds to the tally
    button: bool = False  # a one-button form of another page (approve, sign)
    user: Any = field(default=None)

    def keyed_body(self) -> dict[str, Any]:
        return keyed(self.client, self.page, self.body, action=self.url if self.button else None)


def _cage(make_table: Tables) -> Scenario:
    make_table("BJ-CAGE")  # the house's accounts
    cashier = staff_user("cage_cashier")
    return Scenario(
        client=signed_in(cashier),
        url="/floor/cage/",
        page="/floor/cage/",
        # The confirmation step's POST (the review keeps the page's key).
        body=count_form(
            {"100000": 3, "10000": 1},
            total="3,100.00",
            patron="",
            description="Man, grey suit",
            confirmed="True",
        ),
        done="Paid $3,100.00 to Man, grey suit.",
        records={"redemptions": 1, "mtl_lines": 1, "ledger_transactions": 1, "ledger_entries": 2},
        user=cashier,
    )


def _open(make_table: Tables) -> Scenario:
    actors = make_table("BJ-ONCE-1")
    supervisor = staff_user("floor_supervisor", pits=(actors.table.pit,))
    closed_in_previous_shift(actors, by=supervisor)
    url = f"/floor/tables/{actors.table.pk}/open/"
    return Scenario(
        client=signed_in(supervisor),
        url=url,
        page=url,
        body=count_form(CLOSER_CHIPS, total="3,500.00"),
        done="BJ-ONCE-1 is open for the 2026-11-20 day shift with $3,500.00.",
        records={"openers": 1},
        user=supervisor,
    )


def _close(make_table: Tables) -> Scenario:
    actors = make_table("BJ-ONCE-2")
    supervisor = staff_user("floor_supervisor", pits=(actors.table.pit,))
    open_now(actors, by=supervisor)
    url = f"/floor/tables/{actors.table.pk}/close/"
    return Scenario(
        client=signed_in(supervisor),
        url=url,
        page=url,
        body=count_form({"10000": 35}, total="3,500"),
        done="BJ-ONCE-2 is closed for the 2026-11-20 day shift with $3,500.00.",
        records={"closers": 1},
        user=supervisor,
    )


def _slip_request(make_table: Tables) -> Scenario:
    actors = make_table("BJ-ONCE-3")
    supervisor = staff_user("floor_supervisor", pits=(actors.table.pit,))
    open_now(actors, by=supervisor)
    url = f"/floor/tables/{actors.table.pk}/slips/new/"
    return Scenario(
        client=signed_in(supervisor),
        url=url,
        page=url,
        body=count_form({"10000": 10, "2500": 8}, total="1,200.00", kind="fill"),
        done="Fill #1 for $1,200.00 is requested: a second supervisor approves it.",
        records={"slips": 1},
        user=supervisor,
    )


def _slip_approve(make_table: Tables) -> Scenario:
    actors = make_table("BJ-ONCE-4")
    requester = staff_user("floor_supervisor", pits=(actors.table.pit,))
    approver = staff_user("pit_boss", pits=(actors.table.pit,))
    open_now(actors, by=requester)
    slip = requested_fill(actors, by=requester, chips={"10000": 5})
    base = f"/floor/tables/{actors.table.pk}"
    return Scenario(
        client=signed_in(approver),
        url=f"{base}/slips/{slip.pk}/approve/",
        page=f"{base}/",
        body={},
        done="Fill #1 for $500.00 is approved.",
        records={"approved_slips": 1, "ledger_transactions": 1},
        button=True,
        user=approver,
    )


def _slip_void(make_table: Tables) -> Scenario:
    actors = make_table("BJ-ONCE-5")
    requester = staff_user("floor_supervisor", pits=(actors.table.pit,))
    approver = staff_user("pit_boss", pits=(actors.table.pit,))
    open_now(actors, by=requester)
    slip = requested_fill(actors, by=requester, chips={"10000": 5})
    accounting.approve_slip(
        kind=SlipKind.FILL, slip_id=slip.pk, user=approver, actor=SYSTEM, now=timezone.now()
    )
    url = f"/floor/tables/{actors.table.pk}/slips/{slip.pk}/void/"
    return Scenario(
        client=signed_in(approver),
        url=url,
        page=url,
        body={"reason": "runner brought the wrong rack"},
        done="Fill #1 is void.",
        records={"slip_voids": 1, "ledger_transactions": 1},
        user=approver,
    )


def _round_void(make_table: Tables) -> Scenario:
    actors = make_table("BJ-ONCE-6")
    supervisor = staff_user("floor_supervisor", pits=(actors.table.pit,))
    round_id = open_round_at(actors)
    url = f"/floor/tables/{actors.table.pk}/rounds/void/"
    return Scenario(
        client=signed_in(supervisor),
        url=url,
        page=url,
        body={"round_id": str(round_id), "reason": "misdeal", "confirmed": "True"},
        done=f"Round {round_id} is void: every wager is returned.",
        records={"void_rounds": 1},
        user=supervisor,
    )


def _count_enter(make_table: Tables) -> Scenario:
    actors = make_table("BJ-ONCE-7")
    closed_in_previous_shift(actors, by=staff_user("floor_supervisor"))
    member = staff_user("count_team")
    return Scenario(
        client=signed_in(member),
        url="/floor/count/",
        page="/floor/count/",
        body={
            "table": str(actors.table.pk),
            "period": "2026-11-19/grave",
            "bills_10000": "4",
            "bills_2000": "2",
            "markers": "200.00",
        },
        done="Your count of BJ-ONCE-7, 2026-11-19 grave shift (22:00-06:00 PST), is entered. A second member "
        "of the count team now counts the box without seeing yours.",
        records={"soft_counts": 1, "count_tallies": 1},
        user=member,
    )


def _count_second(make_table: Tables) -> Scenario:
    actors = make_table("BJ-ONCE-8")
    closed_in_previous_shift(actors, by=staff_user("floor_supervisor"))
    entered_by, checker = staff_user("count_team"), staff_user("count_team")
    count = soft_counts.record_soft_count(
        table_id=actors.table.pk,
        gaming_day=PREVIOUS_SHIFT.date() - dt.timedelta(days=1),
        shift="grave",
        currency={"10000": 4},
        markers_cents=0,
        user=entered_by,
        actor=SYSTEM,
        now=timezone.now(),
    )
    return Scenario(
        client=signed_in(checker),
        url=f"/floor/count/{count.pk}/tally/",
        page=f"/floor/count/{count.pk}/tally/",
        body={"bills_10000": "4"},
        done="Both counts of BJ-ONCE-8 agree: $400.00 is its counted drop.",
        records={"count_tallies": 1},
        user=checker,
    )


SCENARIOS: dict[str, Callable[[Tables], Scenario]] = {
    "cage cash-out": _cage,
    "table opener": _open,
    "table closer": _close,
    "fill request": _slip_request,
    "slip approval": _slip_approve,
    "slip void": _slip_void,
    "round void": _round_void,
    "soft count entry": _count_enter,
    "soft count second count": _count_second,
}


def added(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    return {name: after[name] - before[name] for name in before if after[name] != before[name]}
