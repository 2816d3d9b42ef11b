"""Forms of the table operations: chip counts by denomination, dollar amounts, reasons.

Staff type dollars ("1,250.00", "$1250", "1250"); the forms turn them into integer cents exactly
and refuse negatives and fractions of a cent. Chip counts are whole numbers from 0, one field per
denomination in use; a posted denomination that is not in use is refused, not ignored.
"""

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from django import forms

from kernel.formatting import dollars
from kernel.forms import DollarsField, SubmittedOnceForm
from table_money.models import SlipKind
from table_money.services.accounting import CHIP_DENOMINATIONS_CENTS

COUNT_PREFIX = "count_"
DENOMINATIONS_LARGEST_FIRST = sorted(CHIP_DENOMINATIONS_CENTS, reverse=True)
# A table's tray holds hundreds of chips of a kind, a cage fill a few thousand: a count beyond
# this is a typing slip, refused before it reaches the services.
MAX_CHIPS_PER_DENOMINATION = 100_000
MAX_REASON_LENGTH = 500


@dataclass(frozen=True)
class CountRow:
    """One denomination's line of a count form, as the template shows it."""

    denomination_cents: int
    field: forms.BoundField
    previous_count: int | None = None

    @property
    def entered(self) -> int | None:
        value = self.field.value()
        try:
            return int(value) if value not in (None, "") else 0
        except (TypeError, ValueError):
            return None

    @property
    def differs(self) -> bool:
        return self.previous_count is not None and self.entered != self.previous_count


class ChipCountForm(SubmittedOnceForm):
    """Chips by denomination and the total they come to, which must agree."""

    total_label = "Total (dollars)"
    require_chips = False

    total = DollarsField(help_text="The chips' value, as counted: it must agree with the counts.")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["total"].label = self.total_label
        for denomination in DENOMINATIONS_LARGEST_FIRST:
            self.fields[f"{COUNT_PREFIX}{denomination}"] = forms.IntegerField(
                label=dollars(denomination),
                required=False,
                min_value=0,
                max_value=MAX_CHIPS_PER_DENOMINATION,
                error_messages={
                    "invalid": "Chip counts are whole numbers.",
                    "min_value": "Chip counts cannot be negative.",
                    "max_value": f"More than {MAX_CHIPS_PER_DENOMINATION:,} chips of one kind is not a count.",
                },
                widget=forms.NumberInput(attrs={"min": 0, "step": 1, "inputmode": "numeric"}),
            )

    def rows(self, previous: Mapping[str, int] | None = None) -> Iterator[CountRow]:
        for denomination in DENOMINATIONS_LARGEST_FIRST:
            yield CountRow(
                denomination_cents=denomination,
                field=self[f"{COUNT_PREFIX}{denomination}"],
                previous_count=None if previous is None else int(previous.get(str(denomination), 0)),
            )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        unknown = sorted(
            key.removeprefix(COUNT_PREFIX)
            for key in self.data
            if key.startswith(COUNT_PREFIX) and key not in self.fields
        )
        if unknown:
            raise forms.ValidationError(
                f"Not a chip denomination in use: {', '.join(text[:20] for text in unknown)} "
                f"(in use: {', '.join(dollars(d) for d in sorted(CHIP_DENOMINATIONS_CENTS))}).",
                code="unknown_denomination",
            )
        chips = {
            str(denomination): cleaned.get(f"{COUNT_PREFIX}{denomination}") or 0
            for denomination in DENOMINATIONS_LARGEST_FIRST
        }
        chips = {key: count for key, count in chips.items() if count}
        value_cents = sum(int(key) * count for key, count in chips.items())
        if self.require_chips and not chips:
            raise forms.ValidationError("Count at least one chip.", code="no_chips")
        total = cleaned.get("total")
        if total is not None and total != value_cents:
            self.add_error(
                "total",
                f"The chips counted come to {dollars(value_cents)}, not the {dollars(total)} entered: "
                "check the counts and the total.",
            )
        cleaned["chips"] = chips
        cleaned["total_cents"] = value_cents
        return cleaned


def count_initial(chips: Mapping[str, int], *, total_cents: int) -> dict[str, Any]:
    """A count form's initial values from a recorded count (the previous closer's)."""
    initial: dict[str, Any] = {f"{COUNT_PREFIX}{key}": count for key, count in chips.items()}
    initial["total"] = dollars(total_cents)
    return initial


def counts_fingerprint(chips: Mapping[str, int]) -> str:
    """The counts as one stable text, so a confirmation applies to the counts that were reviewed."""
    return ",".join(f"{key}:{chips[key]}" for key in sorted(chips, key=int) if chips[key])


class OpenTableForm(ChipCountForm):
    total_label = "Opener total (dollars)"
    # Set by the review step: the counts the supervisor saw flagged against the previous closer.
    reviewed = forms.CharField(required=False, widget=forms.HiddenInput, max_length=500)


class CloseTableForm(ChipCountForm):
    total_label = "Closer total (dollars)"


class SlipRequestForm(ChipCountForm):
    total_label = "Amount (dollars)"
    require_chips = True

    kind = forms.ChoiceField(choices=SlipKind.choices, widget=forms.RadioSelect, initial=SlipKind.FILL)


class ReasonField(forms.CharField):
    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", MAX_REASON_LENGTH)
        kwargs.setdefault("widget", forms.Textarea(attrs={"rows": 3}))
        kwargs.setdefault("error_messages", {"required": "Give the reason: it goes on the record."})
        super().__init__(**kwargs)


class SlipVoidForm(SubmittedOnceForm):
    reason = ReasonField(label="Reason for the void")


class RoundVoidForm(SubmittedOnceForm):
    round_id = forms.IntegerField(
        label="Round number",
        min_value=1,
        max_value=2**63 - 1,
        error_messages={"invalid": "A round number is a whole number.", "required": "Which round?"},
    )
    reason = ReasonField(label="Reason for the void")
    confirmed = forms.BooleanField(required=False, widget=forms.HiddenInput)
