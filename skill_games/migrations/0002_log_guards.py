"""The database's own guarantees for the skill games (RULES.md §3: "state and score come from the
log alone"): the move log is append-only, a seat's token hash never changes, and a game's
committed deal (its kind, settings, start, deck order, salt and commitment) is fixed once the
game is created; a finished game stays finished with its score, and a revealed deck stays
revealed. What a move changes on the game row (`seq`, `due_at`, the end) can only go forward.

TRUNCATE is refused as on the ledger, except on a database its owner marked with
`casino.allow_truncate` (the test database)."""

from django.db import migrations

GUARDS = """
CREATE FUNCTION skill_games_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'TRUNCATE' AND current_setting('casino.allow_truncate', true) = 'on' THEN
        RETURN NULL;
    END IF;
    RAISE EXCEPTION '% on % is not allowed: the move log is append-only', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'insufficient_privilege';
END $$;

CREATE TRIGGER skill_games_move_append_only
    BEFORE UPDATE OR DELETE ON skill_games_move
    FOR EACH ROW EXECUTE FUNCTION skill_games_refuse_change();
CREATE TRIGGER skill_games_move_no_truncate
    BEFORE TRUNCATE ON skill_games_move
    FOR EACH STATEMENT EXECUTE FUNCTION skill_games_refuse_change();

CREATE FUNCTION skill_games_check_game_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.kind IS DISTINCT FROM OLD.kind
       OR NEW.settings IS DISTINCT FROM OLD.settings
       OR NEW.started_at IS DISTINCT FROM OLD.started_at
       OR NEW.ends_at IS DISTINCT FROM OLD.ends_at
       OR NEW.deck_order IS DISTINCT FROM OLD.deck_order
       OR NEW.salt_hex IS DISTINCT FROM OLD.salt_hex
       OR NEW.commitment IS DISTINCT FROM OLD.commitment
       OR NEW.created_at IS DISTINCT FROM OLD.created_at THEN
        RAISE EXCEPTION 'skill game %: its committed deal cannot change', OLD.id
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF NEW.seq < OLD.seq THEN
        RAISE EXCEPTION 'skill game %: seq % cannot go back to %', OLD.id, OLD.seq, NEW.seq
            USING ERRCODE = 'check_violation';
    END IF;
    IF OLD.state = 'finished' AND (
           NEW.state IS DISTINCT FROM OLD.state
           OR NEW.seq IS DISTINCT FROM OLD.seq
           OR NEW.score IS DISTINCT FROM OLD.score
           OR NEW.finished_at IS DISTINCT FROM OLD.finished_at
           OR NEW.end_reason IS DISTINCT FROM OLD.end_reason) THEN
        RAISE EXCEPTION 'skill game %: a finished game keeps its end and score', OLD.id
            USING ERRCODE = 'check_violation';
    END IF;
    IF OLD.revealed_at IS NOT NULL AND NEW.revealed_at IS DISTINCT FROM OLD.revealed_at THEN
        RAISE EXCEPTION 'skill game %: its reveal cannot change', OLD.id
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER skill_games_game_checked
    BEFORE UPDATE ON skill_games_game
    FOR EACH ROW EXECUTE FUNCTION skill_games_check_game_change();
CREATE TRIGGER skill_games_game_not_deleted
    BEFORE DELETE ON skill_games_game
    FOR EACH ROW EXECUTE FUNCTION skill_games_refuse_change();

CREATE FUNCTION skill_games_check_seat_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.game_id IS DISTINCT FROM OLD.game_id
       OR NEW.number IS DISTINCT FROM OLD.number
       OR NEW.key_prefix IS DISTINCT FROM OLD.key_prefix
       OR NEW.key_hash IS DISTINCT FROM OLD.key_hash THEN
        RAISE EXCEPTION 'seat % of skill game %: a seat and its token cannot change', OLD.number, OLD.game_id
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER skill_games_seat_checked
    BEFORE UPDATE ON skill_games_seat
    FOR EACH ROW EXECUTE FUNCTION skill_games_check_seat_change();
CREATE TRIGGER skill_games_seat_not_deleted
    BEFORE DELETE ON skill_games_seat
    FOR EACH ROW EXECUTE FUNCTION skill_games_refuse_change();
"""

UNDO = """
DROP TRIGGER skill_games_seat_not_deleted ON skill_games_seat;
DROP TRIGGER skill_games_seat_checked ON skill_games_seat;
DROP FUNCTION skill_games_check_seat_change();
DROP TRIGGER skill_games_game_not_deleted ON skill_games_game;
DROP TRIGGER skill_games_game_checked ON skill_games_game;
DROP FUNCTION skill_games_check_game_change();
DROP TRIGGER skill_games_move_no_truncate ON skill_games_move;
DROP TRIGGER skill_games_move_append_only ON skill_games_move;
DROP FUNCTION skill_games_refuse_change();
"""


class Migration(migrations.Migration):
    dependencies = [("skill_games", "0001_games_seats_moves")]

    operations = [migrations.RunSQL(GUARDS, UNDO)]
