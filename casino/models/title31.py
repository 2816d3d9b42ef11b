"""Title 31 records (31 CFR 1021.311/313): the multiple transaction log and the CTR worksheets.

Both are stored rows written in the same transaction as the money they describe and never
changed afterwards (database triggers, casino migration 0013): what a regulator reads is what
was written when the cash moved.

- `MtlEntry`: one cash-in (a cash buy-in) or cash-out (a chip redemption) at or above the MTL
  threshold.
- `CtrWorksheet`: a patron's cash-in or cash-out of one gaming day (aggregated separately) once it
  totals more than the CTR threshold. A later transaction of the same patron, day and direction
  writes the next revision, recomputed from all the day's transactions; the highest revision is
  the one to file.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q

from casino.models.accounting import BuyIn
from casino.models.cage import ChipRedemption
from casino.models.floor import Dealer, Table
from casino.models.patrons import Patron
from kernel.formatting import dollars


class CashDirection(models.TextChoices):
    CASH_IN = "cash_in", "Cash in"
    CASH_OUT = "cash_out", "Cash out"


class MtlEntry(models.Model):
    direction = models.CharField(max_length=8, choices=CashDirection.choices)
    amount_cents = models.BigIntegerField()
    patron = models.ForeignKey(
        Patron, null=True, blank=True, on_delete=models.PROTECT, related_name="mtl_entries"
    )
    description = models.CharField(max_length=150, blank=True)
    # Where: a table, or the cage (no table).
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    location = models.CharField(max_length=60)
    occurred_at = models.DateTimeField()
    gaming_day = models.DateField()
    # Who took the cash (a dealer) or paid it (a cage cashier), and their name as it was.
    dealer = models.ForeignKey(Dealer, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    cashier = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    employee = models.CharField(max_length=150)
    buy_in = models.OneToOneField(
        BuyIn, null=True, blank=True, on_delete=models.PROTECT, related_name="mtl_entry"
    )
    redemption = models.OneToOneField(
        ChipRedemption, null=True, blank=True, on_delete=models.PROTECT, related_name="mtl_entry"
    )

    class Meta:
        verbose_name = "MTL entry"
        verbose_name_plural = "MTL entries"
        constraints = [
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="mtl_amount_positive"),
            models.CheckConstraint(
                condition=Q(
                    direction="cash_in", buy_in__isnull=False, redemption__isnull=True, dealer__isnull=False
                )
                | Q(
                    direction="cash_out", buy_in__isnull=True, redemption__isnull=False, cashier__isnull=False
                ),
                name="mtl_source_matches_direction",
            ),
        ]
        indexes = [models.Index(fields=["gaming_day"], name="mtl_by_gaming_day")]

    def __str__(self) -> str:
        return f"MTL {self.get_direction_display().lower()} {dollars(self.amount_cents)} at {self.location}"


class CtrWorksheet(models.Model):
    # "patron:<number>" for a patron on file; "buy_in:<id>" or "redemption:<id>" for a single
    # transaction over the line by someone who is not (they cannot be aggregated with anything).
    subject_key = models.CharField(max_length=40)
    patron = models.ForeignKey(Patron, null=True, blank=True, on_delete=models.PROTECT, related_name="ctrs")
    description = models.CharField(max_length=150, blank=True)
    gaming_day = models.DateField()
    direction = models.CharField(max_length=8, choices=CashDirection.choices)
    revision = models.PositiveSmallIntegerField()
    total_cents = models.BigIntegerField()
    # The day's transactions of this direction, in time order:
    # [{"source": "buy_in" | "redemption", "id", "amount_cents", "at", "location", "employee"}].
    transactions = models.JSONField()
    # Whether the patron was identified when this revision was written; unidentified: flagged.
    identified = models.BooleanField()
    created_at = models.DateTimeField()

    class Meta:
        verbose_name = "CTR worksheet"
        constraints = [
            models.UniqueConstraint(
                fields=["subject_key", "gaming_day", "direction", "revision"], name="ctr_one_per_revision"
            ),
            models.CheckConstraint(condition=Q(total_cents__gt=0), name="ctr_total_positive"),
            models.CheckConstraint(condition=Q(revision__gte=1), name="ctr_revision_from_1"),
            models.CheckConstraint(
                condition=Q(patron__isnull=False) | ~Q(description=""), name="ctr_patron_or_description"
            ),
        ]
        indexes = [models.Index(fields=["gaming_day"], name="ctr_by_gaming_day")]

    def __str__(self) -> str:
        return (
            f"CTR {self.gaming_day} {self.get_direction_display().lower()} {dollars(self.total_cents)} "
            f"(revision {self.revision})"
        )
