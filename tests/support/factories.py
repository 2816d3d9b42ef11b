"""factory_boy factories for the house's rows: the casino, its pits and tables, their limits,
terminals and dealers, and the staff.

Two kinds:
- `ProvisionedTableFactory` and `StaffFactory` go through `casino.services.provisioning`, the
  production path: a table comes with its limits, ledger accounts, terminal and dealer, a staff
  member with their profile, token and pits, and each leaves its audit event. Most tests want these.
- The `DjangoModelFactory` ones make bare rows with the ORM, for the tests that must see exactly
  the rows they made (the audit trail and the history tables).
"""

import datetime as dt
from dataclasses import dataclass
from typing import Any, TypeVar

import factory
from django.contrib.auth.models import User
from django.db import models
from django.utils import timezone
from factory.django import DjangoModelFactory

from bonus_tie.engine.paytable import DEFAULT_PAYS
from bonus_tie.models import PaytableVersion
from casino.models import (
    Account,
    AccountKind,
    Casino,
    Dealer,
    Pit,
    StaffProfile,
    StaffToken,
    Table,
    TableLimit,
    Terminal,
)
from casino.services.provisioning import ProvisionedStaff, ProvisionedTable, create_staff, provision_table
from kernel.keys import hash_pin, new_api_key

Row = TypeVar("Row", bound=models.Model)

# --- through the provisioning service ----------------------------------------------------------------


class ProvisionedTableFactory(factory.Factory[ProvisionedTable]):
    """A table provisioned as an operator provisions one (`provision_table`), now: any of its
    keyword arguments (`pit_name`, `casino_name`, `game`, `h17`...) may be given."""

    class Meta:
        model = ProvisionedTable

    name = factory.Sequence(lambda n: f"BJ-F{n:02d}")
    decks = 6

    @classmethod
    def _create(cls, model_class: type[ProvisionedTable], *args: Any, **kwargs: Any) -> ProvisionedTable:
        kwargs.setdefault("now", timezone.now())
        return provision_table(*args, **kwargs)

    @classmethod
    def _build(cls, model_class: type[ProvisionedTable], *args: Any, **kwargs: Any) -> ProvisionedTable:
        raise TypeError("a provisioned table exists only in the database: use create()")


class StaffFactory(factory.Factory[ProvisionedStaff]):
    """A staff member created as an operator creates one (`create_staff`), now: their role,
    password (a random one unless given), API token and, for a supervisor or pit boss, the pits
    (by name) they run."""

    class Meta:
        model = ProvisionedStaff

    role = "floor_supervisor"
    username = factory.LazyAttributeSequence(lambda o, n: f"{o.role}-f{n}")

    @classmethod
    def _create(cls, model_class: type[ProvisionedStaff], *args: Any, **kwargs: Any) -> ProvisionedStaff:
        kwargs.setdefault("now", timezone.now())
        return create_staff(*args, **kwargs)

    @classmethod
    def _build(cls, model_class: type[ProvisionedStaff], *args: Any, **kwargs: Any) -> ProvisionedStaff:
        raise TypeError("a staff member exists only in the database: use create()")


# --- bare rows -----------------------------------------------------------------------------------------


class CasinoFactory(DjangoModelFactory[Casino]):
    class Meta:
        model = Casino
        django_get_or_create = ("name",)

    name = "Main casino"


class PitFactory(DjangoModelFactory[Pit]):
    class Meta:
        model = Pit
        django_get_or_create = ("casino", "name")

    casino = factory.SubFactory(CasinoFactory)
    name = "Main pit"


class TableFactory(DjangoModelFactory[Table]):
    """A table row alone: no limits, accounts, terminal or audit event."""

    class Meta:
        model = Table

    pit = factory.SubFactory(PitFactory)
    name = factory.Sequence(lambda n: f"BJ-R{n:02d}")


class TableLimitFactory(DjangoModelFactory[TableLimit]):
    class Meta:
        model = TableLimit

    table = factory.SubFactory(TableFactory)
    kind = "primary"
    min_cents = 500
    max_cents = 50_000


class DealerFactory(DjangoModelFactory[Dealer]):
    class Meta:
        model = Dealer

    badge = factory.Sequence(lambda n: f"D-F{n:05d}")
    name = "Dana Dealer"
    pin_hash = factory.LazyFunction(lambda: hash_pin("123456"))


class _KeyedRowFactory(DjangoModelFactory[Row]):
    """A row an API key authenticates as, stored as its prefix and hash; pass
    `api_key=new_api_key()` to know the key."""

    class Meta:
        abstract = True

    class Params:
        api_key = factory.LazyFunction(new_api_key)

    key_prefix = factory.LazyAttribute(lambda o: o.api_key.prefix)
    key_hash = factory.LazyAttribute(lambda o: o.api_key.key_hash)


class TerminalFactory(_KeyedRowFactory[Terminal]):
    """A table's terminal with a dealer signed in."""

    class Meta:
        model = Terminal

    table = factory.SubFactory(TableFactory)
    name = factory.LazyAttribute(lambda o: f"T-{o.table.name}")
    dealer = factory.SubFactory(DealerFactory)


class UserFactory(DjangoModelFactory[User]):
    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user-f{n}")
    password = factory.django.Password("not-used-here-1")


class StaffProfileFactory(DjangoModelFactory[StaffProfile]):
    """A user with a role and nothing else: no token, no pits, no audit event."""

    class Meta:
        model = StaffProfile

    user = factory.SubFactory(UserFactory, username=factory.LazyAttributeSequence(
        lambda o, n: f"{o.factory_parent.role}-f{n}"
    ))  # fmt: skip
    role = "floor_supervisor"


class StaffTokenFactory(_KeyedRowFactory[StaffToken]):
    """A staff user's API token."""

    class Meta:
        model = StaffToken

    user = factory.SubFactory(UserFactory)


@dataclass(frozen=True)
class Keyed:
    """A row with the API key that authenticates as it."""

    key: str
    terminal: Terminal | None = None
    user: User | None = None

    @property
    def header(self) -> str:
        return f"Token {self.key}"


def terminal_with_key(table: Table) -> Keyed:
    """A bare terminal row at `table`, a dealer signed in, and its key."""
    key = new_api_key()
    return Keyed(key=key.key, terminal=TerminalFactory.create(table=table, api_key=key))


def staff_with_key(role: str, username: str | None = None) -> Keyed:
    """A bare user with `role` and an API token, and its key."""
    key = new_api_key()
    profile = StaffProfileFactory.create(role=role, **({"user__username": username} if username else {}))
    StaffTokenFactory.create(user=profile.user, api_key=key)
    return Keyed(key=key.key, user=profile.user)


# --- the rows the migrations make ----------------------------------------------------------------------


def restore_migrated_rows(now: dt.datetime | None = None) -> None:
    """Rows the migrations create, which a transactional test's TRUNCATE removes: the approved
    paytable v1 and the cage's account."""
    now = now or timezone.now()
    PaytableVersion.objects.get_or_create(
        version=1,
        defaults={"pays": {str(k): v for k, v in DEFAULT_PAYS.items()}, "status": "approved",
                  "proposed_at": now, "approved_at": now},
    )  # fmt: skip
    Account.objects.get_or_create(kind=AccountKind.CAGE, table=None)
