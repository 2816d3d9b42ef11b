"""401 and 403 answers are security events: written to the audit trail in their own
transaction, so they survive the refused request's rollback."""

from typing import Any

from django.utils import timezone
from rest_framework.response import Response

from audit.context import actor_from_principal
from audit.services import record_rejection


def record_security_refusal(response: Response, context: dict[str, Any]) -> None:
    request = context.get("request")
    if request is None:
        return
    principal = getattr(request, "_user", None)  # never re-run authentication here
    terminal = getattr(principal, "terminal", None)
    record_rejection(
        event_type=f"security.{response.data['code']}",
        actor=actor_from_principal(principal) if principal is not None else None,
        table_id=terminal.table_id if terminal is not None else None,
        # The principal's terminal is loaded with its table (casino.api.authentication).
        table_name=terminal.table.name if terminal is not None else "",
        detail=f"{request.method} {request.path}: {response.data['detail']}"[:1000],
        occurred_at=timezone.now(),
    )
