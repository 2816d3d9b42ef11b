"""The OpenAPI schema says exactly what the server accepts (API.md).

- `NarrowedField`: a request field whose service checks more than the field itself (a seat is
  1 to 7, a card one of 52); it validates as before, and its schema is narrowed to match.
- `add_problem_responses`: every operation lists the problem+json answers it can give, with
  their headers, and every POST documents the body it accepts.
"""

import copy
from typing import Any, ClassVar

MAX_ID = 2**63 - 1
# Text patterns: a string the server strips and then refuses when blank must hold a non-blank
# character; DRF refuses a NUL in any text it does not take exactly as sent.
SHOWS_TEXT = r"\S"
NO_NUL = r"^[^\x00]*$"
NO_NUL_FILLED = r"^[^\x00]+$"
SHOWS_TEXT_NO_NUL = r"^[^\x00]*[^\x00\s][^\x00]*$"


class NarrowedField:
    """Mixin for a serializer field: `narrowed_schema()` is laid over the field's own OpenAPI
    schema (kernel.openapi_extensions). The field's validation is untouched; the service refuses
    with its own code what the narrowed schema leaves out."""

    narrowing: ClassVar[dict[str, Any]] = {}

    def narrowed_schema(self) -> dict[str, Any]:
        return dict(self.narrowing)


PROBLEM_SCHEMA = {
    "type": "object",
    "description": "RFC 9457 problem details with a stable `code` (API.md, Errors).",
    "properties": {
        "type": {"type": "string"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string"},
        "code": {"type": "string"},
        "errors": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "field": {"type": "string"},
                    "code": {"type": "string"},
                    "message": {"type": "string"},
                },
                "required": ["field", "code", "message"],
            },
        },
    },
    "required": ["type", "title", "status", "detail", "code", "errors"],
}
PROBLEM_REF = {"$ref": "#/components/schemas/Problem"}
ERROR_STATUSES = {
    "400": "Malformed request, invalid field, or a missing Idempotency-Key",
    "401": "Missing or invalid credentials",
    "403": "The caller's role or table does not allow this",
    "404": "No such resource",
    "406": "The requested media type is not available",
    "409": "Conflict: state moved on, resource busy, or a twin request in progress",
    "413": "The body is larger than the server takes",
    "415": "The body is not JSON",
    "422": "A game rule or limit refuses the request, or the Idempotency-Key was used for another request",
    "429": "Too many requests: retry later",
}
# Every POST can meet these whatever its body: a bad or missing Idempotency-Key (400), its twin
# still running (409), a key reused with another body (422), a body too large or not JSON.
POST_STATUSES = {"400", "409", "413", "415", "422"}
ALWAYS_STATUSES = {"401", "403", "406", "429"}
STATUS_HEADERS: dict[str, dict[str, Any]] = {
    "401": {"WWW-Authenticate": {"schema": {"type": "string", "enum": ["Token"]}, "required": True}},
    "429": {"Retry-After": {"schema": {"type": "string", "pattern": "^[0-9]+$"}, "required": False}},
}
REPLAYED_HEADER = {
    "Idempotent-Replayed": {
        "description": "`true` when this is the stored answer to an earlier request with the same key.",
        "schema": {"type": "string", "enum": ["true"]},
        "required": False,
    }
}
# A POST without fields of its own still takes a JSON object (its fields are ignored), nothing else.
EMPTY_BODY = {
    "required": False,
    "content": {"application/json": {"schema": {"type": "object", "description": "No fields: ignored."}}},
}


def error_statuses(path: str, method: str, operation: dict[str, Any]) -> set[str]:
    """The error statuses an operation can answer with: 400 on a GET only where it takes query
    parameters; 404 where the path names a resource or `?format=` a renderer (or where the view
    documents one, e.g. a table named in the body)."""
    parameters = operation.get("parameters", [])
    statuses = set(ALWAYS_STATUSES)
    if method == "post":
        statuses |= POST_STATUSES
    elif any(parameter.get("in") == "query" for parameter in parameters):
        statuses.add("400")
    if "{" in path or any(parameter.get("name") == "format" for parameter in parameters):
        statuses.add("404")
    return statuses


def add_problem_responses(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    result.setdefault("components", {}).setdefault("schemas", {})["Problem"] = PROBLEM_SCHEMA
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            if method not in ("get", "put", "patch", "delete", "post"):
                continue
            _bound_path_ids(operation)
            if method == "post":
                operation.setdefault("requestBody", copy.deepcopy(EMPTY_BODY))
                for status, response in operation.get("responses", {}).items():
                    if status.startswith("2"):
                        response.setdefault("headers", {}).update(copy.deepcopy(REPLAYED_HEADER))
            responses = operation.setdefault("responses", {})
            for status in error_statuses(path, method, operation) | {s for s in responses if s[0] == "4"}:
                response = responses.setdefault(status, {})
                if response.get("description") in (None, "", "No response body"):
                    response["description"] = ERROR_STATUSES.get(status, "Refused")
                response["content"] = {"application/problem+json": {"schema": dict(PROBLEM_REF)}}
                if status in STATUS_HEADERS:
                    response["headers"] = copy.deepcopy(STATUS_HEADERS[status])
    return result


def _bound_path_ids(operation: dict[str, Any]) -> None:
    """Ids in paths are positive database ids; any other number matches no resource (404)."""
    for parameter in operation.get("parameters", []):
        if parameter.get("in") == "path" and parameter.get("schema", {}).get("type") == "integer":
            parameter["schema"].update({"minimum": 1, "maximum": MAX_ID})
