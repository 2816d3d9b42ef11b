"""The tournament pages' forms. Staff type dollars and casino local time; the forms turn them into
the integer cents and aware moments the services take (RULES.md §4, `tournaments.services`)."""

import datetime as dt
import json
from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms

from casino.engine.money import BASIS_POINTS
from kernel.formatting import dollars
from kernel.forms import DollarsField, SubmittedOnceForm
from kernel.gaming_day import casino_zone
from skill_games.registry import games
from tournaments.engine import settings as rules
from tournaments.models import PaidWith

MOMENT_FORMATS = ("%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S")
MAX_TEXT = 2000  # longer than any well-formed heats list, prize table or game settings


def local_moment(text: str) -> dt.datetime:
    """`2026-11-27 19:30` in the casino's time zone, as an aware moment; a clear error otherwise
    (including a time the clocks skip or repeat when daylight saving time starts or ends)."""
    text = text.strip()
    for pattern in MOMENT_FORMATS:
        try:
            # Casino local time: the zone is set below, once the time is known to exist there.
            naive = dt.datetime.strptime(text, pattern)  # noqa: DTZ007
        except ValueError:
            continue
        if not 2000 <= naive.year <= 2100:
            raise forms.ValidationError(f"{text} is not a date a tournament is held on.")
        zone = casino_zone()
        moment = naive.replace(tzinfo=zone)
        skipped = moment.astimezone(dt.UTC).astimezone(zone).replace(tzinfo=None) != naive
        repeated = moment.utcoffset() != naive.replace(tzinfo=zone, fold=1).utcoffset()
        if skipped or repeated:
            raise forms.ValidationError(
                f"{text} is not one moment in casino time (the clocks change then): pick another time."
            )
        return moment
    raise forms.ValidationError(
        f"{text[:40]!r} is not a date and time: write it like 2026-11-27 19:30 (casino time)."
    )


class LocalMomentField(forms.CharField):
    """A date and time typed in casino local time; `cleaned_data` holds an aware moment."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 40)
        kwargs.setdefault("widget", forms.TextInput(attrs={"placeholder": "2026-11-27 19:30"}))
        super().__init__(**kwargs)

    def clean(self, value: Any) -> dt.datetime | None:
        text = super().clean(value)
        return local_moment(text) if text else None


class BoundedDollarsField(DollarsField):
    """Dollars no larger than a tournament takes (`tournaments.engine.settings.MAX_CENTS`)."""

    def to_python(self, value: Any) -> int | None:
        cents = super().to_python(value)
        if cents is not None and cents > rules.MAX_CENTS:
            raise forms.ValidationError(f"At most {dollars(rules.MAX_CENTS)}.", code="too_large")
        return cents


def _game_choices() -> list[tuple[str, str]]:
    return [(game.kind, game.name) for game in sorted(games(), key=lambda game: game.name)]


class TournamentForm(SubmittedOnceForm):
    """Every setting of RULES.md §4. The engine checks them as a whole (`check_settings`); its
    field errors come back next to the field they name (`ENGINE_FIELDS`)."""

    name = forms.CharField(max_length=rules.NAME_MAX_LENGTH, label="Name")
    game = forms.ChoiceField(label="Game", choices=_game_choices)
    buy_in = BoundedDollarsField(label="Buy-in (dollars, to the pool)")
    fee = BoundedDollarsField(label="Fee (dollars, to the house)", required=False)
    added = BoundedDollarsField(label="Added money (dollars, from the house)", required=False)
    guarantee = BoundedDollarsField(label="Guaranteed pool (dollars)", required=False)
    max_entries = forms.IntegerField(label="Maximum entries", min_value=1, max_value=rules.MAX_ENTRIES)
    reentries = forms.IntegerField(
        label="Re-entries per patron", min_value=0, max_value=rules.MAX_REENTRIES, required=False
    )
    registration_closes_at = LocalMomentField(label="Registration closes (casino time)")
    heats = forms.CharField(
        label="Heats: one start time a line (casino time)",
        max_length=MAX_TEXT,
        widget=forms.Textarea(attrs={"rows": 3, "placeholder": "2026-11-27 20:00\n2026-11-27 20:30"}),
    )
    start_window_s = forms.IntegerField(
        label="Start window (seconds)",
        min_value=rules.START_WINDOW_S_RANGE[0],
        max_value=rules.START_WINDOW_S_RANGE[1],
        required=False,
        help_text=f"How long after a heat's start its game can be started; {rules.DEFAULT_START_WINDOW_S} if left empty.",
    )
    deal = forms.ChoiceField(
        label="Deal",
        choices=[
            (rules.Deal.DUPLICATE.value, "Duplicate: one deck order for every game of a heat"),
            (rules.Deal.INDIVIDUAL.value, "Individual: each game its own deck"),
        ],
    )
    prizes = forms.CharField(
        label="Prize table (percent of the pool, first place first)",
        max_length=MAX_TEXT,
        help_text="e.g. 50, 30, 20: they add up to 100.",
    )
    game_settings = forms.CharField(
        label="The game's own settings (JSON)",
        max_length=MAX_TEXT,
        required=False,
        initial="{}",
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text='e.g. {"turn_limit_s": 60}; {} for the game\'s defaults.',
    )

    def clean_heats(self) -> list[dt.datetime]:
        lines = [line.strip() for line in self.cleaned_data["heats"].splitlines() if line.strip()]
        if not 1 <= len(lines) <= rules.MAX_HEATS:
            raise forms.ValidationError(f"Give 1 to {rules.MAX_HEATS} heats, one start time a line.")
        starts = []
        for number, line in enumerate(lines, start=1):
            try:
                starts.append(local_moment(line))
            except forms.ValidationError as wrong:
                raise forms.ValidationError(f"Heat {number}: {' '.join(wrong.messages)}") from None
        return starts

    def clean_prizes(self) -> list[int]:
        """Percentages (up to two decimals, so whole basis points) to basis points."""
        parts = [part.strip() for part in self.cleaned_data["prizes"].replace(";", ",").split(",")]
        if not parts or not all(parts) or len(parts) > rules.MAX_PLACES:
            raise forms.ValidationError(
                f"List 1 to {rules.MAX_PLACES} places' percentages, separated by commas: 50, 30, 20."
            )
        points = []
        for place, part in enumerate(parts, start=1):
            try:
                percent = Decimal(part.removesuffix("%").strip())
            except InvalidOperation:
                raise forms.ValidationError(f"Place {place}: {part[:20]!r} is not a percentage.") from None
            share = percent * BASIS_POINTS / 100
            if not percent.is_finite() or share != share.to_integral_value() or not 0 < share <= BASIS_POINTS:
                raise forms.ValidationError(
                    f"Place {place}: a percentage above 0 and at most 100, to two decimals at most."
                )
            points.append(int(share))
        if sum(points) != BASIS_POINTS:
            total = Decimal(sum(points)) / 100
            raise forms.ValidationError(f"The places' percentages add up to 100, not {total.normalize():f}.")
        return points

    def clean_game_settings(self) -> dict[str, Any]:
        text = self.cleaned_data["game_settings"].strip() or "{}"
        try:
            given = json.loads(text)
        except (ValueError, RecursionError):
            raise forms.ValidationError(
                'Write the game\'s settings as a JSON object, e.g. {"limit_s": 1800}.'
            ) from None
        if not isinstance(given, dict):
            raise forms.ValidationError("The game's settings are a JSON object: {} for its defaults.")
        return given

    def settings_body(self) -> dict[str, Any]:
        """The creation body `tournaments.services.create_tournament` takes."""
        data = self.cleaned_data
        body: dict[str, Any] = {
            "name": data["name"],
            "game": data["game"],
            "buy_in_cents": data["buy_in"],
            "fee_cents": data["fee"] or 0,
            "added_cents": data["added"] or 0,
            "guarantee_cents": data["guarantee"] or 0,
            "max_entries": data["max_entries"],
            "reentries": data["reentries"] or 0,
            "registration_closes_at": data["registration_closes_at"].isoformat(),
            "heats": [{"starts_at": starts.isoformat()} for starts in data["heats"]],
            "deal": data["deal"],
            "prizes_bp": data["prizes"],
            "settings": data["game_settings"],
        }
        if data["start_window_s"] is not None:
            body["start_window_s"] = data["start_window_s"]
        return body


# The engine's field (the part before any `.` or `[`) and the form's field that shows its error.
ENGINE_FIELDS = {
    "name": "name",
    "game": "game",
    "buy_in_cents": "buy_in",
    "fee_cents": "fee",
    "added_cents": "added",
    "guarantee_cents": "guarantee",
    "max_entries": "max_entries",
    "reentries": "reentries",
    "registration_closes_at": "registration_closes_at",
    "heats": "heats",
    "start_window_s": "start_window_s",
    "deal": "deal",
    "prizes_bp": "prizes",
    "settings": "game_settings",
}


def form_field_of(engine_field: str) -> str | None:
    return ENGINE_FIELDS.get(engine_field.split(".")[0].split("[")[0])


def heat_label(engine_field: str) -> str:
    """`heats[1].starts_at` -> `Heat 2: `, so that an error on the heats names which one."""
    if engine_field.startswith("heats[") and "]" in engine_field:
        index = engine_field[len("heats[") : engine_field.index("]")]
        if index.isdigit():
            return f"Heat {int(index) + 1}: "
    return ""


class FilingForm(SubmittedOnceForm):
    reference = forms.CharField(max_length=100, label="Regulator's filing reference")
    filed_on = forms.DateField(
        label="Filed on",
        input_formats=["%Y-%m-%d"],
        widget=forms.DateInput(attrs={"type": "date"}),
        error_messages={"invalid": "Enter the filing date as a date, such as 2026-11-20."},
    )

    def clean_filed_on(self) -> dt.date:
        filed_on: dt.date = self.cleaned_data["filed_on"]
        if not dt.date(2000, 1, 1) <= filed_on <= dt.date(2100, 12, 31):
            raise forms.ValidationError("Enter the date the filing was made.")
        return filed_on


class CancellationForm(SubmittedOnceForm):
    reason = forms.CharField(
        max_length=500, label="Reason for cancelling", widget=forms.Textarea(attrs={"rows": 2})
    )


class EntryForm(SubmittedOnceForm):
    tournament = forms.TypedChoiceField(
        label="Tournament",
        coerce=int,
        choices=(),
        error_messages={"invalid_choice": "That tournament is not taking entries: choose one from the list."},
    )
    patron = forms.IntegerField(label="Patron number", min_value=1, max_value=2**31 - 1)
    paid_with = forms.ChoiceField(label="Paid with", choices=PaidWith.choices, widget=forms.RadioSelect)
    nickname = forms.CharField(
        max_length=20, required=False, label="Name on the leaderboard", help_text="Optional, 20 characters."
    )

    def __init__(self, *args: Any, tournaments: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field: Any = self.fields["tournament"]
        field.choices = [("", "Choose the tournament"), *tournaments]


class PrizePaymentForm(SubmittedOnceForm):
    paid_with = forms.ChoiceField(label="Pay in", choices=PaidWith.choices, widget=forms.RadioSelect)
