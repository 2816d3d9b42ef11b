"""Version 1's records: its proposer and approver are the system migration that created it
(0002_default_paytable), and its report is for the default house rules (RULES.md).

The report itself is not computed here (seconds of CPU per rule set do not belong in a
migration): the service queues it when it starts (`queue_paytable_reports`).
"""

from django.conf import settings
from django.db import migrations, models

SYSTEM_MIGRATION = "system migration"
# `casino.mappers.rules_to_json(HouseRules())` when this migration was written.
DEFAULT_RULES = {
    "decks": 6,
    "dealer": "S17",
    "blackjack_pays": "3:2",
    "double_any_two": True,
    "double_after_split": True,
    "max_hands": 4,
    "split_aces_one_card": True,
    "resplit_aces": False,
    "split_by_value": True,
    "surrender": False,
    "insurance": True,
    "penetration_percent": 75,
}


def record_version_one(apps, schema_editor):
    version_one = apps.get_model("bonus_tie", "PaytableVersion").objects.filter(version=1).first()
    if version_one is None:
        return
    proposal, _ = apps.get_model("bonus_tie", "PaytableProposal").objects.get_or_create(
        paytable=version_one, defaults={"rules": DEFAULT_RULES}
    )
    if version_one.proposed_by_id is None:
        proposal.proposed_by_label = SYSTEM_MIGRATION
    if version_one.approved_by_id is None and version_one.status == "approved":
        proposal.approved_by_label = SYSTEM_MIGRATION
    proposal.save(update_fields=["proposed_by_label", "approved_by_label"])


def forget_version_one(apps, schema_editor):
    apps.get_model("bonus_tie", "PaytableProposal").objects.filter(
        paytable__version=1, proposed_by_label=SYSTEM_MIGRATION, report_computed_at__isnull=True
    ).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("bonus_tie", "0003_paytable_proposal"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="paytableproposal",
            name="approved_by_label",
            field=models.CharField(blank=True, max_length=32),
        ),
        migrations.AddField(
            model_name="paytableproposal",
            name="proposed_by_label",
            field=models.CharField(blank=True, max_length=32),
        ),
        migrations.AddField(
            model_name="paytableproposal",
            name="report_queued_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddConstraint(
            model_name="paytableproposal",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("proposed_by_label__in", ["", "system migration"]),
                    ("approved_by_label__in", ["", "system migration"]),
                ),
                name="paytable_actor_label_is_known",
            ),
        ),
        migrations.RunPython(record_version_one, forget_version_one),
    ]
