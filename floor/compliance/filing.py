"""Filing with FinCEN on the console: the CTRs by filing state, a worksheet as Form 112 lays it out
with its "record filing" form, and the SAR referral queue. Compliance only: a SAR's existence is
shown to nobody else (31 CFR 1021.320(e)); staff who refer one see their confirmation only
(`floor.patrons.views.refer`)."""

import datetime as dt

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods

from audit.context import AuditActor
from casino.models import StaffRole
from floor.access import console_view, role_of
from floor.compliance.forms import CtrFilingForm, SarDecisionForm
from floor.patrons.views import identification_view
from floor.submissions import FormOutcome, submit_once
from kernel.errors import CodedError
from kernel.gaming_day import casino_zone
from table_money.engine.title31 import FilingState
from table_money.models import SarReferral
from table_money.selectors import (
    ctr_filing_line,
    earlier_filings,
    get_ctr_worksheet,
    list_ctr_filing_lines,
    list_sar_referrals,
)
from table_money.services import filing

FILING_ROLES = (StaffRole.COMPLIANCE,)


def _actor(request: HttpRequest) -> AuditActor:
    user = request.user
    return AuditActor(kind="user", user_id=user.pk, username=user.get_username(), role=role_of(user) or "")


def _today() -> dt.date:
    return timezone.now().astimezone(casino_zone()).date()


def _refusal_on(form: CtrFilingForm | SarDecisionForm, refused: CodedError) -> None:
    form.add_error(refused.field if refused.field in form.fields else None, refused.detail)


@require_GET
@console_view(*FILING_ROLES)
def ctr_list(request: HttpRequest) -> HttpResponse:
    wanted = request.GET.get("state", "")
    state = FilingState(wanted) if wanted in set(FilingState) else None
    lines = list_ctr_filing_lines(today=_today(), state=state)
    return render(
        request,
        "floor/compliance/ctrs.html",
        {"lines": lines, "state": state, "states": list(FilingState)},
    )


@require_http_methods(["GET", "POST"])
@console_view(*FILING_ROLES)
def ctr_worksheet(request: HttpRequest, worksheet_id: int) -> HttpResponse:
    worksheet = get_ctr_worksheet(worksheet_id=worksheet_id)
    if worksheet is None:
        raise Http404("No such CTR worksheet.")
    form = CtrFilingForm(request.POST or None)
    if request.method == "POST" and form.is_valid():

        def record_it() -> FormOutcome:
            filed = filing.record_ctr_filing(
                worksheet_id=worksheet.pk,
                bsa_id=form.cleaned_data["bsa_id"],
                filed_on=form.cleaned_data["filed_on"],
                user=request.user,  # type: ignore[arg-type]
                actor=_actor(request),
                now=timezone.now(),
            )
            return FormOutcome(
                message=f"The CTR is recorded as filed on {filed.filed_on.isoformat()}, BSA ID {filed.bsa_id}.",
                location=reverse("floor:ctr_worksheet", args=[worksheet.pk]),
            )

        try:
            done = submit_once(request, form, purpose="compliance.ctr.file", record=record_it)
        except CodedError as refused:
            _refusal_on(form, refused)
        else:
            if done is not None:
                return done
    line = ctr_filing_line(worksheet, today=_today())
    # A filed CTR shows the identification it was filed with; one to file, the patron's current one.
    patron = worksheet.patron
    current = line.filing.identification if line.filing else patron.current_identification if patron else None
    return render(
        request,
        "floor/compliance/ctr_worksheet.html",
        {
            "line": line,
            "worksheet": worksheet,
            "identification": identification_view(current, show_tin=True) if current else None,
            "earlier_filings": list(earlier_filings(worksheet)),
            "transactions": [{**t, "at": dt.datetime.fromisoformat(t["at"])} for t in worksheet.transactions],
            "form": form if line.filing is None else None,
            "institution": {
                "licensee": settings.CASINO_LICENSEE,
                "property": settings.CASINO_PROPERTY,
            },
        },
    )


@require_GET
@console_view(*FILING_ROLES)
def sar_queue(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "floor/compliance/sar_queue.html",
        {
            "open_referrals": list(list_sar_referrals(decided=False)),
            "decided_referrals": list(list_sar_referrals(decided=True)[:100]),
        },
    )


@require_http_methods(["GET", "POST"])
@console_view(*FILING_ROLES)
def sar_referral(request: HttpRequest, referral_id: int) -> HttpResponse:
    referral = (
        SarReferral.objects.select_related("patron", "referred_by", "decision__decided_by")
        .filter(pk=referral_id)
        .first()
    )
    if referral is None:
        raise Http404("No such referral.")
    form = SarDecisionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():

        def decide_it() -> FormOutcome:
            decision = filing.decide_sar_referral(
                referral_id=referral.pk,
                outcome=form.cleaned_data["outcome"],
                bsa_id=form.cleaned_data["bsa_id"],
                filed_on=form.cleaned_data["filed_on"],
                reason=form.cleaned_data["reason"],
                user=request.user,  # type: ignore[arg-type]
                actor=_actor(request),
                now=timezone.now(),
            )
            return FormOutcome(
                message=f"Referral {referral.pk} is decided: {decision.get_outcome_display()}.",
                location=reverse("floor:sar_referral", args=[referral.pk]),
            )

        try:
            done = submit_once(request, form, purpose="compliance.sar.decide", record=decide_it)
        except CodedError as refused:
            _refusal_on(form, refused)
        else:
            if done is not None:
                return done
    decision = getattr(referral, "decision", None)
    return render(
        request,
        "floor/compliance/sar_referral.html",
        {"referral": referral, "decision": decision, "form": form if decision is None else None},
    )
