"""The blackjack round: its seats, wagers, the ordered card and action events, and its settlement.

The tables keep the names they had when these models lived in the casino app (`casino_round`, ...):
the models moved, no row did.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q

from casino.models import Dealer, Shoe, Table, Terminal
from casino.side_bets import WAGER_KIND_CHOICES
from kernel.formatting import dollars
from patrons.models import Patron


class RoundState(models.TextChoices):
    DEALING = "dealing"
    INSURANCE = "insurance"
    PLAYING = "playing"
    DEALER = "dealer"
    READY_TO_SETTLE = "ready_to_settle"
    SETTLED = "settled"
    VOID = "void"


OPEN_ROUND_STATES = [
    RoundState.DEALING,
    RoundState.INSURANCE,
    RoundState.PLAYING,
    RoundState.DEALER,
    RoundState.READY_TO_SETTLE,
]


class Round(models.Model):
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="rounds")
    shoe = models.ForeignKey(Shoe, on_delete=models.PROTECT, related_name="rounds")
    paytable = models.ForeignKey("bonus_tie.PaytableVersion", on_delete=models.PROTECT, related_name="rounds")
    # The house rules and aggregate limit in force when the round opened.
    rules = models.JSONField()
    # The seats as opened, the round's first event: [{"seat", "player", "primary_cents",
    # "bonus_cents": {kind: cents}}] in seat order. With the card and action events it
    # rebuilds the round (blackjack.selectors.round_state).
    opening = models.JSONField(default=list)
    aggregate_limit_cents = models.BigIntegerField(null=True, blank=True)
    seq = models.PositiveIntegerField(default=0)
    state = models.CharField(max_length=20, choices=RoundState.choices)
    terminal = models.ForeignKey(Terminal, on_delete=models.PROTECT, related_name="rounds")
    dealer = models.ForeignKey(Dealer, on_delete=models.PROTECT, related_name="rounds")
    opened_at = models.DateTimeField()
    settled_at = models.DateTimeField(null=True, blank=True)
    voided_at = models.DateTimeField(null=True, blank=True)
    void_reason = models.TextField(blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        db_table = "casino_round"
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=Q(state__in=OPEN_ROUND_STATES), name="round_one_open_per_table"
            ),
        ]

    def __str__(self) -> str:
        return f"Round {self.pk} at {self.table} ({self.state.replace('_', ' ')})"


class RoundSeat(models.Model):
    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    player = models.CharField(max_length=100, blank=True)
    patron = models.ForeignKey(Patron, null=True, blank=True, on_delete=models.PROTECT, related_name="seats")

    class Meta:
        db_table = "casino_roundseat"
        constraints = [
            models.UniqueConstraint(fields=["round", "seat"], name="round_seat_unique"),
            models.CheckConstraint(condition=Q(seat__gte=1, seat__lte=7), name="round_seat_1_to_7"),
        ]

    def __str__(self) -> str:
        return f"Round {self.round_id} seat {self.seat}{f' ({self.player})' if self.player else ''}"


class WagerSource(models.TextChoices):
    OPEN = "open", "Placed when the round opened"
    DOUBLE = "double", "Double down"
    SPLIT = "split", "Split"
    INSURANCE = "insurance", "Insurance"


class Wager(models.Model):
    """One stake put at risk: at the open, or later by a double, split or insurance."""

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="wagers")
    seat = models.PositiveSmallIntegerField()
    hand = models.PositiveSmallIntegerField(default=0)
    kind = models.CharField(max_length=16, choices=WAGER_KIND_CHOICES)
    source = models.CharField(max_length=16, choices=WagerSource.choices)
    amount_cents = models.BigIntegerField()
    placed_at = models.DateTimeField()

    class Meta:
        db_table = "casino_wager"
        constraints = [models.CheckConstraint(condition=Q(amount_cents__gt=0), name="wager_amount_positive")]

    def __str__(self) -> str:
        return (
            f"Round {self.round_id} seat {self.seat} hand {self.hand}: {self.get_kind_display()} "
            f"{dollars(self.amount_cents)} ({self.get_source_display().lower()})"
        )


class EventKind(models.TextChoices):
    CARD = "card"
    ACTION = "action"


# The columns of a round event that replay it (blackjack.selectors.round_state), in this order.
EVENT_COLUMNS = ("kind", "card", "seat", "hand", "action", "amount_cents")


class RoundEvent(models.Model):
    """Every card and action of a round, in order: the round's state is their replay."""

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="events")
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=8, choices=EventKind.choices)
    card = models.CharField(max_length=2, blank=True)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    hand = models.PositiveSmallIntegerField(null=True, blank=True)
    action = models.CharField(max_length=20, blank=True)
    amount_cents = models.BigIntegerField(null=True, blank=True)
    terminal = models.ForeignKey(Terminal, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    dealer = models.ForeignKey(Dealer, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()

    class Meta:
        db_table = "casino_roundevent"
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="round_event_number_unique"),
            models.CheckConstraint(
                condition=(Q(kind="card") & ~Q(card="")) | (Q(kind="action") & ~Q(action="")),
                name="round_event_card_or_action",
            ),
        ]

    def __str__(self) -> str:
        # A card event records the card only: where it went follows from the replay.
        if self.kind == EventKind.CARD:
            return f"Round {self.round_id} event {self.number}: card {self.card}"
        where = f"seat {self.seat} hand {self.hand or 0} " if self.seat is not None else ""
        amount = f" {dollars(self.amount_cents)}" if self.amount_cents is not None else ""
        return f"Round {self.round_id} event {self.number}: {where}{self.action}{amount}"


class Settlement(models.Model):
    round = models.OneToOneField(Round, on_delete=models.PROTECT, related_name="settlement")
    wagered_cents = models.BigIntegerField()
    paid_cents = models.BigIntegerField()
    house_net_cents = models.BigIntegerField()
    aggregate_limit_applied = models.BooleanField(default=False)
    aggregate_reduction_cents = models.BigIntegerField(default=0)
    settled_at = models.DateTimeField()

    class Meta:
        db_table = "casino_settlement"
        constraints = [
            models.CheckConstraint(
                condition=Q(house_net_cents=models.F("wagered_cents") - models.F("paid_cents")),
                name="settlement_house_net_is_wagered_minus_paid",
            ),
            models.CheckConstraint(
                condition=Q(wagered_cents__gte=0, paid_cents__gte=0, aggregate_reduction_cents__gte=0),
                name="settlement_amounts_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return f"Settlement of round {self.round_id}: paid {dollars(self.paid_cents)}"


class SettlementResult(models.TextChoices):
    WIN = "win"
    LOSE = "lose"
    PUSH = "push"
    SURRENDER = "surrender"


class SettlementLine(models.Model):
    settlement = models.ForeignKey(Settlement, on_delete=models.PROTECT, related_name="lines")
    seat = models.PositiveSmallIntegerField()
    hand = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=16, choices=WAGER_KIND_CHOICES)
    amount_cents = models.BigIntegerField()
    result = models.CharField(max_length=16, choices=SettlementResult.choices)
    win_cents = models.BigIntegerField()
    paid_cents = models.BigIntegerField()

    class Meta:
        db_table = "casino_settlementline"
        constraints = [
            models.UniqueConstraint(
                fields=["settlement", "seat", "hand", "kind"], name="settlement_line_unique"
            ),
            models.CheckConstraint(
                condition=Q(amount_cents__gt=0, win_cents__gte=0, paid_cents__gte=0),
                name="settlement_line_amounts",
            ),
        ]

    def __str__(self) -> str:
        return (
            f"Seat {self.seat} hand {self.hand} {self.get_kind_display()} {dollars(self.amount_cents)}: "
            f"{self.result}, paid {dollars(self.paid_cents)}"
        )
