"""Input and output shapes of the terminal API (API.md). Outputs are documented
serializers over plain dicts built by `casino.api.presenters`."""

from rest_framework import serializers

from casino.api.fields import DeckCountField
from casino.models import ShoeMode

# --- inputs ------------------------------------------------------------------------------------


class SignInInput(serializers.Serializer):
    badge = serializers.CharField(max_length=32, trim_whitespace=False)  # an identifier, taken as sent
    pin = serializers.CharField(max_length=32, trim_whitespace=False)


class ShoeOpenInput(serializers.Serializer):
    mode = serializers.ChoiceField(choices=ShoeMode.values)
    # Any integer: the service answers decks other than 6 or 8 with `invalid_deck_count` (API.md).
    decks = DeckCountField(required=False, allow_null=True, help_text="Defaults to the table's.")


# --- outputs -----------------------------------------------------------------------------------


class ShoeOutput(serializers.Serializer):
    id = serializers.IntegerField()
    mode = serializers.ChoiceField(choices=ShoeMode.values)
    decks = serializers.IntegerField()
    cards_remaining = serializers.IntegerField()
    commitment = serializers.CharField(allow_null=True)
    cut_card_reached = serializers.BooleanField()
    opened_at = serializers.DateTimeField()
    closed_at = serializers.DateTimeField(allow_null=True)


class RevealOutput(serializers.Serializer):
    order = serializers.ListField(child=serializers.CharField())
    salt = serializers.CharField()
    commitment = serializers.CharField()


class ShoeClosedOutput(serializers.Serializer):
    id = serializers.IntegerField()
    closed_at = serializers.DateTimeField()
    reveal = RevealOutput(allow_null=True)


class TerminalDealerOutput(serializers.Serializer):
    badge = serializers.CharField()
    name = serializers.CharField()
    signed_in_at = serializers.DateTimeField(allow_null=True)


class SignInOutput(serializers.Serializer):
    terminal = serializers.CharField()
    dealer = TerminalDealerOutput()


class SignOutOutput(serializers.Serializer):
    terminal = serializers.CharField()
    dealer = TerminalDealerOutput(allow_null=True)
