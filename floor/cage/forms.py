"""The cage's forms: a cash-out (chips by denomination, the patron, the confirmation and, when
the patron must be identified first, a supervisor's override) and a slip's runner."""

from django import forms

from floor.operations.forms import ChipCountForm
from kernel.forms import SubmittedOnceForm

MAX_REASON_LENGTH = 500


class CashOutForm(ChipCountForm):
    total_label = "Amount paid out (dollars)"
    require_chips = True

    patron = forms.IntegerField(min_value=1, max_value=2**31 - 1, required=False, label="Patron number")
    description = forms.CharField(
        max_length=150,
        required=False,
        label="Or describe a patron not on file",
        help_text="e.g. man, grey suit, 40s",
    )
    # Set by the confirmation step: the cashier has seen the patron's day with this payment.
    confirmed = forms.BooleanField(required=False, widget=forms.HiddenInput)
    # A floor supervisor or pit boss at the window signs an override with their own credentials.
    supervisor = forms.CharField(max_length=150, required=False, label="Supervisor's username")
    supervisor_password = forms.CharField(
        max_length=200,
        required=False,
        label="Supervisor's password",
        widget=forms.PasswordInput(attrs={"autocomplete": "off"}),
    )
    override_reason = forms.CharField(
        max_length=MAX_REASON_LENGTH,
        required=False,
        label="Reason for paying without the identification",
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class RunnerForm(SubmittedOnceForm):
    """The security officer who carries a slip's chips, named by the cage."""

    runner_name = forms.CharField(max_length=100, label="Runner (security officer)")
    runner_badge = forms.CharField(max_length=32, label="Badge")
