"""The blackjack round's models, moved from the casino app with their tables: the database keeps
`casino_round` and the rest as they are (no row is rewritten); only Django's state and the
content types (and so the permissions on them) change app."""

import django.db.models.deletion
import django.db.models.expressions
from django.conf import settings
from django.db import migrations, models

from kernel.model_moves import relabel_content_types

MOVED_MODELS = ("round", "roundseat", "wager", "roundevent", "settlement", "settlementline")


def move_content_types(apps, schema_editor):
    relabel_content_types(apps, models=MOVED_MODELS, from_app="casino", to_app="blackjack")


def move_content_types_back(apps, schema_editor):
    relabel_content_types(apps, models=MOVED_MODELS, from_app="blackjack", to_app="casino")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("bonus_tie", "0004_version_one_records"),
        ("casino", "0016_staff_sign_in"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Round",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("rules", models.JSONField()),
                        ("opening", models.JSONField(default=list)),
                        ("aggregate_limit_cents", models.BigIntegerField(blank=True, null=True)),
                        ("seq", models.PositiveIntegerField(default=0)),
                        (
                            "state",
                            models.CharField(
                                choices=[
                                    ("dealing", "Dealing"),
                                    ("insurance", "Insurance"),
                                    ("playing", "Playing"),
                                    ("dealer", "Dealer"),
                                    ("ready_to_settle", "Ready To Settle"),
                                    ("settled", "Settled"),
                                    ("void", "Void"),
                                ],
                                max_length=20,
                            ),
                        ),
                        ("opened_at", models.DateTimeField()),
                        ("settled_at", models.DateTimeField(blank=True, null=True)),
                        ("voided_at", models.DateTimeField(blank=True, null=True)),
                        ("void_reason", models.TextField(blank=True)),
                        (
                            "dealer",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="rounds",
                                to="casino.dealer",
                            ),
                        ),
                        (
                            "paytable",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="rounds",
                                to="bonus_tie.paytableversion",
                            ),
                        ),
                        (
                            "shoe",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="rounds",
                                to="casino.shoe",
                            ),
                        ),
                        (
                            "table",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="rounds",
                                to="casino.table",
                            ),
                        ),
                        (
                            "terminal",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="rounds",
                                to="casino.terminal",
                            ),
                        ),
                        (
                            "voided_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "casino_round",
                    },
                ),
                migrations.CreateModel(
                    name="RoundEvent",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("number", models.PositiveIntegerField()),
                        (
                            "kind",
                            models.CharField(choices=[("card", "Card"), ("action", "Action")], max_length=8),
                        ),
                        ("card", models.CharField(blank=True, max_length=2)),
                        ("seat", models.PositiveSmallIntegerField(blank=True, null=True)),
                        ("hand", models.PositiveSmallIntegerField(blank=True, null=True)),
                        ("action", models.CharField(blank=True, max_length=20)),
                        ("amount_cents", models.BigIntegerField(blank=True, null=True)),
                        ("created_at", models.DateTimeField()),
                        (
                            "dealer",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to="casino.dealer",
                            ),
                        ),
                        (
                            "round",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="events",
                                to="blackjack.round",
                            ),
                        ),
                        (
                            "terminal",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to="casino.terminal",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "casino_roundevent",
                    },
                ),
                migrations.CreateModel(
                    name="RoundSeat",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("seat", models.PositiveSmallIntegerField()),
                        ("player", models.CharField(blank=True, max_length=100)),
                        (
                            "patron",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="seats",
                                to="casino.patron",
                            ),
                        ),
                        (
                            "round",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="seats",
                                to="blackjack.round",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "casino_roundseat",
                    },
                ),
                migrations.CreateModel(
                    name="Settlement",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("wagered_cents", models.BigIntegerField()),
                        ("paid_cents", models.BigIntegerField()),
                        ("house_net_cents", models.BigIntegerField()),
                        ("aggregate_limit_applied", models.BooleanField(default=False)),
                        ("aggregate_reduction_cents", models.BigIntegerField(default=0)),
                        ("settled_at", models.DateTimeField()),
                        (
                            "round",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="settlement",
                                to="blackjack.round",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "casino_settlement",
                    },
                ),
                migrations.CreateModel(
                    name="SettlementLine",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("seat", models.PositiveSmallIntegerField()),
                        ("hand", models.PositiveSmallIntegerField()),
                        (
                            "kind",
                            models.CharField(
                                choices=(
                                    ("primary", "primary"),
                                    ("T17", "T17"),
                                    ("T18", "T18"),
                                    ("T19", "T19"),
                                    ("T20", "T20"),
                                    ("T21", "T21"),
                                    ("TBJ", "TBJ"),
                                    ("LS", "LS"),
                                    ("RS", "RS"),
                                    ("insurance", "insurance"),
                                ),
                                max_length=16,
                            ),
                        ),
                        ("amount_cents", models.BigIntegerField()),
                        (
                            "result",
                            models.CharField(
                                choices=[
                                    ("win", "Win"),
                                    ("lose", "Lose"),
                                    ("push", "Push"),
                                    ("surrender", "Surrender"),
                                ],
                                max_length=16,
                            ),
                        ),
                        ("win_cents", models.BigIntegerField()),
                        ("paid_cents", models.BigIntegerField()),
                        (
                            "settlement",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="lines",
                                to="blackjack.settlement",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "casino_settlementline",
                    },
                ),
                migrations.CreateModel(
                    name="Wager",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("seat", models.PositiveSmallIntegerField()),
                        ("hand", models.PositiveSmallIntegerField(default=0)),
                        (
                            "kind",
                            models.CharField(
                                choices=(
                                    ("primary", "primary"),
                                    ("T17", "T17"),
                                    ("T18", "T18"),
                                    ("T19", "T19"),
                                    ("T20", "T20"),
                                    ("T21", "T21"),
                                    ("TBJ", "TBJ"),
                                    ("LS", "LS"),
                                    ("RS", "RS"),
                                    ("insurance", "insurance"),
                                ),
                                max_length=16,
                            ),
                        ),
                        (
                            "source",
                            models.CharField(
                                choices=[
                                    ("open", "Placed when the round opened"),
                                    ("double", "Double down"),
                                    ("split", "Split"),
                                    ("insurance", "Insurance"),
                                ],
                                max_length=16,
                            ),
                        ),
                        ("amount_cents", models.BigIntegerField()),
                        ("placed_at", models.DateTimeField()),
                        (
                            "round",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="wagers",
                                to="blackjack.round",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "casino_wager",
                    },
                ),
                migrations.AddConstraint(
                    model_name="round",
                    constraint=models.UniqueConstraint(
                        condition=models.Q(
                            ("state__in", ["dealing", "insurance", "playing", "dealer", "ready_to_settle"])
                        ),
                        fields=("table",),
                        name="round_one_open_per_table",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="roundevent",
                    constraint=models.UniqueConstraint(
                        fields=("round", "number"), name="round_event_number_unique"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="roundevent",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("kind", "card"), models.Q(("card", ""), _negated=True)),
                            models.Q(("kind", "action"), models.Q(("action", ""), _negated=True)),
                            _connector="OR",
                        ),
                        name="round_event_card_or_action",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="roundseat",
                    constraint=models.UniqueConstraint(fields=("round", "seat"), name="round_seat_unique"),
                ),
                migrations.AddConstraint(
                    model_name="roundseat",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("seat__gte", 1), ("seat__lte", 7)), name="round_seat_1_to_7"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="settlement",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            (
                                "house_net_cents",
                                django.db.models.expressions.CombinedExpression(
                                    models.F("wagered_cents"), "-", models.F("paid_cents")
                                ),
                            )
                        ),
                        name="settlement_house_net_is_wagered_minus_paid",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="settlement",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            ("aggregate_reduction_cents__gte", 0),
                            ("paid_cents__gte", 0),
                            ("wagered_cents__gte", 0),
                        ),
                        name="settlement_amounts_not_negative",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="settlementline",
                    constraint=models.UniqueConstraint(
                        fields=("settlement", "seat", "hand", "kind"), name="settlement_line_unique"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="settlementline",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            ("amount_cents__gt", 0), ("paid_cents__gte", 0), ("win_cents__gte", 0)
                        ),
                        name="settlement_line_amounts",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="wager",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("amount_cents__gt", 0)), name="wager_amount_positive"
                    ),
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
