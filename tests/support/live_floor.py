"""A table open for play and a hand played there, for the live floor's tests."""

import datetime as dt
import itertools

from django.utils import timezone

from audit.context import AuditActor
from casino.services.provisioning import ProvisionedStaff
from casino.services.terminals import sign_in_dealer
from table_money.models import BuyInMethod
from table_money.services.accounting import open_table, record_buy_in
from tests.support.api import TableActors, post
from tests.support.factories import StaffFactory
from tests.support.rounds import act, deal, open_round, primary

OPENER_CHIPS = {"100000": 10, "2500": 40}  # $10,000 + $1,000


OPENER_CENTS = 1_100_000


SYSTEM = AuditActor(kind="system", username="test")


_staff_numbers = itertools.count()


def staff(role: str, *, pits: tuple[str, ...] = (), name: str | None = None) -> ProvisionedStaff:
    return StaffFactory.create(username=name or f"{role}-made-{next(_staff_numbers)}", role=role, pits=list(pits))  # fmt: skip


def open_for_play(actors: TableActors, *, supervisor: ProvisionedStaff, buy_in_cents: int = 0,
                  now: dt.datetime | None = None) -> None:  # fmt: skip
    """The dealer signed in, the table opened with its opener, and a cash buy-in if asked."""
    now = now or timezone.now()
    terminal = sign_in_dealer(terminal=actors.provisioned.terminal, badge=actors.provisioned.dealer.badge,
                              pin=actors.provisioned.dealer_pin, actor=SYSTEM, now=now)  # fmt: skip
    open_table(table_id=actors.table.pk, total_cents=OPENER_CENTS, chips=OPENER_CHIPS, supervisor=supervisor.user,
               actor=SYSTEM, now=now)  # fmt: skip
    if buy_in_cents:
        record_buy_in(terminal=terminal, seat=1, amount_cents=buy_in_cents, method=BuyInMethod.CASH, player="",
                      actor=SYSTEM, now=now)  # fmt: skip


def play_a_losing_hand(actors: TableActors, *, stake_cents: int) -> int:
    """A round through the terminal's API: the player stands on 17, the dealer makes 18."""
    opened = open_round(actors, [{"seat": 2, "player": None, "wagers": [primary(stake_cents)]}])
    deal(actors.terminal, opened["id"], ["TS", "9H", "7C", "9D"])
    act(actors.terminal, opened["id"], seat=2, hand=0, action="stand")
    assert post(actors.terminal, f"/api/v1/rounds/{opened['id']}/settle/").status_code == 200
    return int(opened["id"])
