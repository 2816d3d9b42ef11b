"""A table's shoes: the decks in play, and for an electronic shoe its committed order."""

from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import Q

from casino.models.floor import Table


class ShoeMode(models.TextChoices):
    REPORTED = "reported", "Reported (physical cards)"
    ELECTRONIC = "electronic", "Electronic (service shuffles and deals)"


class Shoe(models.Model):
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="shoes")
    mode = models.CharField(max_length=16, choices=ShoeMode.choices)
    decks = models.PositiveSmallIntegerField()
    # Cards drawn so far, in order; the remaining composition is the full shoe minus these.
    dealt = ArrayField(models.CharField(max_length=2), default=list, blank=True)
    # Electronic shoes: the shuffled order and salt stay secret until the shoe closes.
    order = ArrayField(models.CharField(max_length=2), null=True, blank=True)
    salt_hex = models.CharField(max_length=64, blank=True)
    commitment = models.CharField(max_length=64, blank=True)
    cut_card_reached = models.BooleanField(default=False)
    opened_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=Q(closed_at__isnull=True), name="shoe_one_open_per_table"
            ),
            models.CheckConstraint(condition=Q(decks__in=[6, 8]), name="shoe_decks_6_or_8"),
            models.CheckConstraint(
                condition=Q(mode="reported") | (Q(order__isnull=False) & ~Q(commitment="")),
                name="shoe_electronic_has_order_and_commitment",
            ),
        ]

    def __str__(self) -> str:
        return f"Shoe {self.pk} at {self.table} ({self.mode})"
