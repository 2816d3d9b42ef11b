"""The guard of 0002 over the committed deal, on the deal's new columns (0003): a game's decks,
salts and commitments never change once it is created, and its decks are revealed one way only
(`decks_revealed` never goes back; the reveal's time, once set, stays)."""

from django.db import migrations

CHECK_GAME_CHANGE = """
CREATE OR REPLACE FUNCTION skill_games_check_game_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.kind IS DISTINCT FROM OLD.kind
       OR NEW.settings IS DISTINCT FROM OLD.settings
       OR NEW.started_at IS DISTINCT FROM OLD.started_at
       OR NEW.ends_at IS DISTINCT FROM OLD.ends_at
       OR NEW.{decks} IS DISTINCT FROM OLD.{decks}
       OR NEW.{salts} IS DISTINCT FROM OLD.{salts}
       OR NEW.{commitments} IS DISTINCT FROM OLD.{commitments}
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
    IF (OLD.revealed_at IS NOT NULL AND NEW.revealed_at IS DISTINCT FROM OLD.revealed_at){revealed} THEN
        RAISE EXCEPTION 'skill game %: its reveal cannot change', OLD.id
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END $$;
"""

GUARD = CHECK_GAME_CHANGE.format(
    decks="decks",
    salts="salts",
    commitments="commitments",
    revealed="\n       OR NEW.decks_revealed < OLD.decks_revealed",
)
# 0002's function, for going back (0003's reverse brings its columns back before a row changes).
UNDO = CHECK_GAME_CHANGE.format(decks="deck_order", salts="salt_hex", commitments="commitment", revealed="")


class Migration(migrations.Migration):
    dependencies = [("skill_games", "0003_match_decks")]

    operations = [migrations.RunSQL(GUARD, UNDO)]
