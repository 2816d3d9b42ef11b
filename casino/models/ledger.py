"""The double-entry ledger: every money movement is one balanced transaction.

Entries are signed cents (money into an account is positive). The database
refuses a transaction whose entries do not sum to zero (a deferred constraint
trigger checked at commit) and refuses any UPDATE or DELETE of ledger rows.
Balances are sums of entries; there is no stored balance to drift.
"""

from django.db import models
from django.db.models import Q

from casino.models.floor import Table
from kernel.formatting import dollars


class AccountKind(models.TextChoices):
    TRAY = "tray", "Table chip tray (bank)"
    WAGERS = "wagers", "Wagers in play"
    DROP = "drop", "Drop box"
    PATRONS = "patrons", "Patrons at the table"
    CAGE = "cage", "Cage"
    CAGE_CASH = "cage_cash", "Cage cash"
    POOL = "pool", "Prize pool"
    REVENUE = "revenue", "Contest revenue"


# The cage's accounts belong to the house, not to a table: its chips and its cash.
HOUSE_ACCOUNT_KINDS = (AccountKind.CAGE, AccountKind.CAGE_CASH)
# A contest's accounts (a tournament's pool and revenue) belong to their owner, named by a key
# such as `tournament:12`, so that the house keeps them apart without knowing what owns them.
OWNED_ACCOUNT_KINDS = (AccountKind.POOL, AccountKind.REVENUE)


class Account(models.Model):
    kind = models.CharField(max_length=16, choices=AccountKind.choices)
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.PROTECT, related_name="accounts")
    owner = models.CharField(
        max_length=40, blank=True, default="", db_default=""
    )  # an owned account's owner (OWNED_ACCOUNT_KINDS)

    class Meta:
        verbose_name = "ledger account"
        verbose_name_plural = "ledger accounts"
        constraints = [
            models.UniqueConstraint(fields=["kind", "table"], name="account_one_per_kind_and_table"),
            models.UniqueConstraint(
                fields=["kind"],
                condition=Q(table__isnull=True, owner=""),
                name="account_one_house_account_per_kind",
            ),
            models.UniqueConstraint(
                fields=["kind", "owner"], condition=~Q(owner=""), name="account_one_per_kind_and_owner"
            ),
            models.CheckConstraint(
                condition=Q(kind__in=HOUSE_ACCOUNT_KINDS, table__isnull=True, owner="")
                | Q(kind__in=OWNED_ACCOUNT_KINDS, table__isnull=True) & ~Q(owner="")
                | (
                    ~Q(kind__in=(*HOUSE_ACCOUNT_KINDS, *OWNED_ACCOUNT_KINDS))
                    & Q(table__isnull=False, owner="")
                ),
                name="account_cage_is_house_wide_owned_by_owner_others_per_table",
            ),
        ]

    def __str__(self) -> str:
        if self.owner:
            return f"{self.get_kind_display()} of {self.owner}"
        return f"{self.get_kind_display()} at {self.table}" if self.table_id else self.get_kind_display()


class MovementKind(models.TextChoices):
    WAGER = "wager", "Wager placed"
    PAYOUT = "payout", "Round settled"
    VOID = "void", "Round voided, wagers returned"
    BUY_IN = "buy_in", "Buy-in"
    FILL = "fill", "Fill"
    CREDIT = "credit", "Credit"
    OPENER = "opener", "Table opened with its inventory"
    REDEMPTION = "redemption", "Chips redeemed for cash at the cage"
    ENTRY = "entry", "Contest entry paid at the cage"
    ADDED_MONEY = "added_money", "Money the house adds to a prize pool"
    OVERLAY = "overlay", "Overlay: the house makes up a guaranteed prize pool"
    PRIZE = "prize", "Prize paid at the cage"
    REFUND = "refund", "Contest entry refunded at the cage"


# The movements at no table: the cage's own, and a contest's (whose accounts have an owner).
CAGE_MOVEMENT_KINDS = (
    MovementKind.REDEMPTION,
    MovementKind.ENTRY,
    MovementKind.ADDED_MONEY,
    MovementKind.OVERLAY,
    MovementKind.PRIZE,
    MovementKind.REFUND,
)


class LedgerTransaction(models.Model):
    kind = models.CharField(max_length=16, choices=MovementKind.choices)
    # No table for the cage's own movements (a chip redemption).
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.PROTECT, related_name="ledger_transactions"
    )
    round = models.ForeignKey(
        "blackjack.Round", null=True, blank=True, on_delete=models.PROTECT, related_name="ledger_transactions"
    )
    memo = models.CharField(max_length=200, blank=True)
    owner = models.CharField(
        max_length=40, blank=True, default="", db_default=""
    )  # the owner of the owned accounts it moves
    created_at = models.DateTimeField()
    gaming_day = models.DateField()
    shift = models.CharField(max_length=8)

    class Meta:
        # Shift reports and their regeneration read one table's shift at a time.
        indexes = [
            models.Index(fields=["gaming_day", "shift", "table"], name="ledger_txn_by_shift"),
            models.Index(fields=["owner"], condition=~Q(owner=""), name="ledger_txn_by_owner"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(table__isnull=False) | Q(kind__in=CAGE_MOVEMENT_KINDS),
                name="ledger_txn_at_a_table_except_cage",
            )
        ]

    def __str__(self) -> str:
        return f"Ledger transaction {self.pk}: {self.get_kind_display()} at {self.table or 'the cage'}"


class LedgerEntry(models.Model):
    transaction = models.ForeignKey(LedgerTransaction, on_delete=models.PROTECT, related_name="entries")
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="entries")
    amount_cents = models.BigIntegerField()

    class Meta:
        verbose_name_plural = "ledger entries"
        constraints = [models.CheckConstraint(condition=~Q(amount_cents=0), name="ledger_entry_not_zero")]

    def __str__(self) -> str:
        return f"{self.account} {dollars(self.amount_cents)}"
