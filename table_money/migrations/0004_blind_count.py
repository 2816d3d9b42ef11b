"""The blind soft count: each member's figures become a tally of their own (`SoftCountTally`), two
per round, entered without seeing each other's; a count holds no figures of its own and is never
updated. A count signed before keeps its figures as its first member's tally and, when it was
signed, its second member's too (the second signature attested the same figures). It is undone
only on a database without soft counts: a blind count's tallies have no place before it."""

import django.db.models.deletion
import django.db.models.expressions
from django.conf import settings
from django.db import migrations, models

NO_SECOND_SIGNATURE = """
DROP TRIGGER casino_softcount_only_second_signature ON casino_softcount;
DROP FUNCTION casino_softcount_only_second_signature();
"""
SECOND_SIGNATURE_ONLY = """
CREATE FUNCTION casino_softcount_only_second_signature() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.witnessed_by_id IS NOT NULL
       OR (to_jsonb(NEW) - 'witnessed_by_id' - 'witnessed_at')
          IS DISTINCT FROM (to_jsonb(OLD) - 'witnessed_by_id' - 'witnessed_at') THEN
        RAISE EXCEPTION 'soft count % is never edited: a correction is a new count that supersedes it',
            OLD.id USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER casino_softcount_only_second_signature
    BEFORE UPDATE ON casino_softcount
    FOR EACH ROW EXECUTE FUNCTION casino_softcount_only_second_signature();
"""
GUARDS = """
CREATE TRIGGER casino_softcount_append_only BEFORE UPDATE ON casino_softcount
    FOR EACH ROW EXECUTE FUNCTION casino_refuse_change();
CREATE TRIGGER table_money_softcounttally_append_only BEFORE UPDATE OR DELETE ON table_money_softcounttally
    FOR EACH ROW EXECUTE FUNCTION casino_refuse_change();
CREATE TRIGGER table_money_softcounttally_no_truncate BEFORE TRUNCATE ON table_money_softcounttally
    FOR EACH STATEMENT EXECUTE FUNCTION casino_refuse_change();
"""
NO_GUARDS = """
DROP TRIGGER table_money_softcounttally_no_truncate ON table_money_softcounttally;
DROP TRIGGER table_money_softcounttally_append_only ON table_money_softcounttally;
DROP TRIGGER casino_softcount_append_only ON casino_softcount;
"""


def tallies_from_signed_counts(apps, schema_editor):
    SoftCount = apps.get_model("table_money", "SoftCount")
    SoftCountTally = apps.get_model("table_money", "SoftCountTally")
    for count in SoftCount.objects.order_by("pk").iterator():
        figures = {
            "currency": count.currency,
            "currency_cents": count.currency_cents,
            "markers_cents": count.markers_cents,
            "total_cents": count.total_cents,
        }
        SoftCountTally.objects.create(
            count=count,
            round=1,
            place=1,
            member_id=count.counted_by_id,
            counted_at=count.counted_at,
            **figures,
        )
        if count.witnessed_by_id is not None:
            SoftCountTally.objects.create(
                count=count,
                round=1,
                place=2,
                member_id=count.witnessed_by_id,
                counted_at=count.witnessed_at,
                **figures,
            )
    schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")


def corrections_have_a_reason(apps, schema_editor):
    SoftCount = apps.get_model("table_money", "SoftCount")
    SoftCount.objects.filter(supersedes__isnull=False).update(
        correction_reason="Corrected before the blind count"
    )


class Migration(migrations.Migration):
    dependencies = [
        ("table_money", "0003_cage_window"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="SoftCountTally",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("round", models.PositiveSmallIntegerField()),
                ("place", models.PositiveSmallIntegerField()),
                ("currency", models.JSONField()),
                ("currency_cents", models.BigIntegerField()),
                ("markers_cents", models.BigIntegerField()),
                ("total_cents", models.BigIntegerField()),
                ("counted_at", models.DateTimeField()),
                (
                    "count",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="tallies",
                        to="table_money.softcount",
                    ),
                ),
                (
                    "member",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("currency_cents__gte", 0), ("markers_cents__gte", 0)),
                        name="soft_count_tally_amounts_not_negative",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            (
                                "total_cents",
                                django.db.models.expressions.CombinedExpression(
                                    models.F("currency_cents"), "+", models.F("markers_cents")
                                ),
                            )
                        ),
                        name="soft_count_tally_total_is_currency_plus_markers",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("place__in", [1, 2]), ("round__gte", 1)),
                        name="soft_count_tally_round_and_place",
                    ),
                    models.UniqueConstraint(
                        fields=("count", "round", "place"), name="soft_count_tally_one_per_place"
                    ),
                    models.UniqueConstraint(
                        fields=("count", "round", "member"), name="soft_count_tally_two_different_members"
                    ),
                ],
            },
        ),
        migrations.RunPython(tallies_from_signed_counts, migrations.RunPython.noop),
        migrations.RemoveConstraint(model_name="softcount", name="soft_count_amounts_not_negative"),
        migrations.RemoveConstraint(model_name="softcount", name="soft_count_total_is_currency_plus_markers"),
        migrations.RemoveConstraint(model_name="softcount", name="soft_count_witness_complete"),
        migrations.RemoveConstraint(model_name="softcount", name="soft_count_two_different_members"),
        migrations.RemoveConstraint(model_name="softcount", name="soft_count_one_original_per_period"),
        migrations.RemoveField(model_name="softcount", name="currency"),
        migrations.RemoveField(model_name="softcount", name="currency_cents"),
        migrations.RemoveField(model_name="softcount", name="markers_cents"),
        migrations.RemoveField(model_name="softcount", name="total_cents"),
        migrations.RemoveField(model_name="softcount", name="counted_by"),
        migrations.RemoveField(model_name="softcount", name="witnessed_by"),
        migrations.RemoveField(model_name="softcount", name="witnessed_at"),
        migrations.RenameField(model_name="softcount", old_name="counted_at", new_name="created_at"),
        migrations.AddField(
            model_name="softcount",
            name="correction_reason",
            field=models.CharField(blank=True, default="", max_length=300),
            preserve_default=False,
        ),
        migrations.RunSQL(NO_SECOND_SIGNATURE, SECOND_SIGNATURE_ONLY),
        migrations.RunPython(corrections_have_a_reason, migrations.RunPython.noop),
        migrations.RunSQL(GUARDS, NO_GUARDS),
        migrations.AddConstraint(
            model_name="softcount",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("correction_reason", ""), ("supersedes__isnull", True)),
                    models.Q(
                        ("supersedes__isnull", False), models.Q(("correction_reason", ""), _negated=True)
                    ),
                    _connector="OR",
                ),
                name="soft_count_correction_has_a_reason",
            ),
        ),
    ]
