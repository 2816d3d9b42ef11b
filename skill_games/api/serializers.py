"""Input and output shapes of the skill games' API (API.md "Skill games"). Settings and move
fields validate as plain integers and codes, so that the service answers with API.md's own codes
(`invalid_game_settings`, `move_not_allowed`); their schema says what the service accepts."""

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
    cards = serializers.ListField(child=CardField(max_length=8), required=False, max_length=2)
    pile = serializers.ChoiceField(choices=["P1", "P2"], required=False)
    expected_seq = StrictIntegerField(required=False, allow_null=True, min_value=0)

    MOVE_FIELDS = ("move", "column", "position", "cards", "pile")


# --- outputs -----------------------------------------------------------------------------------


class RevealOutput(serializers.Serializer):
    order = serializers.ListField(child=serializers.CharField())
    salt = serializers.CharField()
    commitment = serializers.CharField()


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
    commitment = serializers.CharField()
    reveal = RevealOutput(allow_null=True)
    tournament = serializers.DictField(allow_null=True)
    needs = serializers.DictField(allow_null=True)
    board = serializers.DictField()
    score = serializers.DictField()
    seats = SeatOutput(many=True)


class MoveOutput(serializers.Serializer):
    seq = serializers.IntegerField()
    seat = serializers.IntegerField()
    move = serializers.CharField()
    at = serializers.CharField()
    elapsed_s = serializers.FloatField()
    automatic = serializers.BooleanField()
    outcome = serializers.DictField()
