from django.db import migrations


class Migration(migrations.Migration):
    """The idempotency records now belong to the kernel app (same table)."""

    dependencies = [("casino", "0005_ledger_shift_index"), ("kernel", "0001_initial")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="IdempotencyRecord")],
            database_operations=[],
        ),
    ]
