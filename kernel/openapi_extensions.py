"""Teach drf-spectacular about the token authentication and about what the request fields
accept beyond their declared limits (loaded from KernelConfig.ready)."""

from typing import Any

from django.core.validators import ProhibitNullCharactersValidator, RegexValidator
from drf_spectacular.extensions import OpenApiAuthenticationExtension, OpenApiSerializerFieldExtension

from kernel.schema import NO_NUL, NO_NUL_FILLED, SHOWS_TEXT, SHOWS_TEXT_NO_NUL


class TokenAuthenticationScheme(OpenApiAuthenticationExtension):
    target_class = "casino.api.authentication.TokenAuthentication"
    name = "TokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {"type": "apiKey", "in": "header", "name": "Authorization", "description": "`Token <key>`"}


class TextFieldScheme(OpenApiSerializerFieldExtension):
    """A request's text field: the pattern of what survives DRF's trimming and NUL check."""

    target_class = "rest_framework.fields.CharField"
    match_subclasses = True

    def map_serializer_field(self, auto_schema: Any, direction: str) -> dict[str, Any]:
        field = self.target
        schema: dict[str, Any] = auto_schema._map_serializer_field(field, direction, bypass_extensions=True)
        if (
            direction != "request"
            or "enum" in schema
            or any(isinstance(v, RegexValidator) for v in field.validators)
        ):
            return schema  # a choice or a regular expression says more
        refuses_nul = any(isinstance(v, ProhibitNullCharactersValidator) for v in field.validators)
        needs_text = field.trim_whitespace and not field.allow_blank
        if needs_text and refuses_nul:
            schema["pattern"] = SHOWS_TEXT_NO_NUL
        elif needs_text:
            schema["pattern"] = SHOWS_TEXT
        elif refuses_nul:
            # DRF's schema offers a blank string beside the pattern (`oneOf`), so the pattern is
            # for the rest.
            schema["pattern"] = NO_NUL_FILLED if field.allow_blank else NO_NUL
        return schema


class NarrowedFieldScheme(OpenApiSerializerFieldExtension):
    """A `NarrowedField`: its own schema with the narrowing laid over it."""

    target_class = "kernel.schema.NarrowedField"
    match_subclasses = True
    priority = 1  # before TextFieldScheme: a narrowed text field says all it accepts itself

    def map_serializer_field(self, auto_schema: Any, direction: str) -> dict[str, Any]:
        field: Any = self.target  # a kernel.schema.NarrowedField, which this extension targets
        schema: dict[str, Any] = auto_schema._map_serializer_field(field, direction, bypass_extensions=True)
        narrowing = field.narrowed_schema()
        schema.update(narrowing)
        if "enum" in narrowing and field.allow_null:
            schema["enum"] = [*narrowing["enum"], None]
        return schema
