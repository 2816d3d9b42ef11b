"""Round detail for disputes: blackjack and special-card rounds, their re-verification, the
shoes they were dealt from, and the rounds index with its search. Read-only pages for every
console role, scoped to the tables the user can see (`floor.access.visible_table`: 404 for any
other, so ids do not leak)."""

from django import forms
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_safe

from blackjack.models import Round
from blackjack.selectors import list_recent_rounds_of_tables
from casino.games import games
from casino.models import Shoe
from floor.access import console_view, visible_table, visible_tables
from floor.rounds.reverify import reverify_round
from floor.rounds.shoes import check_shoe, reveal_is_public, shoe_audit_events, shoe_rounds
from floor.rounds.special_rounds import build_special_round_story, reverify_special_round
from floor.rounds.story import build_round_story
from specials.models import Match, SpecialsRound
from specials.selectors import list_recent_rounds_of_tables as list_recent_special_rounds
from specials.selectors import match_view

RECENT_ROUNDS = 50


def _search_kinds() -> list[tuple[str, str]]:
    """Each game's rounds (as its registration names them), then the shoes."""
    return [(game.round_search.kind, game.round_search.label) for game in games()] + [("shoe", "Shoe")]


class RoundSearchForm(forms.Form):
    kind = forms.ChoiceField(choices=_search_kinds, initial="round", label="Find")
    number = forms.IntegerField(
        min_value=1,
        label="Number",
        error_messages={"invalid": "Enter the number alone, such as 1234."},
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off", "size": 10}),
    )


def _visible_round(user: object, round_id: int) -> Round:
    round_ = (
        Round.objects.select_related(
            "table", "table__pit", "shoe", "dealer", "terminal", "paytable", "voided_by"
        )
        .filter(pk=round_id)
        .first()
    )
    if round_ is None:
        raise Http404("No such round on your floor.")
    visible_table(user, round_.table_id)
    return round_


def _visible_special_round(user: object, round_id: int) -> SpecialsRound:
    round_ = (
        SpecialsRound.objects.select_related("match", "match__table", "match__table__pit", "shoe", "dealer", "terminal")
        .filter(pk=round_id)
        .first()
    )  # fmt: skip
    if round_ is None:
        raise Http404("No such round on your floor.")
    visible_table(user, round_.match.table_id)
    return round_


def _visible_shoe(user: object, shoe_id: int) -> Shoe:
    shoe = Shoe.objects.select_related("table", "table__pit").filter(pk=shoe_id).first()
    if shoe is None:
        raise Http404("No such shoe on your floor.")
    visible_table(user, shoe.table_id)
    return shoe


@require_safe
@console_view()
def index(request: HttpRequest) -> HttpResponse:
    tables = visible_tables(request.user)
    chosen = None
    if request.GET.get("table"):
        try:
            chosen = visible_table(request.user, int(request.GET["table"]))
        except ValueError:
            raise Http404("No such table on your floor.") from None
    search = RoundSearchForm(request.GET if "number" in request.GET else None)
    if search.is_bound and search.is_valid():
        found = _find(request, search.cleaned_data["kind"], search.cleaned_data["number"])
        if found is not None:
            return found
        label = dict(_search_kinds())[search.cleaned_data["kind"]].lower()
        search.add_error("number", f"No {label} {search.cleaned_data['number']} on your tables.")
    shown = tables.filter(pk=chosen.pk) if chosen else tables
    return render(
        request,
        "floor/rounds/index.html",
        {
            "search": search,
            "tables": tables,
            "chosen": chosen,
            "rounds": list_recent_rounds_of_tables(tables=shown, limit=RECENT_ROUNDS),
            "special_rounds": list_recent_special_rounds(tables=shown, limit=RECENT_ROUNDS),
        },
    )


def _find(request: HttpRequest, kind: str, number: int) -> HttpResponse | None:
    if kind == "shoe":
        try:
            _visible_shoe(request.user, number)
        except Http404:
            return None
        return redirect("floor:shoe", number)
    search = next(game.round_search for game in games() if game.round_search.kind == kind)
    table_id = search.table_of_round(number)
    if table_id is None or not visible_tables(request.user).filter(pk=table_id).exists():
        return None
    return redirect(search.path.format(number))


@require_safe
@console_view()
def round_detail(request: HttpRequest, round_id: int) -> HttpResponse:
    round_ = _visible_round(request.user, round_id)
    return render(request, "floor/rounds/round.html", {"story": build_round_story(round_), "round": round_})


@require_safe
@console_view()
def round_reverify(request: HttpRequest, round_id: int) -> HttpResponse:
    round_ = _visible_round(request.user, round_id)
    return render(request, "floor/rounds/reverify.html", {"round": round_, "verdict": reverify_round(round_)})


@require_safe
@console_view()
def shoe_detail(request: HttpRequest, shoe_id: int) -> HttpResponse:
    shoe = _visible_shoe(request.user, shoe_id)
    rounds, special_rounds = shoe_rounds(shoe)
    return render(
        request,
        "floor/rounds/shoe.html",
        {
            "shoe": shoe,
            "revealed": reveal_is_public(shoe),
            "check": check_shoe(shoe),
            "rounds": rounds,
            "special_rounds": special_rounds,
            "audit_events": list(shoe_audit_events(shoe)),
        },
    )


@require_safe
@console_view()
def special_round_detail(request: HttpRequest, round_id: int) -> HttpResponse:
    round_ = _visible_special_round(request.user, round_id)
    return render(
        request,
        "floor/rounds/special_round.html",
        {"story": build_special_round_story(round_), "round": round_},
    )


@require_safe
@console_view()
def special_round_reverify(request: HttpRequest, round_id: int) -> HttpResponse:
    round_ = _visible_special_round(request.user, round_id)
    return render(
        request,
        "floor/rounds/special_reverify.html",
        {"round": round_, "verdict": reverify_special_round(round_)},
    )


@require_safe
@console_view()
def special_match_detail(request: HttpRequest, match_id: int) -> HttpResponse:
    """A special-card match: its players and seats, balances and specials used, its rounds with
    their outcome and its points ledger in order; in play, or finished with its winners and
    eliminated players."""
    match = (
        Match.objects.select_related("table", "table__pit", "dealer", "terminal").filter(pk=match_id).first()
    )
    if match is None:
        raise Http404("No such match on your floor.")
    visible_table(request.user, match.table_id)
    return render(request, "floor/rounds/special_match.html", {"view": match_view(match), "match": match})
