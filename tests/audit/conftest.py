"""Rows the audit tests act on, made directly with the ORM (tests/support/factories.py), and
events appended to the trail."""

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.db import transaction

from audit.context import AuditActor
from audit.models import AuditEvent
from audit.services import record_event
from casino.models import Table
from tests.support.factories import Keyed, TableFactory, staff_with_key, terminal_with_key


@pytest.fixture
def table() -> Table:
    return TableFactory.create()


@pytest.fixture
def terminal(table: Table) -> Keyed:
    return terminal_with_key(table)


@pytest.fixture
def compliance() -> Keyed:
    return staff_with_key("compliance")


@pytest.fixture
def pit_boss() -> Keyed:
    return staff_with_key("pit_boss")


SYSTEM = AuditActor(kind="system", username="tests")
MOMENT = dt.datetime(2026, 11, 20, 18, 0, tzinfo=dt.UTC)


def append(**overrides: Any) -> AuditEvent:
    """Record one event in its own transaction (in the casino-wide chain unless a table_id is given)."""
    values: dict[str, Any] = {
        "event_type": "casino.round.settled",
        "actor": SYSTEM,
        "table_id": None,
        "table_name": "",
        "subject_type": "round",
        "subject_id": "1",
        "subject_label": "round 1",
        "before": {"state": "ready_to_settle"},
        "after": {"state": "settled", "paid_cents": 19200},
        "occurred_at": MOMENT,
    }
    values.update(overrides)
    with transaction.atomic():
        return record_event(**values)


@pytest.fixture
def chain() -> Callable[..., list[AuditEvent]]:
    """Append `count` events to one chain: the casino-wide one, table `table_id`'s, or an
    owner's (`owner`, e.g. "tournament:7")."""

    def build(count: int, *, table_id: int | None = None, owner: str | None = None) -> list[AuditEvent]:
        table_name = f"BJ-{table_id}" if table_id is not None else ""
        return [
            append(
                subject_id=str(number),
                subject_label=f"round {number}",
                table_id=table_id,
                table_name=table_name,
                chain_owner=owner,
            )
            for number in range(1, count + 1)
        ]

    return build
