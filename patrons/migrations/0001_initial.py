"""The patron, moved from the casino app with its table (`casino_patron`) and its number
sequence: no row is rewritten; Django's state and the content type change app."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from kernel.model_moves import relabel_content_types

MOVED_MODELS = ("patron",)


def move_content_types(apps, schema_editor):
    relabel_content_types(apps, models=MOVED_MODELS, from_app="casino", to_app="patrons")


def move_content_types_back(apps, schema_editor):
    relabel_content_types(apps, models=MOVED_MODELS, from_app="patrons", to_app="casino")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("casino", "0017_round_models_to_blackjack"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Patron",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("number", models.PositiveIntegerField(unique=True)),
                        ("name", models.CharField(max_length=150)),
                        (
                            "identification_type",
                            models.CharField(
                                blank=True,
                                choices=[
                                    ("drivers_license", "Driver's licence"),
                                    ("passport", "Passport"),
                                    ("state_id", "State identification card"),
                                    ("military_id", "Military identification"),
                                    ("other_government_id", "Other government-issued identification"),
                                ],
                                max_length=24,
                            ),
                        ),
                        ("identification_reference", models.CharField(blank=True, max_length=100)),
                        ("created_at", models.DateTimeField()),
                        (
                            "created_by",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "casino_patron",
                        "constraints": [
                            models.CheckConstraint(
                                condition=models.Q(("name", ""), _negated=True), name="patron_has_name"
                            ),
                            models.CheckConstraint(
                                condition=models.Q(
                                    models.Q(("identification_reference", ""), ("identification_type", "")),
                                    models.Q(
                                        models.Q(("identification_type", ""), _negated=True),
                                        models.Q(("identification_reference", ""), _negated=True),
                                    ),
                                    _connector="OR",
                                ),
                                name="patron_identification_type_and_reference_together",
                            ),
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
