"""Patrons on the floor console: find or create one, and a patron's page (their gaming days'
cash in and out, their MTL entries and CTR worksheets, and their ratings: the section
`floor/patrons/_ratings.html`). Identification is recorded here when Title 31 needs it."""

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from audit.context import AuditActor
from casino.models import StaffRole
from floor.access import console_view, role_of
from floor.patrons.forms import NewPatronForm, PatronForm, SearchForm
from floor.submissions import FormOutcome, submit_once
from kernel.errors import CodedError
from patrons import services as patrons
from patrons.models import Patron
from table_money.models import BuyIn, BuyInMethod, ChipRedemption, CtrWorksheet, MtlEntry

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
                identification_type=form.cleaned_data["identification_type"],
                identification_reference=form.cleaned_data["identification_reference"],
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
    patron = Patron.objects.filter(number=number).first()
    if patron is None:
        raise Http404("No such patron.")
    return patron


@require_http_methods(["GET"])
@console_view(*PATRON_PAGE_ROLES)
def patron_page(request: HttpRequest, number: int) -> HttpResponse:
    patron = _patron(number)
    mtl_by_day: dict[Any, list[MtlEntry]] = defaultdict(list)
    for entry in MtlEntry.objects.filter(patron=patron).order_by("-occurred_at"):
        mtl_by_day[entry.gaming_day].append(entry)
    return render(
        request,
        "floor/patrons/patron.html",
        {
            "patron": patron,
            "days": _days(patron),
            "mtl": [entry for entries in mtl_by_day.values() for entry in entries],
            "ctrs": _latest_ctrs(patron),
            "identify_form": PatronForm(initial={"name": patron.name}) if not patron.is_identified else None,
        },
    )


@require_POST
@console_view(*PATRON_PAGE_ROLES)
def identify(request: HttpRequest, number: int) -> HttpResponse:
    patron = _patron(number)
    form = PatronForm(request.POST)
    if form.is_valid():
        try:
            patrons.identify_patron(
                number=patron.number,
                name=form.cleaned_data["name"],
                identification_type=form.cleaned_data["identification_type"],
                identification_reference=form.cleaned_data["identification_reference"],
                actor=_actor(request),
                now=timezone.now(),
            )
        except CodedError as refused:
            messages.error(request, f"Patron {patron.number} was not identified. {refused.detail}")
        else:
            messages.success(request, f"Patron {patron.number} is identified.")
    else:
        messages.error(request, "Give the name, the identification type and its number.")
    return redirect("floor:patron", number=patron.number)
