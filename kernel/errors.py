"""The one family of errors a request is refused with.

A `CodedError` carries a stable snake_case `code` (API.md's, used as written), a sentence for
people (`detail`) and the field it concerns, if any; when one is raised, nothing was changed.
The game rules raise `RuleError`s (`casino.engine.errors`, in the pure engines) and the services
raise the `ServiceError`s below; both are `CodedError`s. Neither says which HTTP status it is:
only the API's problem handler chooses that (`kernel.problems.status_of`). The console and the
operator commands catch `CodedError` and show `detail`.
"""

from typing import ClassVar


class CodedError(Exception):
    code: str = "refused"
    # Whether the problem's `errors` lists the error even without a field (with field "").
    listed_without_field: ClassVar[bool] = False

    def __init__(self, detail: str, *, code: str | None = None, field: str | None = None) -> None:
        super().__init__(detail)
        if code is not None:
            self.code = code
        self.detail = detail
        self.field = field

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, detail={self.detail!r}, field={self.field!r})"


class ServiceError(CodedError):
    """A refusal that is not a game rule: a conflict, a missing row, a role, a value out of range."""

    def __init__(self, code: str, detail: str, *, field: str | None = None) -> None:
        super().__init__(detail, code=code, field=field)


class ConflictError(ServiceError):
    """The request collides with the state of things (409): a busy table, a stale round."""


class NotFoundError(ServiceError):
    """What the request names does not exist, or not for this caller (404)."""


class ForbiddenError(ServiceError):
    """The caller may not do this (403)."""


class BadCredentialsError(ServiceError):
    """A badge, a PIN or a password that does not match (401)."""


def given_reason(reason: str, *, max_length: int) -> str:
    """The reason a change is made, stripped; `reason_required` when it is blank or longer than
    `max_length` characters."""
    reason = reason.strip()
    if not reason or len(reason) > max_length:
        raise ServiceError(
            "reason_required", f"Give the reason, 1 to {max_length} characters.", field="reason"
        )
    return reason
