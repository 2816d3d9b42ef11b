"""Paytable version 1: the default of PAYTABLE.md, approved from the start."""

from django.db import migrations
from django.utils import timezone

DEFAULT_PAYS = {"T17": 45, "T18": 45, "T19": 45, "T20": 25, "T21": 150, "TBJ": 350, "LS": 15, "RS": 20}


def create_default(apps, schema_editor):
    now = timezone.now()
    apps.get_model("bonus_tie", "PaytableVersion").objects.get_or_create(
        version=1,
        defaults={"pays": DEFAULT_PAYS, "status": "approved", "proposed_at": now, "approved_at": now},
    )


class Migration(migrations.Migration):
    dependencies = [("bonus_tie", "0001_initial")]

    operations = [migrations.RunPython(create_default, migrations.RunPython.noop)]
