"""The stored shift reports: one table's figures for one shift, and its lines per wager kind.

The tables keep the names they had in the casino app (`casino_shiftreport`, ...): the models
moved, no row did. The figures are defined in `reports.definition` and computed in
`reports.figures`.
"""

from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import Q

from casino.models import SHIFT_NAMES, Pit, Table


class DropBasis(models.TextChoices):
    COUNTED = "counted", "Counted drop"
    ESTIMATED = "estimated", "Estimated drop"


class ShiftReport(models.Model):
    """One table's figures for one shift; regenerated in place (upsert on the unique key).

    Pit and casino rollups are computed on read (reports.read), from these rows.
    `win_cents` is null when a count is missing; `hold_bp` (basis points, 1 bp = 0.01 %) is null
    when the drop is zero.
    """

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="shift_reports")
    pit = models.ForeignKey(Pit, on_delete=models.PROTECT, related_name="shift_reports")
    gaming_day = models.DateField()
    shift = models.CharField(max_length=8)
    opener_cents = models.BigIntegerField(null=True, blank=True)
    closer_cents = models.BigIntegerField(null=True, blank=True)
    drop_cents = models.BigIntegerField()
    markers_cents = models.BigIntegerField()
    fills_cents = models.BigIntegerField()
    credits_cents = models.BigIntegerField()
    win_cents = models.BigIntegerField(null=True, blank=True)
    hold_bp = models.IntegerField(null=True, blank=True)
    hold_outside_range = models.BooleanField(default=False)
    rounds_settled = models.IntegerField()
    rounds_voided = models.IntegerField()
    hands_dealt = models.IntegerField()
    handle_cents = models.BigIntegerField()
    payouts_cents = models.BigIntegerField()
    house_net_cents = models.BigIntegerField()
    win_minus_house_net_cents = models.BigIntegerField(null=True, blank=True)
    theo_win_cents = models.BigIntegerField()
    # Handle whose terms have no computed report yet: left out of theo, listed apart.
    unpriced_handle_cents = models.BigIntegerField(default=0)
    flags = ArrayField(models.CharField(max_length=40), default=list, blank=True)
    generated_at = models.DateTimeField()
    # `drop_cents` is the drop the win is based on (`drop_basis`): the complete soft count when there
    # is one, else the estimated drop (the buy-ins typed at the terminal).
    estimated_drop_cents = models.BigIntegerField(default=0)
    counted_drop_cents = models.BigIntegerField(null=True, blank=True)
    drop_basis = models.CharField(max_length=9, choices=DropBasis.choices, default=DropBasis.ESTIMATED)
    # Complete: opener and closer counted and, where the count is per shift, the soft count signed;
    # only complete tables enter the pit and casino rollups.
    complete = models.BooleanField(default=False)
    # The shift had not ended when this was generated, or a count is missing.
    provisional = models.BooleanField(default=True)

    class Meta:
        db_table = "casino_shiftreport"
        constraints = [
            models.UniqueConstraint(
                fields=["table", "gaming_day", "shift"], name="shift_report_one_per_table_and_shift"
            ),
            models.CheckConstraint(condition=Q(shift__in=SHIFT_NAMES), name="shift_report_shift_known"),
            models.CheckConstraint(
                condition=Q(
                    drop_cents__gte=0,
                    markers_cents__gte=0,
                    handle_cents__gte=0,
                    payouts_cents__gte=0,
                    rounds_settled__gte=0,
                    rounds_voided__gte=0,
                    hands_dealt__gte=0,
                ),
                name="shift_report_counts_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(house_net_cents=models.F("handle_cents") - models.F("payouts_cents")),
                name="shift_report_house_net_is_handle_minus_payouts",
            ),
            models.CheckConstraint(
                condition=Q(drop_basis="counted", counted_drop_cents=models.F("drop_cents"))
                | Q(drop_basis="estimated", estimated_drop_cents=models.F("drop_cents")),
                name="shift_report_drop_is_its_basis",
            ),
        ]
        indexes = [models.Index(fields=["gaming_day", "shift"], name="shift_report_day_shift")]

    def __str__(self) -> str:
        return f"Shift report {self.table}, {self.gaming_day} {self.shift} shift"


class ShiftReportLine(models.Model):
    """Handle, payouts and theoretical win of one wager kind in a shift report."""

    report = models.ForeignKey(ShiftReport, on_delete=models.CASCADE, related_name="lines")
    kind = models.CharField(max_length=16)
    wagers = models.IntegerField()
    handle_cents = models.BigIntegerField()
    payouts_cents = models.BigIntegerField()
    house_net_cents = models.BigIntegerField()
    # None when none of the kind's handle is priced (no report for its rounds' terms yet).
    house_edge = models.DecimalField(max_digits=8, decimal_places=6, null=True, blank=True)
    theo_win_cents = models.BigIntegerField()
    unpriced_handle_cents = models.BigIntegerField(default=0)

    class Meta:
        db_table = "casino_shiftreportline"
        constraints = [
            models.UniqueConstraint(fields=["report", "kind"], name="shift_report_line_one_per_kind"),
            models.CheckConstraint(
                condition=Q(house_net_cents=models.F("handle_cents") - models.F("payouts_cents")),
                name="shift_report_line_house_net",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.report}: {self.kind}"
