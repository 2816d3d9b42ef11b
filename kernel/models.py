"""Stored responses of idempotent POSTs, committed with the change they made."""

from django.db import models


class IdempotencyRecord(models.Model):
    # Who sent it: "terminal:<id>" or "user:<id>"; keys are scoped to their sender.
    scope = models.CharField(max_length=64)
    key = models.CharField(max_length=255)
    method = models.CharField(max_length=8)
    path = models.CharField(max_length=255)
    request_hash = models.CharField(max_length=64)
    response_status = models.PositiveSmallIntegerField()
    # The JSON text as first sent: a replay answers the same bytes (jsonb would reorder keys).
    response_body = models.TextField()
    created_at = models.DateTimeField()

    class Meta:
        db_table = "casino_idempotencyrecord"  # created by the casino app before the kernel had its own
        constraints = [
            models.UniqueConstraint(fields=["scope", "key"], name="idempotency_key_unique_per_sender")
        ]
