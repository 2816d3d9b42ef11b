"""table_money 0004: the counts entered before the blind count keep their figures as tallies: the
member who entered a count has its first tally; the one who signed it, the second (the signature
attested the same figures), so a signed count stays complete and an unsigned one awaits its
second count; a correction keeps superseding the count it corrected, with a reason on record."""

import datetime as dt
from collections.abc import Iterator
from typing import cast

import pytest
from django.contrib.auth.models import User
from django.db import connection

from table_money.selectors import get_count_record
from tests.support.factories import ProvisionedTableFactory, StaffFactory
from tests.support.migrations import latest, migrate

BEFORE = [("table_money", "0003_cage_window")]


@pytest.fixture
def before_the_blind_count() -> Iterator[None]:
    migrate(BEFORE)
    try:
        yield
    finally:
        migrate(latest())


def old_count(
    *, table_id: int, shift: str, total: int, counter: User, signer: User | None, supersedes: int | None
) -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO casino_softcount (table_id, gaming_day, shift, currency, currency_cents, markers_cents, "
            "total_cents, supersedes_id, counted_by_id, counted_at, witnessed_by_id, witnessed_at) VALUES "
            "(%s, '2026-11-20', %s, %s, %s, 0, %s, %s, %s, now(), %s, %s) "
            "RETURNING id",
            [
                table_id,
                shift,
                f'{{"10000": {total // 10_000}}}',
                total,
                total,
                supersedes,
                counter.pk,
                signer.pk if signer else None,
                dt.datetime.now(dt.UTC) if signer else None,
            ],
        )
        return int(cursor.fetchone()[0])


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("before_the_blind_count")
def test_signed_counts_keep_their_figures_as_two_agreeing_tallies() -> None:
    table = ProvisionedTableFactory.create(name="BJ-OLD", pit_name="Main pit").table
    counter = cast(User, StaffFactory.create(username="old-counter", role="count_team").user)
    signer = cast(User, StaffFactory.create(username="old-signer", role="count_team").user)
    signed = old_count(
        table_id=table.pk, shift="day", total=50_000, counter=counter, signer=signer, supersedes=None
    )
    correction = old_count(
        table_id=table.pk, shift="day", total=60_000, counter=signer, signer=counter, supersedes=signed
    )
    unsigned = old_count(
        table_id=table.pk, shift="swing", total=30_000, counter=counter, signer=None, supersedes=None
    )

    migrate(latest())

    old, new, waiting = (get_count_record(count_id=pk) for pk in (signed, correction, unsigned))
    assert [(t.round, t.place, t.member_id, t.total_cents) for t in old.tallies] == [
        (1, 1, counter.pk, 50_000),
        (1, 2, signer.pk, 50_000),
    ]
    assert (old.result.status, old.result.counts, old.superseded_by.pk if old.superseded_by else None) == (
        "complete",
        False,
        correction,
    )
    assert (new.result.status, new.result.total_cents, new.result.counts) == ("complete", 60_000, True)
    assert new.count.correction_reason == "Corrected before the blind count"
    assert (waiting.result.status, [t.member_id for t in waiting.tallies]) == (
        "awaiting_second_count",
        [counter.pk],
    )
