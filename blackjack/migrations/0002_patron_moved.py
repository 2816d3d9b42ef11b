"""A round's seat names its patron in the patrons app now (patrons.0001): state only."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("blackjack", "0001_initial"),
        ("patrons", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="roundseat",
                    name="patron",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="seats",
                        to="patrons.patron",
                    ),
                ),
            ],
            database_operations=[],
        ),
    ]
