"""Changes of a table's limits and house rules, made by two people (maker-checker).

A floor supervisor or pit boss requests a change with a reason and the moment it takes effect;
a pit boss who is not the requester approves or rejects it. An approved change is applied to the
table (its `TableLimit` rows and house-rule fields) at its effective time, under the table's lock:
at once on approval when that time has come, otherwise by the first round opening at or after it
or by the periodic task, whichever comes first (`casino.services.rule_changes`). A round records
its rules and aggregate limit when it opens, so a round already open keeps them.

`changes` holds what the change sets, `previous` what those values were when it was requested:
`{"limits": {"primary": [min_cents, max_cents], ...}, "rules": {"surrender": true, ...}}`, with
only the kinds and fields it changes (`blackjack_pays` as "3:2" or "6:5").
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from casino.models.floor import Table


class RuleChangeStatus(models.TextChoices):
    PENDING = "pending", "Awaiting approval"
    APPROVED = "approved", "Approved, not yet in effect"
    APPLIED = "applied", "In effect"
    REJECTED = "rejected", "Rejected"
    WITHDRAWN = "withdrawn", "Withdrawn"


# A change still to be decided or applied; a table has at most one at a time, so each is checked
# against the values it will replace.
OPEN_RULE_CHANGE_STATES = (RuleChangeStatus.PENDING, RuleChangeStatus.APPROVED)


class TableRuleChange(models.Model):
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="rule_changes")
    changes = models.JSONField()
    previous = models.JSONField()
    reason = models.TextField()
    effective_at = models.DateTimeField()
    status = models.CharField(
        max_length=16, choices=RuleChangeStatus.choices, default=RuleChangeStatus.PENDING
    )
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    requested_at = models.DateTimeField()
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    rejection_reason = models.TextField(blank=True)
    applied_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=RuleChangeStatus.values), name="rule_change_status_known"
            ),
            models.CheckConstraint(condition=~Q(reason=""), name="rule_change_reason_given"),
            models.CheckConstraint(
                condition=Q(decided_by__isnull=True) | ~Q(decided_by=F("requested_by")),
                name="rule_change_decided_by_another",
            ),
            models.CheckConstraint(
                condition=~Q(status=RuleChangeStatus.REJECTED) | ~Q(rejection_reason=""),
                name="rule_change_rejection_has_reason",
            ),
            models.CheckConstraint(
                condition=Q(status=RuleChangeStatus.APPLIED, applied_at__isnull=False)
                | Q(~Q(status=RuleChangeStatus.APPLIED), applied_at__isnull=True),
                name="rule_change_applied_at_when_applied",
            ),
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(status__in=OPEN_RULE_CHANGE_STATES),
                name="rule_change_one_open_per_table",
            ),
        ]

    def __str__(self) -> str:
        return f"Rule change {self.pk} at {self.table}"
