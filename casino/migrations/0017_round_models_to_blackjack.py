"""The blackjack round's models now belong to the blackjack app (blackjack.0001): removed from
the casino app's state only; their tables stay."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("blackjack", "0001_initial"),
        ("casino", "0016_staff_sign_in"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name="settlement",
                    name="round",
                ),
                migrations.RemoveField(
                    model_name="roundseat",
                    name="round",
                ),
                migrations.RemoveField(
                    model_name="roundevent",
                    name="round",
                ),
                migrations.AlterField(
                    model_name="ledgertransaction",
                    name="round",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="ledger_transactions",
                        to="blackjack.round",
                    ),
                ),
                migrations.RemoveField(
                    model_name="wager",
                    name="round",
                ),
                migrations.RemoveField(
                    model_name="roundevent",
                    name="dealer",
                ),
                migrations.RemoveField(
                    model_name="roundevent",
                    name="terminal",
                ),
                migrations.RemoveField(
                    model_name="roundseat",
                    name="patron",
                ),
                migrations.RemoveField(
                    model_name="settlementline",
                    name="settlement",
                ),
                migrations.DeleteModel(
                    name="Round",
                ),
                migrations.DeleteModel(
                    name="Wager",
                ),
                migrations.DeleteModel(
                    name="RoundEvent",
                ),
                migrations.DeleteModel(
                    name="RoundSeat",
                ),
                migrations.DeleteModel(
                    name="Settlement",
                ),
                migrations.DeleteModel(
                    name="SettlementLine",
                ),
            ],
            database_operations=[],
        ),
    ]
