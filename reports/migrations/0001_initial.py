"""The stored shift reports, moved from the casino app with their tables: no row is rewritten;
Django's state and the content types change app."""

import django.contrib.postgres.fields
import django.db.models.deletion
import django.db.models.expressions
from django.db import migrations, models

from kernel.model_moves import relabel_content_types

MOVED_MODELS = ("shiftreport", "shiftreportline")


def move_content_types(apps, schema_editor):
    relabel_content_types(apps, models=MOVED_MODELS, from_app="casino", to_app="reports")


def move_content_types_back(apps, schema_editor):
    relabel_content_types(apps, models=MOVED_MODELS, from_app="reports", to_app="casino")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("casino", "0018_money_reports_patrons_to_their_apps"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="ShiftReport",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("gaming_day", models.DateField()),
                        ("shift", models.CharField(max_length=8)),
                        ("opener_cents", models.BigIntegerField(blank=True, null=True)),
                        ("closer_cents", models.BigIntegerField(blank=True, null=True)),
                        ("drop_cents", models.BigIntegerField()),
                        ("markers_cents", models.BigIntegerField()),
                        ("fills_cents", models.BigIntegerField()),
                        ("credits_cents", models.BigIntegerField()),
                        ("win_cents", models.BigIntegerField(blank=True, null=True)),
                        ("hold_bp", models.IntegerField(blank=True, null=True)),
                        ("hold_outside_range", models.BooleanField(default=False)),
                        ("rounds_settled", models.IntegerField()),
                        ("rounds_voided", models.IntegerField()),
                        ("hands_dealt", models.IntegerField()),
                        ("handle_cents", models.BigIntegerField()),
                        ("payouts_cents", models.BigIntegerField()),
                        ("house_net_cents", models.BigIntegerField()),
                        ("win_minus_house_net_cents", models.BigIntegerField(blank=True, null=True)),
                        ("theo_win_cents", models.BigIntegerField()),
                        (
                            "flags",
                            django.contrib.postgres.fields.ArrayField(
                                base_field=models.CharField(max_length=40),
                                blank=True,
                                default=list,
                                size=None,
                            ),
                        ),
                        ("generated_at", models.DateTimeField()),
                        ("estimated_drop_cents", models.BigIntegerField(default=0)),
                        ("counted_drop_cents", models.BigIntegerField(blank=True, null=True)),
                        (
                            "drop_basis",
                            models.CharField(
                                choices=[("counted", "Counted drop"), ("estimated", "Estimated drop")],
                                default="estimated",
                                max_length=9,
                            ),
                        ),
                        ("complete", models.BooleanField(default=False)),
                        ("provisional", models.BooleanField(default=True)),
                        (
                            "pit",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="shift_reports",
                                to="casino.pit",
                            ),
                        ),
                        (
                            "table",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="shift_reports",
                                to="casino.table",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "casino_shiftreport",
                    },
                ),
                migrations.CreateModel(
                    name="ShiftReportLine",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("kind", models.CharField(max_length=16)),
                        ("wagers", models.IntegerField()),
                        ("handle_cents", models.BigIntegerField()),
                        ("payouts_cents", models.BigIntegerField()),
                        ("house_net_cents", models.BigIntegerField()),
                        ("house_edge", models.DecimalField(decimal_places=6, max_digits=8)),
                        ("theo_win_cents", models.BigIntegerField()),
                        (
                            "report",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="lines",
                                to="reports.shiftreport",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "casino_shiftreportline",
                    },
                ),
                migrations.AddIndex(
                    model_name="shiftreport",
                    index=models.Index(fields=["gaming_day", "shift"], name="shift_report_day_shift"),
                ),
                migrations.AddConstraint(
                    model_name="shiftreport",
                    constraint=models.UniqueConstraint(
                        fields=("table", "gaming_day", "shift"), name="shift_report_one_per_table_and_shift"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="shiftreport",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("shift__in", ["day", "swing", "grave"])),
                        name="shift_report_shift_known",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="shiftreport",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            ("drop_cents__gte", 0),
                            ("handle_cents__gte", 0),
                            ("hands_dealt__gte", 0),
                            ("markers_cents__gte", 0),
                            ("payouts_cents__gte", 0),
                            ("rounds_settled__gte", 0),
                            ("rounds_voided__gte", 0),
                        ),
                        name="shift_report_counts_not_negative",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="shiftreport",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            (
                                "house_net_cents",
                                django.db.models.expressions.CombinedExpression(
                                    models.F("handle_cents"), "-", models.F("payouts_cents")
                                ),
                            )
                        ),
                        name="shift_report_house_net_is_handle_minus_payouts",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="shiftreport",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            models.Q(
                                ("counted_drop_cents", models.F("drop_cents")), ("drop_basis", "counted")
                            ),
                            models.Q(
                                ("drop_basis", "estimated"), ("estimated_drop_cents", models.F("drop_cents"))
                            ),
                            _connector="OR",
                        ),
                        name="shift_report_drop_is_its_basis",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="shiftreportline",
                    constraint=models.UniqueConstraint(
                        fields=("report", "kind"), name="shift_report_line_one_per_kind"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="shiftreportline",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            (
                                "house_net_cents",
                                django.db.models.expressions.CombinedExpression(
                                    models.F("handle_cents"), "-", models.F("payouts_cents")
                                ),
                            )
                        ),
                        name="shift_report_line_house_net",
                    ),
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
