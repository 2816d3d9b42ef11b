"""Errors the services raise for what is not a game rule: conflicts, missing rows, roles.

Each carries the HTTP status and the stable `code` of API.md; the API's exception
handler renders them as problem+json. Game-rule violations are `RuleError`s of
the engine (422).
"""


class ServiceError(Exception):
    status = 422

    def __init__(self, code: str, detail: str, *, field: str | None = None) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.field = field


class ConflictError(ServiceError):
    status = 409


class NotFoundError(ServiceError):
    status = 404


class ForbiddenError(ServiceError):
    status = 403


class BadCredentialsError(ServiceError):
    status = 401
