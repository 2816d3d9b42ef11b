"""The database's own guarantees for table money (DESIGN.md principles 4 and 6).

Buy-ins, inventory slips and voids are append-only: UPDATE and DELETE are refused (TRUNCATE only
where the test database allows it, through casino_refuse_change from 0002). A fill or credit slip
may change state (pending -> approved -> void) but is never deleted, and what it says (kind,
number, table, amount, chips, when and by whom it was requested) never changes.
"""

from django.db import migrations

GUARDS = """
CREATE TRIGGER casino_buyin_append_only
    BEFORE UPDATE OR DELETE ON casino_buyin
    FOR EACH ROW EXECUTE FUNCTION casino_refuse_change();
CREATE TRIGGER casino_tableinventory_append_only
    BEFORE UPDATE OR DELETE ON casino_tableinventory
    FOR EACH ROW EXECUTE FUNCTION casino_refuse_change();
CREATE TRIGGER casino_slipvoid_append_only
    BEFORE UPDATE OR DELETE ON casino_slipvoid
    FOR EACH ROW EXECUTE FUNCTION casino_refuse_change();
CREATE TRIGGER casino_chipslip_no_delete
    BEFORE DELETE ON casino_chipslip
    FOR EACH ROW EXECUTE FUNCTION casino_refuse_change();
CREATE TRIGGER casino_buyin_no_truncate
    BEFORE TRUNCATE ON casino_buyin
    FOR EACH STATEMENT EXECUTE FUNCTION casino_refuse_change();
CREATE TRIGGER casino_tableinventory_no_truncate
    BEFORE TRUNCATE ON casino_tableinventory
    FOR EACH STATEMENT EXECUTE FUNCTION casino_refuse_change();
CREATE TRIGGER casino_slipvoid_no_truncate
    BEFORE TRUNCATE ON casino_slipvoid
    FOR EACH STATEMENT EXECUTE FUNCTION casino_refuse_change();
CREATE TRIGGER casino_chipslip_no_truncate
    BEFORE TRUNCATE ON casino_chipslip
    FOR EACH STATEMENT EXECUTE FUNCTION casino_refuse_change();

CREATE FUNCTION casino_chipslip_keep_content() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (NEW.kind, NEW.number, NEW.table_id, NEW.amount_cents, NEW.chips::text, NEW.requested_at,
        NEW.gaming_day, NEW.shift, NEW.requested_by_terminal_id, NEW.requested_by_dealer_id,
        NEW.requested_by_user_id)
       IS DISTINCT FROM
       (OLD.kind, OLD.number, OLD.table_id, OLD.amount_cents, OLD.chips::text, OLD.requested_at,
        OLD.gaming_day, OLD.shift, OLD.requested_by_terminal_id, OLD.requested_by_dealer_id,
        OLD.requested_by_user_id) THEN
        RAISE EXCEPTION 'chip slip % may change state only, never its content', OLD.id
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF OLD.status = 'void' OR (OLD.status = 'approved' AND NEW.status = 'pending') THEN
        RAISE EXCEPTION 'chip slip % cannot go from % to %', OLD.id, OLD.status, NEW.status
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER casino_chipslip_keep_content
    BEFORE UPDATE ON casino_chipslip
    FOR EACH ROW EXECUTE FUNCTION casino_chipslip_keep_content();
"""

UNDO = """
DROP TRIGGER casino_chipslip_no_truncate ON casino_chipslip;
DROP TRIGGER casino_slipvoid_no_truncate ON casino_slipvoid;
DROP TRIGGER casino_tableinventory_no_truncate ON casino_tableinventory;
DROP TRIGGER casino_buyin_no_truncate ON casino_buyin;
DROP TRIGGER casino_chipslip_keep_content ON casino_chipslip;
DROP FUNCTION casino_chipslip_keep_content();
DROP TRIGGER casino_chipslip_no_delete ON casino_chipslip;
DROP TRIGGER casino_slipvoid_append_only ON casino_slipvoid;
DROP TRIGGER casino_tableinventory_append_only ON casino_tableinventory;
DROP TRIGGER casino_buyin_append_only ON casino_buyin;
"""


class Migration(migrations.Migration):
    dependencies = [("casino", "0003_accounting")]

    operations = [migrations.RunSQL(GUARDS, UNDO)]
