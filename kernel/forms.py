"""The one way staff type money and gaming days, in the admin site and the floor console alike.

Staff type dollars ("1,250.00", "$1250", "1250"); the field turns them into integer cents
exactly, refuses negatives, fractions of a cent and amounts beyond any table's bank with a
clear message, and shows a stored amount back in dollars.

A money form of the console is a `SubmittedOnceForm`: it carries a one-time submission key, so a
double click, a resent POST or two tabs of one page record its change once.
"""

import datetime as dt
import re
import secrets
from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms

from kernel.formatting import dollars
from kernel.gaming_day import DayOutOfBoundsError, check_gaming_day

MAX_AMOUNT_CENTS = 10**12  # ten billion dollars: far above any table's bank
MAX_TYPED_LENGTH = 30
_DOLLARS = re.compile(r"^\$?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$")


def cents_from_dollars(text: str) -> int:
    """`"1,250.00"`, `"$1250"`, `"1250.5"` -> cents; a clear ValidationError for anything else."""
    cleaned = text.strip().replace(" ", "")
    if cleaned.startswith("-") or cleaned.startswith("$-"):
        raise forms.ValidationError("An amount cannot be negative.", code="negative")
    if not _DOLLARS.match(cleaned):
        raise forms.ValidationError(
            f"{text.strip()[:MAX_TYPED_LENGTH]!r} is not an amount in dollars: write it like 1,250.00 or 1250.",
            code="invalid",
        )
    try:
        cents = Decimal(cleaned.lstrip("$").replace(",", "")) * 100
    except InvalidOperation:  # the pattern admits only digits, but be exact about it
        raise forms.ValidationError("Not an amount in dollars.", code="invalid") from None
    if cents != cents.to_integral_value():
        raise forms.ValidationError(
            f"{text.strip()[:MAX_TYPED_LENGTH]} has a fraction of a cent: amounts are in whole cents.",
            code="fraction",
        )
    if cents > MAX_AMOUNT_CENTS:
        raise forms.ValidationError("That amount is larger than any table handles.", code="too_large")
    return int(cents)


class DollarsField(forms.Field):
    """A dollar amount typed by staff; `cleaned_data` holds integer cents (None when left empty)."""

    widget = forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"})

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, int):
            return dollars(value).removeprefix("$")
        return value

    def to_python(self, value: Any) -> int | None:
        if isinstance(value, int):
            return value
        text = str(value).strip() if value is not None else ""
        if not text:
            return None
        if len(text) > MAX_TYPED_LENGTH:
            raise forms.ValidationError("That is too long for an amount in dollars.", code="too_long")
        return cents_from_dollars(text)


# --- a form recorded exactly once ---------------------------------------------------------------

SUBMISSION_KEY_FIELD = "submission_key"
_SUBMISSION_KEY = re.compile(r"^[A-Za-z0-9_-]{43}$")
NO_SUBMISSION_KEY = (
    "This form arrived without a valid submission key, so nothing was recorded: "
    "check the entries and submit the form again."
)


def new_submission_key() -> str:
    """A fresh key for one render of a form: 256 random bits, URL-safe (43 characters)."""
    return secrets.token_urlsafe(32)


def is_submission_key(value: Any) -> bool:
    return isinstance(value, str) and _SUBMISSION_KEY.match(value) is not None


def submission_key_of(data: Any) -> str | None:
    """The one well-formed key a POST carries, or None (none, several, or garbled)."""
    values = (
        data.getlist(SUBMISSION_KEY_FIELD) if hasattr(data, "getlist") else [data.get(SUBMISSION_KEY_FIELD)]
    )
    if len(values) != 1 or not is_submission_key(values[0]):
        return None
    return str(values[0])


class SubmittedOnceForm(forms.Form):
    """A form whose POST records its change exactly once (`kernel.idempotency.record_form_once`).

    Each render of an unbound form carries a new random key in a hidden field; a bound form
    carries the key it was posted with, so a form re-rendered with an error, a review or a
    confirmation step keeps the key of the page the staff member started from. A POST without a
    well-formed key is invalid, with an error that says nothing was recorded, and the form is
    shown again with a fresh key.
    """

    submission_key = forms.CharField(required=False, widget=forms.HiddenInput, initial=new_submission_key)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        key = submission_key_of(self.data)
        if key is None:
            self.renew_submission_key()
            self.add_error(None, forms.ValidationError(NO_SUBMISSION_KEY, code="submission_key"))
        else:
            cleaned[SUBMISSION_KEY_FIELD] = key
        return cleaned

    def renew_submission_key(self) -> None:
        """Show the form again with a fresh key: the next POST of it is a new submission."""
        data: Any = self.data
        renewed = data.copy()  # a QueryDict's copy is mutable
        renewed[SUBMISSION_KEY_FIELD] = new_submission_key()
        self.data = renewed


class GamingDayField(forms.DateField):
    """A gaming day typed by staff (YYYY-MM-DD, as a date picker sends it), from 2000-01-01 to a week
    ahead (`kernel.gaming_day`); anything else gets a sentence that says what to enter."""

    widget = forms.DateInput(attrs={"type": "date"})
    input_formats = ["%Y-%m-%d"]
    default_error_messages = {"invalid": "Enter the gaming day as a date, such as 2026-11-20."}

    def validate(self, value: Any) -> None:
        super().validate(value)
        if isinstance(value, dt.date):
            try:
                check_gaming_day(value)
            except DayOutOfBoundsError as refused:
                raise forms.ValidationError(refused.message, code=refused.code) from None
