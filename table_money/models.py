"""The table's money outside the rounds: buy-ins, fills and credits (chip slips), soft counts,
the cage's chip redemptions, and the Title 31 records (MTL entries, CTR worksheets).

The tables keep the names they had in the casino app (`casino_buyin`, ...): the models moved,
no row did. The write paths and their ledger entries are in `table_money.services`.

A fill or credit slip, once approved, follows its chain of custody (`SlipHandover`: the cage's
issue or receipt with the runner, the table's receipt with its dealer), and each printed copy is
recorded (`SlipPrint`: the first the original, the later ones reprints). Both are written once
and never changed (database triggers, table_money migration 0003).

The soft count: what the count team found in a table's drop box (`SoftCount`), counted blind by
two members (`SoftCountTally`).

A count is of one table and gaming day and shift (or of a gaming day, `shift` empty, when the
casino counts once a day: setting `CASINO_SOFT_COUNT_PER`). Each member enters a tally, currency by
denomination and markers as a total, without seeing the other's; a variance is resolved by a
recount, a new round of two tallies. Whether a count is complete and what its figure is:
`table_money.engine.count.count_result`. Nothing here is ever edited or deleted (database
triggers): a count entered for the wrong table's shift or with wrong figures is corrected by a new
count that supersedes it, possibly of another shift of the same table, with the reason.

The cage: chip redemptions (a patron's chips exchanged for cash), the cash-out side of Title 31.

A redemption is written once and never changed (a database trigger, casino migration 0013); its
ledger transaction moves the chips into the cage's chip bank and the cash out of the cage's cash
(`table_money.services.cage`).

Title 31 records (31 CFR 1021.311/313): the multiple transaction log and the CTR worksheets.

Both are stored rows written in the same transaction as the money they describe and never
changed afterwards (database triggers, casino migration 0013): what a regulator reads is what
was written when the cash moved.

- `CageCash`: cash a patron pays in or is paid out at the cage for anything but chips (a
  tournament's entry, prize or refund), written by its source's service through
  `table_money.services.title31.record_cage_cash`; named by the source's own reference, so this
  app knows nothing of the source.
- `MtlEntry`: one cash-in (a cash buy-in, cage cash in) or cash-out (a chip redemption, cage cash
  out) at or above the MTL threshold.
- `CtrWorksheet`: a patron's cash-in or cash-out of one gaming day (aggregated separately) once it
  totals more than the CTR threshold. A later transaction of the same patron, day and direction
  writes the next revision, recomputed from all the day's transactions; the highest revision is
  the one to file.
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from casino.models import SHIFT_NAMES, Dealer, LedgerTransaction, Table, Terminal
from kernel.formatting import dollars
from patrons.models import Patron, PatronIdentification


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
        db_table = "casino_buyin"
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
        db_table = "casino_slipcounter"
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
        db_table = "casino_chipslip"
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
        db_table = "casino_slipvoid"
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="slip_void_has_reason"),
            models.CheckConstraint(condition=Q(shift__in=SHIFT_NAMES), name="slip_void_shift_known"),
        ]

    def __str__(self) -> str:
        return f"Void of {self.slip}"


class HandoverStep(models.TextChoices):
    """A slip's custody after its approval: the cage issues a fill's chips and the table receives
    them; the cage receives a credit's chips from the table."""

    ISSUED_BY_CAGE = "issued_by_cage", "Issued by the cage"
    RECEIVED_AT_TABLE = "received_at_table", "Received at the table"
    RECEIVED_BY_CAGE = "received_by_cage", "Received by the cage"


# The steps of each kind of slip, in their order.
HANDOVER_STEPS: dict[str, tuple[HandoverStep, ...]] = {
    SlipKind.FILL: (HandoverStep.ISSUED_BY_CAGE, HandoverStep.RECEIVED_AT_TABLE),
    SlipKind.CREDIT: (HandoverStep.RECEIVED_BY_CAGE,),
}
# The steps at the cage name the runner, the security officer who carries the chips.
RUNNER_STEPS = frozenset({HandoverStep.ISSUED_BY_CAGE, HandoverStep.RECEIVED_BY_CAGE})


class SlipHandover(models.Model):
    """One signature of an approved slip's chain of custody, written once."""

    slip = models.ForeignKey(ChipSlip, on_delete=models.PROTECT, related_name="handovers")
    step = models.CharField(max_length=20, choices=HandoverStep.choices)
    # The cage cashier (at the cage) or the floor supervisor (at the table) who signs.
    signed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    signed_at = models.DateTimeField()
    # At the table: the dealer signed in at its terminal, who counts the chips into the tray.
    dealer = models.ForeignKey(Dealer, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    runner_name = models.CharField(max_length=100, blank=True)
    runner_badge = models.CharField(max_length=32, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["slip", "step"], name="slip_handover_once_per_step"),
            models.CheckConstraint(
                condition=Q(step__in=HandoverStep.values), name="slip_handover_step_known"
            ),
            models.CheckConstraint(
                condition=~Q(step__in=sorted(RUNNER_STEPS)) | (~Q(runner_name="") & ~Q(runner_badge="")),
                name="slip_handover_cage_names_the_runner",
            ),
            models.CheckConstraint(
                condition=~Q(step=HandoverStep.RECEIVED_AT_TABLE) | Q(dealer__isnull=False),
                name="slip_handover_table_names_the_dealer",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_step_display()}: {self.slip}"


class SlipPrint(models.Model):
    """One printed copy of a slip: copy 1 is the original, every later copy a reprint."""

    slip = models.ForeignKey(ChipSlip, on_delete=models.PROTECT, related_name="prints")
    copy = models.PositiveIntegerField()
    printed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    printed_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["slip", "copy"], name="slip_print_copy_unique"),
            models.CheckConstraint(condition=Q(copy__gte=1), name="slip_print_copy_from_1"),
        ]

    def __str__(self) -> str:
        return f"{self.slip}, copy {self.copy}"

    @property
    def is_reprint(self) -> bool:
        return self.copy > 1


WHOLE_DAY = ""


class SoftCount(models.Model):
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="soft_counts")
    gaming_day = models.DateField()
    # The shift counted, or WHOLE_DAY when the casino counts once per gaming day.
    shift = models.CharField(max_length=8, blank=True)
    # The count this one corrects (of the same table; of this period or, entered for the wrong
    # shift, of another): from then on the corrected count is kept but no longer counts.
    supersedes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="superseded_by"
    )
    correction_reason = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        db_table = "casino_softcount"
        constraints = [
            models.CheckConstraint(
                condition=Q(shift__in=[*SHIFT_NAMES, WHOLE_DAY]), name="soft_count_shift_known"
            ),
            models.CheckConstraint(
                condition=Q(supersedes__isnull=True, correction_reason="")
                | (Q(supersedes__isnull=False) & ~Q(correction_reason="")),
                name="soft_count_correction_has_a_reason",
            ),
        ]
        indexes = [models.Index(fields=["gaming_day", "shift"], name="soft_count_day_shift")]

    def __str__(self) -> str:
        return f"Soft count {self.pk} of {self.table}, {self.period_label}"

    @property
    def period_label(self) -> str:
        return f"{self.gaming_day} {self.shift} shift" if self.shift else f"{self.gaming_day} (whole day)"


class SoftCountTally(models.Model):
    """One member's blind count of a drop box: round 1 is the count, later rounds recounts; each
    round has a first and a second tally, by two different members."""

    count = models.ForeignKey(SoftCount, on_delete=models.PROTECT, related_name="tallies")
    round = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField()  # 1: the round's first tally, 2: its second
    member = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    # Bills by denomination: {"10000": 12} (cents as text -> count), denominations counted only.
    currency = models.JSONField()
    currency_cents = models.BigIntegerField()
    markers_cents = models.BigIntegerField()
    total_cents = models.BigIntegerField()
    counted_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(currency_cents__gte=0, markers_cents__gte=0),
                name="soft_count_tally_amounts_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(total_cents=F("currency_cents") + F("markers_cents")),
                name="soft_count_tally_total_is_currency_plus_markers",
            ),
            models.CheckConstraint(
                condition=Q(round__gte=1, place__in=[1, 2]), name="soft_count_tally_round_and_place"
            ),
            models.UniqueConstraint(
                fields=["count", "round", "place"], name="soft_count_tally_one_per_place"
            ),
            # The two-person rule: a member counts a box once per round.
            models.UniqueConstraint(
                fields=["count", "round", "member"], name="soft_count_tally_two_different_members"
            ),
        ]

    def __str__(self) -> str:
        return f"Tally {self.place} of round {self.round} of soft count {self.count_id}"


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
    # A cash-out that needed identification and was paid on a supervisor's signature instead.
    identification_override_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    identification_override_reason = models.TextField(blank=True)

    class Meta:
        db_table = "casino_chipredemption"
        verbose_name = "chip redemption"
        constraints = [
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="redemption_amount_positive"),
            models.CheckConstraint(condition=Q(shift__in=SHIFT_NAMES), name="redemption_shift_known"),
            models.CheckConstraint(
                condition=Q(patron__isnull=False) | ~Q(description=""),
                name="redemption_patron_or_description",
            ),
            models.CheckConstraint(
                condition=Q(identification_override_by__isnull=True, identification_override_reason="")
                | (Q(identification_override_by__isnull=False) & ~Q(identification_override_reason="")),
                name="redemption_override_signed_with_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"Chip redemption {self.pk}: {dollars(self.amount_cents)}"


class CashDirection(models.TextChoices):
    CASH_IN = "cash_in", "Cash in"
    CASH_OUT = "cash_out", "Cash out"


class CageCash(models.Model):
    """A patron's cash in or out at the cage for something else than chips, e.g. "Tournament 3
    entry 5"; its ledger transaction is the source's (`reference` names the source's record)."""

    patron = models.ForeignKey(Patron, on_delete=models.PROTECT, related_name="cage_cash")
    direction = models.CharField(max_length=8, choices=CashDirection.choices)
    amount_cents = models.BigIntegerField()
    description = models.CharField(max_length=150)
    reference = models.CharField(max_length=80, unique=True)  # e.g. "tournament:3:entry:5"
    cashier = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()
    gaming_day = models.DateField()
    shift = models.CharField(max_length=8)
    transaction = models.OneToOneField(LedgerTransaction, on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = "cage cash transaction"
        constraints = [
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="cage_cash_amount_positive"),
            models.CheckConstraint(condition=Q(shift__in=SHIFT_NAMES), name="cage_cash_shift_known"),
            models.CheckConstraint(
                condition=Q(direction__in=CashDirection.values), name="cage_cash_direction_known"
            ),
            models.CheckConstraint(condition=~Q(description=""), name="cage_cash_described"),
        ]
        indexes = [models.Index(fields=["patron", "gaming_day"], name="cage_cash_by_patron_day")]

    def __str__(self) -> str:
        return f"Cage cash {self.get_direction_display().lower()} {dollars(self.amount_cents)}: {self.description}"


class MtlEntry(models.Model):
    direction = models.CharField(max_length=8, choices=CashDirection.choices)
    amount_cents = models.BigIntegerField()
    patron = models.ForeignKey(
        Patron, null=True, blank=True, on_delete=models.PROTECT, related_name="mtl_entries"
    )
    # Who took part as they were known when the cash moved (the patron's name or description
    # then); rows written before this was kept for patrons on file leave it empty.
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
    cage_cash = models.OneToOneField(
        CageCash, null=True, blank=True, on_delete=models.PROTECT, related_name="mtl_entry"
    )

    class Meta:
        db_table = "casino_mtlentry"
        verbose_name = "MTL entry"
        verbose_name_plural = "MTL entries"
        constraints = [
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="mtl_amount_positive"),
            models.CheckConstraint(
                condition=Q(
                    direction="cash_in",
                    buy_in__isnull=False,
                    redemption__isnull=True,
                    cage_cash__isnull=True,
                    dealer__isnull=False,
                )
                | Q(
                    direction="cash_out",
                    buy_in__isnull=True,
                    redemption__isnull=False,
                    cage_cash__isnull=True,
                    cashier__isnull=False,
                )
                | Q(
                    buy_in__isnull=True,
                    redemption__isnull=True,
                    cage_cash__isnull=False,
                    cashier__isnull=False,
                ),
                name="mtl_source_matches_direction",
            ),
        ]
        indexes = [models.Index(fields=["gaming_day"], name="mtl_by_gaming_day")]

    def __str__(self) -> str:
        return f"MTL {self.get_direction_display().lower()} {dollars(self.amount_cents)} at {self.location}"

    @property
    def where(self) -> str:
        """The location, and for other cash at the cage what it was for ("Cage: Tournament 3
        entry 5")."""
        cage_cash = self.cage_cash if self.cage_cash_id is not None else None
        return f"{self.location}: {cage_cash.description}" if cage_cash is not None else self.location


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
    # [{"source": "buy_in" | "redemption" | "cage", "id", "amount_cents", "at", "location",
    #   "employee"}] (a cage transaction also its "description").
    transactions = models.JSONField()
    # Whether the patron was identified when this revision was written; unidentified: flagged.
    identified = models.BooleanField()
    created_at = models.DateTimeField()

    class Meta:
        db_table = "casino_ctrworksheet"
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


class CtrFiling(models.Model):
    """The filing of a CTR worksheet's revision with FinCEN: written once, never changed."""

    worksheet = models.OneToOneField(CtrWorksheet, on_delete=models.PROTECT, related_name="filing")
    # The identification revision the report gave for the person.
    identification = models.ForeignKey(PatronIdentification, on_delete=models.PROTECT, related_name="+")
    filed_on = models.DateField()
    bsa_id = models.CharField(max_length=14, unique=True)
    filed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        verbose_name = "CTR filing"
        constraints = [
            models.CheckConstraint(
                condition=Q(bsa_id__regex=r"^[0-9]{14}$"), name="ctr_filing_bsa_id_14_digits"
            ),
        ]

    def __str__(self) -> str:
        return f"CTR filing {self.bsa_id}"


class SarOutcome(models.TextChoices):
    SAR_FILED = "sar_filed", "SAR filed"
    NO_SAR = "no_sar", "No SAR"


class SarReferral(models.Model):
    """A staff member's referral of a patron or a transaction as suspicious (31 CFR 1021.320),
    for compliance to decide on. Confidential: only compliance reads the queue; the referrer gets a
    confirmation of their own referral and nothing more."""

    patron = models.ForeignKey(Patron, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    description = models.CharField(max_length=150, blank=True)  # someone not on file
    gaming_day = models.DateField()
    amount_cents = models.BigIntegerField(null=True, blank=True)
    narrative = models.TextField(max_length=4000)
    referred_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    referred_by_role = models.CharField(max_length=32)
    referred_at = models.DateTimeField()

    class Meta:
        verbose_name = "SAR referral"
        constraints = [
            models.CheckConstraint(
                condition=Q(patron__isnull=False) | ~Q(description=""), name="sar_referral_names_someone"
            ),
            models.CheckConstraint(condition=~Q(narrative=""), name="sar_referral_has_narrative"),
            models.CheckConstraint(
                condition=Q(amount_cents__isnull=True) | Q(amount_cents__gt=0),
                name="sar_referral_amount_positive",
            ),
        ]

    def __str__(self) -> str:
        return f"SAR referral {self.pk}"


class SarDecision(models.Model):
    """Compliance's decision on a referral: a SAR filed (its BSA ID), or no SAR (why). Once."""

    referral = models.OneToOneField(SarReferral, on_delete=models.PROTECT, related_name="decision")
    outcome = models.CharField(max_length=12, choices=SarOutcome.choices)
    bsa_id = models.CharField(max_length=14, blank=True)
    filed_on = models.DateField(null=True, blank=True)
    reason = models.TextField(max_length=4000, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    decided_at = models.DateTimeField()

    class Meta:
        verbose_name = "SAR decision"
        constraints = [
            models.CheckConstraint(
                condition=Q(outcome="sar_filed", bsa_id__regex=r"^[0-9]{14}$", filed_on__isnull=False)
                | Q(outcome="no_sar", bsa_id="", filed_on__isnull=True) & ~Q(reason=""),
                name="sar_decision_filed_or_reasoned",
            ),
            models.UniqueConstraint(
                fields=["bsa_id"], condition=~Q(bsa_id=""), name="sar_decision_bsa_id_once"
            ),
        ]

    def __str__(self) -> str:
        return f"SAR decision on referral {self.referral_id}: {self.outcome}"
