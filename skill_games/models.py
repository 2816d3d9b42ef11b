"""A skill game's rows: the game, its seats and its move log (RULES.md §3, API.md "Skill games").

The state of a game is never stored: it is the deck orders plus the log, replayed by the game's
engine (`skill_games.registry`). The game row keeps what the house must keep besides: the clock
(`started_at`, `ends_at`, `due_at`), the deal, and once it is over the final score. The deal is one
deck a game of the match (Attack and Squares: one; Make 21: `games`), each with its salt and its
published commitment, all shuffled and committed when the game is created; a deck's order and
salt stay secret until it is revealed (the first `decks_revealed` of them; `revealed_at` once the
last one is).
"""

from django.conf import settings as django_settings
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import F, Q

DECK_SIZE = 52


class GameState(models.TextChoices):
    PLAYING = "playing", "Playing"
    FINISHED = "finished", "Finished"


class Game(models.Model):
    kind = models.CharField(max_length=16)  # the registered skill game (`skill_games.registry`)
    state = models.CharField(max_length=16, choices=GameState.choices, default=GameState.PLAYING)
    seq = models.PositiveIntegerField(default=0)  # moves logged, automatic ones included
    started_at = models.DateTimeField()  # whole milliseconds: the log's clock starts here
    ends_at = models.DateTimeField(null=True, blank=True)  # when the clock ends it at the latest
    due_at = models.DateTimeField(null=True, blank=True)  # when a deadline acts next; null once over
    settings = models.JSONField(default=dict, blank=True)
    # One deck per game of the match, in the order they are played, each its first card on top,
    # with its salt (both secret until that deck is revealed) and its published commitment.
    decks = ArrayField(ArrayField(models.CharField(max_length=2), size=DECK_SIZE))
    salts = ArrayField(models.CharField(max_length=64))
    commitments = ArrayField(models.CharField(max_length=64))
    decks_revealed = models.PositiveSmallIntegerField(default=0)  # the first ones, as their games end
    revealed_at = models.DateTimeField(null=True, blank=True)  # when the last deck was revealed
    finished_at = models.DateTimeField(null=True, blank=True)
    end_reason = models.CharField(max_length=16, blank=True)  # `registry.Ending`
    score = models.JSONField(null=True, blank=True)  # the final score, as the API shows it
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    # A tournament's game (RULES.md §4): its tournament and heat (each seat names its entry); a
    # practice game: null. A duplicate heat's deck is revealed when the heat closes, not by the game.
    tournament_id = models.BigIntegerField(null=True, blank=True)
    tournament_heat = models.PositiveSmallIntegerField(null=True, blank=True)
    reveal_held = models.BooleanField(default=False, db_default=False)
    created_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(state__in=GameState.values), name="skill_game_state_known"),
            models.CheckConstraint(
                condition=(
                    Q(state=GameState.PLAYING, finished_at__isnull=True, score__isnull=True, end_reason="")
                    | (
                        Q(state=GameState.FINISHED, finished_at__isnull=False, score__isnull=False)
                        & ~Q(end_reason="")
                        & Q(due_at__isnull=True)
                    )
                ),
                name="skill_game_finished_has_score",
            ),
            models.CheckConstraint(
                condition=Q(salts__len__gte=1, commitments__len=F("salts__len"), decks__len=F("salts__len")),
                name="skill_game_deal_per_deck",
            ),
            models.CheckConstraint(
                condition=Q(decks_revealed__lte=F("salts__len")), name="skill_game_reveals_dealt_decks"
            ),
            models.CheckConstraint(
                condition=Q(revealed_at__isnull=True)
                | Q(state=GameState.FINISHED, decks_revealed=F("salts__len")),
                name="skill_game_revealed_once_over",
            ),
        ]
        indexes = [
            models.Index(fields=["due_at"], condition=Q(state="playing"), name="skill_game_due"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} game {self.pk}"

    @property
    def deal_count(self) -> int:
        """How many decks the game is dealt from: one per game of the match."""
        return len(self.commitments)


class Seat(models.Model):
    """One seat of a game; its token is stored only as a SHA-256 hash (`kernel.keys`)."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="seats")
    number = models.PositiveSmallIntegerField()
    key_prefix = models.CharField(max_length=12, unique=True)
    key_hash = models.CharField(max_length=64)
    tournament_entry = models.PositiveIntegerField(null=True, blank=True)  # the entry's number
    created_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="skill_seat_once_per_game"),
            models.CheckConstraint(condition=Q(number__gte=1), name="skill_seat_numbered_from_1"),
        ]

    def __str__(self) -> str:
        return f"seat {self.number} of game {self.game_id}"


class Move(models.Model):
    """One accepted move (or one the clock made for a seat), in the game's order."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="moves")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    move = models.JSONField()  # {"move": name, ...its fields}
    received_at = models.DateTimeField()  # the server's receive time, whole milliseconds
    elapsed_ms = models.BigIntegerField()  # received_at - game.started_at
    automatic = models.BooleanField(default=False)
    outcome = models.JSONField(default=dict)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="skill_move_once_per_seq"),
            models.CheckConstraint(condition=Q(seq__gte=1), name="skill_move_seq_from_1"),
            models.CheckConstraint(condition=Q(elapsed_ms__gte=0), name="skill_move_after_start"),
        ]

    def __str__(self) -> str:
        return f"move {self.seq} of game {self.game_id}"
