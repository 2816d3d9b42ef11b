"""The count team's forms: the period counted (an ended shift, or an ended gaming day when the casino
counts once a day), and a member's own tally of a drop box (bills by denomination, markers in
dollars). A tally form carries no figure of anyone else's: the second count is blind."""

import datetime as dt
from typing import Any

from django import forms
from django.utils import timezone

from kernel.forms import DollarsField, SubmittedOnceForm
from kernel.gaming_day import DayOutOfBoundsError, casino_zone, parse_gaming_day
from table_money.services.soft_counts import (
    CURRENCY_DENOMINATIONS_CENTS,
    MAX_BILLS,
    MAX_REASON_LENGTH,
    SHIFT_NAMES,
    ended_periods,
    period_bounds,
)

BILLS_CENTS = sorted(CURRENCY_DENOMINATIONS_CENTS, reverse=True)
# The periods offered: the last three gaming days' shifts, or the last week's days.
PERIODS_OFFERED = {"shift": 9, "day": 7}


def bill_field_name(cents: int) -> str:
    return f"bills_{cents}"


def period_value(gaming_day: dt.date, shift: str) -> str:
    """A period as a form value: `2026-11-20/swing`, or `2026-11-20` for a whole gaming day."""
    return f"{gaming_day.isoformat()}/{shift}" if shift else gaming_day.isoformat()


def period_text(gaming_day: dt.date, shift: str) -> str:
    """`2026-11-20 swing shift (14:00-22:00)` in casino local time, or `gaming day 2026-11-20`."""
    if not shift:
        return f"gaming day {gaming_day.isoformat()}"
    start, end = period_bounds(gaming_day, shift)
    zone = casino_zone()
    return (
        f"{gaming_day.isoformat()} {shift} shift "
        f"({start.astimezone(zone):%H:%M}-{end.astimezone(zone):%H:%M} {end.astimezone(zone):%Z})"
    )


def offered_periods(*, per_shift: bool, now: dt.datetime | None = None) -> list[tuple[dt.date, str]]:
    """The ended periods a count is entered for, the last ended first (the default)."""
    return ended_periods(now=now or timezone.now(), count=PERIODS_OFFERED["shift" if per_shift else "day"])


class PeriodField(forms.ChoiceField):
    """A period, offered as the ended ones; `cleaned_data` holds (gaming day, shift). Any
    well-formed period is accepted here: whether it has ended is the service's rule, which
    refuses a running or future one with a sentence that says so."""

    def __init__(self, *, offered: list[tuple[dt.date, str]], **kwargs: Any) -> None:
        super().__init__(
            choices=[(period_value(day, shift), period_text(day, shift)) for day, shift in offered], **kwargs
        )

    def validate(self, value: Any) -> None:
        forms.Field.validate(self, value)

    def clean(self, value: Any) -> tuple[dt.date, str]:
        text = super().clean(value)
        day_text, _, shift = text.partition("/")
        try:
            day = parse_gaming_day(day_text)
        except DayOutOfBoundsError as refused:
            raise forms.ValidationError(refused.message, code=refused.code) from None
        if shift and shift not in SHIFT_NAMES:
            raise forms.ValidationError(
                f"A shift is {', '.join(SHIFT_NAMES)}: choose one from the list.", code="invalid_shift"
            )
        return day, shift


def period_label_for(*, per_shift: bool) -> str:
    return "Shift counted" if per_shift else "Gaming day counted"


def not_open_field() -> forms.BooleanField:
    return forms.BooleanField(
        required=False,
        label="The box is labelled for this table and period: count it although the table was not open then",
    )


class PeriodChoiceForm(forms.Form):
    """The GET form that picks the period whose counts the page shows."""

    def __init__(
        self, *args: Any, offered: list[tuple[dt.date, str]], per_shift: bool, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["period"] = PeriodField(offered=offered, label=period_label_for(per_shift=per_shift))


class TallyForm(SubmittedOnceForm):
    """A member's own count of one drop box."""

    markers = DollarsField(label="Markers (dollars)", required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for cents in BILLS_CENTS:
            self.fields[bill_field_name(cents)] = forms.IntegerField(
                label=f"${cents // 100} bills", min_value=0, max_value=MAX_BILLS, required=False
            )

    def bill_fields(self) -> list[forms.BoundField]:
        return [self[bill_field_name(cents)] for cents in BILLS_CENTS]

    def currency(self) -> dict[str, int]:
        return {
            str(cents): int(self.cleaned_data.get(bill_field_name(cents)) or 0)
            for cents in BILLS_CENTS
            if self.cleaned_data.get(bill_field_name(cents))
        }

    def markers_cents(self) -> int:
        return int(self.cleaned_data.get("markers") or 0)


class StartCountForm(TallyForm):
    """The first count of a table's box for the chosen period; the tables open in it come first."""

    table = forms.TypedChoiceField(coerce=int, empty_value=None, label="Table")
    not_open_confirmed = not_open_field()

    def __init__(
        self,
        *args: Any,
        period: tuple[dt.date, str],
        open_tables: list[tuple[int, str]],
        other_tables: list[tuple[int, str]],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["period"] = PeriodField(
            offered=[period], widget=forms.HiddenInput, initial=period_value(*period)
        )
        choices: list[Any] = [("", "Choose the table")]
        if open_tables:
            choices.append(("Open in this period", open_tables))
        if other_tables:
            choices.append(("Not open in this period", other_tables))
        self.fields["table"].choices = choices  # type: ignore[attr-defined]


class CorrectionForm(TallyForm):
    """A new count that supersedes one: of the same table, for the right period, with the reason."""

    reason = forms.CharField(
        max_length=MAX_REASON_LENGTH,
        label="Why the count is corrected",
        help_text="For example: entered for the wrong shift; a bill was left in the box.",
    )
    not_open_confirmed = not_open_field()

    def __init__(
        self, *args: Any, offered: list[tuple[dt.date, str]], per_shift: bool, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["period"] = PeriodField(offered=offered, label=period_label_for(per_shift=per_shift))
