"""How a refused dealer sign-in is counted and answered (README, Dealer sign-in and sessions)."""

from django.db import transaction
from django.utils import timezone
from rest_framework.exceptions import Throttled

from audit.context import AuditActor
from casino.models import Terminal
from casino.services import terminals
from kernel.errors import BadCredentialsError


def refused_sign_in(
    refused: terminals.SignInRefusedError, *, terminal: Terminal, actor: AuditActor
) -> BadCredentialsError | Throttled:
    """Count the refusal in a transaction of its own (the refused request's has rolled back and
    stored no answer for its Idempotency-Key) and give the error to answer with: a 401 (audited
    as every 401 is) or, for a throttled terminal, a 429 with `Retry-After`."""
    with transaction.atomic(durable=True):
        refusal = terminals.record_failed_sign_in(
            terminal=terminal, refused=refused, actor=actor, now=timezone.now()
        )
    if refusal.retry_after_seconds is not None:
        return Throttled(wait=refusal.retry_after_seconds, detail=refusal.detail, code=refusal.code)
    return BadCredentialsError(refusal.code, refusal.detail)
