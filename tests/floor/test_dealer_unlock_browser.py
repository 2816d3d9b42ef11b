"""In a real Chromium: the floor supervisor of the pit sees the locked-out dealer on the live floor
and unlocks them from the table's page."""

from collections.abc import Callable

import pytest

from casino.models import Dealer
from tests.support.api import TableActors, post
from tests.support.console import Console

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_supervisor_unlocks_a_locked_out_dealer_from_the_tables_page(
    console: Callable[..., Console], make_table: Callable[..., TableActors]
) -> None:
    actors = make_table("BJ-PIN")
    badge = actors.provisioned.dealer.badge
    for _ in range(5):
        post(actors.terminal, "/api/v1/terminal/sign-in/", {"badge": badge, "pin": "0"})
    supervisor = console("floor_supervisor", pits=(actors.table.pit,))

    supervisor.open("/floor/")
    supervisor.wait_for_text("a supervisor unlocks them on the table's page")
    supervisor.open(f"/floor/tables/{actors.table.pk}/")
    supervisor.wait_for_text("Dealers locked out here")
    supervisor.screenshot("operations-dealer-locked-floor_supervisor")
    supervisor.follow(".locked-dealers button[type=submit]")

    supervisor.wait_for_text(f"(badge {badge}) is unlocked")
    assert "Dealers locked out here" not in supervisor.text()
    assert Dealer.objects.get(pk=actors.provisioned.dealer.pk).locked_at is None
