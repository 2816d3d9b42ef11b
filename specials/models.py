"""The special-card points game (RULES.md §2): matches, their players, rounds, the ordered
events of each round and the points ledger.

Models are storage plus constraints (STYLE.md §4): the rules live in `specials.engine`, the
write paths in `specials.services`. A round's state is the replay of its events, as a
blackjack round's is. The points ledger is append-only and each entry's balance is the
seat's previous balance plus its delta, both enforced by the database (migration 0002).
"""

from django.db import models
from django.db.models import F, Q

from casino.models import Dealer, Shoe, Table, Terminal


class SpecialCard(models.TextChoices):
    SWAP = "SWAP", "Swap a card (Cambio de Carta)"
    PLUS_ONE = "PLUS_ONE", "Plus one (Sumador)"


class MatchState(models.TextChoices):
    PLAYING = "playing"
    FINISHED = "finished"


class Match(models.Model):
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="special_matches")
    state = models.CharField(max_length=16, choices=MatchState.choices, default=MatchState.PLAYING)
    start_points = models.IntegerField()
    win_points = models.IntegerField()
    lose_points = models.IntegerField()
    rounds_played = models.PositiveIntegerField(default=0)
    terminal = models.ForeignKey(Terminal, on_delete=models.PROTECT, related_name="+")
    dealer = models.ForeignKey(Dealer, on_delete=models.PROTECT, related_name="+")
    opened_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "matches"
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=Q(state="playing"), name="specials_one_unfinished_match_per_table"
            ),
            models.CheckConstraint(
                condition=Q(lose_points__lt=F("start_points"), start_points__lt=F("win_points")),
                name="specials_match_thresholds_ordered",
            ),
            models.CheckConstraint(
                condition=Q(state="playing", finished_at__isnull=True)
                | Q(state="finished", finished_at__isnull=False),
                name="specials_match_finished_at_iff_finished",
            ),
        ]

    def __str__(self) -> str:
        return f"Match {self.pk} at {self.table} ({self.state})"


class MatchPlayer(models.Model):
    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="players")
    seat = models.PositiveSmallIntegerField()
    player = models.CharField(max_length=100, blank=True)
    special = models.CharField(max_length=8, choices=SpecialCard.choices)
    # True when the terminal named the card dealt from a physical special deck.
    special_reported = models.BooleanField(default=False)
    # The round in which the special card was used: once per match, never undone.
    special_used_in = models.ForeignKey(
        "SpecialsRound", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="specials_player_seat_unique"),
            models.CheckConstraint(condition=Q(seat__gte=1, seat__lte=7), name="specials_player_seat_1_to_7"),
        ]

    def __str__(self) -> str:
        return f"seat {self.seat}{f' ({self.player})' if self.player else ''}: {self.special}"


class RoundState(models.TextChoices):
    DEALING = "dealing"
    PLAYING = "playing"
    DEALER = "dealer"
    FINISHED = "finished"


class SpecialsRound(models.Model):
    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="rounds")
    number = models.PositiveIntegerField()
    shoe = models.ForeignKey(Shoe, on_delete=models.PROTECT, related_name="special_rounds")
    seq = models.PositiveIntegerField(default=0)
    state = models.CharField(max_length=16, choices=RoundState.choices, default=RoundState.DEALING)
    # The seats as the round opened: [{"seat", "special", "special_used"}] in seat order. With the
    # events it rebuilds the round (specials.selectors.round_state), whatever the match did later.
    opening = models.JSONField(default=list)
    # The table's cut card (percent of the shoe) as the round opened: a rule change approved while
    # the round is dealt takes effect from the next round (null on rounds opened before it was kept).
    penetration_percent = models.PositiveSmallIntegerField(null=True, blank=True)
    # When finished: [{"seat", "result", "delta", "points"}] in seat order, as the API shows it.
    outcome = models.JSONField(null=True, blank=True)
    terminal = models.ForeignKey(Terminal, on_delete=models.PROTECT, related_name="+")
    dealer = models.ForeignKey(Dealer, on_delete=models.PROTECT, related_name="+")
    opened_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="specials_round_number_unique"),
            models.UniqueConstraint(
                fields=["match"], condition=~Q(state="finished"), name="specials_one_open_round_per_match"
            ),
        ]

    def __str__(self) -> str:
        return f"Round {self.number} of match {self.match_id} ({self.state})"


class EventKind(models.TextChoices):
    CARD = "card"
    DECLARE_ACE = "declare_ace"
    ACTION = "action"


class SpecialsRoundEvent(models.Model):
    """Every card, Ace declaration and action of a round, in order: the round's state is
    their replay. `seat` is null for a card to the dealer."""

    round = models.ForeignKey(SpecialsRound, on_delete=models.PROTECT, related_name="events")
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=12, choices=EventKind.choices)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    card = models.CharField(max_length=2, blank=True)
    value = models.PositiveSmallIntegerField(null=True, blank=True)
    action = models.CharField(max_length=12, blank=True)
    discard = models.CharField(max_length=2, blank=True)
    terminal = models.ForeignKey(Terminal, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    dealer = models.ForeignKey(Dealer, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="specials_event_number_unique"),
            models.CheckConstraint(
                condition=(Q(kind="card") & ~Q(card=""))
                | (Q(kind="declare_ace", seat__isnull=False, value__in=[1, 11]))
                | (Q(kind="action", seat__isnull=False) & ~Q(action="")),
                name="specials_event_shape",
            ),
        ]

    def __str__(self) -> str:
        who = "dealer" if self.seat is None else f"seat {self.seat}"
        if self.kind == EventKind.CARD:
            return f"{self.number}. {self.card} to {who}"
        if self.kind == EventKind.DECLARE_ACE:
            return f"{self.number}. {who} declares the Ace {self.value}"
        return f"{self.number}. {who}: {self.action}{f' {self.discard}' if self.discard else ''}"


class PointsReason(models.TextChoices):
    START = "start"
    WIN = "win"
    LOSE = "lose"


class PointsEntry(models.Model):
    """One change of a player's points balance; the balance is never overwritten."""

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="points_ledger")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    round = models.ForeignKey(
        SpecialsRound, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    delta = models.IntegerField()
    balance = models.IntegerField()
    reason = models.CharField(max_length=8, choices=PointsReason.choices)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["match", "seq"]
        verbose_name_plural = "points entries"
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="specials_points_seq_unique"),
            models.CheckConstraint(
                condition=Q(reason="start", round__isnull=True)
                | Q(reason="win", delta=1, round__isnull=False)
                | Q(reason="lose", delta=-1, round__isnull=False),
                name="specials_points_reason_shape",
            ),
        ]

    def __str__(self) -> str:
        return f"seat {self.seat}: {self.reason} {self.delta:+d}, balance {self.balance}".replace(
            "start +", "start "
        )
