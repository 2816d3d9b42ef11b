"""Strict input fields: money is an integer number of cents, never a float or a string; a gaming
day is an ISO date inside the window `kernel.gaming_day` keeps."""

import datetime as dt
from typing import Any

from django.core.validators import ProhibitNullCharactersValidator
from rest_framework import serializers

from kernel.gaming_day import DayOutOfBoundsError, check_gaming_day
from kernel.problems import ProblemError


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


class StrictBooleanField(serializers.BooleanField):
    """JSON `true` or `false` only: not "yes", 1 or "true", which a plain BooleanField takes."""

    default_error_messages = {"invalid": "Must be true or false."}

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class CodeField(serializers.CharField):
    """A code the service looks up itself (a card, a wager kind), taken exactly as sent.

    Not trimmed, may be blank and may hold a NUL, so that `"LS "`, `""` or `"A\\x00S"` reach the
    service and get its own stable code (`unknown_wager_kind`, `invalid_card`) rather than a
    generic 400. The service only compares it with the codes it knows; nothing stores it as sent.
    """

    def __init__(self, **kwargs: Any) -> None:
        kwargs["trim_whitespace"] = False
        kwargs["allow_blank"] = True
        super().__init__(**kwargs)
        self.validators = [
            validator
            for validator in self.validators
            if not isinstance(validator, ProhibitNullCharactersValidator)
        ]


class GamingDayField(serializers.DateField):
    """A gaming day written YYYY-MM-DD, from 2000-01-01 to a week ahead (`kernel.gaming_day`): a date
    outside is `400 gaming_day_out_of_range`; anything not a date stays a `validation_error`."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("input_formats", ["iso-8601"])
        super().__init__(**kwargs)

    def to_internal_value(self, value: Any) -> dt.date:
        day = super().to_internal_value(value)
        try:
            return check_gaming_day(day)
        except DayOutOfBoundsError as refused:
            # A date the schema allows, outside the days kept: its own code, not a shape error.
            raise ProblemError(
                status_code=400,
                code=refused.code,
                detail=refused.message,
                errors=[
                    {
                        "field": self.field_name or "gaming_day",
                        "code": refused.code,
                        "message": refused.message,
                    }
                ],
            ) from None
