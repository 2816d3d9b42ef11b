from django import forms

from kernel.forms import SubmittedOnceForm
from patrons.models import IdentificationType


class PatronForm(forms.Form):
    name = forms.CharField(
        max_length=150, help_text="The patron's name, or a description of one not identified yet."
    )
    identification_type = forms.ChoiceField(
        choices=[("", "None (anonymous for now)"), *IdentificationType.choices], required=False
    )
    identification_reference = forms.CharField(max_length=100, required=False, label="Identification number")


class SearchForm(forms.Form):
    q = forms.CharField(max_length=150, required=False, label="Patron number or name")


class NewPatronForm(SubmittedOnceForm, PatronForm):
    """A patron put on file from the console, once per page: a double click or a second tab of the
    same page would otherwise file one person twice and split their Title 31 totals."""
