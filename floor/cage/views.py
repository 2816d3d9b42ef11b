"""The cage cashier's page: chip redemptions (cash-outs) and the cage's side of fills and credits.

A cash-out takes two steps: the form (the patron, the chips by denomination), then a confirmation
that shows the patron's gaming day with this payment (`table_money.services.cage.check_cash_out`).
When the payment needs the patron identified first, the confirmation says so, links to the
patron's page where the identification is recorded, and offers the one alternative: a floor
supervisor or pit boss at the window signs an override with their own username and password and
a reason. A refused payment changes nothing.
"""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import authenticate
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from audit.context import AuditActor
from casino.models import StaffRole
from floor.access import console_view, role_of
from floor.cage.forms import CashOutForm, RunnerForm
from floor.operations.slips import cage_signs, slip_row
from floor.submissions import FormOutcome, submit_once
from kernel.errors import CodedError
from kernel.formatting import dollars
from kernel.gaming_day import gaming_day_and_shift
from patrons.models import Patron
from table_money.models import ChipRedemption, ChipSlip, HandoverStep, SlipKind
from table_money.selectors import get_slip, list_cage_slips
from table_money.services import accounting, cage, title31

OVERRIDE_FIELDS = ("supervisor", "supervisor_password", "override_reason")


def _actor(request: HttpRequest) -> AuditActor:
    user = request.user
    return AuditActor(kind="user", user_id=user.pk, username=user.get_username(), role=role_of(user) or "")


def _override(request: HttpRequest, form: CashOutForm) -> cage.IdentificationOverride | None:
    """The supervisor's signature typed on the confirmation, authenticated; None when the
    supervisor left it empty. A wrong password or a missing reason is a form error."""
    data = form.cleaned_data
    if not any(data[name] for name in OVERRIDE_FIELDS):
        return None
    if not data["supervisor"] or not data["supervisor_password"]:
        form.add_error("supervisor", "The supervisor signs with their username and password.")
        return None
    if not data["override_reason"].strip():
        form.add_error("override_reason", "Give the reason: it goes on the record.")
        return None
    supervisor = authenticate(request, username=data["supervisor"], password=data["supervisor_password"])
    if supervisor is None:
        form.add_error("supervisor_password", "That username and password do not sign an override.")
        return None
    return cage.IdentificationOverride(supervisor=supervisor, reason=data["override_reason"])


def _page(request: HttpRequest, form: CashOutForm, *, status: int = 200) -> HttpResponse:
    # The override's fields are shown on the confirmation only: their errors are said here.
    for name in (*OVERRIDE_FIELDS, "confirmed"):
        for error in form.errors.get(name, []):
            form.add_error(None, f"{form.fields[name].label or name}: {error}")
    now = timezone.now()
    gaming_day, _ = gaming_day_and_shift(now)
    redemptions = (
        ChipRedemption.objects.filter(gaming_day=gaming_day)
        .select_related("patron", "cashier", "identification_override_by")
        .order_by("-created_at")
    )
    slips = [slip_row(slip, viewer=request.user) for slip in list_cage_slips(gaming_day=gaming_day)]
    return render(
        request,
        "floor/cage/cage.html",
        {
            "form": form,
            "rows": list(form.rows()),
            "gaming_day": gaming_day,
            "redemptions": list(redemptions),
            "mtl_threshold": settings.CASINO_MTL_THRESHOLD_CENTS,
            "ctr_threshold": settings.CASINO_CTR_THRESHOLD_CENTS,
            "slips": [(row, cage_signs(request.user, row)) for row in slips],
            "runner_form": RunnerForm(),
        },
        status=status,
    )


def _confirmation(request: HttpRequest, form: CashOutForm, check: cage.CashOutCheck) -> HttpResponse:
    return render(
        request,
        "floor/cage/confirm.html",
        {
            "form": form,
            "check": check,
            "ctr_threshold": settings.CASINO_CTR_THRESHOLD_CENTS,
            "chips": form.cleaned_data["chips"],
        },
    )


@require_http_methods(["GET", "POST"])
@console_view(StaffRole.CAGE_CASHIER)
def cage_page(request: HttpRequest) -> HttpResponse:
    form = CashOutForm(request.POST or None)
    if request.method != "POST" or not form.is_valid():
        return _page(request, form)
    data = form.cleaned_data
    try:
        check = cage.check_cash_out(
            amount_cents=data["total_cents"],
            chips=data["chips"],
            patron_number=data["patron"],
            description=data["description"],
            now=timezone.now(),
        )
    except CodedError as refused:
        form.add_error(None, refused.detail)
        return _page(request, form)
    if not data["confirmed"]:
        return _confirmation(request, form, check)
    override = _override(request, form) if check.needs_identification else None
    if form.errors:
        return _confirmation(request, form, check)

    def pay() -> FormOutcome:
        redemption = cage.redeem_chips(
            amount_cents=data["total_cents"],
            chips=data["chips"],
            patron_number=data["patron"],
            description=data["description"],
            cashier=request.user,  # type: ignore[arg-type]
            actor=_actor(request),
            now=timezone.now(),
            override=override,
        )
        who = f"patron {redemption.patron.number}" if redemption.patron else redemption.description
        signed = " on the supervisor's override" if redemption.identification_override_by_id else ""
        return FormOutcome(
            message=f"Paid {dollars(redemption.amount_cents)} to {who}{signed}.",
            location=f"{reverse('floor:cage')}#redemption-{redemption.pk}",
        )

    try:
        done = submit_once(request, form, purpose="cage.redemption", record=pay)
    except CodedError as refused:
        form.add_error(None, refused.detail)
        return _confirmation(request, form, check)
    return done if done is not None else _confirmation(request, form, check)


@require_GET
@console_view(StaffRole.CAGE_CASHIER)
def patron_day(request: HttpRequest) -> HttpResponse:
    """The patron's cash of the gaming day, shown on the form once the number is typed."""
    try:
        number = int(request.GET.get("patron", ""))
    except ValueError:
        number = 0
    patron = Patron.objects.filter(number=number).first() if 0 < number < 2**31 else None
    day = None
    if patron is not None:
        gaming_day, _ = gaming_day_and_shift(timezone.now())
        day = title31.cash_of_day(patron=patron, gaming_day=gaming_day)
    return render(
        request,
        "floor/cage/_patron_day.html",
        {
            "patron": patron,
            "number": number,
            "day": day,
            "ctr_threshold": settings.CASINO_CTR_THRESHOLD_CENTS,
        },
    )


# --- the cage's side of fills and credits --------------------------------------------------------


def _cage_slip(slip_id: int) -> ChipSlip:
    try:
        return get_slip(slip_id=slip_id)
    except ChipSlip.DoesNotExist:
        raise Http404("No such slip.") from None


@require_POST
@console_view(StaffRole.CAGE_CASHIER)
def sign_slip(request: HttpRequest, slip_id: int) -> HttpResponse:
    """Issue a fill's chips to its runner, or receive a credit's chips from theirs."""
    slip = _cage_slip(slip_id)
    name = f"{slip.get_kind_display()} #{slip.number}"
    form = RunnerForm(request.POST)
    if not form.is_valid():
        messages.error(request, f"{name}: name the runner and their badge. Nothing was recorded.")
        return redirect(f"{reverse('floor:cage')}#cage-{slip.kind}-{slip.number}")

    def sign_it() -> FormOutcome:
        handover = accounting.sign_at_cage(
            kind=SlipKind(slip.kind),
            slip_id=slip.pk,
            runner_name=form.cleaned_data["runner_name"],
            runner_badge=form.cleaned_data["runner_badge"],
            cashier=request.user,  # type: ignore[arg-type]
            actor=_actor(request),
            now=timezone.now(),
        )
        done = "issued to" if handover.step == HandoverStep.ISSUED_BY_CAGE else "received from"
        return FormOutcome(
            message=f"{name} for {dollars(slip.amount_cents)} at {slip.table.name} is {done} "
            f"{handover.runner_name} (badge {handover.runner_badge}).",
            location=f"{reverse('floor:cage')}#cage-{slip.kind}-{slip.number}",
        )

    try:
        done = submit_once(request, form, purpose="cage.slip", record=sign_it)
    except CodedError as refused:
        messages.error(request, f"{name} was not signed. {refused.detail[:1].upper()}{refused.detail[1:]}")
        return redirect(f"{reverse('floor:cage')}#cage-{slip.kind}-{slip.number}")
    if done is None:
        for error in form.non_field_errors():
            messages.error(request, str(error))
        return redirect("floor:cage")
    return done
