"""401 and 403 answers are security events, counted and recorded in their own transaction, so
they survive the refused request's rollback (`audit.services.record_refusal`).

A request without valid credentials is only counted, per client address and minute, and
summarised once a minute: a flood of bad tokens cannot fill the audit trail or hold its locks.
A refused authenticated caller's first refusals of a minute are also recorded one by one.
"""

from typing import Any

from django.utils import timezone
from rest_framework.response import Response

from audit.context import actor_from_principal
from audit.services import Refusal, record_refusal


def record_security_refusal(response: Response, context: dict[str, Any]) -> None:
    request = context.get("request")
    if request is None:
        return
    principal = getattr(request, "_user", None)  # never re-run authentication here
    terminal = getattr(principal, "terminal", None)
    record_refusal(
        Refusal(
            code=str(response.data["code"]),
            actor=actor_from_principal(principal) if principal is not None else None,
            table_id=terminal.table_id if terminal is not None else None,
            # The principal's terminal is loaded with its table (casino.api.authentication).
            table_name=terminal.table.name if terminal is not None else "",
            detail=f"{request.method} {request.path}: {response.data['detail']}"[:1000],
            occurred_at=timezone.now(),
        )
    )
