"""A supervisor or pit boss of the pit unlocks, on the table's page, a dealer whom wrong PINs at
that table's terminal locked out: the same service as the API's unlock, once per button, audited;
nobody outside the pit, and no read-only role, can."""

from collections.abc import Callable

import pytest

from audit.models import AuditEvent
from casino.models import Dealer
from kernel.forms import SUBMISSION_KEY_FIELD
from tests.floor.form_keys import form_key
from tests.support.api import TableActors, post
from tests.support.floor_operations import (
    clock,  # noqa: F401  (the fixed clock of the day shift, autouse)
    page_messages,
    signed_in,
    staff_user,
)

pytestmark = pytest.mark.django_db


def locked_out(actors: TableActors) -> Dealer:
    for _ in range(5):
        post(
            actors.terminal,
            "/api/v1/terminal/sign-in/",
            {"badge": actors.provisioned.dealer.badge, "pin": "0"},
        )
    dealer = Dealer.objects.get(pk=actors.provisioned.dealer.pk)
    assert dealer.locked_at is not None
    return dealer


def unlock_url(actors: TableActors, dealer: Dealer) -> str:
    return f"/floor/tables/{actors.table.pk}/dealers/{dealer.pk}/unlock/"


def test_the_pits_supervisor_unlocks_the_dealer_once_from_the_tables_page(
    make_table: Callable[..., TableActors],
) -> None:
    actors = make_table("BJ-PIN")
    dealer = locked_out(actors)
    supervisor = signed_in(staff_user("floor_supervisor", pits=(actors.table.pit,)))
    page = f"/floor/tables/{actors.table.pk}/"
    assert f"Unlock {dealer.badge}" in supervisor.get(page).content.decode()
    key = form_key(supervisor, page, action=unlock_url(actors, dealer))

    first = supervisor.post(unlock_url(actors, dealer), {SUBMISSION_KEY_FIELD: key}, follow=True)
    again = supervisor.post(unlock_url(actors, dealer), {SUBMISSION_KEY_FIELD: key}, follow=True)

    assert any("is unlocked" in message for message in page_messages(first))
    assert any(message.startswith("Already recorded") for message in page_messages(again))
    dealer.refresh_from_db()
    assert (dealer.locked_at, dealer.sign_in_failures) == (None, 0)
    (event,) = AuditEvent.objects.filter(event_type="casino.dealer.unlocked")
    assert (event.role, event.subject_label) == ("floor_supervisor", dealer.badge)
    assert f"Unlock {dealer.badge}" not in supervisor.get(page).content.decode()
    signed = post(
        actors.terminal,
        "/api/v1/terminal/sign-in/",
        {"badge": dealer.badge, "pin": actors.provisioned.dealer_pin},
    )
    assert signed.status_code == 200, signed.json()


@pytest.mark.parametrize("who", ["other pit's supervisor", "compliance", "cage_cashier"])
def test_nobody_else_unlocks_the_dealer(make_table: Callable[..., TableActors], who: str) -> None:
    actors = make_table("BJ-PIN")
    other = make_table("BJ-ELSE", pit_name="Pit B")
    dealer = locked_out(actors)
    if who == "other pit's supervisor":
        client = signed_in(staff_user("floor_supervisor", pits=(other.table.pit,)))
    else:
        client = signed_in(staff_user(who))
    answer = client.post(unlock_url(actors, dealer), {SUBMISSION_KEY_FIELD: "k" * 43})

    assert answer.status_code in (403, 404)
    assert Dealer.objects.get(pk=dealer.pk).locked_at is not None
    assert not AuditEvent.objects.filter(event_type="casino.dealer.unlocked").exists()


def test_a_dealer_not_locked_at_this_table_is_not_found_here(make_table: Callable[..., TableActors]) -> None:
    actors = make_table("BJ-PIN")
    other = make_table("BJ-ELSE")
    dealer = locked_out(other)
    supervisor = signed_in(staff_user("floor_supervisor", pits=(actors.table.pit, other.table.pit)))

    elsewhere = supervisor.post(unlock_url(actors, dealer), {SUBMISSION_KEY_FIELD: "k" * 43})
    not_locked = supervisor.post(
        unlock_url(actors, actors.provisioned.dealer), {SUBMISSION_KEY_FIELD: "k" * 43}
    )

    assert (elsewhere.status_code, not_locked.status_code) == (404, 404)
    assert Dealer.objects.get(pk=dealer.pk).locked_at is not None
