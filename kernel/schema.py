"""OpenAPI additions: every operation documents its problem+json error answers."""

from typing import Any

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
ERROR_STATUSES = {
    "400": "Malformed request, invalid field, or a missing Idempotency-Key",
    "401": "Missing or invalid credentials",
    "403": "The caller's role or table does not allow this",
    "404": "No such resource",
    "406": "The requested media type is not available",
    "409": "Conflict: state moved on, resource busy, or a twin request in progress",
    "415": "The body is not JSON",
    "422": "A game rule or limit refuses the request",
}


def add_problem_responses(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    result.setdefault("components", {}).setdefault("schemas", {})["Problem"] = PROBLEM_SCHEMA
    reference = {"$ref": "#/components/schemas/Problem"}
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            responses = operation.setdefault("responses", {})
            for status, description in ERROR_STATUSES.items():
                if status == "415" and method == "get":
                    continue
                responses.setdefault(
                    status,
                    {
                        "description": description,
                        "content": {"application/problem+json": {"schema": reference}},
                    },
                )
    return result
