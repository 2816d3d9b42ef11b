"""The stored answer is kept as the JSON text first sent, so that a replay is byte for byte the
same (jsonb would reorder the keys); `idempotency_claim` returns it as text."""

from django.db import migrations, models

CLAIM = """
CREATE FUNCTION idempotency_claim(lock_id bigint, sender text, idempotency_key text)
RETURNS TABLE (acquired boolean, request_hash varchar, response_status smallint, response_body text)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    IF NOT pg_try_advisory_xact_lock(lock_id) THEN
        RETURN QUERY SELECT false, NULL::varchar, NULL::smallint, NULL::text;
        RETURN;
    END IF;
    RETURN QUERY
        SELECT true, r.request_hash, r.response_status::smallint, r.response_body
        FROM (SELECT 1) AS one
        LEFT JOIN casino_idempotencyrecord AS r ON r.scope = sender AND r.key = idempotency_key;
END
$$;
"""

PREVIOUS_CLAIM = """
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

DROP_CLAIM = "DROP FUNCTION idempotency_claim(bigint, text, text);"


class Migration(migrations.Migration):
    dependencies = [("kernel", "0002_idempotency_claim")]

    operations = [
        migrations.RunSQL(DROP_CLAIM, PREVIOUS_CLAIM),
        migrations.AlterField(model_name="idempotencyrecord", name="response_body", field=models.TextField()),
        migrations.RunSQL(CLAIM, DROP_CLAIM),
    ]
