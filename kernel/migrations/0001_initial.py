from django.db import migrations, models


class Migration(migrations.Migration):
    """The idempotency records moved from the casino app: the table stays, only the owner changes."""

    initial = True

    dependencies = [("casino", "0005_ledger_shift_index")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="IdempotencyRecord",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("scope", models.CharField(max_length=64)),
                        ("key", models.CharField(max_length=255)),
                        ("method", models.CharField(max_length=8)),
                        ("path", models.CharField(max_length=255)),
                        ("request_hash", models.CharField(max_length=64)),
                        ("response_status", models.PositiveSmallIntegerField()),
                        ("response_body", models.JSONField()),
                        ("created_at", models.DateTimeField()),
                    ],
                    options={
                        "db_table": "casino_idempotencyrecord",
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("scope", "key"), name="idempotency_key_unique_per_sender"
                            )
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
