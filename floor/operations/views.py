"""Table operations on the floor console: the table page, opener and closer, fills and credits,
printable slips and round voids.

Every view asks `floor.access` who may see (404 otherwise) and who may act (403 for the roles that
only read), and changes things only through the casino services, which own the transaction, the
ledger and the audit event, exactly as the staff API calls them. A service's refusal is shown as a
form error or a message; nothing has changed when it is.
"""

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from audit.context import AuditActor
from blackjack import services as rounds
from blackjack.models import OPEN_ROUND_STATES, Round
from blackjack.selectors import get_round_at_table
from casino.games import game_for
from casino.models import InventoryKind, Table, TableInventory
from casino.selectors import get_latest_count, get_table_terminal, list_table_limits
from casino.services import terminals
from casino.services.terminals import session_is_live
from floor.access import actable_table, console_view, may_act_on, role_of, visible_table
from floor.live.figures import locked_out_dealers
from floor.operations.forms import (
    CloseTableForm,
    OpenTableForm,
    RoundVoidForm,
    SlipRequestForm,
    SlipVoidForm,
    count_initial,
    counts_fingerprint,
)
from floor.operations.slips import slip_row
from floor.operations.words import dollars_in_words
from floor.submissions import FormOutcome, submit_button_once, submit_once
from kernel.errors import CodedError
from kernel.formatting import dollars
from kernel.forms import SubmittedOnceForm
from kernel.gaming_day import gaming_day_and_shift
from table_money.models import ChipSlip, SlipKind
from table_money.selectors import get_slip, list_shift_and_pending_slips
from table_money.services import accounting


def _actor(request: HttpRequest) -> AuditActor:
    user = request.user
    return AuditActor(kind="user", user_id=user.pk, username=user.get_username(), role=role_of(user) or "")


def _refusal(error: CodedError) -> str:
    """A service's refusal in the words staff read (the few that speak of cents, in dollars)."""
    if error.code == "credit_exceeds_tray":
        return "The tray does not hold enough chips for this credit: count the tray before crediting."
    return error.detail[:1].upper() + error.detail[1:]


def _table_url(table: Table) -> str:
    return reverse("floor:table", args=[table.pk])


def _submit(
    request: HttpRequest, form: SubmittedOnceForm, *, purpose: str, record: Callable[[], FormOutcome]
) -> HttpResponse | None:
    """Record the form once (`floor.submissions`); a service's refusal becomes a form error."""
    try:
        return submit_once(request, form, purpose=purpose, record=record)
    except CodedError as refused:
        form.add_error(None, _refusal(refused))
        return None


# --- what the pages show -----------------------------------------------------------------------


@dataclass(frozen=True)
class TableState:
    label: str
    css: str  # the .status class
    is_open: bool  # open for some shift: the closer is due before the next opener
    note: str = ""


def _table_state(table: Table, latest: TableInventory | None, *, now: dt.datetime) -> TableState:
    if not table.is_active:
        return TableState("Deactivated", "alarm", is_open=False, note="It deals nothing and takes no money.")
    if latest is None:
        how = "with a count of the tray" if game_for(table.game).handles_money else "(no chips are counted)"
        return TableState("Never opened", "closed", is_open=False, note=f"Open it {how}.")
    period = f"{latest.gaming_day:%Y-%m-%d} {latest.shift} shift"
    if latest.kind == InventoryKind.CLOSER:
        return TableState("Closed", "closed", is_open=False, note=f"Closed for the {period}.")
    if (latest.gaming_day, latest.shift) != gaming_day_and_shift(now):
        return TableState(
            "Open for an ended shift",
            "alarm",
            is_open=True,
            note=f"Opened for the {period}, which has ended: close it for that shift, then open it for this one.",
        )
    return TableState("Open", "open", is_open=True, note=f"Open for the {period}.")


def _signed_in_dealer(table: Table, *, now: dt.datetime) -> Any:
    terminal = get_table_terminal(table=table)
    if terminal is None or not session_is_live(terminal, now=now):
        return None
    return terminal.dealer


@require_GET
@console_view()
def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    table = visible_table(request.user, table_id)
    now = timezone.now()
    latest = get_latest_count(table=table)
    current_shift = gaming_day_and_shift(now)
    shifts = {current_shift} | ({(latest.gaming_day, latest.shift)} if latest else set())
    slips = [
        slip_row(slip, viewer=request.user)
        for slip in list_shift_and_pending_slips(table=table, shifts=shifts)
    ]
    game = game_for(table.game)
    return render(
        request,
        "floor/operations/table.html",
        {
            "table": table,
            "game": game,
            "play": game.plays_on_floor([table.pk]).get(table.pk),
            "game_play": game.table_play(table),
            "state": _table_state(table, latest, now=now),
            "latest": latest,
            "current_shift": current_shift,
            "limits": list_table_limits(table=table),
            "dealer": _signed_in_dealer(table, now=now),
            "slips": slips,
            "pending": [row for row in slips if row.is_pending],
            "may_act": may_act_on(request.user, table),
            "locked_dealers": locked_out_dealers([table.pk]).get(table.pk, []),
        },
    )


# --- a dealer locked out at the table ----------------------------------------------------------


@require_POST
@console_view()
def unlock_dealer(request: HttpRequest, table_id: int, dealer_id: int) -> HttpResponse:
    """A supervisor or pit boss of the table's pit unlocks a dealer whom wrong PINs at this table's
    terminal locked out (the same service as `POST /api/v1/dealers/{id}/unlock/`)."""
    table = actable_table(request.user, table_id)

    def unlock_it() -> FormOutcome:
        # Checked with the key claimed, so that a repeat of an unlock says "already recorded".
        if dealer_id not in {dealer.pk for dealer in locked_out_dealers([table.pk]).get(table.pk, [])}:
            raise Http404("No dealer locked out at this table has that id.")
        dealer = terminals.unlock_dealer(dealer_id=dealer_id, actor=_actor(request), now=timezone.now())
        return FormOutcome(
            message=f"Dealer {dealer.name} (badge {dealer.badge}) is unlocked: they sign in with their PIN.",
            location=_table_url(table),
        )

    try:
        return submit_button_once(
            request, purpose="dealer.unlock", back_to=_table_url(table), record=unlock_it
        )
    except CodedError as refused:
        messages.error(request, _refusal(refused))
    return redirect(_table_url(table))


# --- opener and closer -------------------------------------------------------------------------


def _points_table_count(
    request: HttpRequest, table: Table, latest: TableInventory | None, *, kind: InventoryKind
) -> HttpResponse:
    """Open or close a table whose game takes no money (`Game.handles_money`): there is no tray to
    count, so the opener or closer records no chips and no amount, only the two signatures."""
    opening = kind == InventoryKind.OPENER
    form = SubmittedOnceForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        record_count = accounting.open_table if opening else accounting.close_table

        def count_it() -> FormOutcome:
            count = record_count(
                table_id=table.pk,
                total_cents=0,
                chips={},
                supervisor=request.user,  # type: ignore[arg-type]
                actor=_actor(request),
                now=timezone.now(),
            )
            return FormOutcome(
                message=f"{table.name} is {'open' if opening else 'closed'} for the "
                f"{count.gaming_day:%Y-%m-%d} {count.shift} shift (points, no chips counted).",
                location=_table_url(table),
            )

        done = _submit(request, form, purpose="table.open" if opening else "table.close", record=count_it)
        if done is not None:
            return done
    return render(
        request,
        "floor/operations/points_count.html",
        {
            "table": table,
            "form": form,
            "opening": opening,
            "latest": latest,
            "is_open": latest is not None and latest.kind == InventoryKind.OPENER,
        },
    )


@require_http_methods(["GET", "POST"])
@console_view()
def open_table(request: HttpRequest, table_id: int) -> HttpResponse:
    table = actable_table(request.user, table_id)
    latest = get_latest_count(table=table)
    if not game_for(table.game).handles_money:
        return _points_table_count(request, table, latest, kind=InventoryKind.OPENER)
    previous_closer = latest if latest is not None and latest.kind == InventoryKind.CLOSER else None
    previous_chips = previous_closer.chips if previous_closer else None
    review = False
    if request.method == "POST":
        form = OpenTableForm(request.POST)
        if form.is_valid():
            chips, total_cents = form.cleaned_data["chips"], form.cleaned_data["total_cents"]
            differs = previous_chips is not None and counts_fingerprint(chips) != counts_fingerprint(
                previous_chips
            )
            if differs and form.cleaned_data["reviewed"] != counts_fingerprint(chips):
                review = True
            else:

                def open_it() -> FormOutcome:
                    opener = accounting.open_table(
                        table_id=table.pk,
                        total_cents=total_cents,
                        chips=chips,
                        supervisor=request.user,  # type: ignore[arg-type]
                        actor=_actor(request),
                        now=timezone.now(),
                    )
                    return FormOutcome(
                        message=f"{table.name} is open for the {opener.gaming_day:%Y-%m-%d} {opener.shift} "
                        f"shift with {dollars(opener.total_cents)}.",
                        location=_table_url(table),
                    )

                done = _submit(request, form, purpose="table.open", record=open_it)
                if done is not None:
                    return done
    else:
        initial = (
            count_initial(previous_closer.chips, total_cents=previous_closer.total_cents)
            if previous_closer
            else {}
        )
        form = OpenTableForm(initial=initial)
    rows = list(form.rows(previous_chips))
    entered_cents = form.cleaned_data.get("total_cents") if form.is_bound and form.is_valid() else None
    return render(
        request,
        "floor/operations/open.html",
        {
            "table": table,
            "form": form,
            "rows": rows,
            "previous_closer": previous_closer,
            "already_open": latest is not None and latest.kind == InventoryKind.OPENER,
            "review": review,
            "review_fingerprint": counts_fingerprint(form.cleaned_data["chips"]) if review else "",
            "differences": sum(1 for row in rows if row.differs),
            "difference_cents": (
                entered_cents - previous_closer.total_cents
                if entered_cents is not None and previous_closer is not None
                else None
            ),
        },
    )


@require_http_methods(["GET", "POST"])
@console_view()
def close_table(request: HttpRequest, table_id: int) -> HttpResponse:
    table = actable_table(request.user, table_id)
    latest = get_latest_count(table=table)
    if not game_for(table.game).handles_money:
        return _points_table_count(request, table, latest, kind=InventoryKind.CLOSER)
    if request.method == "POST":
        form = CloseTableForm(request.POST)
        if form.is_valid():

            def close_it() -> FormOutcome:
                closer = accounting.close_table(
                    table_id=table.pk,
                    total_cents=form.cleaned_data["total_cents"],
                    chips=form.cleaned_data["chips"],
                    supervisor=request.user,  # type: ignore[arg-type]
                    actor=_actor(request),
                    now=timezone.now(),
                )
                return FormOutcome(
                    message=f"{table.name} is closed for the {closer.gaming_day:%Y-%m-%d} {closer.shift} shift "
                    f"with {dollars(closer.total_cents)}.",
                    location=_table_url(table),
                )

            done = _submit(request, form, purpose="table.close", record=close_it)
            if done is not None:
                return done
    else:
        form = CloseTableForm()
    return render(
        request,
        "floor/operations/close.html",
        {
            "table": table,
            "form": form,
            "rows": list(form.rows()),
            "opener": latest if latest is not None and latest.kind == InventoryKind.OPENER else None,
        },
    )


# --- fills and credits -------------------------------------------------------------------------


def _slip_of(table: Table, slip_id: int) -> ChipSlip:
    try:
        slip = get_slip(slip_id=slip_id)
    except ChipSlip.DoesNotExist:
        raise Http404("No such slip.") from None
    if slip.table_id != table.pk:
        raise Http404("No such slip at this table.")
    return slip


def _slip_name(slip: ChipSlip) -> str:
    return f"{slip.get_kind_display()} #{slip.number}"


def _slip_url(table: Table, slip: ChipSlip) -> str:
    return f"{_table_url(table)}#slip-{slip.kind}-{slip.number}"


@require_http_methods(["GET", "POST"])
@console_view()
def request_slip(request: HttpRequest, table_id: int) -> HttpResponse:
    table = actable_table(request.user, table_id)
    if request.method == "POST":
        form = SlipRequestForm(request.POST)
        if form.is_valid():

            def request_it() -> FormOutcome:
                slip = accounting.request_slip(
                    kind=SlipKind(form.cleaned_data["kind"]),
                    table_id=table.pk,
                    amount_cents=form.cleaned_data["total_cents"],
                    chips=form.cleaned_data["chips"],
                    terminal=None,
                    user=request.user,  # type: ignore[arg-type]
                    actor=_actor(request),
                    now=timezone.now(),
                )
                return FormOutcome(
                    message=f"{_slip_name(slip)} for {dollars(slip.amount_cents)} is requested: "
                    "a second supervisor approves it.",
                    location=_slip_url(table, slip),
                )

            done = _submit(request, form, purpose="slip.request", record=request_it)
            if done is not None:
                return done
    else:
        kind = request.GET.get("kind")
        form = SlipRequestForm(initial={"kind": kind if kind in SlipKind.values else SlipKind.FILL})
    return render(
        request,
        "floor/operations/slip_request.html",
        {"table": table, "form": form, "rows": list(form.rows())},
    )


@require_POST
@console_view()
def approve_slip(request: HttpRequest, table_id: int, slip_id: int) -> HttpResponse:
    table = actable_table(request.user, table_id)
    slip = _slip_of(table, slip_id)

    def approve_it() -> FormOutcome:
        approved = accounting.approve_slip(
            kind=SlipKind(slip.kind),
            slip_id=slip.pk,
            user=request.user,  # type: ignore[arg-type]
            actor=_actor(request),
            now=timezone.now(),
        )
        return FormOutcome(
            message=f"{_slip_name(approved)} for {dollars(approved.amount_cents)} is approved.",
            location=_slip_url(table, approved),
        )

    try:
        return submit_button_once(
            request, purpose="slip.approve", back_to=_table_url(table), record=approve_it
        )
    except CodedError as refused:
        messages.error(request, f"{_slip_name(slip)} was not approved. {_refusal(refused)}")
    return redirect(_table_url(table))


@require_http_methods(["GET", "POST"])
@console_view()
def void_slip(request: HttpRequest, table_id: int, slip_id: int) -> HttpResponse:
    table = actable_table(request.user, table_id)
    slip = _slip_of(table, slip_id)
    if request.method == "POST":
        form = SlipVoidForm(request.POST)
        if form.is_valid():

            def void_it() -> FormOutcome:
                accounting.void_slip(
                    kind=SlipKind(slip.kind),
                    slip_id=slip.pk,
                    reason=form.cleaned_data["reason"],
                    user=request.user,  # type: ignore[arg-type]
                    actor=_actor(request),
                    now=timezone.now(),
                )
                return FormOutcome(message=f"{_slip_name(slip)} is void.", location=_slip_url(table, slip))

            done = _submit(request, form, purpose="slip.void", record=void_it)
            if done is not None:
                return done
    else:
        form = SlipVoidForm()
    return render(
        request,
        "floor/operations/slip_void.html",
        {"table": table, "slip": slip_row(slip, viewer=request.user), "form": form},
    )


@require_GET
@console_view()
def print_slip(request: HttpRequest, table_id: int, slip_id: int) -> HttpResponse:
    """The slip as printed. Each opening of this page is a printed copy, recorded: the first is
    the original, every later one is marked REPRINT with its copy number."""
    table = visible_table(request.user, table_id)
    slip = _slip_of(table, slip_id)
    printed = accounting.print_slip(
        slip_id=slip.pk,
        user=request.user,  # type: ignore[arg-type]
        actor=_actor(request),
        now=timezone.now(),
    )
    return render(
        request,
        "floor/operations/slip_print.html",
        {
            "table": table,
            "slip": slip_row(slip, viewer=request.user),
            "amount_in_words": dollars_in_words(slip.amount_cents),
            "printed": printed,
        },
    )


@require_POST
@console_view()
def receive_fill(request: HttpRequest, table_id: int, slip_id: int) -> HttpResponse:
    """A supervisor of the table signs an issued fill's chips into the tray (the dealer signed in
    at the terminal counts them)."""
    table = actable_table(request.user, table_id)
    slip = _slip_of(table, slip_id)

    def receive_it() -> FormOutcome:
        accounting.receive_fill_at_table(
            slip_id=slip.pk,
            supervisor=request.user,  # type: ignore[arg-type]
            actor=_actor(request),
            now=timezone.now(),
        )
        return FormOutcome(
            message=f"{_slip_name(slip)} for {dollars(slip.amount_cents)} is received at {table.name}.",
            location=_slip_url(table, slip),
        )

    try:
        return submit_button_once(
            request, purpose="slip.receive", back_to=_table_url(table), record=receive_it
        )
    except CodedError as refused:
        messages.error(request, f"{_slip_name(slip)} was not received. {_refusal(refused)}")
    return redirect(_table_url(table))


# --- round voids -------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@console_view()
def void_round(request: HttpRequest, table_id: int) -> HttpResponse:
    """Void a round of this table with a reason, after a confirmation step that shows the round."""
    table = actable_table(request.user, table_id)
    if request.method == "POST":
        form = RoundVoidForm(request.POST)
        if form.is_valid() and form.cleaned_data["confirmed"]:
            # The checks run with the key claimed, so a repeat of a recorded void answers
            # "already recorded" rather than "already void".
            def void_it() -> FormOutcome:
                round_ = _voidable_round(table, form.cleaned_data["round_id"])
                rounds.void_round(
                    round_id=round_.pk,
                    reason=form.cleaned_data["reason"],
                    user=request.user,  # type: ignore[arg-type]
                    actor=_actor(request),
                    now=timezone.now(),
                )
                return FormOutcome(
                    message=f"Round {round_.pk} is void: every wager is returned.", location=_table_url(table)
                )

            try:
                done = _submit(request, form, purpose="round.void", record=void_it)
            except _NotVoidableError as refused:
                form.add_error("round_id", str(refused))
            else:
                if done is not None:
                    return done
        elif form.is_valid():
            try:
                round_ = _voidable_round(table, form.cleaned_data["round_id"])
            except _NotVoidableError as refused:
                form.add_error("round_id", str(refused))
            else:
                return render(
                    request,
                    "floor/operations/round_void_confirm.html",
                    {
                        "table": table,
                        "round": round_,
                        "form": form,
                        "opening_stakes_cents": _opening_stakes_cents(round_),
                    },
                )
    else:
        form = RoundVoidForm(initial={"round_id": request.GET.get("round", "")})
    return render(request, "floor/operations/round_void.html", {"table": table, "form": form})


class _NotVoidableError(Exception):
    """The round named is not an open round of this table (the message says which)."""


def _voidable_round(table: Table, round_id: int) -> Round:
    round_ = get_round_at_table(table=table, round_id=round_id)
    if round_ is None:
        raise _NotVoidableError(f"Round {round_id} is not a round of {table.name}.")
    if round_.state not in OPEN_ROUND_STATES:
        raise _NotVoidableError(f"Round {round_.pk} is already {round_.state}: only an open round is voided.")
    return round_


def _opening_stakes_cents(round_: Round) -> int:
    """The stakes placed when the round opened (doubles and splits come on top)."""
    return sum(
        int(seat["primary_cents"]) + sum(int(cents) for cents in seat["bonus_cents"].values())
        for seat in round_.opening
    )
