"""A tournament's rows (RULES.md §4, API.md "Tournaments"): the tournament and its settings, its
posted rules, its heats, its entries and their games, the results, the prizes and a cancellation.

Money is never stored as a balance: each entry, the added money, the overlay, each prize and each
refund is one balanced ledger transaction (`casino.ledger`) on the tournament's own pool and
revenue accounts, whose owner is `owner_key(tournament_id)`; the rows here point at them.
"""

from django.conf import settings as django_settings
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import F, Q

from casino.models import LedgerTransaction
from patrons.models import Patron
from skill_games.models import DECK_SIZE, Game


def owner_key(tournament_id: int) -> str:
    """The ledger's owner key of a tournament's pool and revenue accounts."""
    return f"tournament:{tournament_id}"


class TournamentState(models.TextChoices):
    DRAFT = "draft", "Draft"
    REGISTERING = "registering", "Registering"
    RUNNING = "running", "Running"
    PLAYING_DONE = "playing_done", "Playing done"
    RESULTS_APPROVED = "results_approved", "Results approved"
    PAID = "paid", "Paid"
    CANCELLED = "cancelled", "Cancelled"


class PaidWith(models.TextChoices):
    CASH = "cash", "Cash"
    CHIPS = "chips", "Chips"


class Tournament(models.Model):
    name = models.CharField(max_length=100)
    game = models.CharField(max_length=16)  # the registered skill game
    settings = models.JSONField()  # `TournamentSettings.to_json()`, frozen once an entry is taken
    state = models.CharField(max_length=20, choices=TournamentState.choices, default=TournamentState.DRAFT)
    filing_reference = models.CharField(max_length=100, blank=True)
    filed_on = models.DateField(null=True, blank=True)
    entries_taken = models.PositiveIntegerField(default=0)
    registration_closed_at = models.DateTimeField(null=True, blank=True)
    overlay_cents = models.BigIntegerField(default=0)
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField()
    # The big-screen board's key (`kernel.keys`, shown once to the director; a new one replaces
    # it): read-only, this tournament's standings only. Blank until the director asks for one.
    display_key_prefix = models.CharField(max_length=12, blank=True, default="")
    display_key_hash = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(state__in=TournamentState.values), name="tournament_state_known"
            ),
            models.UniqueConstraint(
                fields=["display_key_prefix"],
                condition=~Q(display_key_prefix=""),
                name="tournament_display_key_prefix_once",
            ),
            models.CheckConstraint(
                condition=Q(state=TournamentState.DRAFT)
                | Q(state=TournamentState.CANCELLED)
                | (~Q(filing_reference="") & Q(filed_on__isnull=False)),
                name="tournament_filed_before_registering",
            ),
            models.CheckConstraint(condition=Q(overlay_cents__gte=0), name="tournament_overlay_not_negative"),
        ]

    def __str__(self) -> str:
        return f"tournament {self.pk} {self.name}"


class PostedRules(models.Model):
    """One version of the rules shown to patrons, with its SHA-256 (also in the audit event)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="rules")
    version = models.PositiveSmallIntegerField()
    text = models.TextField()
    sha256 = models.CharField(max_length=64)
    created_at = models.DateTimeField()

    class Meta:
        verbose_name_plural = "posted rules"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "version"], name="posted_rules_version_once"),
        ]

    def __str__(self) -> str:
        return f"rules v{self.version} of tournament {self.tournament_id}"


class Heat(models.Model):
    """A heat: when it starts and its start window closes; a duplicate heat's one deck order, its
    salt and commitment (the order and salt secret until the heat closes)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="heats")
    number = models.PositiveSmallIntegerField()
    starts_at = models.DateTimeField()
    window_closes_at = models.DateTimeField()
    deck = ArrayField(models.CharField(max_length=2), size=DECK_SIZE, null=True, blank=True)
    salt = models.CharField(max_length=64, blank=True)
    commitment = models.CharField(max_length=64, blank=True)
    opened_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="heat_once_per_tournament"),
            models.CheckConstraint(
                condition=Q(window_closes_at__gt=F("starts_at")), name="heat_window_after_start"
            ),
            models.CheckConstraint(
                condition=Q(deck__isnull=True, salt="", commitment="")
                | Q(deck__isnull=False) & ~Q(salt="") & ~Q(commitment=""),
                name="heat_deck_salt_commitment_together",
            ),
        ]

    def __str__(self) -> str:
        return f"heat {self.number} of tournament {self.tournament_id}"


class Entry(models.Model):
    """One entry of a patron (re-entries are new entries, `reentry` counting from 0), with the
    version of the rules the patron was shown and its token (stored hashed, shown once)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="entries")
    number = models.PositiveIntegerField()
    patron = models.ForeignKey(Patron, on_delete=models.PROTECT, related_name="tournament_entries")
    reentry = models.PositiveSmallIntegerField()
    rules = models.ForeignKey(PostedRules, on_delete=models.PROTECT, related_name="+")
    nickname = models.CharField(max_length=20, blank=True)
    paid_with = models.CharField(max_length=8, choices=PaidWith.choices)
    buy_in_cents = models.BigIntegerField()
    fee_cents = models.BigIntegerField()
    key_prefix = models.CharField(max_length=12, unique=True)
    key_hash = models.CharField(max_length=64)
    # The entry's payment; none for a free entry (no buy-in, no fee).
    transaction = models.OneToOneField(
        LedgerTransaction, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    refund = models.OneToOneField(
        LedgerTransaction, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    cashier = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()

    class Meta:
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="entry_number_once"),
            models.UniqueConstraint(fields=["tournament", "patron", "reentry"], name="entry_reentry_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="entry_numbered_from_1"),
            models.CheckConstraint(
                condition=Q(buy_in_cents__gte=0, fee_cents__gte=0), name="entry_money_not_negative"
            ),
            models.CheckConstraint(condition=Q(paid_with__in=PaidWith.values), name="entry_paid_with_known"),
        ]

    def __str__(self) -> str:
        return f"entry {self.number} of tournament {self.tournament_id}"


class EntryGame(models.Model):
    """The game an entry plays in a heat, at its seat."""

    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="games")
    heat = models.ForeignKey(Heat, on_delete=models.PROTECT, related_name="entry_games")
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="+")
    seat = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["entry", "heat"], name="entry_game_once_per_heat"),
            models.UniqueConstraint(fields=["game", "seat"], name="entry_game_one_entry_per_seat"),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} of entry {self.entry_id} in heat {self.heat_id}"


class Results(models.Model):
    """The standings and prizes, frozen when proposed; approved by someone else."""

    tournament = models.OneToOneField(Tournament, on_delete=models.PROTECT, related_name="results")
    standings = models.JSONField()  # [{"place", "entry", "score", "prize_cents"}], best first
    pool_cents = models.BigIntegerField()
    proposed_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    proposed_at = models.DateTimeField()
    approved_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    approved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "results"
        constraints = [
            models.CheckConstraint(
                condition=Q(approved_by__isnull=True, approved_at__isnull=True)
                | Q(approved_by__isnull=False, approved_at__isnull=False) & ~Q(approved_by=F("proposed_by")),
                name="results_approved_by_another",
            ),
            models.CheckConstraint(condition=Q(pool_cents__gte=0), name="results_pool_not_negative"),
        ]

    def __str__(self) -> str:
        return f"results of tournament {self.tournament_id}"


class Prize(models.Model):
    """An entry's prize; paid once, at the cage (its ledger transaction)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="prizes")
    entry = models.OneToOneField(Entry, on_delete=models.PROTECT, related_name="prize")
    place = models.PositiveIntegerField()
    amount_cents = models.BigIntegerField()
    paid_with = models.CharField(max_length=8, choices=PaidWith.choices, blank=True)
    paid_at = models.DateTimeField(null=True, blank=True)
    paid_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    transaction = models.OneToOneField(
        LedgerTransaction, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="prize_positive"),
            models.CheckConstraint(
                condition=Q(
                    paid_at__isnull=True, paid_by__isnull=True, transaction__isnull=True, paid_with=""
                )
                | Q(paid_at__isnull=False, paid_by__isnull=False, transaction__isnull=False)
                & Q(paid_with__in=PaidWith.values),
                name="prize_paid_with_its_transaction",
            ),
        ]

    def __str__(self) -> str:
        return f"prize of entry {self.entry_id}"


class Cancellation(models.Model):
    """A director's request to cancel, and a second person's approval (then every entry refunded)."""

    tournament = models.OneToOneField(Tournament, on_delete=models.PROTECT, related_name="cancellation")
    reason = models.CharField(max_length=500)
    requested_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    requested_at = models.DateTimeField()
    approved_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    approved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(approved_by__isnull=True, approved_at__isnull=True)
                | Q(approved_by__isnull=False, approved_at__isnull=False) & ~Q(approved_by=F("requested_by")),
                name="cancellation_approved_by_another",
            ),
            models.CheckConstraint(condition=~Q(reason=""), name="cancellation_has_reason"),
        ]

    def __str__(self) -> str:
        return f"cancellation of tournament {self.tournament_id}"
