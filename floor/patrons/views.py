"""Patrons on the floor console: find or create one, and a patron's page (their gaming days'
cash in and out, their MTL entries and CTR worksheets, and their ratings: the section
`floor/patrons/_ratings.html`). Identification is recorded, and corrected, on its own page: a new
revision each time, the earlier ones listed on the patron's page."""

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from audit.context import AuditActor
from casino.models import StaffRole
from floor.access import console_view, role_of
from floor.compliance.forms import SarReferralForm
from floor.patrons.forms import IdentificationForm, NewPatronForm, SearchForm
from floor.submissions import FormOutcome, submit_once
from kernel.errors import CodedError
from kernel.gaming_day import gaming_day_and_shift
from patrons import services as patrons
from patrons.identification import details_of, identification_values, masked_number, missing_for_filing
from patrons.models import Patron, PatronIdentification
from table_money.models import BuyIn, BuyInMethod, ChipRedemption, CtrWorksheet, MtlEntry
from table_money.services import filing

PATRON_PAGE_ROLES = (
    StaffRole.FLOOR_SUPERVISOR,
    StaffRole.PIT_BOSS,
    StaffRole.CAGE_CASHIER,
    StaffRole.COMPLIANCE,
    StaffRole.ADMIN,
)
RECENT_DAYS = 60


def _actor(request: HttpRequest) -> AuditActor:
    user = request.user
    return AuditActor(kind="user", user_id=user.pk, username=user.get_username(), role=role_of(user) or "")


@require_http_methods(["GET", "POST"])
@console_view(*PATRON_PAGE_ROLES)
def find_or_create(request: HttpRequest) -> HttpResponse:
    search = SearchForm(request.GET or None)
    query = search.cleaned_data["q"] if search.is_valid() else ""
    form = NewPatronForm(request.POST or None)
    if request.method == "POST" and form.is_valid():

        def create_it() -> FormOutcome:
            patron = patrons.create_patron(
                name=form.cleaned_data["name"],
                user=request.user,  # type: ignore[arg-type]
                actor=_actor(request),
                now=timezone.now(),
            )
            return FormOutcome(
                message=f"Patron {patron.number} {patron.name} is on file.",
                location=reverse("floor:patron", args=[patron.number]),
            )

        try:
            done = submit_once(request, form, purpose="patron.create", record=create_it)
        except CodedError as refused:
            form.add_error(None, refused.detail)
        else:
            if done is not None:
                return done
    return render(
        request,
        "floor/patrons/find.html",
        {"search": search, "query": query, "found": list(patrons.find_patrons(query=query)), "form": form},
    )


@dataclass
class DayLine:
    gaming_day: Any
    cash_in_cents: int = 0
    markers_cents: int = 0
    cash_out_cents: int = 0


def _days(patron: Patron) -> list[DayLine]:
    days: dict[Any, DayLine] = {}
    for buy_in in BuyIn.objects.filter(patron=patron).only("gaming_day", "method", "amount_cents"):
        line = days.setdefault(buy_in.gaming_day, DayLine(buy_in.gaming_day))
        if buy_in.method == BuyInMethod.CASH:
            line.cash_in_cents += buy_in.amount_cents
        else:
            line.markers_cents += buy_in.amount_cents
    for redemption in ChipRedemption.objects.filter(patron=patron).only("gaming_day", "amount_cents"):
        days.setdefault(
            redemption.gaming_day, DayLine(redemption.gaming_day)
        ).cash_out_cents += redemption.amount_cents
    return sorted(days.values(), key=lambda line: line.gaming_day, reverse=True)[:RECENT_DAYS]


def _latest_ctrs(patron: Patron) -> list[CtrWorksheet]:
    latest: dict[tuple[Any, str], CtrWorksheet] = {}
    for worksheet in CtrWorksheet.objects.filter(patron=patron).order_by(
        "gaming_day", "direction", "revision"
    ):
        latest[(worksheet.gaming_day, worksheet.direction)] = worksheet
    return sorted(latest.values(), key=lambda w: (w.gaming_day, w.direction), reverse=True)


def _patron(number: int) -> Patron:
    patron = Patron.objects.select_related("current_identification").filter(number=number).first()
    if patron is None:
        raise Http404("No such patron.")
    return patron


def sees_tin(request: HttpRequest) -> bool:
    return role_of(request.user) == StaffRole.COMPLIANCE


@dataclass(frozen=True)
class IdentificationView:
    """A revision as a console page shows it: the TIN masked except to compliance."""

    revision: PatronIdentification
    tin: str
    missing_for_filing: list[str]


def identification_view(revision: PatronIdentification, *, show_tin: bool) -> IdentificationView:
    return IdentificationView(
        revision=revision,
        tin=revision.tin if show_tin else masked_number(revision.tin),
        missing_for_filing=missing_for_filing(details_of(revision)),
    )


@require_http_methods(["GET"])
@console_view(*PATRON_PAGE_ROLES)
def patron_page(request: HttpRequest, number: int) -> HttpResponse:
    patron = _patron(number)
    mtl_by_day: dict[Any, list[MtlEntry]] = defaultdict(list)
    for entry in MtlEntry.objects.filter(patron=patron).select_related("cage_cash").order_by("-occurred_at"):
        mtl_by_day[entry.gaming_day].append(entry)
    show_tin = sees_tin(request)
    return render(
        request,
        "floor/patrons/patron.html",
        {
            "patron": patron,
            "days": _days(patron),
            "mtl": [entry for entries in mtl_by_day.values() for entry in entries],
            "ctrs": _latest_ctrs(patron),
            "identifications": [
                identification_view(revision, show_tin=show_tin)
                for revision in patrons.identification_history(patron=patron)
            ],
        },
    )


def _initial(patron: Patron) -> dict[str, Any]:
    current = patron.current_identification
    if current is None:
        return {}
    return {**identification_values(details_of(current)), "tin": ""}


def _back_to(request: HttpRequest, patron: Patron) -> str:
    """Where to go once identified: the page that sent staff here (this site only), or the patron's."""
    wanted = request.POST.get("next") or request.GET.get("next") or ""
    if wanted and url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return wanted
    return reverse("floor:patron", args=[patron.number])


@require_http_methods(["GET", "POST"])
@console_view(*PATRON_PAGE_ROLES)
def identify(request: HttpRequest, number: int) -> HttpResponse:
    """Identify a patron, or correct their identification: each is a new revision."""
    patron = _patron(number)
    current = patron.current_identification
    form = IdentificationForm(request.POST or None, initial=_initial(patron))
    back_to = _back_to(request, patron)
    if request.method == "POST" and form.is_valid():

        def identify_them() -> FormOutcome:
            identified = patrons.identify_patron(
                number=patron.number,
                details=form.details(tin_on_file=current.tin if current is not None else ""),
                user=request.user,  # type: ignore[arg-type]
                actor=_actor(request),
                now=timezone.now(),
            )
            done_what = "identification is corrected" if current is not None else "is identified"
            return FormOutcome(
                message=f"Patron {identified.number} {done_what}: {identified.name}.",
                location=back_to,
            )

        try:
            done = submit_once(request, form, purpose="patron.identify", record=identify_them)
        except CodedError as refused:
            form.add_error(refused.field if refused.field in form.fields else None, refused.detail)
        else:
            if done is not None:
                return done
    return render(
        request,
        "floor/patrons/identify.html",
        {
            "patron": patron,
            "form": form,
            "current": identification_view(current, show_tin=sees_tin(request)) if current else None,
            "next": back_to,
        },
    )


@require_http_methods(["GET", "POST"])
@console_view(*PATRON_PAGE_ROLES)
def refer(request: HttpRequest) -> HttpResponse:
    """Refer a patron or a transaction to compliance as suspicious. The referrer is told it is
    recorded, and nothing more: what compliance decides is not shown outside compliance."""
    initial: dict[str, Any] = {"gaming_day": gaming_day_and_shift(timezone.now())[0]}
    if (number := request.GET.get("patron", "")).isdigit() and len(number) <= 10:
        initial["patron"] = int(number)
    form = SarReferralForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():

        def refer_it() -> FormOutcome:
            referral = filing.refer_suspicious_activity(
                patron=patrons.resolve_patron(form.cleaned_data["patron"]),
                description=form.cleaned_data["description"],
                gaming_day=form.cleaned_data["gaming_day"],
                amount_cents=form.cleaned_data["amount"],
                narrative=form.cleaned_data["narrative"],
                user=request.user,  # type: ignore[arg-type]
                role=role_of(request.user) or "",
                actor=_actor(request),
                now=timezone.now(),
            )
            return FormOutcome(
                message=f"Your referral is recorded (reference {referral.pk}); compliance will review it. "
                "Keep it confidential: do not tell the patron or anyone outside compliance.",
                location=reverse("floor:sar_refer"),
            )

        try:
            done = submit_once(request, form, purpose="compliance.sar.refer", record=refer_it)
        except CodedError as refused:
            form.add_error(refused.field if refused.field in form.fields else None, refused.detail)
        else:
            if done is not None:
                return done
    return render(request, "floor/patrons/refer.html", {"form": form})
