"""A table's sessions: the inventory slips that open and close it (the opener and the closer),
counted by denomination and signed by the dealer signed in at the table's terminal and by the
supervisor who observed it. Every record of the house carries the gaming day and shift stamped
when it was written (kernel.gaming_day); `SHIFT_NAMES` are those shifts."""

from django.conf import settings
from django.db import models
from django.db.models import Q

from casino.models.floor import Dealer, Table
from casino.models.ledger import LedgerTransaction
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
