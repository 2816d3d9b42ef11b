"""The database's own guarantee for the audit trail (DESIGN.md principle 6): append-only.

UPDATE and DELETE of any row, and TRUNCATE, are refused on every audit table,
whoever asks. The one exception: TRUNCATE on a database its owner has marked
with `ALTER DATABASE ... SET casino.allow_truncate = 'on'` (the test database,
which is reset between transactional tests). That setting is a convenience for
tests, not a control: in production the application role also lacks the
TRUNCATE privilege (README, "Running under an append-only database role").

Plain SQL triggers rather than pgtrigger's Protect: those honour
`pgtrigger.ignore`, a session setting any client can set.

Also records a "baseline" history row for every configuration row that existed
before history tracking was installed, so each row's history starts from a
known state.
"""

from django.db import migrations

TABLES = [
    "audit_auditevent",
    "audit_auditcheckpoint",
    "audit_tablehistory",
    "audit_tablelimithistory",
    "audit_paytableversionhistory",
    "audit_userhistory",
    "audit_staffprofilehistory",
    "audit_stafftokenhistory",
    "audit_terminalhistory",
    "audit_dealerhistory",
]

FUNCTION = """
CREATE FUNCTION audit_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'TRUNCATE' AND current_setting('casino.allow_truncate', true) = 'on' THEN
        RETURN NULL;
    END IF;
    RAISE EXCEPTION '% on % is not allowed: the audit trail is append-only', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'insufficient_privilege';
END $$;
"""


def _guards(table):
    return f"""
CREATE TRIGGER {table}_append_only
    BEFORE UPDATE OR DELETE ON {table}
    FOR EACH ROW EXECUTE FUNCTION audit_refuse_change();
CREATE TRIGGER {table}_no_truncate
    BEFORE TRUNCATE ON {table}
    FOR EACH STATEMENT EXECUTE FUNCTION audit_refuse_change();
"""


def _drop_guards(table):
    return f"""
DROP TRIGGER {table}_no_truncate ON {table};
DROP TRIGGER {table}_append_only ON {table};
"""


FORWARD = FUNCTION + "".join(_guards(table) for table in TABLES)
BACKWARD = "".join(_drop_guards(table) for table in TABLES) + "DROP FUNCTION audit_refuse_change();"

HISTORY_MODELS = [
    "TableHistory",
    "TableLimitHistory",
    "PaytableVersionHistory",
    "UserHistory",
    "StaffProfileHistory",
    "StaffTokenHistory",
    "TerminalHistory",
    "DealerHistory",
]


def snapshot_existing_rows(apps, schema_editor):
    for name in HISTORY_MODELS:
        history = apps.get_model("audit", name)
        tracked = history._meta.get_field("pgh_obj").related_model
        columns = ", ".join(
            f'"{field.column}"'
            for field in history._meta.concrete_fields
            if not field.name.startswith("pgh_")
        )
        schema_editor.execute(
            f'INSERT INTO "{history._meta.db_table}" ("pgh_created_at", "pgh_label", "pgh_obj_id", {columns}) '  # noqa: S608
            f'SELECT now(), \'baseline\', "{tracked._meta.pk.column}", {columns} FROM "{tracked._meta.db_table}"'
        )


class Migration(migrations.Migration):
    dependencies = [("audit", "0001_initial")]

    operations = [
        migrations.RunPython(snapshot_existing_rows, migrations.RunPython.noop),
        migrations.RunSQL(FORWARD, BACKWARD),
    ]
