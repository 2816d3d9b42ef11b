"""The base of every rule violation the engines raise.

Each subclass names one stable, snake_case `code` (the ones in API.md are used as
written) and lives next to the function that raises it. The API's exception
handler renders `code`, `detail` and `field` as problem+json.
"""

from typing import ClassVar


class RuleError(Exception):
    """A request broke a game rule; nothing was changed."""

    code: ClassVar[str] = "rule_violation"

    def __init__(self, detail: str, *, field: str | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.field = field

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, detail={self.detail!r}, field={self.field!r})"
