"""Dealer sign-in lockout and sessions that end (README, Dealer sign-in and sessions).

Failed sign-ins are counted on the dealer and on the terminal; a locked dealer waits for a
supervisor. A dealer is signed in at one terminal at a time (a partial unique constraint),
and the database itself ends a dealer's session when the dealer, the terminal or the table is
deactivated or the dealer's PIN changes, whoever makes the change: a service, the admin
site or plain SQL.
"""

from django.db import migrations, models

# Sessions from before the constraint: a dealer keeps only the latest one.
ONE_SESSION_PER_DEALER = """
UPDATE casino_terminal AS t SET dealer_id = NULL, dealer_signed_in_at = NULL
 WHERE t.dealer_id IS NOT NULL AND EXISTS (
     SELECT 1 FROM casino_terminal AS o
      WHERE o.dealer_id = t.dealer_id AND o.id <> t.id
        AND (COALESCE(o.dealer_signed_in_at, '-infinity'), o.id)
          > (COALESCE(t.dealer_signed_in_at, '-infinity'), t.id));
UPDATE casino_terminal SET dealer_seen_at = dealer_signed_in_at WHERE dealer_id IS NOT NULL;
"""

END_SESSIONS = """
CREATE FUNCTION casino_end_sessions_of_dealer() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE casino_terminal SET dealer_id = NULL, dealer_signed_in_at = NULL, dealer_seen_at = NULL
     WHERE dealer_id = NEW.id;
    RETURN NULL;
END $$;

CREATE TRIGGER casino_dealer_change_ends_sessions
    AFTER UPDATE OF pin_hash, is_active ON casino_dealer
    FOR EACH ROW
    WHEN (OLD.pin_hash IS DISTINCT FROM NEW.pin_hash OR (OLD.is_active AND NOT NEW.is_active))
    EXECUTE FUNCTION casino_end_sessions_of_dealer();

CREATE FUNCTION casino_end_session_at_table() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE casino_terminal SET dealer_id = NULL, dealer_signed_in_at = NULL, dealer_seen_at = NULL
     WHERE table_id = NEW.id AND dealer_id IS NOT NULL;
    RETURN NULL;
END $$;

CREATE TRIGGER casino_table_deactivation_ends_session
    AFTER UPDATE OF is_active ON casino_table
    FOR EACH ROW
    WHEN (OLD.is_active AND NOT NEW.is_active)
    EXECUTE FUNCTION casino_end_session_at_table();

CREATE FUNCTION casino_end_session_at_terminal() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.dealer_id := NULL;
    NEW.dealer_signed_in_at := NULL;
    NEW.dealer_seen_at := NULL;
    RETURN NEW;
END $$;

CREATE TRIGGER casino_terminal_deactivation_ends_session
    BEFORE UPDATE OF is_active ON casino_terminal
    FOR EACH ROW
    WHEN (OLD.is_active AND NOT NEW.is_active)
    EXECUTE FUNCTION casino_end_session_at_terminal();
"""

UNDO_END_SESSIONS = """
DROP TRIGGER casino_terminal_deactivation_ends_session ON casino_terminal;
DROP FUNCTION casino_end_session_at_terminal();
DROP TRIGGER casino_table_deactivation_ends_session ON casino_table;
DROP FUNCTION casino_end_session_at_table();
DROP TRIGGER casino_dealer_change_ends_sessions ON casino_dealer;
DROP FUNCTION casino_end_sessions_of_dealer();
"""


class Migration(migrations.Migration):
    dependencies = [
        ("casino", "0007_round_opening"),
    ]

    operations = [
        migrations.AddField(
            model_name="dealer",
            name="locked_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="dealer",
            name="sign_in_failures",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="dealer",
            name="sign_in_failures_since",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="terminal",
            name="dealer_seen_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="terminal",
            name="sign_in_failures",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="terminal",
            name="sign_in_failures_since",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunSQL(ONE_SESSION_PER_DEALER, migrations.RunSQL.noop),
        migrations.AddConstraint(
            model_name="terminal",
            constraint=models.UniqueConstraint(
                condition=models.Q(("dealer__isnull", False)),
                fields=("dealer",),
                name="terminal_one_per_dealer",
            ),
        ),
        migrations.RunSQL(END_SESSIONS, UNDO_END_SESSIONS),
    ]
