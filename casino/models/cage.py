"""The cage: chip redemptions (a patron's chips exchanged for cash), the cash-out side of Title 31.

A redemption is written once and never changed (a database trigger, casino migration 0013); its
ledger transaction moves the chips into the cage's chip bank and the cash out of the cage's cash
(`table_money.services.cage`).
"""

from django.conf import settings
from django.db import models
from django.db.models import Q

from casino.models.accounting import SHIFT_NAMES
from casino.models.ledger import LedgerTransaction
from casino.models.patrons import Patron
from kernel.formatting import dollars


class ChipRedemption(models.Model):
    # A patron on file, or for one who is not (yet) a description the cashier writes.
    patron = models.ForeignKey(
        Patron, null=True, blank=True, on_delete=models.PROTECT, related_name="redemptions"
    )
    description = models.CharField(max_length=150, blank=True)
    amount_cents = models.BigIntegerField()
    chips = models.JSONField(
        default=dict, blank=True
    )  # {denomination in cents: count}, or {} when not counted by kind
    cashier = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()
    gaming_day = models.DateField()
    shift = models.CharField(max_length=8)
    transaction = models.OneToOneField(LedgerTransaction, on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = "chip redemption"
        constraints = [
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="redemption_amount_positive"),
            models.CheckConstraint(condition=Q(shift__in=SHIFT_NAMES), name="redemption_shift_known"),
            models.CheckConstraint(
                condition=Q(patron__isnull=False) | ~Q(description=""),
                name="redemption_patron_or_description",
            ),
        ]

    def __str__(self) -> str:
        return f"Chip redemption {self.pk}: {dollars(self.amount_cents)}"
