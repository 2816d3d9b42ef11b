"""The tournament pages of the console (RULES.md §4).

The tournament director creates, files, proposes results and asks to cancel; a pit boss or
compliance officer who did not propose (or ask) approves; the cage cashier takes entries and pays
prizes. Each form makes one service call (`tournaments.services`) and is recorded once
(`floor.submissions`); a refusal is said on the page and changes nothing.

An entry's token is shown once, on its slip: the entry's form stashes it in the cashier's session
and the slip page takes it out as it shows it, so a reload (or anyone later) sees the slip without
it. The service keeps only its hash. The board's display key is shown to the director once the
same way, as the link a screen of the tournament area opens.
"""

from typing import Any, cast

import segno
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.models import AbstractBaseUser
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from audit.context import AuditActor
from casino.models import StaffRole
from floor.access import TOURNAMENT_ROLES, TOURNAMENT_SECOND_PERSON_ROLES, console_view, role_of
from floor.submissions import FormOutcome, submit_button_once, submit_once
from floor.tournaments.forms import (
    CancellationForm,
    EntryForm,
    FilingForm,
    PrizePaymentForm,
    TournamentForm,
    form_field_of,
    heat_label,
)
from kernel.errors import CodedError
from kernel.formatting import dollars
from skill_games.registry import game_for, kinds
from tournaments import selectors, services
from tournaments.engine.settings import InvalidTournamentError
from tournaments.models import Cancellation, Entry, Heat, Prize, Results, Tournament, TournamentState

DIRECTOR = StaffRole.TOURNAMENT_DIRECTOR
CASHIER = StaffRole.CAGE_CASHIER
SLIP_STASH = "tournament_entry_slip"  # the session's one-time stash: {"entry": id, "token": ...}
BOARD_KEY_STASH = "tournament_board_key"  # likewise the board's link: {"tournament": id, "key": ...}
MAX_ID = 2**63 - 1


def _staff(request: HttpRequest) -> AbstractBaseUser:
    """The signed-in staff member (`console_view` lets no one else through)."""
    return cast(AbstractBaseUser, request.user)


def _actor(request: HttpRequest) -> AuditActor:
    user = request.user
    return AuditActor(kind="user", user_id=user.pk, username=user.get_username(), role=role_of(user) or "")


def _tournament(tournament_id: int) -> Tournament:
    found = selectors.get_tournament(tournament_id=tournament_id) if tournament_id <= MAX_ID else None
    if found is None:
        raise Http404("No such tournament.")
    return found


def _detail_url(tournament_id: int) -> str:
    return reverse("floor:tournament", args=[tournament_id])


def _game_name(kind: str) -> str:
    return game_for(kind).name if kind in kinds() else kind


def _refusal(refused: CodedError) -> str:
    detail = str(refused.detail)
    return f"{detail[:1].upper()}{detail[1:]} Nothing was recorded."


# --- the list -----------------------------------------------------------------------------------


@require_safe
@console_view(*TOURNAMENT_ROLES)
def tournament_list(request: HttpRequest) -> HttpResponse:
    now = timezone.now()
    rows = []
    for tournament in selectors.list_tournaments():
        money = selectors.money_of(tournament)
        next_heat = (
            Heat.objects.filter(tournament=tournament, starts_at__gt=now).order_by("starts_at").first()
        )
        rows.append(
            {
                "tournament": tournament,
                "game": _game_name(tournament.game),
                "max_entries": tournament.settings.get("max_entries"),
                "pool_cents": money.figures.pool_cents,
                "next_heat": next_heat,
            }
        )
    return render(
        request,
        "floor/tournaments/list.html",
        {"rows": rows, "is_director": role_of(request.user) == DIRECTOR},
    )


# --- create -------------------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
@console_view(DIRECTOR)
def tournament_new(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():

        def create() -> FormOutcome:
            tournament = services.create_tournament(
                body=form.settings_body(),
                user=_staff(request),
                actor=_actor(request),
                now=timezone.now(),
            )
            return FormOutcome(
                message=f"Tournament {tournament.pk} {tournament.name} is created as a draft: file it to open registration.",
                location=_detail_url(tournament.pk),
            )

        try:
            done = submit_once(request, form, purpose="tournaments.create", record=create)
        except InvalidTournamentError as refused:
            for error in refused.errors:
                name = form_field_of(error["field"])
                message = f"{heat_label(error['field'])}{error['message']}"
                form.add_error(name if name in form.fields else None, message)
            done = None
        except CodedError as refused:
            form.add_error(None, _refusal(refused))
            done = None
        if done is not None:
            return done
    status = 400 if request.method == "POST" else 200
    return render(request, "floor/tournaments/new.html", {"form": form}, status=status)


# --- a tournament's page ------------------------------------------------------------------------


def _percent(bp: int) -> str:
    whole, rest = divmod(bp, 100)
    return f"{whole}%" if not rest else f"{whole}.{rest:02d}".rstrip("0") + "%"


def _approval(
    request: HttpRequest, *, first_id: int | None, pending: bool, who: str
) -> dict[str, Any] | None:
    """Whether this user may approve what `first_id` proposed or asked, and if not, why."""
    if not pending:
        return None
    role = role_of(request.user)
    if role not in TOURNAMENT_SECOND_PERSON_ROLES:
        return {"may": False, "reason": f"A pit boss or compliance officer who is not the {who} approves it."}
    if first_id == request.user.pk:
        return {"may": False, "reason": f"You are the {who}: a second person approves it."}
    return {"may": True, "reason": ""}


def _detail(request: HttpRequest, tournament: Tournament, *, status: int = 200, **forms: Any) -> HttpResponse:
    now = timezone.now()
    role = role_of(request.user)
    stored = selectors.settings_of(tournament)
    money = selectors.money_of(tournament)
    results = (
        Results.objects.filter(tournament=tournament).select_related("proposed_by", "approved_by").first()
    )
    cancellation = (
        Cancellation.objects.filter(tournament=tournament)
        .select_related("requested_by", "approved_by")
        .first()
    )
    rules = tournament.rules.order_by("-version").first()
    is_director = role == DIRECTOR
    cancellable = (
        tournament.state in services.CANCELLABLE
        and cancellation is None
        and (results is None or results.approved_at is None)
    )
    context = {
        "tournament": tournament,
        "board_url": _board_url_shown_once(request, tournament) if is_director else "",
        "game": _game_name(tournament.game),
        "stored": stored,
        "prize_table": [(place, _percent(bp)) for place, bp in enumerate(stored.prizes_bp, start=1)],
        "rules": rules,
        "entries": list(selectors.list_entries(tournament_id=tournament.pk).select_related("refund")),
        "heats": list(selectors.list_heats(tournament_id=tournament.pk)),
        "standings": selectors.leaderboard(tournament, now=now),
        "not_played": selectors.why_not_played(tournament, now=now),
        "money": money,
        "revenue_cents": money.figures.fees_cents - money.figures.added_cents - money.figures.overlay_cents,
        "results": results,
        "prizes": list(selectors.list_prizes(tournament_id=tournament.pk).select_related("entry__patron")),
        "cancellation": cancellation,
        "is_director": is_director,
        "may_file": is_director and tournament.state == TournamentState.DRAFT,
        "may_propose": is_director and tournament.state == TournamentState.PLAYING_DONE and results is None,
        "may_cancel": is_director and cancellable,
        "results_approval": _approval(
            request,
            first_id=results.proposed_by_id if results else None,
            pending=results is not None
            and results.approved_at is None
            and tournament.state == TournamentState.PLAYING_DONE,
            who="proposer of the results",
        ),
        "cancellation_approval": _approval(
            request,
            first_id=cancellation.requested_by_id if cancellation else None,
            pending=cancellation is not None
            and cancellation.approved_at is None
            and tournament.state in services.CANCELLABLE,
            who="one who asked to cancel",
        ),
        "file_form": forms.get("file_form") or FilingForm(),
        "cancel_form": forms.get("cancel_form") or CancellationForm(),
    }
    return render(request, "floor/tournaments/detail.html", context, status=status)


def _board_url_shown_once(request: HttpRequest, tournament: Tournament) -> str:
    stashed = request.session.get(BOARD_KEY_STASH)
    if not isinstance(stashed, dict) or stashed.get("tournament") != tournament.pk:
        return ""
    del request.session[BOARD_KEY_STASH]
    page = reverse("board:page", args=[tournament.pk])
    return request.build_absolute_uri(f"{page}?{urlencode({'key': stashed['key']})}")


@require_safe
@console_view(*TOURNAMENT_ROLES)
def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _detail(request, _tournament(tournament_id))


@require_POST
@console_view(DIRECTOR)
def tournament_file(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    form = FilingForm(request.POST)
    if form.is_valid():

        def file() -> FormOutcome:
            filed = services.file_tournament(
                tournament_id=tournament.pk,
                reference=form.cleaned_data["reference"],
                filed_on=form.cleaned_data["filed_on"],
                actor=_actor(request),
                now=timezone.now(),
            )
            return FormOutcome(
                message=f"Tournament {filed.pk} is filed ({filed.filing_reference}): registration is open.",
                location=_detail_url(filed.pk),
            )

        try:
            done = submit_once(request, form, purpose="tournaments.file", record=file)
        except CodedError as refused:
            form.add_error("reference" if refused.field == "reference" else None, _refusal(refused))
            done = None
        if done is not None:
            return done
    return _detail(request, _tournament(tournament_id), status=400, file_form=form)


@require_POST
@console_view(DIRECTOR)
def tournament_cancel(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    form = CancellationForm(request.POST)
    if form.is_valid():

        def ask() -> FormOutcome:
            services.request_cancellation(
                tournament_id=tournament.pk,
                reason=form.cleaned_data["reason"],
                user=_staff(request),
                actor=_actor(request),
                now=timezone.now(),
            )
            return FormOutcome(
                message=f"Cancelling tournament {tournament.pk} is asked: a pit boss or compliance officer approves it.",
                location=_detail_url(tournament.pk),
            )

        try:
            done = submit_once(request, form, purpose="tournaments.cancel", record=ask)
        except CodedError as refused:
            form.add_error("reason" if refused.field == "reason" else None, _refusal(refused))
            done = None
        if done is not None:
            return done
    return _detail(request, _tournament(tournament_id), status=400, cancel_form=form)


def _button(request: HttpRequest, tournament_id: int, *, purpose: str, act: Any, said: str) -> HttpResponse:
    """A one-button form of a tournament's page: recorded once, a refusal said on the page."""
    tournament = _tournament(tournament_id)
    back_to = _detail_url(tournament.pk)

    def record() -> FormOutcome:
        act(tournament.pk)
        return FormOutcome(message=said.format(id=tournament.pk), location=back_to)

    try:
        return submit_button_once(request, purpose=purpose, back_to=back_to, record=record)
    except CodedError as refused:
        messages.error(request, _refusal(refused))
        return redirect(back_to)


@require_POST
@console_view(DIRECTOR)
def results_propose(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _button(
        request,
        tournament_id,
        purpose="tournaments.results",
        act=lambda pk: services.propose_results(
            tournament_id=pk,
            user=_staff(request),
            actor=_actor(request),
            now=timezone.now(),
        ),
        said="Tournament {id}'s results are proposed: a pit boss or compliance officer approves them.",
    )


@require_POST
@console_view(DIRECTOR)
def board_key_new(request: HttpRequest, tournament_id: int) -> HttpResponse:
    def issue(pk: int) -> None:
        key = services.new_display_key(tournament_id=pk, actor=_actor(request), now=timezone.now())
        request.session[BOARD_KEY_STASH] = {"tournament": pk, "key": key}

    return _button(
        request,
        tournament_id,
        purpose="tournaments.board_key",
        act=issue,
        said="Tournament {id}'s board has a new link, shown below once; a screen on an earlier link stops.",
    )


def _second_persons_button(
    request: HttpRequest, tournament_id: int, *, purpose: str, approve: Any, said: str
) -> HttpResponse:
    """An approval by the second person: the service checks they are not the first."""
    return _button(
        request,
        tournament_id,
        purpose=purpose,
        act=lambda pk: approve(
            tournament_id=pk,
            user=_staff(request),
            role=role_of(request.user),
            actor=_actor(request),
            now=timezone.now(),
        ),
        said=said,
    )


@require_POST
@console_view(*TOURNAMENT_SECOND_PERSON_ROLES)
def results_approve(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _second_persons_button(
        request,
        tournament_id,
        purpose="tournaments.results_approve",
        approve=services.approve_results,
        said="Tournament {id}'s results are approved: the cage pays the prizes.",
    )


@require_POST
@console_view(*TOURNAMENT_SECOND_PERSON_ROLES)
def cancellation_approve(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _second_persons_button(
        request,
        tournament_id,
        purpose="tournaments.cancel_approve",
        approve=services.approve_cancellation,
        said="Tournament {id} is cancelled: every buy-in and fee is refunded.",
    )


# --- the cage: entries and their slips ------------------------------------------------------------


def _open_for_entries() -> list[tuple[int, str]]:
    now = timezone.now()
    choices = []
    for tournament in Tournament.objects.filter(state=TournamentState.REGISTERING).order_by("pk"):
        stored = selectors.settings_of(tournament)
        if now < stored.registration_closes_at:
            choices.append(
                (tournament.pk, f"{tournament.pk} {tournament.name}: {dollars(stored.entry_cents)} an entry")
            )
    return choices


@require_http_methods(["GET", "HEAD", "POST"])
@console_view(CASHIER)
def entry_new(request: HttpRequest) -> HttpResponse:
    initial = {}
    asked = request.GET.get("tournament", "")
    if asked.isdigit() and len(asked) < 19:
        initial["tournament"] = int(asked)
    form = EntryForm(request.POST or None, initial=initial, tournaments=_open_for_entries())
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data

        def enter() -> FormOutcome:
            entry, token = services.register_entry(
                tournament_id=data["tournament"],
                patron_number=data["patron"],
                paid_with=data["paid_with"],
                nickname=data["nickname"],
                cashier=_staff(request),
                actor=_actor(request),
                now=timezone.now(),
            )
            request.session[SLIP_STASH] = {"entry": entry.pk, "token": token}
            return FormOutcome(
                message=f"Entry {entry.number} of tournament {entry.tournament_id} for patron {data['patron']} "
                f"is paid ({dollars(entry.buy_in_cents + entry.fee_cents)}).",
                location=reverse("floor:tournament_slip", args=[entry.pk]),
            )

        try:
            done = submit_once(request, form, purpose="tournaments.entry", record=enter)
        except CodedError as refused:
            form.add_error("patron" if refused.field == "patron" else None, _refusal(refused))
            done = None
        if done is not None:
            return done
    status = 400 if request.method == "POST" else 200
    return render(request, "floor/tournaments/entry.html", {"form": form}, status=status)


def _qr_svg(url: str) -> str:
    qr = segno.make(url, error="m")
    # segno writes the SVG itself from the URL's bytes: no markup of ours goes into it.
    return mark_safe(  # noqa: S308
        qr.svg_inline(
            scale=5, border=4, dark="#000", light="#fff", svgclass="qr", lineclass=None, title="Player page"
        )
    )


@require_safe
@console_view(CASHIER)
def entry_slip(request: HttpRequest, entry_id: int) -> HttpResponse:
    entry = (
        Entry.objects.select_related("tournament", "patron", "rules").filter(pk=entry_id).first()
        if entry_id <= MAX_ID
        else None
    )
    if entry is None:
        raise Http404("No such entry.")
    stashed = request.session.get(SLIP_STASH)
    token = None
    if isinstance(stashed, dict) and stashed.get("entry") == entry.pk:
        token = str(stashed["token"])
        del request.session[SLIP_STASH]  # shown once: a reload shows the slip without it
    play_url = (
        request.build_absolute_uri(f"{reverse('play:page')}?{urlencode({'token': token})}") if token else ""
    )
    return render(
        request,
        "floor/tournaments/slip.html",
        {
            "entry": entry,
            "paid_cents": entry.buy_in_cents + entry.fee_cents,
            "token": token,
            "play_url": play_url,
            "qr": _qr_svg(play_url) if token else "",
        },
    )


# --- the cage: prizes ---------------------------------------------------------------------------


def _prizes_page(
    request: HttpRequest, *, stop: dict[str, Any] | None = None, status: int = 200
) -> HttpResponse:
    unpaid = (
        Prize.objects.filter(tournament__state=TournamentState.RESULTS_APPROVED, paid_at__isnull=True)
        .select_related("tournament", "entry__patron")
        .order_by("tournament_id", "place", "entry__number")
    )
    return render(
        request,
        "floor/tournaments/prizes.html",
        {
            "prizes": [(prize, PrizePaymentForm()) for prize in unpaid],
            "threshold_cents": settings.CASINO_PRIZE_REPORTING_THRESHOLD_CENTS,
            "stop": stop,
        },
        status=status,
    )


@require_safe
@console_view(CASHIER)
def prize_list(request: HttpRequest) -> HttpResponse:
    return _prizes_page(request)


@require_POST
@console_view(CASHIER)
def prize_pay(request: HttpRequest, prize_id: int) -> HttpResponse:
    prize = (
        Prize.objects.select_related("entry__patron").filter(pk=prize_id).first()
        if prize_id <= MAX_ID
        else None
    )
    if prize is None:
        raise Http404("No such prize.")
    form = PrizePaymentForm(request.POST)
    if not form.is_valid():
        wrong = "; ".join(str(error) for errors in form.errors.values() for error in errors)
        messages.error(request, f"Prize of entry {prize.entry.number} was not paid: {wrong}")
        return _prizes_page(request, status=400)

    def pay() -> FormOutcome:
        paid = services.pay_prize(
            prize_id=prize.pk,
            paid_with=form.cleaned_data["paid_with"],
            cashier=_staff(request),
            actor=_actor(request),
            now=timezone.now(),
        )
        return FormOutcome(
            message=f"Paid {dollars(paid.amount_cents)} in {paid.paid_with} to patron {prize.entry.patron.number} "
            f"(tournament {paid.tournament_id}, place {paid.place}).",
            location=reverse("floor:tournament_prizes"),
        )

    try:
        done = submit_once(request, form, purpose="tournaments.prize", record=pay)
    except CodedError as refused:
        if refused.code == "identification_required":
            return _prizes_page(
                request,
                stop={"prize": prize, "patron": prize.entry.patron, "detail": refused.detail},
                status=409,
            )
        messages.error(request, f"Prize of entry {prize.entry.number} was not paid. {_refusal(refused)}")
        return _prizes_page(request, status=409)
    if done is None:
        for error in form.non_field_errors():
            messages.error(request, str(error))
        return _prizes_page(request, status=400)
    return done
