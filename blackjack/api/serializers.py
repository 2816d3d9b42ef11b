"""Input and output shapes of the blackjack round and the terminal's table (API.md). Outputs are
documented serializers over plain dicts built by `blackjack.api.presenters`."""

from django.utils.functional import lazy
from rest_framework import serializers

from blackjack.engine.round import Action
from casino.api.fields import SEATS, CardField, NarrowedList, SeatField, WagerKindField
from casino.api.serializers import ShoeOutput, TerminalDealerOutput
from casino.side_bets import placeable_kinds
from kernel.fields import CentsField, StrictIntegerField

ROUND_STATES = ["dealing", "insurance", "playing", "dealer", "ready_to_settle", "settled", "void"]


def _kinds_text() -> str:
    return f"One of {' '.join(placeable_kinds())}."


class WagerInput(serializers.Serializer):
    # Any string: the engine answers unknown kinds with `unknown_wager_kind` (API.md). The kinds
    # are read when the schema is rendered, once the side bets have registered.
    kind = WagerKindField(max_length=16, help_text=lazy(_kinds_text, str)())
    amount_cents = CentsField()


class SeatInput(serializers.Serializer):
    seat = SeatField(help_text="1 to 7; others are `invalid_seat`.")
    player = serializers.CharField(max_length=100, allow_null=True, required=False, allow_blank=True)
    patron = StrictIntegerField(
        min_value=1,
        max_value=2**31 - 1,
        allow_null=True,
        required=False,
        help_text="The patron's number, if they are on file (`unknown_patron` otherwise).",
    )
    # A primary and any side wagers, each kind once (`primary_required`, `duplicate_wager_kind`).
    wagers = NarrowedList(child=WagerInput(), allow_empty=True, narrowing={"minItems": 1})


class RoundOpenInput(serializers.Serializer):
    # Seats are told apart by number (`seats_required`, `duplicate_seat`).
    seats = NarrowedList(child=SeatInput(), allow_empty=True, narrowing={"minItems": 1, "maxItems": SEATS[1]})


class CardInput(serializers.Serializer):
    card = CardField(max_length=8)  # anything but a card is `invalid_card` (422)
    expected_seq = StrictIntegerField(required=False, allow_null=True, min_value=0)


class ActionInput(serializers.Serializer):
    seat = StrictIntegerField(min_value=SEATS[0], max_value=SEATS[1])
    hand = StrictIntegerField(min_value=0, max_value=7)
    action = serializers.ChoiceField(choices=[a.value for a in Action])
    amount_cents = CentsField(required=False, allow_null=True)
    expected_seq = StrictIntegerField(required=False, allow_null=True, min_value=0)


class SettleInput(serializers.Serializer):
    expected_seq = StrictIntegerField(required=False, allow_null=True, min_value=0)


class VoidInput(serializers.Serializer):
    reason = serializers.CharField(max_length=500)


class DealerOutput(serializers.Serializer):
    cards = serializers.ListField(child=serializers.CharField())
    total = serializers.IntegerField()
    soft = serializers.BooleanField()
    blackjack = serializers.BooleanField()
    bust = serializers.BooleanField()


class HandOutput(DealerOutput):
    doubled = serializers.BooleanField()
    split_from_aces = serializers.BooleanField()
    status = serializers.ChoiceField(choices=["playing", "stood", "bust", "blackjack", "surrendered"])


class PlacedWagerOutput(serializers.Serializer):
    kind = serializers.CharField()
    amount_cents = serializers.IntegerField()


class SeatOutput(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.CharField(allow_null=True)
    wagers = PlacedWagerOutput(many=True)
    hands = HandOutput(many=True)


class SettlementLineOutput(serializers.Serializer):
    kind = serializers.CharField()
    hand = serializers.IntegerField()
    amount_cents = serializers.IntegerField()
    result = serializers.ChoiceField(choices=["win", "lose", "push", "surrender"])
    win_cents = serializers.IntegerField()
    paid_cents = serializers.IntegerField()


class SettlementSeatOutput(serializers.Serializer):
    seat = serializers.IntegerField()
    wagers = SettlementLineOutput(many=True)


class SettlementOutput(serializers.Serializer):
    wagered_cents = serializers.IntegerField()
    paid_cents = serializers.IntegerField()
    house_net_cents = serializers.IntegerField()
    aggregate_limit_applied = serializers.BooleanField()
    aggregate_reduction_cents = serializers.IntegerField()
    seats = SettlementSeatOutput(many=True)


class RoundOutput(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField()
    shoe = serializers.IntegerField()
    paytable_version = serializers.IntegerField()
    seq = serializers.IntegerField()
    state = serializers.ChoiceField(choices=ROUND_STATES)
    needs = serializers.JSONField(
        allow_null=True,
        help_text='{"kind": "card", "to": {"seat", "hand"} | "dealer"} | {"kind": "action", "seat", "hand", '
        '"allowed"} | {"kind": "insurance", "seat", "max_cents"} | {"kind": "settle"} | null',
    )
    dealer = DealerOutput()
    seats = SeatOutput(many=True)
    settlement = SettlementOutput(allow_null=True)


class KindLimitOutput(serializers.Serializer):
    min_cents = serializers.IntegerField()
    max_cents = serializers.IntegerField()


class TableOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField(
        help_text="`tie_bonus` or `specials`: the names `provision_table --game` takes."
    )
    decks = serializers.IntegerField()
    limits = serializers.DictField(child=KindLimitOutput())
    house_rules = serializers.DictField()
    paytable_version = serializers.IntegerField(allow_null=True)
    aggregate_limit_cents = serializers.IntegerField(allow_null=True)


class TerminalOutput(serializers.Serializer):
    terminal = serializers.DictField()
    table = TableOutput()
    dealer = TerminalDealerOutput(allow_null=True)
    shoe = ShoeOutput(allow_null=True)
    round = RoundOutput(allow_null=True)
