"""Configuration history: every change to the game apps' configuration rows, captured by triggers.

The history is captured by database triggers (django-pghistory), so bulk
updates and raw SQL are recorded too. The tracked models are other apps' (and
Django's own `User`): they are tracked through proxy models declared here, so
the triggers and their migrations live in this app, above the game apps, and
neither the game apps nor `audit` (which imports no game app) change. Secrets
(key hashes, PIN and password hashes) are never copied into history.

The event tables kept the names they had when this lived in `audit`
(`audit_tablehistory`, ...), and with them the database's append-only guards
(audit migration 0002): UPDATE, DELETE and TRUNCATE are refused, whoever asks.

Inserts and updates store the new row, deletes the old one; the context of the
request (request id, client address, user or terminal, role) comes from
`audit.middleware` through pghistory's context, denormalised into each row.
"""

from typing import Any

import pghistory
from django.contrib.auth.models import User
from django.db import models

from bonus_tie.models import PaytableVersion
from casino.models import Dealer, StaffProfile, StaffToken, Table, TableLimit, Terminal


def _trackers(*, secret_fields: tuple[str, ...] = ()) -> tuple[pghistory.RowEvent, ...]:
    trackers: list[pghistory.RowEvent] = [
        pghistory.InsertEvent(),
        pghistory.UpdateEvent(),
        pghistory.DeleteEvent(),
    ]
    if secret_fields:
        # The secret itself is not stored; the fact that it changed is.
        trackers.append(
            pghistory.UpdateEvent("secret_changed", condition=pghistory.AnyChange(*secret_fields))
        )
    return tuple(trackers)


def _history(
    tracked: type[models.Model],
    *,
    model_name: str,
    exclude: list[str] | None = None,
    secrets: tuple[str, ...] = (),
) -> type[models.Model]:
    return pghistory.create_event_model(
        tracked,
        *_trackers(secret_fields=secrets),
        exclude=exclude or [],
        app_label="history",
        model_name=model_name,
        context_field=pghistory.ContextJSONField(),
        obj_field=pghistory.ObjForeignKey(related_name="+", related_query_name="+"),
    )


class TableProxy(Table):
    class Meta:
        proxy = True


class TableLimitProxy(TableLimit):
    class Meta:
        proxy = True


class PaytableVersionProxy(PaytableVersion):
    class Meta:
        proxy = True


class UserProxy(User):
    class Meta:
        proxy = True


class StaffProfileProxy(StaffProfile):
    class Meta:
        proxy = True


class StaffTokenProxy(StaffToken):
    class Meta:
        proxy = True


class TerminalProxy(Terminal):
    class Meta:
        proxy = True


class DealerProxy(Dealer):
    class Meta:
        proxy = True


# The generated bases are typed Any: mypy cannot follow classes built at runtime.
_TableHistoryBase: Any = _history(TableProxy, model_name="TableHistoryBase")
_TableLimitHistoryBase: Any = _history(TableLimitProxy, model_name="TableLimitHistoryBase")
_PaytableVersionHistoryBase: Any = _history(PaytableVersionProxy, model_name="PaytableVersionHistoryBase")
# last_login changes at every sign-in: it is not configuration.
_UserHistoryBase: Any = _history(
    UserProxy, model_name="UserHistoryBase", exclude=["password", "last_login"], secrets=("password",)
)
_StaffProfileHistoryBase: Any = _history(StaffProfileProxy, model_name="StaffProfileHistoryBase")
_StaffTokenHistoryBase: Any = _history(
    StaffTokenProxy, model_name="StaffTokenHistoryBase", exclude=["key_hash"], secrets=("key_hash",)
)
# The signed-in dealer changes at every sign-in; those are audit events of their own
# (casino.dealer.signed_in / signed_out), and so are failed sign-ins; not configuration.
_TerminalHistoryBase: Any = _history(
    TerminalProxy,
    model_name="TerminalHistoryBase",
    exclude=[
        "key_hash",
        "dealer",
        "dealer_signed_in_at",
        "dealer_seen_at",
        "sign_in_failures",
        "sign_in_failures_since",
    ],
    secrets=("key_hash",),
)
# Failed sign-ins and lockouts are audit events of their own (security.*), not configuration.
_DealerHistoryBase: Any = _history(
    DealerProxy,
    model_name="DealerHistoryBase",
    exclude=["pin_hash", "sign_in_failures", "sign_in_failures_since", "locked_at"],
    secrets=("pin_hash",),
)


class _ChangeName:
    """How one history row is named on the admin pages: which change, of which row."""

    pgh_id: int
    pgh_label: str
    pgh_obj_id: int

    def __str__(self) -> str:
        return f"Change {self.pgh_id}: {self.pgh_label} of row {self.pgh_obj_id}"


class TableHistory(_ChangeName, _TableHistoryBase):
    """Tables and their house rules."""

    class Meta:
        db_table = "audit_tablehistory"
        verbose_name = "table change"
        verbose_name_plural = "table changes"


class TableLimitHistory(_ChangeName, _TableLimitHistoryBase):
    """Minimum and maximum stakes per wager kind."""

    class Meta:
        db_table = "audit_tablelimithistory"
        verbose_name = "table limit change"
        verbose_name_plural = "table limit changes"


class PaytableVersionHistory(_ChangeName, _PaytableVersionHistoryBase):
    """Tie-bonus paytables: proposal, approval, rejection."""

    class Meta:
        db_table = "audit_paytableversionhistory"
        verbose_name = "paytable version change"
        verbose_name_plural = "paytable version changes"


class UserHistory(_ChangeName, _UserHistoryBase):
    """Users (never the password hash; a password change is a `secret_changed` row)."""

    class Meta:
        db_table = "audit_userhistory"
        verbose_name = "user change"
        verbose_name_plural = "user changes"


class StaffProfileHistory(_ChangeName, _StaffProfileHistoryBase):
    """Staff roles."""

    class Meta:
        db_table = "audit_staffprofilehistory"
        verbose_name = "staff member change"
        verbose_name_plural = "staff member changes"


class StaffTokenHistory(_ChangeName, _StaffTokenHistoryBase):
    """Staff API keys: issue, revocation, rotation (never the key hash)."""

    class Meta:
        db_table = "audit_stafftokenhistory"
        verbose_name = "staff API key change"
        verbose_name_plural = "staff API key changes"


class TerminalHistory(_ChangeName, _TerminalHistoryBase):
    """Terminals: table binding, key rotation (never the key hash), activation."""

    class Meta:
        db_table = "audit_terminalhistory"
        verbose_name = "terminal change"
        verbose_name_plural = "terminal changes"


class DealerHistory(_ChangeName, _DealerHistoryBase):
    """Dealers (never the PIN hash; a PIN change is a `secret_changed` row)."""

    class Meta:
        db_table = "audit_dealerhistory"
        verbose_name = "dealer change"
        verbose_name_plural = "dealer changes"


HISTORY_MODELS: tuple[type[models.Model], ...] = (
    TableHistory,
    TableLimitHistory,
    PaytableVersionHistory,
    UserHistory,
    StaffProfileHistory,
    StaffTokenHistory,
    TerminalHistory,
    DealerHistory,
)
