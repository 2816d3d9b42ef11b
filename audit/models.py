"""The audit trail: hash-chained events, anchors of all chains, verification checkpoints.

`AuditEvent` rows are written only by `audit.services` (explicit, in the
caller's transaction) and form one hash chain per table plus one casino-wide
chain: each row stores the hash of the row before it in its chain and the
SHA-256 of its own canonical form (`audit.chain`). Everything about an event is
denormalised (ids *and* labels, no foreign keys) so a row outlives whatever it
describes.

The configuration history of the game apps' models lives in the `history` app,
above them: this app imports no game app.

The database refuses UPDATE, DELETE and TRUNCATE on every table of this app
(migrations 0002 and 0003), whoever the caller.
"""

from django.db import models
from django.db.models import Q

from audit.chain import CHAIN_PATTERN, FORMAT_VERSION, LEGACY_FORMAT_VERSION

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
    chain = models.CharField(max_length=32)  # "casino", "table:<id>" or "tournament:<id>" (chain_for)
    seq = models.BigIntegerField()  # position in its chain, from 1
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
    hash_format = models.SmallIntegerField()  # the canonical form it was hashed with (audit.chain)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(seq__gte=1), name="audit_event_seq_positive"),
            models.CheckConstraint(
                condition=Q(chain__regex=CHAIN_PATTERN.pattern), name="audit_event_chain_known"
            ),
            # Format 1 events predate the per-table chains: they are all in the casino-wide chain.
            models.CheckConstraint(
                condition=Q(hash_format=FORMAT_VERSION)
                | Q(hash_format=LEGACY_FORMAT_VERSION, chain="casino"),
                name="audit_event_hash_format_known",
            ),
            models.UniqueConstraint(fields=["chain", "seq"], name="audit_event_chain_seq_unique"),
            models.CheckConstraint(condition=Q(hash__regex=HASH_PATTERN), name="audit_event_hash_is_sha256"),
            models.CheckConstraint(
                condition=Q(prev_hash__regex=HASH_PATTERN), name="audit_event_prev_hash_is_sha256"
            ),
            # A hash is the predecessor of at most one event in its chain: a chain cannot fork.
            models.UniqueConstraint(fields=["chain", "prev_hash"], name="audit_event_one_successor"),
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
            models.Index(fields=["table_id", "id"], name="audit_event_table_id"),
            models.Index(
                fields=["event_type"], name="audit_event_type_prefix", opclasses=["varchar_pattern_ops"]
            ),
            models.Index(fields=["username"], name="audit_event_username"),
            models.Index(fields=["terminal_name"], name="audit_event_terminal_name"),
        ]

    def __str__(self) -> str:
        return f"Audit event {self.pk}: {self.event_type} ({self.chain} #{self.seq})"

    @property
    def actor_label(self) -> str:
        if self.actor_kind == ActorKind.TERMINAL:
            dealer = f" / dealer {self.dealer_badge}" if self.dealer_badge else ""
            return f"{self.terminal_name}{dealer}"
        if self.actor_kind == ActorKind.USER:
            return f"{self.username} ({self.role})" if self.role else self.username
        return self.username or self.actor_kind


class AuditAnchor(models.Model):
    """The heads of all chains at a moment, hashed together (`audit.chain.anchor_digest`).

    Recorded every few minutes and by every good verification, and logged off the
    host: a chain that no longer holds an anchored head was rewritten or cut short.
    """

    created_at = models.DateTimeField()
    chains = models.IntegerField()
    events = models.BigIntegerField()  # in all chains together (the sum of the head seqs)
    heads = models.JSONField()  # [[chain, seq, hash], ...], chains in code-point order
    digest = models.CharField(max_length=64)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(digest__regex=HASH_PATTERN), name="audit_anchor_digest_is_sha256"
            ),
        ]

    def __str__(self) -> str:
        return f"Anchor {self.pk}: {self.events:,} events, digest {self.digest[:12]}"


class AuditCheckpoint(models.Model):
    """A verification of every chain: the anchor of the heads it found intact, or where it broke.

    `head_hash` is the digest of the intact chains' heads. Checkpoints from before
    the per-table chains have no anchor: `head_seq`/`head_hash` are then the head
    of the one chain there was, now the casino-wide chain.
    """

    created_at = models.DateTimeField()
    ok = models.BooleanField()
    events = models.BigIntegerField()
    head_seq = models.BigIntegerField(null=True, blank=True)
    head_hash = models.CharField(max_length=64)
    broken_at = models.JSONField(null=True, blank=True)
    # No database constraint: both tables are append-only, and a constraint's triggers would only
    # stand in the way of their own guards.
    anchor = models.ForeignKey(
        AuditAnchor,
        null=True,
        blank=True,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="checkpoints",
    )

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
        state = "intact" if self.ok else "BROKEN"
        return f"Checkpoint {self.pk}: chains {state}, {self.events:,} events"


class RefusalTally(models.Model):
    """Refused requests (401, 403) counted per source, code and minute, until a summary event is
    written for them (`audit.services.count_refusal`, `flush_refusal_tallies`).

    A working table, not part of the trail: each refusal adds one to its row, and the flush
    deletes the rows it summarises. Hence UNLOGGED (no WAL: a database crash loses at most the
    counts not yet summarised) and left out of the append-only guards (`append_only = False`).
    """

    append_only = False

    minute = models.DateTimeField()  # the minute the refusals fell in (UTC, seconds cut)
    source = models.CharField(max_length=100)  # "address 203.0.113.9", "terminal 5", "user 7"
    code = models.CharField(max_length=64)  # the refusal's problem code
    count = models.IntegerField()
    individually_recorded = models.IntegerField()  # of `count`, recorded as events of their own
    first_at = models.DateTimeField()
    last_at = models.DateTimeField()
    actor = models.JSONField(null=True, blank=True)  # the caller of a source that authenticated
    sample = models.TextField()  # the first refused request of the minute: method, path, detail

    class Meta:
        verbose_name_plural = "refusal tallies"
        constraints = [
            # Also the index the flush finds past minutes by.
            models.UniqueConstraint(fields=["minute", "source", "code"], name="audit_refusal_tally_key"),
        ]

    def __str__(self) -> str:
        return f"{self.count} x {self.code} from {self.source} at {self.minute:%Y-%m-%d %H:%M}"
