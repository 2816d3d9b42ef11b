"""The database's own guarantees for the points ledger (RULES.md §2: "every change of a balance
is a recorded entry, never an overwritten number"): entries are numbered 1, 2, 3... per match,
each entry's balance is the seat's previous balance plus its delta, the match opens with one
start entry per seat before any other, and nothing is ever changed or removed. A player's
special card, once used, stays used; a round's events are never changed."""

from django.db import migrations

GUARDS = """
CREATE FUNCTION specials_points_check_entry() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    last_seq integer;
    previous integer;
BEGIN
    PERFORM 1 FROM specials_match WHERE id = NEW.match_id FOR UPDATE;
    SELECT COALESCE(MAX(seq), 0) INTO last_seq FROM specials_pointsentry WHERE match_id = NEW.match_id;
    IF NEW.seq <> last_seq + 1 THEN
        RAISE EXCEPTION 'points entry % of match % follows entry %', NEW.seq, NEW.match_id, last_seq
            USING ERRCODE = 'check_violation';
    END IF;
    SELECT balance INTO previous FROM specials_pointsentry
     WHERE match_id = NEW.match_id AND seat = NEW.seat ORDER BY seq DESC LIMIT 1;
    IF NEW.reason = 'start' THEN
        IF previous IS NOT NULL OR NEW.balance <> NEW.delta THEN
            RAISE EXCEPTION 'seat % of match % already has a start entry or its balance is not its delta',
                NEW.seat, NEW.match_id USING ERRCODE = 'check_violation';
        END IF;
    ELSIF previous IS NULL OR NEW.balance <> previous + NEW.delta THEN
        RAISE EXCEPTION 'points entry % of match %: balance % is not % + %', NEW.seq, NEW.match_id,
            NEW.balance, previous, NEW.delta USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER specials_pointsentry_checked
    BEFORE INSERT ON specials_pointsentry
    FOR EACH ROW EXECUTE FUNCTION specials_points_check_entry();

CREATE TRIGGER specials_pointsentry_append_only
    BEFORE UPDATE OR DELETE ON specials_pointsentry
    FOR EACH ROW EXECUTE FUNCTION casino_refuse_change();
CREATE TRIGGER specials_pointsentry_no_truncate
    BEFORE TRUNCATE ON specials_pointsentry
    FOR EACH STATEMENT EXECUTE FUNCTION casino_refuse_change();
CREATE TRIGGER specials_roundevent_append_only
    BEFORE UPDATE OR DELETE ON specials_specialsroundevent
    FOR EACH ROW EXECUTE FUNCTION casino_refuse_change();
CREATE TRIGGER specials_roundevent_no_truncate
    BEFORE TRUNCATE ON specials_specialsroundevent
    FOR EACH STATEMENT EXECUTE FUNCTION casino_refuse_change();

CREATE FUNCTION specials_special_used_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.special_used_in_id IS NOT NULL
       AND NEW.special_used_in_id IS DISTINCT FROM OLD.special_used_in_id THEN
        RAISE EXCEPTION 'the special card of seat % in match % is already used', OLD.seat, OLD.match_id
            USING ERRCODE = 'check_violation';
    END IF;
    IF NEW.special IS DISTINCT FROM OLD.special THEN
        RAISE EXCEPTION 'the special card of seat % in match % cannot change', OLD.seat, OLD.match_id
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER specials_matchplayer_special_used_once
    BEFORE UPDATE ON specials_matchplayer
    FOR EACH ROW EXECUTE FUNCTION specials_special_used_once();
"""

UNDO = """
DROP TRIGGER specials_matchplayer_special_used_once ON specials_matchplayer;
DROP FUNCTION specials_special_used_once();
DROP TRIGGER specials_roundevent_no_truncate ON specials_specialsroundevent;
DROP TRIGGER specials_roundevent_append_only ON specials_specialsroundevent;
DROP TRIGGER specials_pointsentry_no_truncate ON specials_pointsentry;
DROP TRIGGER specials_pointsentry_append_only ON specials_pointsentry;
DROP TRIGGER specials_pointsentry_checked ON specials_pointsentry;
DROP FUNCTION specials_points_check_entry();
"""


class Migration(migrations.Migration):
    dependencies = [
        ("specials", "0001_matches_rounds_points"),
        ("casino", "0002_ledger_guards"),
    ]

    operations = [migrations.RunSQL(GUARDS, UNDO)]
