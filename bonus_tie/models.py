"""Versioned tie-bonus paytables with maker-checker approval (RULES.md §1.4)."""

from django.conf import settings
from django.db import models
from django.db.models import Q


class PaytableStatus(models.TextChoices):
    PROPOSED = "proposed"
    APPROVED = "approved"
    REJECTED = "rejected"


# Who proposed and approved a version no person did: version 1, created by a migration.
SYSTEM_MIGRATION = "system migration"


class PaytableVersion(models.Model):
    version = models.PositiveIntegerField(unique=True)
    # One "N to 1" figure per bonus kind: {"T17": 45, ..., "RS": 20}.
    pays = models.JSONField()
    status = models.CharField(max_length=16, choices=PaytableStatus.choices, default=PaytableStatus.PROPOSED)
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    proposed_at = models.DateTimeField()
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    approved_at = models.DateTimeField(null=True, blank=True)
    report = models.JSONField(null=True, blank=True)
    override_reason = models.TextField(blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(proposed_by__isnull=True)
                | Q(approved_by__isnull=True)
                | ~Q(approved_by=models.F("proposed_by")),
                name="paytable_approver_is_not_proposer",
            ),
            models.CheckConstraint(
                condition=~Q(status="approved") | Q(approved_at__isnull=False),
                name="paytable_approved_has_time",
            ),
        ]

    def __str__(self) -> str:
        return f"Paytable v{self.version} ({self.status})"


class PaytableProposal(models.Model):
    """What a proposal adds to its version: the house rules its report is for, and the decision.

    A separate row, not more columns on `PaytableVersion`: that table's history is captured by
    triggers of the audit app, whose column list would otherwise have to change with it.
    """

    paytable = models.OneToOneField(
        PaytableVersion, on_delete=models.PROTECT, primary_key=True, related_name="proposal"
    )
    # The house rules the report is computed for (`blackjack.mappers.rules_to_json`).
    rules = models.JSONField()
    # Set with the report: did the steering check flag any bet (PAYTABLE.md)? Null while pending.
    flagged = models.BooleanField(null=True, blank=True)
    report_computed_at = models.DateTimeField(null=True, blank=True)
    rejected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    rejected_at = models.DateTimeField(null=True, blank=True)
    rejection_reason = models.TextField(blank=True)
    # When the version's proposer or approver is not a user (`proposed_by`/`approved_by` empty):
    # who it was. Only the system migration that created version 1 is such an actor.
    proposed_by_label = models.CharField(max_length=32, blank=True)
    approved_by_label = models.CharField(max_length=32, blank=True)
    # When the report's computation was last handed to the task queue (None: never queued).
    report_queued_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(proposed_by_label__in=["", SYSTEM_MIGRATION])
                & Q(approved_by_label__in=["", SYSTEM_MIGRATION]),
                name="paytable_actor_label_is_known",
            ),
            models.CheckConstraint(
                condition=Q(rejected_at__isnull=True) | ~Q(rejection_reason=""),
                name="paytable_rejection_has_reason",
            ),
            models.CheckConstraint(
                condition=Q(flagged__isnull=True, report_computed_at__isnull=True)
                | Q(flagged__isnull=False, report_computed_at__isnull=False),
                name="paytable_flag_set_with_report",
            ),
        ]

    def __str__(self) -> str:
        return f"Proposal of paytable v{self.paytable.version}"


class RulesReport(models.Model):
    """The report of a paytable version under house rules other than its proposal's: those of a
    table that deals it (provisioned, or changed by a rule change). It prices the wagers of the
    rounds dealt under those rules (`reports.paytable_edges`); until it is computed they are
    unpriced.

    `rules` are `blackjack.mappers.rules_to_json` of the table's house rules with the two that move
    no edge (insurance offered, the cut card's penetration) at their defaults, so tables that
    differ only there share one report.
    """

    paytable = models.ForeignKey(PaytableVersion, on_delete=models.PROTECT, related_name="rules_reports")
    rules = models.JSONField()
    report = models.JSONField(null=True, blank=True)
    # When the computation was last handed to the task queue (None: never queued).
    queued_at = models.DateTimeField(null=True, blank=True)
    computed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["paytable", "rules"], name="rules_report_once_per_rules"),
            models.CheckConstraint(
                condition=Q(report__isnull=True, computed_at__isnull=True)
                | Q(report__isnull=False, computed_at__isnull=False),
                name="rules_report_computed_with_time",
            ),
        ]

    def __str__(self) -> str:
        return f"Report of paytable v{self.paytable.version} under {self.rules}"
