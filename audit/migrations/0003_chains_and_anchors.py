"""One hash chain per table plus the casino-wide chain, anchors of all chain heads.

Every event gets its chain and the canonical format it was hashed with. The
events written so far formed the one chain there was: they become the
casino-wide chain (`casino`), with their seq and hashes unchanged, marked as
format 1 (`casino-audit-v1`, which has no chain column) so they still verify.
Adding the columns with a default touches no row, so the append-only triggers
are not involved. `seq` and `prev_hash` become unique per chain.

`audit_chain_head` takes a chain's advisory lock and then reads its head: being
VOLATILE, its query runs on a snapshot taken after the lock was granted
(`audit.services`).

Anchors get the same guards as the other audit tables (migration 0002).
"""

import django.db.models.deletion
from django.db import migrations, models

CHAIN_HEAD_FUNCTION = """
CREATE FUNCTION audit_chain_head(lock_class integer, lock_key integer, chain_name text,
                                 OUT head_seq bigint, OUT head_hash text)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(lock_class, lock_key);
    -- A new query in a VOLATILE function: a new snapshot, taken now that the lock is held.
    SELECT e.seq, e.hash INTO head_seq, head_hash
    FROM audit_auditevent AS e WHERE e.chain = chain_name ORDER BY e.seq DESC LIMIT 1;
END $$;
"""

ANCHOR_GUARDS = """
CREATE TRIGGER audit_auditanchor_append_only
    BEFORE UPDATE OR DELETE ON audit_auditanchor
    FOR EACH ROW EXECUTE FUNCTION audit_refuse_change();
CREATE TRIGGER audit_auditanchor_no_truncate
    BEFORE TRUNCATE ON audit_auditanchor
    FOR EACH STATEMENT EXECUTE FUNCTION audit_refuse_change();
"""

DROP_ANCHOR_GUARDS = """
DROP TRIGGER audit_auditanchor_no_truncate ON audit_auditanchor;
DROP TRIGGER audit_auditanchor_append_only ON audit_auditanchor;
"""


class Migration(migrations.Migration):
    dependencies = [("audit", "0002_append_only")]

    operations = [
        migrations.AddField(
            model_name="auditevent",
            name="chain",
            field=models.CharField(default="casino", max_length=32),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="auditevent",
            name="hash_format",
            field=models.SmallIntegerField(default=1),
            preserve_default=False,
        ),
        migrations.RemoveConstraint(model_name="auditevent", name="audit_event_one_successor"),
        migrations.AlterField(model_name="auditevent", name="seq", field=models.BigIntegerField()),
        migrations.RemoveIndex(model_name="auditevent", name="audit_event_table_seq"),
        migrations.AddIndex(
            model_name="auditevent",
            index=models.Index(fields=["table_id", "id"], name="audit_event_table_id"),
        ),
        migrations.AddConstraint(
            model_name="auditevent",
            constraint=models.CheckConstraint(
                condition=models.Q(("chain__regex", "^(casino|table:[1-9][0-9]{0,18})$")),
                name="audit_event_chain_known",
            ),
        ),
        migrations.AddConstraint(
            model_name="auditevent",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("hash_format", 2), models.Q(("chain", "casino"), ("hash_format", 1)), _connector="OR"
                ),
                name="audit_event_hash_format_known",
            ),
        ),
        migrations.AddConstraint(
            model_name="auditevent",
            constraint=models.UniqueConstraint(fields=("chain", "seq"), name="audit_event_chain_seq_unique"),
        ),
        migrations.AddConstraint(
            model_name="auditevent",
            constraint=models.UniqueConstraint(
                fields=("chain", "prev_hash"), name="audit_event_one_successor"
            ),
        ),
        migrations.CreateModel(
            name="AuditAnchor",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("created_at", models.DateTimeField()),
                ("chains", models.IntegerField()),
                ("events", models.BigIntegerField()),
                ("heads", models.JSONField()),
                ("digest", models.CharField(max_length=64)),
            ],
            options={
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("digest__regex", "^[0-9a-f]{64}$")),
                        name="audit_anchor_digest_is_sha256",
                    )
                ],
            },
        ),
        migrations.AddField(
            model_name="auditcheckpoint",
            name="anchor",
            field=models.ForeignKey(
                blank=True,
                db_constraint=False,
                null=True,
                on_delete=django.db.models.deletion.DO_NOTHING,
                related_name="checkpoints",
                to="audit.auditanchor",
            ),
        ),
        migrations.RunSQL(ANCHOR_GUARDS, DROP_ANCHOR_GUARDS),
        migrations.RunSQL(CHAIN_HEAD_FUNCTION, "DROP FUNCTION audit_chain_head(integer, integer, text);"),
    ]
