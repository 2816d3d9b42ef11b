"""Input and output shapes of the special-card game's API (API.md, "Special-card points game").
Outputs are documented serializers over the plain dicts of `specials.api.presenters`."""

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from casino.api.fields import SEATS, CardField, NarrowedList, SeatField
from kernel.fields import CodeField, StrictIntegerField
from kernel.schema import NarrowedField
from specials.engine.match import DEFAULT_LOSE_POINTS, DEFAULT_START_POINTS, DEFAULT_WIN_POINTS
from specials.engine.round import Action
from specials.engine.special_cards import SpecialCard

# Points are small whole numbers; far outside these a match could never be played out.
POINTS_MIN, POINTS_MAX = -1000, 1000


class SpecialCardField(NarrowedField, CodeField):
    """A special card named from a physical special deck: anything else is `invalid_special_card`."""

    narrowing = {"enum": [card.value for card in SpecialCard]}


# --- inputs ------------------------------------------------------------------------------------


class PlayerInput(serializers.Serializer):
    seat = SeatField(help_text="1 to 7; others are `invalid_seat`.")
    player = serializers.CharField(max_length=100, allow_null=True, required=False, allow_blank=True)
    special = SpecialCardField(
        max_length=16,
        allow_null=True,
        required=False,
        help_text="The card dealt from a physical special deck; null lets the service deal one.",
    )


class MatchStartInput(serializers.Serializer):
    # One to seven players, told apart by seat (`seats_required`, `duplicate_seat`).
    players = NarrowedList(
        child=PlayerInput(), allow_empty=True, narrowing={"minItems": 1, "maxItems": SEATS[1]}
    )
    start_points = StrictIntegerField(
        required=False, default=DEFAULT_START_POINTS, min_value=POINTS_MIN, max_value=POINTS_MAX
    )
    win_points = StrictIntegerField(
        required=False, default=DEFAULT_WIN_POINTS, min_value=POINTS_MIN, max_value=POINTS_MAX
    )
    lose_points = StrictIntegerField(
        required=False, default=DEFAULT_LOSE_POINTS, min_value=POINTS_MIN, max_value=POINTS_MAX
    )


@extend_schema_serializer(component_name="SpecialsCardInput")  # blackjack's is CardInput
class CardInput(serializers.Serializer):
    card = CardField(max_length=8)  # anything but a card is `invalid_card` (422)
    expected_seq = StrictIntegerField(required=False, allow_null=True, min_value=0)


@extend_schema_serializer(component_name="SpecialsActionInput")
class ActionInput(serializers.Serializer):
    seat = StrictIntegerField(min_value=SEATS[0], max_value=SEATS[1])
    action = serializers.ChoiceField(choices=[action.value for action in Action])
    value = StrictIntegerField(
        required=False, allow_null=True, help_text="1 or 11, for `declare_ace` (others: `invalid_ace_value`)."
    )
    discard = CardField(
        max_length=8, required=False, allow_null=True, help_text="The card a SWAP takes out of the hand."
    )
    expected_seq = StrictIntegerField(required=False, allow_null=True, min_value=0)


# --- outputs -----------------------------------------------------------------------------------


class PlayerOutput(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.CharField(allow_null=True)
    points = serializers.IntegerField()
    special = serializers.ChoiceField(choices=[card.value for card in SpecialCard])
    special_used = serializers.BooleanField()


class PointsEntryOutput(serializers.Serializer):
    seq = serializers.IntegerField()
    seat = serializers.IntegerField()
    round = serializers.IntegerField(allow_null=True, help_text="The round's id; null for the start.")
    delta = serializers.IntegerField()
    balance = serializers.IntegerField()
    reason = serializers.ChoiceField(choices=["start", "win", "lose"])


class MatchOutput(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField()
    state = serializers.ChoiceField(choices=["playing", "finished"])
    start_points = serializers.IntegerField()
    win_points = serializers.IntegerField()
    lose_points = serializers.IntegerField()
    rounds_played = serializers.IntegerField()
    round = serializers.IntegerField(
        allow_null=True, help_text="The round in play, else the last one played; null before the first."
    )
    players = PlayerOutput(many=True)
    finished = serializers.BooleanField()
    winners = serializers.ListField(child=serializers.IntegerField())
    eliminated = serializers.ListField(child=serializers.IntegerField())
    points_ledger = PointsEntryOutput(many=True)


class HeldCardOutput(serializers.Serializer):
    card = serializers.CharField()
    value = serializers.IntegerField(allow_null=True)


@extend_schema_serializer(component_name="SpecialsSeatOutput")
class SeatOutput(serializers.Serializer):
    seat = serializers.IntegerField()
    cards = HeldCardOutput(many=True)
    discarded = serializers.ListField(child=serializers.CharField())
    plus_one = serializers.BooleanField()
    total = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["playing", "stood", "bust"])


@extend_schema_serializer(component_name="SpecialsDealerOutput")
class DealerOutput(serializers.Serializer):
    cards = serializers.ListField(child=serializers.CharField())
    total = serializers.IntegerField()
    bust = serializers.BooleanField()


class OutcomeOutput(serializers.Serializer):
    seat = serializers.IntegerField()
    result = serializers.ChoiceField(choices=["win", "lose", "draw"])
    delta = serializers.IntegerField()
    points = serializers.IntegerField()


@extend_schema_serializer(component_name="SpecialsRoundOutput")
class RoundOutput(serializers.Serializer):
    id = serializers.IntegerField()
    match = serializers.IntegerField()
    shoe = serializers.IntegerField()
    seq = serializers.IntegerField()
    state = serializers.ChoiceField(choices=["dealing", "playing", "dealer", "finished"])
    needs = serializers.JSONField(
        allow_null=True,
        help_text='{"kind": "card", "to": {"seat": 1}} | {"kind": "card", "to": "dealer"} | '
        '{"kind": "declare_ace", "seat": 1, "card": "AS"} | '
        '{"kind": "action", "seat": 1, "allowed": ["hit", "stand", "use_special"]} | null',
    )
    dealer = DealerOutput()
    seats = SeatOutput(many=True)
    outcome = OutcomeOutput(many=True, allow_null=True)
