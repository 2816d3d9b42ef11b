"""Table money outside the rounds, and the shift reports built from it.

- `TableInventory`: the table inventory slip, an opener or a closer, counted by denomination and
  signed by the dealer signed in at the table's terminal and by the supervisor who observed it.
- `BuyIn`: cash or a marker exchanged for chips at the table (into the drop box).
- `ChipSlip`: a fill or a credit, numbered in one gap-free series per kind (`SlipCounter`);
  pending until a supervisor approves it; a void is a new `SlipVoid` row with its reason.
- `ShiftReport` and `ShiftReportLine`: per table and shift, regenerated in place.

Every money record carries the gaming day and shift stamped when it was written
(kernel.gaming_day). The write paths and the ledger entries are in
`table_money.services.accounting`; the report figures in `reports`.
"""

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import Q

from casino.models.floor import Dealer, Pit, Table, Terminal
from casino.models.ledger import LedgerTransaction
from casino.models.patrons import Patron
from kernel.formatting import dollars

SHIFT_NAMES = ["day", "swing", "grave"]


class InventoryKind(models.TextChoices):
    OPENER = "opener", "Opener"
    CLOSER = "closer", "Closer"


class TableInventory(models.Model):
    """A counted table inventory: chips by denomination ({"2500": 8}, cents as text -> count)."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="inventories")
    kind = models.CharField(max_length=8, choices=InventoryKind.choices)
    chips = models.JSONField()
    total_cents = models.BigIntegerField()
    dealer = models.ForeignKey(Dealer, on_delete=models.PROTECT, related_name="+")
    supervisor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    counted_at = models.DateTimeField()
    # The shift this slip belongs to: for an opener the shift it opens, for a closer the shift it
    # ends (the one its opener opened), as printed on the slip ("date and shift ended").
    gaming_day = models.DateField()
    shift = models.CharField(max_length=8)
    # Opener only: the table's previous closer (the regulator's opener-vs-closer check) and the
    # ledger transfer that brought the tray's ledger balance to the counted opener.
    previous_closer_cents = models.BigIntegerField(null=True, blank=True)
    transfer = models.OneToOneField(
        LedgerTransaction, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        verbose_name = "table inventory"
        verbose_name_plural = "table inventories"
        constraints = [
            models.UniqueConstraint(
                fields=["table", "gaming_day", "shift", "kind"], name="inventory_one_per_table_shift_kind"
            ),
            models.CheckConstraint(condition=Q(total_cents__gte=0), name="inventory_total_not_negative"),
            models.CheckConstraint(condition=Q(shift__in=SHIFT_NAMES), name="inventory_shift_known"),
            models.CheckConstraint(
                condition=Q(kind="opener")
                | (Q(transfer__isnull=True) & Q(previous_closer_cents__isnull=True)),
                name="inventory_closer_has_no_transfer",
            ),
        ]

    def __str__(self) -> str:
        return (
            f"{self.get_kind_display()} of {self.table}, {self.gaming_day} {self.shift} shift, "
            f"{dollars(self.total_cents)}"
        )


class BuyInMethod(models.TextChoices):
    CASH = "cash", "Cash"
    MARKER = "marker", "Marker"


class BuyIn(models.Model):
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="buy_ins")
    seat = models.PositiveSmallIntegerField()
    amount_cents = models.BigIntegerField()
    method = models.CharField(max_length=8, choices=BuyInMethod.choices)
    player = models.CharField(max_length=100, blank=True)
    patron = models.ForeignKey(
        Patron, null=True, blank=True, on_delete=models.PROTECT, related_name="buy_ins"
    )
    terminal = models.ForeignKey(Terminal, on_delete=models.PROTECT, related_name="+")
    dealer = models.ForeignKey(Dealer, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()
    gaming_day = models.DateField()
    shift = models.CharField(max_length=8)
    transaction = models.OneToOneField(LedgerTransaction, on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = "buy-in"
        verbose_name_plural = "buy-ins"
        constraints = [
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="buy_in_amount_positive"),
            models.CheckConstraint(condition=Q(seat__gte=1, seat__lte=7), name="buy_in_seat_1_to_7"),
            models.CheckConstraint(condition=Q(shift__in=SHIFT_NAMES), name="buy_in_shift_known"),
        ]

    def __str__(self) -> str:
        return f"Buy-in {self.pk}: {dollars(self.amount_cents)} {self.get_method_display().lower()} at {self.table} seat {self.seat}"


class SlipKind(models.TextChoices):
    FILL = "fill", "Fill"
    CREDIT = "credit", "Credit"


class SlipStatus(models.TextChoices):
    PENDING = "pending", "Pending approval"
    APPROVED = "approved", "Approved"
    VOID = "void", "Void"


class SlipCounter(models.Model):
    """The last number issued in a slip series. Incremented under FOR UPDATE in the transaction that
    creates the slip, so a rolled-back request gives its number back: no gaps (a sequence would
    leave one)."""

    series = models.CharField(max_length=16, unique=True)
    last_number = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(last_number__gte=0), name="slip_counter_not_negative")
        ]

    def __str__(self) -> str:
        return f"{self.series.capitalize()} slips: last number {self.last_number}"


class ChipSlip(models.Model):
    """A fill (chips from the cage to the tray) or a credit (from the tray to the cage)."""

    kind = models.CharField(max_length=8, choices=SlipKind.choices)
    number = models.BigIntegerField()
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="chip_slips")
    amount_cents = models.BigIntegerField()
    chips = models.JSONField()
    status = models.CharField(max_length=8, choices=SlipStatus.choices, default=SlipStatus.PENDING)
    requested_at = models.DateTimeField()
    gaming_day = models.DateField()
    shift = models.CharField(max_length=8)
    requested_by_terminal = models.ForeignKey(
        Terminal, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    requested_by_dealer = models.ForeignKey(
        Dealer, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    requested_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    approved_at = models.DateTimeField(null=True, blank=True)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    transaction = models.OneToOneField(
        LedgerTransaction, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["kind", "number"], name="chip_slip_number_unique_per_kind"),
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="chip_slip_amount_positive"),
            models.CheckConstraint(condition=Q(number__gte=1), name="chip_slip_number_positive"),
            models.CheckConstraint(condition=Q(shift__in=SHIFT_NAMES), name="chip_slip_shift_known"),
            models.CheckConstraint(
                condition=(Q(requested_by_terminal__isnull=False) & Q(requested_by_user__isnull=True))
                | (Q(requested_by_terminal__isnull=True) & Q(requested_by_user__isnull=False)),
                name="chip_slip_one_requester",
            ),
            models.CheckConstraint(
                condition=Q(approved_at__isnull=True, approved_by__isnull=True, transaction__isnull=True)
                | Q(approved_at__isnull=False, approved_by__isnull=False, transaction__isnull=False),
                name="chip_slip_approval_complete",
            ),
            models.CheckConstraint(
                condition=~Q(status="approved") | Q(approved_at__isnull=False),
                name="chip_slip_approved_has_approval",
            ),
            models.CheckConstraint(
                condition=~Q(status="pending") | Q(approved_at__isnull=True),
                name="chip_slip_pending_not_approved",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.number} {self.table} {dollars(self.amount_cents)}"


class SlipVoid(models.Model):
    """The void of a slip: a new record with its reason; the slip itself is never deleted."""

    slip = models.OneToOneField(ChipSlip, on_delete=models.PROTECT, related_name="void")
    reason = models.TextField()
    voided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    voided_at = models.DateTimeField()
    gaming_day = models.DateField()
    shift = models.CharField(max_length=8)
    # For an approved slip: the reversing transaction, posted to the slip's own gaming day and shift.
    reversal = models.OneToOneField(
        LedgerTransaction, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="slip_void_has_reason"),
            models.CheckConstraint(condition=Q(shift__in=SHIFT_NAMES), name="slip_void_shift_known"),
        ]

    def __str__(self) -> str:
        return f"Void of {self.slip}"


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
    flags = ArrayField(models.CharField(max_length=40), default=list, blank=True)
    generated_at = models.DateTimeField()
    # `drop_cents` is the drop the win is based on (`drop_basis`): the signed soft count when there
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
    house_edge = models.DecimalField(max_digits=8, decimal_places=6)
    theo_win_cents = models.BigIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["report", "kind"], name="shift_report_line_one_per_kind"),
            models.CheckConstraint(
                condition=Q(house_net_cents=models.F("handle_cents") - models.F("payouts_cents")),
                name="shift_report_line_house_net",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.report}: {self.kind}"
