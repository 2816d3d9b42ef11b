"""Money forms of the console, recorded exactly once (DESIGN.md, Principles 5).

Every money form carries the one-time key of the page it was rendered in (`kernel.forms`). A view
hands its service call to `submit_once`, which claims the key and makes the change in one
transaction (`kernel.idempotency.record_form_once`): the first POST records and says so; a repeat
of the key (a double click, a resend, a second tab of the same page) records nothing and shows
"Already recorded" with the first outcome, pointing to the same record.
"""

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from kernel.forms import NO_SUBMISSION_KEY, SUBMISSION_KEY_FIELD, SubmittedOnceForm
from kernel.idempotency import FormOutcome, FormStillRunningError, form_fingerprint, record_form_once

__all__ = ["FormOutcome", "already_recorded", "submit_button_once", "submit_once"]

STILL_RUNNING = (
    "This form is still being recorded from its first submission: open the page again in a moment "
    "to see the record. Nothing more was recorded."
)


def already_recorded(message: str) -> str:
    return f"Already recorded: {message} Nothing new was recorded."


def submit_once(
    request: HttpRequest, form: SubmittedOnceForm, *, purpose: str, record: Callable[[], FormOutcome]
) -> HttpResponse | None:
    """Record a valid form once: a redirect to the record, or None with a form error added.

    A service refusal raised by `record` propagates (nothing was recorded, the key stays
    unused), for the view to show as it always has.
    """
    user: Any = request.user
    try:
        recorded = record_form_once(
            user_id=user.pk,
            purpose=purpose,
            key=form.cleaned_data[SUBMISSION_KEY_FIELD],
            path=request.path,
            fingerprint=form_fingerprint(path=request.path, data=request.POST),
            record=record,
        )
    except FormStillRunningError:
        form.add_error(None, STILL_RUNNING)
        return None
    if not recorded.replayed:
        messages.success(request, recorded.outcome.message)
    elif recorded.same_request:
        messages.warning(request, already_recorded(recorded.outcome.message))
    else:
        # The key of a recorded page came back with other entries (e.g. edited after going back):
        # record nothing now, and show the form again with a new key for a deliberate second one.
        form.renew_submission_key()
        form.add_error(
            None,
            f"This form was already submitted and recorded ({recorded.outcome.message}). Nothing new "
            "was recorded: to record these entries as well, submit the form again.",
        )
        return None
    return redirect(recorded.outcome.location)


def submit_button_once(
    request: HttpRequest, *, purpose: str, back_to: str, record: Callable[[], FormOutcome]
) -> HttpResponse:
    """A one-button form (approve, sign): recorded once; a refusal is an error message on `back_to`.

    Without a valid key the answer is a 400 page that says nothing was recorded.
    """
    form = SubmittedOnceForm(request.POST)
    if not form.is_valid():
        return render(
            request, "floor/not_recorded.html", {"message": NO_SUBMISSION_KEY, "back_to": back_to}, status=400
        )
    done = submit_once(request, form, purpose=purpose, record=record)
    if done is not None:
        return done
    for error in form.non_field_errors():
        messages.error(request, str(error))
    return redirect(back_to)
