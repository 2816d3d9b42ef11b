"""Every API error as `application/problem+json` (RFC 9457) with a stable `code`.

One handler renders validation errors, authentication and permission failures,
unknown paths and methods, unsupported media types, parse errors, engine rule
errors and anything unexpected. Nothing reaches Django's HTML 500 page.
"""

import logging
from collections.abc import Callable, Iterator
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.template import TemplateDoesNotExist, loader
from django.views import csrf, defaults
from rest_framework import exceptions
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from kernel.errors import BadCredentialsError, CodedError, ConflictError, ForbiddenError, NotFoundError

logger = logging.getLogger(__name__)

PROBLEM_CONTENT_TYPE = "application/problem+json"

_CODES_BY_EXCEPTION: list[tuple[type[exceptions.APIException], str]] = [
    (exceptions.ParseError, "malformed_request"),
    (exceptions.NotAuthenticated, "not_authenticated"),
    (exceptions.AuthenticationFailed, "authentication_failed"),
    (exceptions.PermissionDenied, "permission_denied"),
    (exceptions.NotFound, "not_found"),
    (exceptions.MethodNotAllowed, "method_not_allowed"),
    (exceptions.NotAcceptable, "not_acceptable"),
    (exceptions.UnsupportedMediaType, "unsupported_media_type"),
    (exceptions.Throttled, "throttled"),
    (exceptions.ValidationError, "validation_error"),
]


# The status of each kind of refusal; any other coded error is 422.
_STATUS_OF_KIND: tuple[tuple[type[CodedError], int], ...] = (
    (BadCredentialsError, 401),
    (ForbiddenError, 403),
    (NotFoundError, 404),
    (ConflictError, 409),
)
# The codes API.md answers with another status than their kind's (registered by the apps that
# raise them, from their AppConfig.ready), and who listens to refusals: the kernel knows no game
# and no audit trail.
_status_of_code: dict[str, int] = {}
_refusal_listeners: list[Callable[[Response, dict[str, Any]], None]] = []


def answer_code_with(code: str, status: int) -> None:
    """API.md answers the coded error `code` with `status` (e.g. a rule error that is a 409)."""
    _status_of_code[code] = status


def status_of(error: CodedError) -> int:
    """The HTTP status of a coded error: chosen here and nowhere else."""
    status = _status_of_code.get(error.code)
    if status is not None:
        return status
    return next((status for kind, status in _STATUS_OF_KIND if isinstance(error, kind)), 422)


def on_refusal(listener: Callable[[Response, dict[str, Any]], None]) -> None:
    """Call `listener(response, context)` for every 401 and 403 the API answers."""
    _refusal_listeners.append(listener)


class ProblemError(exceptions.APIException):
    """An API error with a stable code, raised by views and services alike."""

    def __init__(
        self,
        *,
        status_code: int,
        code: str,
        detail: str,
        errors: list[dict[str, str]] | None = None,
        title: str | None = None,
    ) -> None:
        super().__init__(detail=detail, code=code)
        self.status_code = status_code
        self.problem_code = code
        self.errors = errors or []
        self.title = title


def problem(
    *,
    status_code: int,
    code: str,
    detail: str,
    errors: list[dict[str, str]] | None = None,
    title: str | None = None,
    headers: dict[str, str] | None = None,
) -> Response:
    body = {
        "type": "about:blank",
        "title": title or _title_for(status_code),
        "status": status_code,
        "detail": printable(detail),
        "code": code,
        "errors": [{key: printable(text) for key, text in error.items()} for error in errors or []],
    }
    return ProblemResponse(body, status=status_code, headers=headers, content_type=PROBLEM_CONTENT_TYPE)


class ProblemResponse(Response):
    """A problem, rendered as problem+json whatever the request asked for: DRF would render an error
    with the renderer it negotiated (YAML for `?format=yaml` on the schema, an HTML page on the docs,
    plain text on a 406), so `?format=`, a format suffix or an `Accept` header never changes how an
    error reads."""

    @property
    def rendered_content(self) -> Any:
        self.accepted_renderer = JSONRenderer()
        self.accepted_media_type = PROBLEM_CONTENT_TYPE
        return super().rendered_content


def printable(text: str) -> str:
    """`text` as valid UTF-8: a lone surrogate an error message quotes is written as `\\udXXX`."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _too_large() -> "ProblemError":
    return ProblemError(
        status_code=413,
        code="request_too_large",
        detail=f"The body is larger than {settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes.",
    )


def _title_for(status_code: int) -> str:
    from http import HTTPStatus

    try:
        return HTTPStatus(status_code).phrase
    except ValueError:
        return "Error"


def _flatten(detail: Any, field: str = "") -> Iterator[dict[str, str]]:
    if isinstance(detail, dict):
        for key, value in detail.items():
            name = key if not field else f"{field}.{key}"
            if key in ("non_field_errors", "__all__"):
                name = field
            yield from _flatten(value, name)
    elif isinstance(detail, list):
        if all(isinstance(item, exceptions.ErrorDetail | str) for item in detail):
            for item in detail:
                yield from _flatten(item, field)
        else:
            for index, item in enumerate(detail):
                yield from _flatten(item, f"{field}[{index}]" if field else f"[{index}]")
    else:
        code = getattr(detail, "code", None) or "invalid"
        yield {"field": field, "code": str(code), "message": str(detail)}


def problem_exception_handler(exc: Exception, context: dict[str, Any]) -> Response:
    response = _problem_for(exc, context)
    if response.status_code in (401, 403):
        for listener in _refusal_listeners:
            listener(response, context)
    return response


def _problem_for(exc: Exception, context: dict[str, Any]) -> Response:
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, RequestDataTooBig):
        exc = _too_large()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()

    if isinstance(exc, ProblemError):
        return problem(
            status_code=exc.status_code,
            code=exc.problem_code,
            detail=str(exc.detail),
            errors=exc.errors,
            title=exc.title,
        )

    if isinstance(exc, exceptions.APIException):
        code = next((c for cls, c in _CODES_BY_EXCEPTION if isinstance(exc, cls)), "error")
        own_code = getattr(exc.detail, "code", None)
        if isinstance(own_code, str) and own_code != exc.default_code:
            code = own_code  # a permission class's own code, e.g. dealer_not_signed_in
        headers: dict[str, str] = {}
        if isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
            headers["WWW-Authenticate"] = "Token"
        if isinstance(exc, exceptions.ValidationError):
            errors = list(_flatten(exc.detail))
            return problem(
                status_code=400, code=code, detail="The request is invalid.", errors=errors, headers=headers
            )
        if getattr(exc, "wait", None):
            headers["Retry-After"] = str(int(exc.wait))  # type: ignore[attr-defined]
        detail = (
            exc.detail
            if isinstance(exc.detail, str)
            else "; ".join(e["message"] for e in _flatten(exc.detail))
        )
        return problem(status_code=exc.status_code, code=code, detail=str(detail), headers=headers)

    if isinstance(exc, CodedError):
        status = status_of(exc)
        listed = bool(exc.field) or exc.listed_without_field
        # An error that names several fields lists them all (`invalid_tournament`); else its one field.
        errors = getattr(exc, "errors", None) or (
            [{"field": exc.field or "", "code": exc.code, "message": exc.detail}] if listed else []
        )
        return problem(
            status_code=status,
            code=exc.code,
            detail=exc.detail,
            errors=errors,
            headers={"WWW-Authenticate": "Token"} if status == 401 else None,
        )

    logger.exception("unexpected error in %s", context.get("view"))
    return problem(
        status_code=500, code="internal_error", detail="The server could not complete the request."
    )


def _plain_problem(request: HttpRequest, *, status_code: int, code: str, detail: str) -> JsonResponse:
    body = {
        "type": "about:blank",
        "title": _title_for(status_code),
        "status": status_code,
        "detail": detail,
        "code": code,
        "errors": [],
    }
    return JsonResponse(body, status=status_code, content_type=PROBLEM_CONTENT_TYPE)


# Django's own error views, for errors raised outside DRF (unknown URLs, CSRF,
# middleware): API paths get problem+json, the admin site keeps its HTML pages.
def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _is_api(request):
        return _plain_problem(request, status_code=404, code="not_found", detail="No such resource.")
    return defaults.page_not_found(request, exception or Http404())


def server_error(request: HttpRequest) -> HttpResponse:
    if _is_api(request):
        return _plain_problem(
            request,
            status_code=500,
            code="internal_error",
            detail="The server could not complete the request.",
        )
    return _page("500.html", status_code=500)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _is_api(request) and isinstance(exception, RequestDataTooBig):
        too_large = _too_large()
        return _plain_problem(
            request, status_code=413, code=too_large.problem_code, detail=str(too_large.detail)
        )
    if _is_api(request):
        return _plain_problem(
            request, status_code=400, code="malformed_request", detail="The request is malformed."
        )
    return _page("400.html", status_code=400)


def refuse_request(request: HttpRequest, *, code: str, detail: str) -> HttpResponse:
    """A 400 answered before any view runs (a middleware's refusal): problem+json with `code` on
    API paths, the plain 400 page elsewhere."""
    if _is_api(request):
        return _plain_problem(request, status_code=400, code=code, detail=printable(detail))
    return _page("400.html", status_code=400)


def _page(template_name: str, *, status_code: int) -> HttpResponse:
    """A 400 or 500 page as Django's own views render it (no context), without their CSRF
    decorator: it reads the form body again, and a body that could not be read the first time
    then turned every 400 into a 500."""
    try:
        body = loader.get_template(template_name).render()
    except TemplateDoesNotExist:
        body = f"<h1>{_title_for(status_code)} ({status_code})</h1>"
    return HttpResponse(body, status=status_code)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _is_api(request):
        return _plain_problem(request, status_code=403, code="permission_denied", detail="Permission denied.")
    return defaults.permission_denied(request, exception or DjangoPermissionDenied())


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    if _is_api(request):
        return _plain_problem(
            request, status_code=403, code="csrf_failed", detail=f"CSRF check failed: {reason}"
        )
    return csrf.csrf_failure(request, reason)
