"""The refusal tally: refused requests counted per source, code and minute (audit.services).

UNLOGGED: a counter that is rewritten on every refusal and emptied every minute needs no WAL;
a crash of the database loses at most the counts not yet summarised into the audit trail.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("audit", "0004_history_moves_out"),
    ]

    operations = [
        migrations.CreateModel(
            name="RefusalTally",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("minute", models.DateTimeField()),
                ("source", models.CharField(max_length=100)),
                ("code", models.CharField(max_length=64)),
                ("count", models.IntegerField()),
                ("individually_recorded", models.IntegerField()),
                ("first_at", models.DateTimeField()),
                ("last_at", models.DateTimeField()),
                ("actor", models.JSONField(blank=True, null=True)),
                ("sample", models.TextField()),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("minute", "source", "code"), name="audit_refusal_tally_key"
                    )
                ],
            },
        ),
        migrations.RunSQL(
            "ALTER TABLE audit_refusaltally SET UNLOGGED",
            reverse_sql="ALTER TABLE audit_refusaltally SET LOGGED",
        ),
    ]
