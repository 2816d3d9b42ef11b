"""One correlation context per request, for the audit trail and the configuration history.

Binds the request id (the client's `X-Request-ID` when it is a sane value, else
a new UUID; echoed in the response), the client address and the
`Idempotency-Key` for `audit.services`; opens pghistory's context so every
history row the request causes carries the same values and, once known, the
caller (staff user and role, or terminal and signed-in dealer); and holds
rejections recorded inside a transaction until the request's transactions are
over (`audit.services.deferred_rejections`).

The history context costs one extra statement before every query of the request,
so views that change no configuration (the dealer terminal's hot paths) opt out
with `records_configuration_history = False` on their class; the history triggers
still record any change, only without the request's context.

Place it after `AuthenticationMiddleware`, so admin users are known from the start.
"""

import ipaddress
import re
import uuid
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

import pghistory
from django.http import HttpRequest, HttpResponse

from audit.context import bind_request, staff_role
from audit.services import deferred_rejections

REQUEST_ID_HEADER = "X-Request-ID"
IDEMPOTENCY_HEADER = "Idempotency-Key"
_SANE_REQUEST_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:\-]{0,127}$")


def request_id_from(header: str | None) -> str:
    if header and _SANE_REQUEST_ID.match(header):
        return header
    return str(uuid.uuid4())


def client_address_from(remote_addr: str | None) -> str:
    try:
        return str(ipaddress.ip_address((remote_addr or "").strip()))
    except ValueError:
        return ""


def idempotency_key_from(header: str | None) -> str:
    if not header or len(header) > 255 or not header.isprintable():
        return ""
    return header


class RequestContextMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = request_id_from(request.headers.get(REQUEST_ID_HEADER))
        client_address = client_address_from(request.META.get("REMOTE_ADDR"))
        idempotency_key = idempotency_key_from(request.headers.get(IDEMPOTENCY_HEADER))
        request.request_id = request_id  # type: ignore[attr-defined]
        with (
            bind_request(
                request_id=request_id, client_address=client_address, idempotency_key=idempotency_key
            ),
            deferred_rejections(),
            ExitStack() as history_scope,
        ):
            request._history_scope = history_scope  # type: ignore[attr-defined]  # entered in process_view
            request._history_metadata = {  # type: ignore[attr-defined]
                "request_id": request_id,
                "client_address": client_address,
                "idempotency_key": idempotency_key,
                "method": request.method,
                "url": request.path[:500],
            }
            response = self.get_response(request)
        response[REQUEST_ID_HEADER] = request_id
        return response

    def process_view(self, request: HttpRequest, view_func: Callable[..., Any], *args: Any) -> None:
        view_class = getattr(view_func, "cls", None) or getattr(view_func, "view_class", None)
        if not getattr(view_class, "records_configuration_history", True):
            return
        scope: ExitStack | None = getattr(request, "_history_scope", None)
        if scope is None:
            return
        scope.enter_context(pghistory.context(**request._history_metadata))  # type: ignore[attr-defined]
        if hasattr(request, "user"):
            note_caller(request.user)
        _watch_user_assignments(request)


def note_caller(caller: Any) -> None:
    """Add who is calling to the history context: a DRF Principal or a Django user."""
    if caller is None:
        return
    terminal = getattr(caller, "terminal", None)
    if terminal is not None:
        dealer = getattr(terminal, "dealer", None)
        pghistory.context(
            actor_kind="terminal",
            terminal=terminal.pk,
            terminal_name=terminal.name,
            dealer_badge=dealer.badge if dealer else "",
        )
        return
    user = getattr(caller, "user", None) if hasattr(caller, "scope") else caller
    if user is None or not getattr(user, "is_authenticated", False) or getattr(user, "pk", None) is None:
        return
    role = getattr(caller, "role", None) if user is not caller else None
    if role is None:
        role = staff_role(user)
    pghistory.context(actor_kind="user", user=user.pk, username=user.get_username(), role=role)


class _NotesUserAssignment:
    """Mixed into the request's class: DRF authenticates inside the view and then sets
    `request.user` on the Django request too; that assignment names the caller."""

    def __setattr__(self, name: str, value: Any) -> None:
        super().__setattr__(name, value)
        if name == "user":
            note_caller(value)


_watched_classes: dict[type, type] = {}


def _watch_user_assignments(request: HttpRequest) -> None:
    cls = type(request)
    if issubclass(cls, _NotesUserAssignment):
        return
    watched = _watched_classes.get(cls)
    if watched is None:
        watched = type(f"Audited{cls.__name__}", (_NotesUserAssignment, cls), {})
        _watched_classes[cls] = watched
    request.__class__ = watched
