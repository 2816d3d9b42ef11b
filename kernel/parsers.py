"""The API's one body parser: a JSON object in UTF-8, nested at most `MAX_DEPTH` deep.

Anything else is refused before a view sees it, with `400 malformed_request` and a message that
never repeats the offending text: a body that is not an object (`[]`, `null`, `0`, `""`), JSON
nested deeper than any request of API.md needs, bytes that are not UTF-8, and strings holding a
lone surrogate (`"\\ud800"`), which can be neither stored nor written back as UTF-8. The size
limit is Django's `DATA_UPLOAD_MAX_MEMORY_SIZE`: DRF reads a JSON body through `request.body`,
which refuses a larger body (or a `Content-Length` claiming one) with `RequestDataTooBig`, and
`kernel.problems` answers that with `413 request_too_large`.
"""

import json
from collections.abc import Mapping
from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

# The deepest body of API.md (a round's seats, wagers and their fields) is 4 levels deep.
MAX_DEPTH = 64

_CONTAINERS = (dict, list)


class MalformedBodyError(ParseError):
    default_code = "malformed_request"


class StrictJSONParser(JSONParser):
    def parse(
        self, stream: Any, media_type: str | None = None, parser_context: Mapping[str, Any] | None = None
    ) -> Any:
        raw = stream.read()
        try:
            text = raw.decode("utf-8")  # API.md: JSON bodies are UTF-8, whatever the charset says
        except UnicodeDecodeError as error:
            raise MalformedBodyError(
                f"The body is not valid UTF-8 (byte {error.start} cannot start or continue a character)."
            ) from None
        try:
            data = json.loads(text, parse_constant=_refuse_constant)
        except json.JSONDecodeError as error:
            raise MalformedBodyError(
                f"The body is not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})."
            ) from None
        except RecursionError:
            raise MalformedBodyError(_too_deep()) from None
        except ValueError:  # NaN or Infinity, or an integer with more digits than Python converts
            raise MalformedBodyError("The body is not valid JSON: a number is out of range.") from None
        if not isinstance(data, dict):
            raise MalformedBodyError("The body must be a JSON object.")
        check_nesting_and_text(data)
        return data


def _refuse_constant(name: str) -> None:
    raise ValueError(name)


def _too_deep() -> str:
    return f"The body is nested more than {MAX_DEPTH} levels deep."


def check_nesting_and_text(data: dict[str, Any]) -> None:
    """Refuse JSON nested deeper than `MAX_DEPTH` or holding a string with a lone surrogate."""
    level: list[Any] = [data]  # the containers one level deeper after each pass
    for _depth in range(MAX_DEPTH):
        level = [
            child
            for container in level
            for child in (container.values() if type(container) is dict else container)
            if type(child) in _CONTAINERS
        ]
        if not level:
            break
    else:
        raise MalformedBodyError(_too_deep())
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")  # keys and values, at C speed
    except UnicodeEncodeError:
        raise MalformedBodyError("The body holds a string that is not valid Unicode.") from None
