"""Patrons: the people who buy in, play and cash out, as the casino knows them.

A patron may be anonymous (a number and a description such as "man in the red cap") until the
Title 31 thresholds make identification mandatory (`table_money.services.title31`). The number is
issued by the casino when the record is created and is what the terminals and the cage quote.

The table keeps the name it had in the casino app (`casino_patron`): the model moved, no
row did.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q

# Patron numbers come from this PostgreSQL sequence (casino migration 0012), starting at 100001
# so a patron number never looks like a seat, a table or a slip number.
PATRON_NUMBER_SEQUENCE = "casino_patron_number_seq"


class IdentificationType(models.TextChoices):
    DRIVERS_LICENSE = "drivers_license", "Driver's licence"
    PASSPORT = "passport", "Passport"
    STATE_ID = "state_id", "State identification card"
    MILITARY_ID = "military_id", "Military identification"
    OTHER_GOVERNMENT_ID = "other_government_id", "Other government-issued identification"


class Patron(models.Model):
    number = models.PositiveIntegerField(unique=True)
    name = models.CharField(max_length=150)
    identification_type = models.CharField(max_length=24, choices=IdentificationType.choices, blank=True)
    identification_reference = models.CharField(max_length=100, blank=True)
    created_at = models.DateTimeField()
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    # Self-excluded or barred: refused a tournament entry (RULES.md §4) until compliance reinstates.
    excluded = models.BooleanField(default=False, db_default=False)
    exclusion_reason = models.CharField(max_length=500, blank=True, db_default="")

    class Meta:
        db_table = "casino_patron"
        constraints = [
            models.CheckConstraint(condition=~Q(name=""), name="patron_has_name"),
            models.CheckConstraint(
                condition=Q(excluded=False, exclusion_reason="") | Q(excluded=True) & ~Q(exclusion_reason=""),
                name="patron_exclusion_has_reason",
            ),
            models.CheckConstraint(
                condition=Q(identification_type="", identification_reference="")
                | (~Q(identification_type="") & ~Q(identification_reference="")),
                name="patron_identification_type_and_reference_together",
            ),
        ]

    def __str__(self) -> str:
        return f"Patron {self.number} {self.name}"

    @property
    def is_identified(self) -> bool:
        return bool(self.identification_type and self.identification_reference)
