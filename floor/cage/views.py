"""The cage cashier's page: record a chip redemption (cash-out) and see the gaming day's."""

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from audit.context import AuditActor
from casino.models import StaffRole
from floor.access import console_view, role_of
from floor.cage.forms import RedemptionForm
from floor.submissions import FormOutcome, submit_once
from kernel.errors import CodedError
from kernel.formatting import dollars
from kernel.gaming_day import gaming_day_and_shift
from table_money.models import ChipRedemption
from table_money.services import cage


def _actor(request: HttpRequest) -> AuditActor:
    user = request.user
    return AuditActor(kind="user", user_id=user.pk, username=user.get_username(), role=role_of(user) or "")


@require_http_methods(["GET", "POST"])
@console_view(StaffRole.CAGE_CASHIER)
def cage_page(request: HttpRequest) -> HttpResponse:
    form = RedemptionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():

        def redeem() -> FormOutcome:
            redemption = cage.redeem_chips(
                amount_cents=form.cleaned_data["amount"],
                chips=None,
                patron_number=form.cleaned_data["patron"],
                description=form.cleaned_data["description"],
                cashier=request.user,  # type: ignore[arg-type]
                actor=_actor(request),
                now=timezone.now(),
            )
            who = f"patron {redemption.patron.number}" if redemption.patron else redemption.description
            return FormOutcome(
                message=f"Paid {dollars(redemption.amount_cents)} to {who}.",
                location=f"{reverse('floor:cage')}#redemption-{redemption.pk}",
            )

        try:
            done = submit_once(request, form, purpose="cage.redemption", record=redeem)
        except CodedError as refused:
            form.add_error(None, refused.detail)
        else:
            if done is not None:
                return done
    gaming_day, _ = gaming_day_and_shift(timezone.now())
    redemptions = (
        ChipRedemption.objects.filter(gaming_day=gaming_day)
        .select_related("patron", "cashier")
        .order_by("-created_at")
    )
    return render(
        request,
        "floor/cage/cage.html",
        {
            "form": form,
            "gaming_day": gaming_day,
            "redemptions": list(redemptions),
            "mtl_threshold": settings.CASINO_MTL_THRESHOLD_CENTS,
        },
    )
