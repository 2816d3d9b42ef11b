from django import forms

from kernel.forms import DollarsField, GamingDayField, SubmittedOnceForm
from table_money.models import SarOutcome

DATE_INPUT = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class CtrFilingForm(SubmittedOnceForm):
    bsa_id = forms.CharField(
        max_length=20, label="BSA ID", help_text="The 14 digits BSA E-Filing returned for the report."
    )
    filed_on = forms.DateField(widget=DATE_INPUT, input_formats=["%Y-%m-%d"], label="Filed on")


class SarReferralForm(SubmittedOnceForm):
    patron = forms.IntegerField(
        required=False, min_value=1, max_value=2_147_483_647, label="Patron number", help_text="If on file."
    )
    description = forms.CharField(
        max_length=150, required=False, help_text="Someone not on file: how they look, where they were."
    )
    gaming_day = GamingDayField()
    amount = DollarsField(required=False, label="Amount involved", help_text="In dollars, if there is one.")
    narrative = forms.CharField(
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text="What you saw, when and where, and why it looks suspicious.",
    )


class SarDecisionForm(SubmittedOnceForm):
    outcome = forms.ChoiceField(choices=SarOutcome.choices, widget=forms.RadioSelect)
    bsa_id = forms.CharField(max_length=20, required=False, label="BSA ID", help_text="For a SAR filed.")
    filed_on = forms.DateField(
        required=False, widget=DATE_INPUT, input_formats=["%Y-%m-%d"], help_text="For a SAR filed."
    )
    reason = forms.CharField(
        max_length=4000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text="Why no SAR is filed (or a note on the SAR).",
    )
