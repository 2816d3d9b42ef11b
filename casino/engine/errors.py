"""The base of every rule violation the engines raise.

Each subclass names one stable, snake_case `code` (the ones in API.md are used as
written) and lives next to the function that raises it. A `RuleError` is a
`kernel.errors.CodedError`, the one family the services raise too; the API's
problem handler renders `code`, `detail` and `field` as problem+json.
"""

from kernel.errors import CodedError


class RuleError(CodedError):
    """A request broke a game rule; nothing was changed."""

    code = "rule_violation"
    # A rule error names its field in `errors` always, "" for the whole request: the shape the
    # dealer terminals have read since the first release.
    listed_without_field = True

    def __init__(self, detail: str, *, field: str | None = None) -> None:
        super().__init__(detail, field=field)
