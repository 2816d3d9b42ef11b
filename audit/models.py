"""The audit trail: hash-chained events, verification checkpoints, configuration history.

`AuditEvent` rows are written only by `audit.services` (explicit, in the
caller's transaction) and form one hash chain: each row stores the hash of the
row before it and the SHA-256 of its own canonical form (`audit.chain`).
Everything about an event is denormalised (ids *and* labels, no foreign keys)
so a row outlives whatever it describes.

The configuration history below is captured by database triggers
(django-pghistory), so bulk updates and raw SQL are recorded too. The tracked
models are other apps' (and Django's own `User`): they are tracked through proxy
models declared here, so the triggers and their migrations live in this app and
no other app's model file or migrations change. Secrets (key hashes, PIN and
password hashes) are never copied into history.

The database refuses UPDATE, DELETE and TRUNCATE on every table of this app
(migration 0002), whoever the caller.
"""

from typing import Any

import pghistory
from django.contrib.auth.models import User
from django.db import models
from django.db.models import Q

from bonus_tie.models import PaytableVersion
from casino.models import Dealer, StaffProfile, StaffToken, Table, TableLimit, Terminal

HASH_PATTERN = "^[0-9a-f]{64}$"


class AuditEventKind(models.TextChoices):
    CHANGE = "change", "Change"
    REJECTION = "rejection", "Rejected request"


class ActorKind(models.TextChoices):
    TERMINAL = "terminal", "Terminal"
    USER = "user", "Staff user"
    SYSTEM = "system", "System"
    ANONYMOUS = "anonymous", "Anonymous"


class AuditEvent(models.Model):
    seq = models.BigIntegerField(unique=True)
    kind = models.CharField(max_length=16, choices=AuditEventKind.choices)
    event_type = models.CharField(max_length=100)
    occurred_at = models.DateTimeField()
    recorded_at = models.DateTimeField()

    actor_kind = models.CharField(max_length=16, choices=ActorKind.choices)
    terminal_id = models.BigIntegerField(null=True, blank=True)
    terminal_name = models.CharField(max_length=100, blank=True)
    user_id = models.BigIntegerField(null=True, blank=True)
    username = models.CharField(max_length=150, blank=True)
    role = models.CharField(max_length=32, blank=True)
    dealer_id = models.BigIntegerField(null=True, blank=True)
    dealer_badge = models.CharField(max_length=32, blank=True)

    table_id = models.BigIntegerField(null=True, blank=True)
    table_name = models.CharField(max_length=100, blank=True)
    subject_type = models.CharField(max_length=64, blank=True)
    subject_id = models.CharField(max_length=100, blank=True)
    subject_label = models.TextField(blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    detail = models.TextField(blank=True)

    request_id = models.CharField(max_length=128, blank=True)
    idempotency_key = models.CharField(max_length=255, blank=True)
    client_address = models.CharField(max_length=64, blank=True)

    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(seq__gte=1), name="audit_event_seq_positive"),
            models.CheckConstraint(condition=Q(hash__regex=HASH_PATTERN), name="audit_event_hash_is_sha256"),
            models.CheckConstraint(
                condition=Q(prev_hash__regex=HASH_PATTERN), name="audit_event_prev_hash_is_sha256"
            ),
            # A hash is the predecessor of at most one event: the chain cannot fork.
            models.UniqueConstraint(fields=["prev_hash"], name="audit_event_one_successor"),
            models.UniqueConstraint(fields=["hash"], name="audit_event_hash_unique"),
            models.CheckConstraint(
                condition=Q(kind__in=AuditEventKind.values), name="audit_event_kind_known"
            ),
            models.CheckConstraint(
                condition=Q(actor_kind__in=ActorKind.values), name="audit_event_actor_kind_known"
            ),
        ]
        indexes = [
            models.Index(fields=["occurred_at"], name="audit_event_occurred_at"),
            models.Index(fields=["table_id", "seq"], name="audit_event_table_seq"),
            models.Index(
                fields=["event_type"], name="audit_event_type_prefix", opclasses=["varchar_pattern_ops"]
            ),
            models.Index(fields=["username"], name="audit_event_username"),
            models.Index(fields=["terminal_name"], name="audit_event_terminal_name"),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.event_type}"

    @property
    def actor_label(self) -> str:
        if self.actor_kind == ActorKind.TERMINAL:
            dealer = f" / dealer {self.dealer_badge}" if self.dealer_badge else ""
            return f"{self.terminal_name}{dealer}"
        if self.actor_kind == ActorKind.USER:
            return f"{self.username} ({self.role})" if self.role else self.username
        return self.username or self.actor_kind


class AuditCheckpoint(models.Model):
    """The verified head of the chain at a moment: an anchor later verifications check against.

    A checkpoint also records a failed verification (ok = False) with where it broke.
    """

    created_at = models.DateTimeField()
    ok = models.BooleanField()
    events = models.BigIntegerField()
    head_seq = models.BigIntegerField(null=True, blank=True)
    head_hash = models.CharField(max_length=64)
    broken_at = models.JSONField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(head_hash__regex=HASH_PATTERN), name="audit_checkpoint_head_is_sha256"
            ),
            models.CheckConstraint(
                condition=Q(ok=False) | Q(broken_at__isnull=True), name="audit_checkpoint_ok_has_no_break"
            ),
        ]

    def __str__(self) -> str:
        state = "ok" if self.ok else "BROKEN"
        return f"checkpoint {self.created_at:%Y-%m-%d %H:%M} {state} #{self.head_seq}"


# --- Configuration history (django-pghistory) -------------------------------------------
# Inserts and updates store the new row, deletes the old one; the context of the
# request (request id, client address, user or terminal, role) comes from
# `audit.middleware` through pghistory's context, denormalised into each row.


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
        app_label="audit",
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
# (casino.dealer.signed_in / signed_out), not configuration.
_TerminalHistoryBase: Any = _history(
    TerminalProxy,
    model_name="TerminalHistoryBase",
    exclude=["key_hash", "dealer", "dealer_signed_in_at"],
    secrets=("key_hash",),
)
_DealerHistoryBase: Any = _history(
    DealerProxy, model_name="DealerHistoryBase", exclude=["pin_hash"], secrets=("pin_hash",)
)


class TableHistory(_TableHistoryBase):
    """Tables and their house rules."""


class TableLimitHistory(_TableLimitHistoryBase):
    """Minimum and maximum stakes per wager kind."""


class PaytableVersionHistory(_PaytableVersionHistoryBase):
    """Tie-bonus paytables: proposal, approval, rejection."""


class UserHistory(_UserHistoryBase):
    """Users (never the password hash; a password change is a `secret_changed` row)."""


class StaffProfileHistory(_StaffProfileHistoryBase):
    """Staff roles."""


class StaffTokenHistory(_StaffTokenHistoryBase):
    """Staff API keys: issue, revocation, rotation (never the key hash)."""


class TerminalHistory(_TerminalHistoryBase):
    """Terminals: table binding, key rotation (never the key hash), activation."""


class DealerHistory(_DealerHistoryBase):
    """Dealers (never the PIN hash; a PIN change is a `secret_changed` row)."""


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
