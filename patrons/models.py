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


class TinType(models.TextChoices):
    SSN_ITIN = "ssn_itin", "SSN or ITIN"
    FOREIGN = "foreign", "Foreign TIN"


class Patron(models.Model):
    # The name, or the description of someone not identified yet, the patron was put on file under;
    # an identification sets it to the name on the document.
    number = models.PositiveIntegerField(unique=True)
    name = models.CharField(max_length=150)
    # The latest of the patron's identification revisions (None: not identified).
    current_identification = models.OneToOneField(
        "PatronIdentification", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
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
        ]

    def __str__(self) -> str:
        return f"Patron {self.number} {self.name}"

    @property
    def is_identified(self) -> bool:
        return self.current_identification_id is not None


class PatronIdentification(models.Model):
    """One identification of a patron, or a correction of it: a revision, never changed; the
    highest revision is the patron's identification (FinCEN Form 112, Part I)."""

    patron = models.ForeignKey(Patron, on_delete=models.PROTECT, related_name="identifications")
    revision = models.PositiveSmallIntegerField()
    last_name = models.CharField(max_length=150)
    first_name = models.CharField(max_length=35, blank=True)
    middle_name = models.CharField(max_length=35, blank=True)
    street = models.CharField(max_length=100, blank=True)
    city = models.CharField(max_length=50, blank=True)
    state = models.CharField(max_length=2, blank=True)
    zip_code = models.CharField(max_length=9, blank=True)
    country = models.CharField(max_length=2, blank=True)
    date_of_birth = models.DateField(null=True, blank=True)
    tin = models.CharField(max_length=25, blank=True)
    tin_type = models.CharField(max_length=8, choices=TinType.choices, blank=True)
    occupation = models.CharField(max_length=50, blank=True)
    id_type = models.CharField(max_length=24, choices=IdentificationType.choices)
    id_number = models.CharField(max_length=25)
    id_issuer_state = models.CharField(max_length=2, blank=True)
    id_issuer_country = models.CharField(max_length=2, blank=True)
    id_expires_on = models.DateField(null=True, blank=True)
    recorded_at = models.DateTimeField()
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["patron", "revision"], name="patron_identification_one_per_revision"
            ),
            models.CheckConstraint(
                condition=Q(revision__gte=1), name="patron_identification_revision_from_1"
            ),
            models.CheckConstraint(
                condition=~Q(last_name="") & ~Q(id_number=""), name="patron_identification_names_a_document"
            ),
        ]

    def __str__(self) -> str:
        return f"Identification {self.revision} of patron {self.patron_id}"
