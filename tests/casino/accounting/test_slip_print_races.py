"""Two people print one slip at the same moment: each copy gets its own number, one original and
one reprint, never two originals."""

from typing import Any

import pytest
from django.utils import timezone

from table_money.models import SlipPrint
from table_money.services import accounting
from tests.support.floor_operations import SYSTEM, Tables, open_now, requested_fill, staff_user
from tests.support.races import race

pytestmark = pytest.mark.django_db(transaction=True)


def test_simultaneous_prints_are_one_original_and_reprints(make_table: Tables) -> None:
    actors = make_table("BJ-PRINTS")
    supervisor = staff_user("floor_supervisor", pits=(actors.table.pit,))
    open_now(actors, by=supervisor)
    slip = requested_fill(actors, by=supervisor, chips={"10000": 2})
    printers = [staff_user("pit_boss", pits=(actors.table.pit,)) for _ in range(4)]

    def print_it(i: int) -> Any:
        return accounting.print_slip(slip_id=slip.pk, user=printers[i], actor=SYSTEM, now=timezone.now()).copy

    copies = race(print_it, threads=len(printers))

    assert sorted(copies) == [1, 2, 3, 4]
    assert SlipPrint.objects.filter(slip=slip, copy=1).count() == 1
