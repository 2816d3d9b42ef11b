"""Strict input fields: money is an integer number of cents, never a float or a string."""

from typing import Any

from rest_framework import serializers


class CentsField(serializers.IntegerField):
    default_error_messages = {"invalid": "Must be an integer number of cents (no decimals, no strings)."}

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", 10**13)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return int(super().to_internal_value(data))


class StrictIntegerField(serializers.IntegerField):
    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return int(super().to_internal_value(data))
