"""Rows the audit tests act on, made directly with the ORM."""

import datetime as dt
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction

from audit.context import AuditActor
from audit.models import AuditEvent
from audit.services import record_event
from casino.models import Casino, Dealer, Pit, StaffProfile, StaffToken, Table, Terminal
from kernel.keys import hash_pin, new_api_key

_names = itertools.count(1)


@dataclass(frozen=True)
class Keyed:
    """A row with the API key that authenticates as it."""

    key: str
    terminal: Terminal | None = None
    user: User | None = None

    @property
    def header(self) -> str:
        return f"Token {self.key}"


def make_table(name: str | None = None) -> Table:
    casino, _ = Casino.objects.get_or_create(name="Audit test casino")
    pit, _ = Pit.objects.get_or_create(casino=casino, name="Pit A")
    return Table.objects.create(pit=pit, name=name or f"BJ-{next(_names):02d}")


def make_terminal(table: Table) -> Keyed:
    key = new_api_key()
    dealer = Dealer.objects.create(badge=f"D{next(_names)}", name="Dana Dealer", pin_hash=hash_pin("123456"))
    terminal = Terminal.objects.create(
        table=table, name=f"T-{table.name}", key_prefix=key.prefix, key_hash=key.key_hash, dealer=dealer
    )
    return Keyed(key=key.key, terminal=terminal)


def make_staff(role: str, username: str | None = None) -> Keyed:
    user = User.objects.create_user(username=username or f"{role}-{next(_names)}", password="not-used-here-1")
    StaffProfile.objects.create(user=user, role=role)
    key = new_api_key()
    StaffToken.objects.create(user=user, key_prefix=key.prefix, key_hash=key.key_hash)
    return Keyed(key=key.key, user=user)


@pytest.fixture
def table() -> Table:
    return make_table()


@pytest.fixture
def terminal(table: Table) -> Keyed:
    return make_terminal(table)


@pytest.fixture
def compliance() -> Keyed:
    return make_staff("compliance")


@pytest.fixture
def pit_boss() -> Keyed:
    return make_staff("pit_boss")


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
    """Append `count` events to one chain: the casino-wide one, or table `table_id`'s."""

    def build(count: int, *, table_id: int | None = None) -> list[AuditEvent]:
        table_name = f"BJ-{table_id}" if table_id is not None else ""
        return [
            append(
                subject_id=str(number),
                subject_label=f"round {number}",
                table_id=table_id,
                table_name=table_name,
            )
            for number in range(1, count + 1)
        ]

    return build
