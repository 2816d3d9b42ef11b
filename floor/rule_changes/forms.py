"""The rule-change request form: a table's limits in dollars and its house rules, prefilled with
the current values, with a reason and when the change takes effect (now, or a casino local time).

The form turns what staff typed into the service's terms (cents, booleans, "3:2"); the service
records only what differs from the table's current values and checks every rule.
"""

import datetime as dt
from typing import Any

from django import forms
from django.utils import timezone

from blackjack.engine.rules import BLACKJACK_PAYS, BOOLEAN_RULES, MAX_HANDS
from casino.engine.shoe import PENETRATION_PERCENT
from casino.models import Table
from casino.services.rule_changes import Settings
from kernel.formatting import dollars
from kernel.forms import DollarsField
from kernel.gaming_day import DayOutOfBoundsError, casino_zone, check_effective_time

LOCAL_INPUT_FORMAT = "%Y-%m-%dT%H:%M"
MAX_REASON_LENGTH = 500

RULE_LABELS = {
    "dealer_hits_soft_17": "Dealer hits soft 17 (H17)",
    "blackjack_pays": "Blackjack pays",
    "double_after_split": "Double after split",
    "max_hands": "Split up to (hands)",
    "split_by_value": "Any two ten-value cards split",
    "surrender": "Late surrender",
    "insurance": "Insurance offered",
    "decks": "Decks (from the next shoe)",
    "penetration_percent": "Cut card at (% of the shoe)",
    "aggregate_limit_cents": "Aggregate limit on a round's bonus winnings",
}
YES_NO = [("yes", "Yes"), ("no", "No")]


def kind_label(kind: str) -> str:
    return "Primary" if kind == "primary" else kind


def limit_field(kind: str, bound: str) -> str:
    return f"limit_{kind}_{bound}"


def rule_text(field: str, value: Any) -> str:
    """A house rule's value as staff read it."""
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if field == "aggregate_limit_cents":
        return "None" if value is None else dollars(value)
    if field == "penetration_percent":
        return f"{value}%"
    return str(value)


class RuleChangeForm(forms.Form):
    """Built for one table from its current settings (`casino.services.rule_changes.current_settings`)."""

    effective = forms.ChoiceField(
        label="Takes effect",
        choices=[("now", "From the next round"), ("later", "From a later time")],
        widget=forms.RadioSelect,
        initial="now",
    )
    effective_at_local = forms.DateTimeField(
        label="Effective time (for a later time)",
        required=False,
        input_formats=[LOCAL_INPUT_FORMAT],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=LOCAL_INPUT_FORMAT),
    )
    reason = forms.CharField(
        label="Reason",
        max_length=MAX_REASON_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3}),
        error_messages={"required": "Give the reason for the change."},
    )

    def __init__(self, *args: Any, table: Table, current: Settings, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.table = table
        self.current = current
        self.limit_rows: list[tuple[str, str, str]] = []  # (label, min field, max field)
        for kind, (low, high) in current["limits"].items():
            low_name, high_name = limit_field(kind, "min"), limit_field(kind, "max")
            label = kind_label(kind)
            self.fields[low_name] = DollarsField(label=f"{label} minimum", initial=_plain_dollars(low))
            self.fields[high_name] = DollarsField(label=f"{label} maximum", initial=_plain_dollars(high))
            self.limit_rows.append((label, low_name, high_name))
        for field, value in current["rules"].items():
            self.fields[f"rule_{field}"] = _rule_field(field, value)
        self.rule_names = [f"rule_{field}" for field in current["rules"]]

    def limit_fields(self) -> list[tuple[str, forms.BoundField, forms.BoundField]]:
        return [(label, self[low], self[high]) for label, low, high in self.limit_rows]

    def rule_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.rule_names]

    def clean_effective_at_local(self) -> dt.datetime | None:
        moment = self.cleaned_data.get("effective_at_local")
        if moment is None:
            return None
        # Staff type casino local time; the form field read it as the server's zone.
        try:
            return timezone.make_aware(timezone.make_naive(moment), casino_zone())
        except (OverflowError, ValueError):  # a time at the calendar's ends, in another zone
            raise forms.ValidationError(
                "Give a time within a year from now.", code="effective_time_too_far"
            ) from None

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        moment = data.get("effective_at_local")
        if data.get("effective") == "later" and moment is None and not self.has_error("effective_at_local"):
            self.add_error("effective_at_local", "Give the time the change takes effect.")
        elif data.get("effective") == "later" and moment is not None:
            try:
                check_effective_time(moment, now=timezone.now())
            except DayOutOfBoundsError as refused:
                self.add_error(
                    "effective_at_local", forms.ValidationError(refused.message, code=refused.code)
                )
        return data

    def effective_at(self, *, now: dt.datetime) -> dt.datetime:
        """When the change takes effect: the time typed (checked by `clean`; the minute being typed
        means now), or now."""
        if self.cleaned_data["effective"] == "later":
            moment: dt.datetime = self.cleaned_data["effective_at_local"]
            return max(moment, now)
        return now

    def limits(self) -> dict[str, tuple[int, int]]:
        """Every limit as typed, in cents; the service keeps only those that differ."""
        return {
            kind: (self.cleaned_data[limit_field(kind, "min")], self.cleaned_data[limit_field(kind, "max")])
            for kind in self.current["limits"]
        }

    def rules(self) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for field in self.current["rules"]:
            value = self.cleaned_data[f"rule_{field}"]
            if field in BOOLEAN_RULES:
                result[field] = value == "yes"
            elif field in ("decks", "max_hands", "penetration_percent"):
                result[field] = int(value)
            else:
                result[field] = value
        return result

    def add_service_error(self, field: str | None, message: str) -> None:
        """A service refusal on the field it names (`limits.<kind>.min_cents`, `rules.<field>`...)."""
        self.add_error(self._form_field(field), message)

    def _form_field(self, field: str | None) -> str | None:
        if not field:
            return None
        parts = field.split(".")
        if parts[0] == "limits" and len(parts) == 3:
            name = limit_field(parts[1], "min" if parts[2] == "min_cents" else "max")
        elif parts[0] == "rules" and len(parts) == 2:
            name = f"rule_{parts[1]}"
        elif field == "effective_at":
            name = "effective_at_local"
        else:
            name = field
        return name if name in self.fields else None


def _plain_dollars(cents: int) -> str:
    """Cents as a dollar amount a form field shows and reads back: 250000 -> "2,500.00"."""
    return dollars(cents).lstrip("$")


def _rule_field(field: str, value: Any) -> forms.Field:
    label = RULE_LABELS[field]
    if isinstance(value, bool):
        return forms.ChoiceField(
            label=label, choices=YES_NO, initial="yes" if value else "no", widget=forms.RadioSelect
        )
    if field == "blackjack_pays":
        return forms.ChoiceField(
            label=label, choices=[(ratio, ratio) for ratio in BLACKJACK_PAYS], initial=value
        )
    if field == "decks":
        return forms.ChoiceField(label=label, choices=[("6", "6"), ("8", "8")], initial=str(value))
    if field == "max_hands":
        return forms.ChoiceField(
            label=label, choices=[(str(n), str(n)) for n in MAX_HANDS], initial=str(value)
        )
    if field == "penetration_percent":
        return forms.IntegerField(
            label=label,
            min_value=PENETRATION_PERCENT.start,
            max_value=PENETRATION_PERCENT.stop - 1,
            initial=value,
        )
    if field == "aggregate_limit_cents":
        return DollarsField(
            label=label,
            required=False,
            initial="" if value is None else _plain_dollars(value),
            help_text="Leave empty for no aggregate limit.",
        )
    raise ValueError(f"no form field for the house rule {field}")
