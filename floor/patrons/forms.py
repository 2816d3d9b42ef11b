from typing import Any

from django import forms

from kernel.forms import SubmittedOnceForm
from patrons.identification import IdentificationDetails
from patrons.models import IdentificationType, TinType

DATE_INPUT = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class PatronForm(forms.Form):
    name = forms.CharField(
        max_length=150, help_text="The patron's name, or a description of one not identified yet."
    )


class SearchForm(forms.Form):
    q = forms.CharField(max_length=150, required=False, label="Patron number or name")


class NewPatronForm(SubmittedOnceForm, PatronForm):
    """A patron put on file from the console, once per page: a double click or a second tab of the
    same page would otherwise file one person twice and split their Title 31 totals."""


class IdentificationForm(SubmittedOnceForm):
    """The person as FinCEN Form 112 Part I asks for them. The last name and the document
    identify; a CTR is filed once the rest is given too (a later correction may complete it).
    The rules are the service's (`patrons.identification`): its refusal is shown on its field."""

    last_name = forms.CharField(max_length=150)
    first_name = forms.CharField(max_length=35, required=False)
    middle_name = forms.CharField(max_length=35, required=False)
    street = forms.CharField(max_length=100, required=False, label="Street address")
    city = forms.CharField(max_length=50, required=False)
    state = forms.CharField(max_length=2, required=False, help_text="Two-letter code, for a US address.")
    zip_code = forms.CharField(max_length=10, required=False, label="ZIP or postal code")
    country = forms.CharField(max_length=2, required=False, help_text="Two-letter code, such as US.")
    date_of_birth = forms.DateField(required=False, widget=DATE_INPUT, input_formats=["%Y-%m-%d"])
    tin = forms.CharField(
        max_length=25,
        required=False,
        label="TIN",
        help_text="SSN or ITIN (9 digits), or a foreign TIN.",
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    tin_type = forms.ChoiceField(choices=[("", "-"), *TinType.choices], required=False, label="TIN type")
    occupation = forms.CharField(max_length=50, required=False)
    id_type = forms.ChoiceField(choices=IdentificationType.choices, label="Identification type")
    id_number = forms.CharField(max_length=25, label="Identification number")
    id_issuer_state = forms.CharField(max_length=2, required=False, label="Issuing state")
    id_issuer_country = forms.CharField(max_length=2, required=False, label="Issuing country")
    id_expires_on = forms.DateField(
        required=False, widget=DATE_INPUT, input_formats=["%Y-%m-%d"], label="Expires on"
    )

    def details(self, *, tin_on_file: str = "") -> IdentificationDetails:
        """The typed details; a TIN left empty keeps `tin_on_file` (staff who see it masked
        correct the rest without retyping it)."""
        data: dict[str, Any] = {
            name: self.cleaned_data[name] for name in self.fields if name != "submission_key"
        }
        if not data["tin"] and tin_on_file:
            data["tin"] = tin_on_file
        return IdentificationDetails(**data)
