"""Input and output shapes of the skill games' API (API.md "Skill games"). Settings and move
fields validate as plain integers, texts and lists of texts (anything else is a 400
`validation_error`), so that the service answers with API.md's own codes (`invalid_game_settings`,
`move_not_allowed`, `card_not_in_hand`) in the rules' order; their schema says what the service
accepts."""

from typing import Any

from rest_framework import serializers

from casino.api.fields import CardField
from kernel.fields import CodeField, StrictIntegerField
from kernel.schema import NarrowedField
from skill_games.registry import kinds


class _Narrowed(NarrowedField, StrictIntegerField):
    """An optional whole number whose range the service checks (with its own code)."""

    def __init__(self, *, bounds: tuple[int, int], **kwargs: Any) -> None:
        self.bounds = bounds
        super().__init__(required=False, allow_null=True, **kwargs)

    def narrowed_schema(self) -> dict[str, Any]:
        return {"minimum": self.bounds[0], "maximum": self.bounds[1]}


class _Text(CodeField):
    """A code taken as sent, but only as text: a number or a list is a 400, as for the integers."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


class _CardText(NarrowedField, _Text):
    """A card the seat plays: a text that is no card of the seat's hand is the service's
    `card_not_in_hand`, checked after the seat."""

    narrowing = CardField.narrowing


class _Cards(NarrowedField, serializers.ListField):
    """One or two cards (Make 21); a longer list is refused by the game's rules."""

    narrowing = {"minItems": 1, "maxItems": 2}


class _Pile(NarrowedField, _Text):
    """P1 or P2 (Make 21); any other text is the rules' `move_not_allowed`."""

    narrowing = {"enum": ["P1", "P2"]}


class GameKindField(serializers.ChoiceField):
    """A registered skill game, read when the serializer is built (the games register at start)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=kinds(), **kwargs)


# --- inputs ------------------------------------------------------------------------------------


class GameCreateInput(serializers.Serializer):
    game = GameKindField()
    limit_s = _Narrowed(bounds=(60, 7200), help_text="squares: the time limit.")
    players = _Narrowed(bounds=(2, 5), help_text="make21: the seats.")
    games = _Narrowed(bounds=(1, 20), help_text="make21: games in the match.")
    turn_limit_s = _Narrowed(bounds=(5, 600), help_text="make21: the turn clock.")


class MoveInput(serializers.Serializer):
    move = CodeField(max_length=32, help_text="The game's moves (API.md); others are `move_not_allowed`.")
    column = _Narrowed(bounds=(1, 4), help_text="attack: `place`.")
    position = _Narrowed(bounds=(1, 9), help_text="squares: `place`, `swap`.")
    cards = _Cards(
        child=_CardText(max_length=8),
        required=False,
        max_length=52,
        help_text="make21: `play`, `double`, `extend`: one or two cards from the seat's hand.",
    )
    pile = _Pile(max_length=8, required=False, help_text="make21: `play`: the pile, P1 or P2.")
    expected_seq = StrictIntegerField(required=False, allow_null=True, min_value=0)

    MOVE_FIELDS = ("move", "column", "position", "cards", "pile")


# --- outputs -----------------------------------------------------------------------------------


class RevealOutput(serializers.Serializer):
    order = serializers.ListField(child=serializers.CharField())
    salt = serializers.CharField()
    commitment = serializers.CharField()


class GameRevealOutput(RevealOutput):
    game_no = serializers.IntegerField(help_text="The game of the match the deck was dealt for.")


class SeatOutput(serializers.Serializer):
    seat = serializers.IntegerField()
    token = serializers.CharField(required=False, help_text="At creation only: shown once.")


class GameOutput(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField()
    state = serializers.ChoiceField(choices=["playing", "finished"])
    seq = serializers.IntegerField()
    started_at = serializers.CharField()
    ends_at = serializers.CharField(allow_null=True)
    server_time = serializers.CharField()
    commitment = serializers.CharField(help_text="The game in play's (make21: of the match's decks).")
    reveal = RevealOutput(allow_null=True, help_text="The last deck's, once the whole game has ended.")
    reveals = GameRevealOutput(
        many=True, required=False, help_text="make21: each game of the match that has ended."
    )
    tournament = serializers.DictField(allow_null=True)
    needs = serializers.DictField(allow_null=True)
    board = serializers.DictField()
    hand = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="make21: the seat's own cards, its answers only.",
    )
    score = serializers.DictField()
    seats = SeatOutput(many=True)


class MoveOutput(serializers.Serializer):
    seq = serializers.IntegerField()
    seat = serializers.IntegerField()
    move = serializers.CharField()
    at = serializers.CharField()
    elapsed_s = serializers.FloatField()
    automatic = serializers.BooleanField()
    outcome = serializers.JSONField(help_text="What the move did (make21: its outcome's name).")
    game_no = serializers.IntegerField(required=False, help_text="make21: the game of the match.")
    cards = serializers.ListField(child=serializers.CharField(), required=False, help_text="make21.")
    pile = serializers.CharField(required=False, allow_null=True, help_text="make21.")
    taken_by = serializers.IntegerField(required=False, allow_null=True, help_text="make21.")
    cards_taken = serializers.IntegerField(required=False, help_text="make21.")
