"""The table money's models, moved from the casino app with their tables (`casino_buyin`, ...):
no row is rewritten; Django's state and the content types change app."""

import django.db.models.deletion
import django.db.models.expressions
from django.conf import settings
from django.db import migrations, models

from kernel.model_moves import relabel_content_types

MOVED_MODELS = (
    "buyin",
    "chipslip",
    "slipcounter",
    "slipvoid",
    "chipredemption",
    "softcount",
    "mtlentry",
    "ctrworksheet",
)


def move_content_types(apps, schema_editor):
    relabel_content_types(apps, models=MOVED_MODELS, from_app="casino", to_app="table_money")


def move_content_types_back(apps, schema_editor):
    relabel_content_types(apps, models=MOVED_MODELS, from_app="table_money", to_app="casino")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("casino", "0018_money_reports_patrons_to_their_apps"),
        ("patrons", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="BuyIn",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("seat", models.PositiveSmallIntegerField()),
                        ("amount_cents", models.BigIntegerField()),
                        (
                            "method",
                            models.CharField(choices=[("cash", "Cash"), ("marker", "Marker")], max_length=8),
                        ),
                        ("player", models.CharField(blank=True, max_length=100)),
                        ("created_at", models.DateTimeField()),
                        ("gaming_day", models.DateField()),
                        ("shift", models.CharField(max_length=8)),
                        (
                            "dealer",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to="casino.dealer",
                            ),
                        ),
                        (
                            "patron",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="buy_ins",
                                to="patrons.patron",
                            ),
                        ),
                        (
                            "table",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="buy_ins",
                                to="casino.table",
                            ),
                        ),
                        (
                            "terminal",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to="casino.terminal",
                            ),
                        ),
                        (
                            "transaction",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to="casino.ledgertransaction",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "buy-in",
                        "verbose_name_plural": "buy-ins",
                        "db_table": "casino_buyin",
                    },
                ),
                migrations.CreateModel(
                    name="ChipRedemption",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("description", models.CharField(blank=True, max_length=150)),
                        ("amount_cents", models.BigIntegerField()),
                        ("chips", models.JSONField(blank=True, default=dict)),
                        ("created_at", models.DateTimeField()),
                        ("gaming_day", models.DateField()),
                        ("shift", models.CharField(max_length=8)),
                        (
                            "cashier",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "patron",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="redemptions",
                                to="patrons.patron",
                            ),
                        ),
                        (
                            "transaction",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to="casino.ledgertransaction",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "chip redemption",
                        "db_table": "casino_chipredemption",
                    },
                ),
                migrations.CreateModel(
                    name="ChipSlip",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        (
                            "kind",
                            models.CharField(choices=[("fill", "Fill"), ("credit", "Credit")], max_length=8),
                        ),
                        ("number", models.BigIntegerField()),
                        ("amount_cents", models.BigIntegerField()),
                        ("chips", models.JSONField()),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("pending", "Pending approval"),
                                    ("approved", "Approved"),
                                    ("void", "Void"),
                                ],
                                default="pending",
                                max_length=8,
                            ),
                        ),
                        ("requested_at", models.DateTimeField()),
                        ("gaming_day", models.DateField()),
                        ("shift", models.CharField(max_length=8)),
                        ("approved_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "approved_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "requested_by_dealer",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to="casino.dealer",
                            ),
                        ),
                        (
                            "requested_by_terminal",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to="casino.terminal",
                            ),
                        ),
                        (
                            "requested_by_user",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "table",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="chip_slips",
                                to="casino.table",
                            ),
                        ),
                        (
                            "transaction",
                            models.OneToOneField(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to="casino.ledgertransaction",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "casino_chipslip",
                    },
                ),
                migrations.CreateModel(
                    name="CtrWorksheet",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("subject_key", models.CharField(max_length=40)),
                        ("description", models.CharField(blank=True, max_length=150)),
                        ("gaming_day", models.DateField()),
                        (
                            "direction",
                            models.CharField(
                                choices=[("cash_in", "Cash in"), ("cash_out", "Cash out")], max_length=8
                            ),
                        ),
                        ("revision", models.PositiveSmallIntegerField()),
                        ("total_cents", models.BigIntegerField()),
                        ("transactions", models.JSONField()),
                        ("identified", models.BooleanField()),
                        ("created_at", models.DateTimeField()),
                        (
                            "patron",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="ctrs",
                                to="patrons.patron",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "CTR worksheet",
                        "db_table": "casino_ctrworksheet",
                    },
                ),
                migrations.CreateModel(
                    name="MtlEntry",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        (
                            "direction",
                            models.CharField(
                                choices=[("cash_in", "Cash in"), ("cash_out", "Cash out")], max_length=8
                            ),
                        ),
                        ("amount_cents", models.BigIntegerField()),
                        ("description", models.CharField(blank=True, max_length=150)),
                        ("location", models.CharField(max_length=60)),
                        ("occurred_at", models.DateTimeField()),
                        ("gaming_day", models.DateField()),
                        ("employee", models.CharField(max_length=150)),
                        (
                            "buy_in",
                            models.OneToOneField(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="mtl_entry",
                                to="table_money.buyin",
                            ),
                        ),
                        (
                            "cashier",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
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
                            "patron",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="mtl_entries",
                                to="patrons.patron",
                            ),
                        ),
                        (
                            "redemption",
                            models.OneToOneField(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="mtl_entry",
                                to="table_money.chipredemption",
                            ),
                        ),
                        (
                            "table",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to="casino.table",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "MTL entry",
                        "verbose_name_plural": "MTL entries",
                        "db_table": "casino_mtlentry",
                    },
                ),
                migrations.CreateModel(
                    name="SlipCounter",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("series", models.CharField(max_length=16, unique=True)),
                        ("last_number", models.BigIntegerField(default=0)),
                    ],
                    options={
                        "db_table": "casino_slipcounter",
                        "constraints": [
                            models.CheckConstraint(
                                condition=models.Q(("last_number__gte", 0)), name="slip_counter_not_negative"
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="SlipVoid",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("reason", models.TextField()),
                        ("voided_at", models.DateTimeField()),
                        ("gaming_day", models.DateField()),
                        ("shift", models.CharField(max_length=8)),
                        (
                            "reversal",
                            models.OneToOneField(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to="casino.ledgertransaction",
                            ),
                        ),
                        (
                            "slip",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="void",
                                to="table_money.chipslip",
                            ),
                        ),
                        (
                            "voided_by",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "casino_slipvoid",
                    },
                ),
                migrations.CreateModel(
                    name="SoftCount",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("gaming_day", models.DateField()),
                        ("shift", models.CharField(blank=True, max_length=8)),
                        ("currency", models.JSONField()),
                        ("currency_cents", models.BigIntegerField()),
                        ("markers_cents", models.BigIntegerField()),
                        ("total_cents", models.BigIntegerField()),
                        ("counted_at", models.DateTimeField()),
                        ("witnessed_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "counted_by",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "supersedes",
                            models.OneToOneField(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="superseded_by",
                                to="table_money.softcount",
                            ),
                        ),
                        (
                            "table",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="soft_counts",
                                to="casino.table",
                            ),
                        ),
                        (
                            "witnessed_by",
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
                        "db_table": "casino_softcount",
                    },
                ),
                migrations.AddConstraint(
                    model_name="buyin",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("amount_cents__gt", 0)), name="buy_in_amount_positive"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="buyin",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("seat__gte", 1), ("seat__lte", 7)), name="buy_in_seat_1_to_7"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="buyin",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("shift__in", ["day", "swing", "grave"])),
                        name="buy_in_shift_known",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="chipredemption",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("amount_cents__gt", 0)), name="redemption_amount_positive"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="chipredemption",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("shift__in", ["day", "swing", "grave"])),
                        name="redemption_shift_known",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="chipredemption",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            ("patron__isnull", False),
                            models.Q(("description", ""), _negated=True),
                            _connector="OR",
                        ),
                        name="redemption_patron_or_description",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="chipslip",
                    constraint=models.UniqueConstraint(
                        fields=("kind", "number"), name="chip_slip_number_unique_per_kind"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="chipslip",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("amount_cents__gt", 0)), name="chip_slip_amount_positive"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="chipslip",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("number__gte", 1)), name="chip_slip_number_positive"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="chipslip",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("shift__in", ["day", "swing", "grave"])),
                        name="chip_slip_shift_known",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="chipslip",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            models.Q(
                                ("requested_by_terminal__isnull", False), ("requested_by_user__isnull", True)
                            ),
                            models.Q(
                                ("requested_by_terminal__isnull", True), ("requested_by_user__isnull", False)
                            ),
                            _connector="OR",
                        ),
                        name="chip_slip_one_requester",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="chipslip",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            models.Q(
                                ("approved_at__isnull", True),
                                ("approved_by__isnull", True),
                                ("transaction__isnull", True),
                            ),
                            models.Q(
                                ("approved_at__isnull", False),
                                ("approved_by__isnull", False),
                                ("transaction__isnull", False),
                            ),
                            _connector="OR",
                        ),
                        name="chip_slip_approval_complete",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="chipslip",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("status", "approved"), _negated=True),
                            ("approved_at__isnull", False),
                            _connector="OR",
                        ),
                        name="chip_slip_approved_has_approval",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="chipslip",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("status", "pending"), _negated=True),
                            ("approved_at__isnull", True),
                            _connector="OR",
                        ),
                        name="chip_slip_pending_not_approved",
                    ),
                ),
                migrations.AddIndex(
                    model_name="ctrworksheet",
                    index=models.Index(fields=["gaming_day"], name="ctr_by_gaming_day"),
                ),
                migrations.AddConstraint(
                    model_name="ctrworksheet",
                    constraint=models.UniqueConstraint(
                        fields=("subject_key", "gaming_day", "direction", "revision"),
                        name="ctr_one_per_revision",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="ctrworksheet",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("total_cents__gt", 0)), name="ctr_total_positive"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="ctrworksheet",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("revision__gte", 1)), name="ctr_revision_from_1"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="ctrworksheet",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            ("patron__isnull", False),
                            models.Q(("description", ""), _negated=True),
                            _connector="OR",
                        ),
                        name="ctr_patron_or_description",
                    ),
                ),
                migrations.AddIndex(
                    model_name="mtlentry",
                    index=models.Index(fields=["gaming_day"], name="mtl_by_gaming_day"),
                ),
                migrations.AddConstraint(
                    model_name="mtlentry",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("amount_cents__gt", 0)), name="mtl_amount_positive"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="mtlentry",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            models.Q(
                                ("buy_in__isnull", False),
                                ("dealer__isnull", False),
                                ("direction", "cash_in"),
                                ("redemption__isnull", True),
                            ),
                            models.Q(
                                ("buy_in__isnull", True),
                                ("cashier__isnull", False),
                                ("direction", "cash_out"),
                                ("redemption__isnull", False),
                            ),
                            _connector="OR",
                        ),
                        name="mtl_source_matches_direction",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="slipvoid",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("reason", ""), _negated=True), name="slip_void_has_reason"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="slipvoid",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("shift__in", ["day", "swing", "grave"])),
                        name="slip_void_shift_known",
                    ),
                ),
                migrations.AddIndex(
                    model_name="softcount",
                    index=models.Index(fields=["gaming_day", "shift"], name="soft_count_day_shift"),
                ),
                migrations.AddConstraint(
                    model_name="softcount",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("currency_cents__gte", 0), ("markers_cents__gte", 0)),
                        name="soft_count_amounts_not_negative",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="softcount",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            (
                                "total_cents",
                                django.db.models.expressions.CombinedExpression(
                                    models.F("currency_cents"), "+", models.F("markers_cents")
                                ),
                            )
                        ),
                        name="soft_count_total_is_currency_plus_markers",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="softcount",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("shift__in", ["day", "swing", "grave", ""])),
                        name="soft_count_shift_known",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="softcount",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("witnessed_at__isnull", True), ("witnessed_by__isnull", True)),
                            models.Q(("witnessed_at__isnull", False), ("witnessed_by__isnull", False)),
                            _connector="OR",
                        ),
                        name="soft_count_witness_complete",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="softcount",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            ("witnessed_by__isnull", True),
                            models.Q(("witnessed_by", models.F("counted_by")), _negated=True),
                            _connector="OR",
                        ),
                        name="soft_count_two_different_members",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="softcount",
                    constraint=models.UniqueConstraint(
                        condition=models.Q(("supersedes__isnull", True)),
                        fields=("table", "gaming_day", "shift"),
                        name="soft_count_one_original_per_period",
                    ),
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
