"""Who acts, and for which request: the values every audit event carries.

`AuditActor` is passed explicitly by the services that record events. The
request's correlation values (request id, client address, idempotency key) are
bound once per request by `audit.middleware.RequestContextMiddleware` (or by
`bind_request` in a task or command) and read by `audit.services` when it
writes an event, so no service has to thread them through its arguments.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

ACTOR_KINDS = ("terminal", "user", "system")
COMPLIANCE_ROLE = "compliance"  # the staff role that reads the audit trail (DESIGN.md, Roles)


@dataclass(frozen=True)
class AuditActor:
    """The device and the person behind a change.

    A terminal acts with the dealer signed in on it (if any); a staff member acts
    as a user with a role; jobs and provisioning act as "system".
    """

    kind: str
    terminal_id: int | None = None
    terminal_name: str = ""
    user_id: int | None = None
    username: str = ""
    role: str = ""
    dealer_id: int | None = None
    dealer_badge: str = ""

    def __post_init__(self) -> None:
        if self.kind not in ACTOR_KINDS:
            raise ValueError(f"AuditActor.kind must be one of {', '.join(ACTOR_KINDS)}, not {self.kind!r}")


@dataclass(frozen=True)
class RequestContext:
    request_id: str = ""
    client_address: str = ""
    idempotency_key: str = ""


_NO_REQUEST = RequestContext()
_current: ContextVar[RequestContext] = ContextVar("audit_request_context", default=_NO_REQUEST)


@contextmanager
def bind_request(
    *, request_id: str, client_address: str, idempotency_key: str = ""
) -> Iterator[RequestContext]:
    """Bind the correlation values of one request (or task) for the duration of the block."""
    context = RequestContext(
        request_id=request_id, client_address=client_address, idempotency_key=idempotency_key
    )
    token = _current.set(context)
    try:
        yield context
    finally:
        _current.reset(token)


def current_request() -> RequestContext:
    """The bound request's values; empty strings when nothing is bound."""
    return _current.get()


def staff_role(user: object) -> str:
    """The staff role of a Django user ("" for none), read through the `staff` profile relation
    by name, so the audit trail needs no game app's models."""
    return str(getattr(getattr(user, "staff", None), "role", "") or "")


def actor_from_principal(principal: object) -> AuditActor:
    """The actor for an API caller (`casino.api.authentication.Principal`, duck-typed)."""
    terminal = getattr(principal, "terminal", None)
    if terminal is not None:
        dealer = getattr(terminal, "dealer", None)
        return AuditActor(
            kind="terminal",
            terminal_id=terminal.pk,
            terminal_name=terminal.name,
            dealer_id=dealer.pk if dealer else None,
            dealer_badge=dealer.badge if dealer else "",
        )
    user = getattr(principal, "user", None)
    if user is None:
        return AuditActor(kind="system")
    return AuditActor(
        kind="user",
        user_id=user.pk,
        username=user.get_username(),
        role=getattr(principal, "role", None) or "",
    )
