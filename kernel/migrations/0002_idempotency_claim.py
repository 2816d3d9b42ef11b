from django.db import migrations

# Take the (sender, key) lock without waiting and, only if it was taken, read the stored
# answer. A VOLATILE function reads with a fresh snapshot after the lock is held, so one
# statement does what otherwise takes two without missing an answer committed meanwhile.
CLAIM = """
CREATE FUNCTION idempotency_claim(lock_id bigint, sender text, idempotency_key text)
RETURNS TABLE (acquired boolean, request_hash varchar, response_status smallint, response_body jsonb)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    IF NOT pg_try_advisory_xact_lock(lock_id) THEN
        RETURN QUERY SELECT false, NULL::varchar, NULL::smallint, NULL::jsonb;
        RETURN;
    END IF;
    RETURN QUERY
        SELECT true, r.request_hash, r.response_status::smallint, r.response_body
        FROM (SELECT 1) AS one
        LEFT JOIN casino_idempotencyrecord AS r ON r.scope = sender AND r.key = idempotency_key;
END
$$;
"""


class Migration(migrations.Migration):
    dependencies = [("kernel", "0001_initial")]

    operations = [
        migrations.RunSQL(CLAIM, "DROP FUNCTION idempotency_claim(bigint, text, text);"),
    ]
