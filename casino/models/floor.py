"""The casino floor: casinos, pits, tables and their limits, dealers, terminals and staff.

Models are storage plus constraints (STYLE.md §4): the rules live in `casino.engine`,
the write paths in `casino.services`. What must never happen is refused by the
database itself: a constraint or a trigger (see the migrations) for each.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q

from casino.side_bets import WAGER_KIND_CHOICES
from kernel.formatting import dollars


class GameKind(models.TextChoices):
    TIE_BONUS = "tie_bonus_blackjack", "Tie-bonus blackjack"
    SPECIAL_POINTS = "special_points", "Special-card points"


class Casino(models.Model):
    name = models.CharField(max_length=100, unique=True)

    def __str__(self) -> str:
        return self.name


class Pit(models.Model):
    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="pits")
    name = models.CharField(max_length=100)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["casino", "name"], name="pit_name_unique_in_casino")]

    def __str__(self) -> str:
        return f"{self.casino} / {self.name}"


class Table(models.Model):
    pit = models.ForeignKey(Pit, on_delete=models.PROTECT, related_name="tables")
    name = models.CharField(max_length=50, unique=True)
    game = models.CharField(max_length=32, choices=GameKind.choices, default=GameKind.TIE_BONUS)
    decks = models.PositiveSmallIntegerField(default=6)
    # House rules (RULES.md §1.2), defaults as decided there.
    dealer_hits_soft_17 = models.BooleanField(default=False)
    blackjack_pays_num = models.PositiveSmallIntegerField(default=3)
    blackjack_pays_den = models.PositiveSmallIntegerField(default=2)
    double_after_split = models.BooleanField(default=True)
    max_hands = models.PositiveSmallIntegerField(default=4)
    split_by_value = models.BooleanField(default=True)
    surrender = models.BooleanField(default=False)
    insurance = models.BooleanField(default=True)
    penetration_percent = models.PositiveSmallIntegerField(default=75)
    aggregate_limit_cents = models.BigIntegerField(null=True, blank=True)
    is_active = models.BooleanField(default=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(decks__in=[6, 8]), name="table_decks_6_or_8"),
            models.CheckConstraint(
                condition=Q(blackjack_pays_num=3, blackjack_pays_den=2)
                | Q(blackjack_pays_num=6, blackjack_pays_den=5),
                name="table_blackjack_pays_3_2_or_6_5",
            ),
            models.CheckConstraint(
                condition=Q(max_hands__gte=1, max_hands__lte=4), name="table_max_hands_1_to_4"
            ),
            models.CheckConstraint(
                condition=Q(penetration_percent__gte=10, penetration_percent__lte=95),
                name="table_penetration_10_to_95",
            ),
            models.CheckConstraint(
                condition=Q(aggregate_limit_cents__isnull=True) | Q(aggregate_limit_cents__gt=0),
                name="table_aggregate_limit_positive",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class TableLimit(models.Model):
    """Minimum and maximum stake of one wager kind at one table."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="limits")
    kind = models.CharField(max_length=16, choices=WAGER_KIND_CHOICES)
    min_cents = models.BigIntegerField()
    max_cents = models.BigIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "kind"], name="table_limit_one_per_kind"),
            models.CheckConstraint(
                condition=Q(min_cents__gt=0) & Q(max_cents__gte=models.F("min_cents")),
                name="table_limit_min_positive_max_not_below_min",
            ),
        ]

    def __str__(self) -> str:
        return (
            f"{self.table} {self.get_kind_display()} {dollars(self.min_cents)} to {dollars(self.max_cents)}"
        )


class Dealer(models.Model):
    """A dealer signs in at a terminal with badge and PIN. Wrong PINs are counted in a window
    (`casino.services.terminals`); too many lock the dealer until a supervisor unlocks them."""

    badge = models.CharField(max_length=32, unique=True)
    name = models.CharField(max_length=100)
    pin_hash = models.CharField(max_length=256)
    is_active = models.BooleanField(default=True)
    sign_in_failures = models.PositiveSmallIntegerField(default=0)
    sign_in_failures_since = models.DateTimeField(null=True, blank=True)
    locked_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.badge} {self.name}"


class Terminal(models.Model):
    """The dealer terminal of one table. Its API key is stored only as a SHA-256 hash.

    The dealer's session: who signed in, when, and when the terminal last changed something
    (`dealer_seen_at`, for the idle timeout). A dealer is signed in at one terminal at a time;
    deactivating the dealer, the terminal or the table, or changing the dealer's PIN, ends the
    session in the same transaction (database triggers, casino migration 0008).
    """

    table = models.OneToOneField(Table, on_delete=models.PROTECT, related_name="terminal")
    name = models.CharField(max_length=50, unique=True)
    key_prefix = models.CharField(max_length=12, unique=True)
    key_hash = models.CharField(max_length=64)
    is_active = models.BooleanField(default=True)
    dealer = models.ForeignKey(Dealer, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    dealer_signed_in_at = models.DateTimeField(null=True, blank=True)
    dealer_seen_at = models.DateTimeField(null=True, blank=True)
    sign_in_failures = models.PositiveSmallIntegerField(default=0)
    sign_in_failures_since = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["dealer"], condition=Q(dealer__isnull=False), name="terminal_one_per_dealer"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class StaffRole(models.TextChoices):
    FLOOR_SUPERVISOR = "floor_supervisor", "Floor supervisor"
    PIT_BOSS = "pit_boss", "Pit boss"
    COMPLIANCE = "compliance", "Compliance"
    CAGE_CASHIER = "cage_cashier", "Cage cashier"
    COUNT_TEAM = "count_team", "Count team"
    ADMIN = "admin", "Admin"
    TOURNAMENT_DIRECTOR = "tournament_director", "Tournament director"


class StaffProfile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="staff")
    role = models.CharField(max_length=32, choices=StaffRole.choices)
    # The pits a floor supervisor or pit boss runs; the floor console shows them these pits' tables.
    pits = models.ManyToManyField(Pit, blank=True, related_name="staff")

    class Meta:
        verbose_name = "staff member"
        verbose_name_plural = "staff members"

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()})"


class StaffToken(models.Model):
    """A staff member's API key, stored only as a SHA-256 hash."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    key_prefix = models.CharField(max_length=12, unique=True)
    key_hash = models.CharField(max_length=64)
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "staff API key"
        verbose_name_plural = "staff API keys"

    def __str__(self) -> str:
        return f"API key {self.key_prefix}… of {self.user}"
