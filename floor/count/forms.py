"""The soft-count sheet: bills by denomination, markers in dollars, for one table and period."""

import datetime as dt
from typing import Any

from django import forms

from casino.models import Table
from kernel.forms import DollarsField, GamingDayField, SubmittedOnceForm
from table_money.services.soft_counts import (
    CURRENCY_DENOMINATIONS_CENTS,
    MAX_BILLS,
    SHIFT_NAMES,
    counts_per_shift,
)

BILLS_CENTS = sorted(CURRENCY_DENOMINATIONS_CENTS, reverse=True)


def bill_field_name(cents: int) -> str:
    return f"bills_{cents}"


class SoftCountForm(SubmittedOnceForm):
    table = forms.ModelChoiceField(queryset=Table.objects.none(), empty_label="Choose the table")
    gaming_day = GamingDayField(label="Gaming day")
    shift = forms.ChoiceField(choices=[(name, name.capitalize()) for name in SHIFT_NAMES], required=False)
    markers = DollarsField(label="Markers (dollars)", required=False)

    def __init__(self, *args: Any, tables: Any, gaming_day: dt.date, shift: str, **kwargs: Any) -> None:
        kwargs["initial"] = {"gaming_day": gaming_day, "shift": shift}
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = tables  # type: ignore[attr-defined]
        self.per_shift = counts_per_shift()
        if self.per_shift:
            self.fields["shift"].required = True
        else:
            del self.fields["shift"]
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
