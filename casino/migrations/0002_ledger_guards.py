"""The database's own guarantees for the ledger (DESIGN.md principle 4):
every transaction balances at commit, and posted rows never change."""

from django.db import migrations

BALANCE_CHECK = """
CREATE FUNCTION casino_ledger_check_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    total bigint;
    entry_count integer;
BEGIN
    SELECT COALESCE(SUM(amount_cents), 0), COUNT(*) INTO total, entry_count
      FROM casino_ledgerentry WHERE transaction_id = NEW.transaction_id;
    IF total <> 0 THEN
        RAISE EXCEPTION 'ledger transaction % does not balance: entries sum to % cents',
            NEW.transaction_id, total USING ERRCODE = 'check_violation';
    END IF;
    IF entry_count < 2 THEN
        RAISE EXCEPTION 'ledger transaction % has fewer than two entries', NEW.transaction_id
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER casino_ledgerentry_balanced
    AFTER INSERT ON casino_ledgerentry
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION casino_ledger_check_balanced();

CREATE FUNCTION casino_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- Only a test database, marked so by its owner (ALTER DATABASE ... SET), may be reset.
    IF TG_OP = 'TRUNCATE' AND current_setting('casino.allow_truncate', true) = 'on' THEN
        RETURN NULL;
    END IF;
    RAISE EXCEPTION '% on % is not allowed: the ledger is append-only', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'insufficient_privilege';
END $$;

CREATE TRIGGER casino_ledgerentry_append_only
    BEFORE UPDATE OR DELETE ON casino_ledgerentry
    FOR EACH ROW EXECUTE FUNCTION casino_refuse_change();
CREATE TRIGGER casino_ledgerentry_no_truncate
    BEFORE TRUNCATE ON casino_ledgerentry
    FOR EACH STATEMENT EXECUTE FUNCTION casino_refuse_change();
CREATE TRIGGER casino_ledgertransaction_append_only
    BEFORE UPDATE OR DELETE ON casino_ledgertransaction
    FOR EACH ROW EXECUTE FUNCTION casino_refuse_change();
CREATE TRIGGER casino_ledgertransaction_no_truncate
    BEFORE TRUNCATE ON casino_ledgertransaction
    FOR EACH STATEMENT EXECUTE FUNCTION casino_refuse_change();
"""

UNDO = """
DROP TRIGGER casino_ledgertransaction_no_truncate ON casino_ledgertransaction;
DROP TRIGGER casino_ledgertransaction_append_only ON casino_ledgertransaction;
DROP TRIGGER casino_ledgerentry_no_truncate ON casino_ledgerentry;
DROP TRIGGER casino_ledgerentry_append_only ON casino_ledgerentry;
DROP TRIGGER casino_ledgerentry_balanced ON casino_ledgerentry;
DROP FUNCTION casino_refuse_change();
DROP FUNCTION casino_ledger_check_balanced();
"""


def create_cage(apps, schema_editor):
    apps.get_model("casino", "Account").objects.get_or_create(kind="cage", table=None)


class Migration(migrations.Migration):
    dependencies = [("casino", "0001_initial")]

    operations = [
        migrations.RunSQL(BALANCE_CHECK, UNDO),
        migrations.RunPython(create_cage, migrations.RunPython.noop),
    ]
