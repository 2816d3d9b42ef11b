"""The soft count: what the count team found in a table's drop box.

One count per table and gaming day and shift (or per gaming day, `shift` empty, when the casino
counts once a day: setting `CASINO_SOFT_COUNT_PER`). Currency is counted by denomination, markers
as a total. A count is entered by one member of the count team and signed by a second, different
member; it takes effect (the reports' counted drop) once both have signed. A count is never
edited: a correction is a new count that supersedes it (the database refuses deletes, and any
update but the one that adds the second signature).
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from casino.models.accounting import SHIFT_NAMES
from casino.models.floor import Table
from kernel.formatting import dollars

WHOLE_DAY = ""


class SoftCount(models.Model):
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="soft_counts")
    gaming_day = models.DateField()
    # The shift counted, or WHOLE_DAY when the casino counts once per gaming day.
    shift = models.CharField(max_length=8, blank=True)
    # Bills by denomination: {"10000": 12} (cents as text -> count).
    currency = models.JSONField()
    currency_cents = models.BigIntegerField()
    markers_cents = models.BigIntegerField()
    total_cents = models.BigIntegerField()
    supersedes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="superseded_by"
    )
    counted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    counted_at = models.DateTimeField()
    witnessed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    witnessed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(currency_cents__gte=0, markers_cents__gte=0),
                name="soft_count_amounts_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(total_cents=F("currency_cents") + F("markers_cents")),
                name="soft_count_total_is_currency_plus_markers",
            ),
            models.CheckConstraint(
                condition=Q(shift__in=[*SHIFT_NAMES, WHOLE_DAY]), name="soft_count_shift_known"
            ),
            models.CheckConstraint(
                condition=Q(witnessed_by__isnull=True, witnessed_at__isnull=True)
                | Q(witnessed_by__isnull=False, witnessed_at__isnull=False),
                name="soft_count_witness_complete",
            ),
            models.CheckConstraint(
                condition=Q(witnessed_by__isnull=True) | ~Q(witnessed_by=F("counted_by")),
                name="soft_count_two_different_members",
            ),
            models.UniqueConstraint(
                fields=["table", "gaming_day", "shift"],
                condition=Q(supersedes__isnull=True),
                name="soft_count_one_original_per_period",
            ),
        ]
        indexes = [models.Index(fields=["gaming_day", "shift"], name="soft_count_day_shift")]

    def __str__(self) -> str:
        return f"Soft count of {self.table}, {self.period_label}, {dollars(self.total_cents)}"

    @property
    def is_signed(self) -> bool:
        return self.witnessed_by_id is not None

    @property
    def period_label(self) -> str:
        return f"{self.gaming_day} {self.shift} shift" if self.shift else f"{self.gaming_day} (whole day)"
