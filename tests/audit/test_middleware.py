"""Each request gets one correlation id, echoed back and stamped on its audit events."""

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory

from audit.context import current_request
from audit.middleware import (
    RequestContextMiddleware,
    client_address_from,
    idempotency_key_from,
    request_id_from,
)
from audit.models import AuditEvent
from audit.services import record_rejection
from tests.audit.conftest import MOMENT, append


def _run(view: Callable[[HttpRequest], HttpResponse], **meta: Any) -> HttpResponse:
    request = RequestFactory().post("/api/v1/rounds/", **meta)
    return RequestContextMiddleware(view)(request)


@pytest.mark.parametrize(
    ("header", "kept"),
    [
        ("abc-123", True),
        ("4f1c2a7e-52a1-4b0e-8a3f-1d2c3b4a5f60", True),
        ("trace.id:7_x", True),
        ("", False),
        ("has space", False),
        ("x" * 129, False),
        ("<script>", False),
        ("-leading-dash", False),
    ],
)
def test_request_id_is_the_clients_when_sane_else_a_new_uuid(header: str, kept: bool) -> None:
    value = request_id_from(header)

    if kept:
        assert value == header
    else:
        assert str(uuid.UUID(value)) == value


def test_client_address_and_idempotency_key_are_sanitised() -> None:
    assert client_address_from("2001:0db8:0000:0000:0000:0000:0000:0001") == "2001:db8::1"
    assert client_address_from("not an address") == ""
    assert client_address_from(None) == ""
    assert idempotency_key_from("k" * 255) == "k" * 255
    assert idempotency_key_from("k" * 256) == ""
    assert idempotency_key_from("bad\nkey") == ""


def test_context_is_bound_for_the_request_only_and_the_id_echoed() -> None:
    seen = {}

    def view(request: HttpRequest) -> HttpResponse:
        seen["context"] = current_request()
        return HttpResponse("ok")

    response = _run(view, HTTP_X_REQUEST_ID="req-7", HTTP_IDEMPOTENCY_KEY="key-7", REMOTE_ADDR="10.9.8.7")

    assert response["X-Request-ID"] == "req-7"
    assert (seen["context"].request_id, seen["context"].client_address, seen["context"].idempotency_key) == (
        "req-7",
        "10.9.8.7",
        "key-7",
    )
    assert current_request().request_id == ""


def test_a_fresh_id_is_issued_and_echoed_when_none_is_given() -> None:
    response = _run(lambda request: HttpResponse("ok"))

    assert uuid.UUID(response["X-Request-ID"])


@pytest.mark.django_db
def test_events_of_the_request_carry_its_values_and_a_rejection_outlives_its_rollback() -> None:
    def view(request: HttpRequest) -> HttpResponse:
        append()
        try:
            with transaction.atomic():
                append(subject_id="undone")
                record_rejection(
                    event_type="casino.table.wrong_terminal",
                    actor=None,
                    table_id=None,
                    table_name="",
                    detail="terminal T-1 acted on table 9",
                    occurred_at=MOMENT,
                )
                raise PermissionError
        except PermissionError:
            return HttpResponse(status=403)

    response = _run(view, HTTP_X_REQUEST_ID="req-8", REMOTE_ADDR="10.0.0.8")

    assert response.status_code == 403
    events = list(
        AuditEvent.objects.order_by("seq").values_list("seq", "kind", "request_id", "client_address")
    )
    assert events == [(1, "change", "req-8", "10.0.0.8"), (2, "rejection", "req-8", "10.0.0.8")]
