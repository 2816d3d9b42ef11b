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


# The cage's accounts belong to the house, not to a table: its chips and its cash.
HOUSE_ACCOUNT_KINDS = (AccountKind.CAGE, AccountKind.CAGE_CASH)


class Account(models.Model):
    kind = models.CharField(max_length=16, choices=AccountKind.choices)
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.PROTECT, related_name="accounts")

    class Meta:
        verbose_name = "ledger account"
        verbose_name_plural = "ledger accounts"
        constraints = [
            models.UniqueConstraint(fields=["kind", "table"], name="account_one_per_kind_and_table"),
            models.UniqueConstraint(
                fields=["kind"], condition=Q(table__isnull=True), name="account_one_house_account_per_kind"
            ),
            models.CheckConstraint(
                condition=Q(kind__in=HOUSE_ACCOUNT_KINDS, table__isnull=True)
                | (~Q(kind__in=HOUSE_ACCOUNT_KINDS) & Q(table__isnull=False)),
                name="account_cage_is_house_wide_others_per_table",
            ),
        ]

    def __str__(self) -> str:
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
    created_at = models.DateTimeField()
    gaming_day = models.DateField()
    shift = models.CharField(max_length=8)

    class Meta:
        # Shift reports and their regeneration read one table's shift at a time.
        indexes = [models.Index(fields=["gaming_day", "shift", "table"], name="ledger_txn_by_shift")]
        constraints = [
            models.CheckConstraint(
                condition=Q(table__isnull=False) | Q(kind="redemption"),
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
