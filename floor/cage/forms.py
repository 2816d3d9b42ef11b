from django import forms

from kernel.forms import DollarsField, SubmittedOnceForm


class RedemptionForm(SubmittedOnceForm):
    amount = DollarsField(label="Amount (dollars)")
    patron = forms.IntegerField(min_value=1, max_value=2**31 - 1, required=False, label="Patron number")
    description = forms.CharField(
        max_length=150,
        required=False,
        label="Or describe a patron not on file",
        help_text="e.g. man, grey suit, 40s",
    )

    def clean_amount(self) -> int:
        cents = self.cleaned_data.get("amount")
        if not cents:
            raise forms.ValidationError("Give the amount paid out, above zero.")
        return int(cents)
