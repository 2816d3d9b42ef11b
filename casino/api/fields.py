"""Request fields whose service checks more than the field: each validates exactly as the field
it extends (so the service answers with its own 422 code, API.md), and its OpenAPI schema says
what the service accepts (kernel.schema.NarrowedField)."""

from typing import Any

from rest_framework import serializers

from casino.engine.cards import ALL_CARDS
from casino.engine.seats import SEAT_NUMBERS
from casino.engine.shoe import DECK_COUNTS
from casino.side_bets import placeable_kinds
from kernel.fields import CodeField, StrictIntegerField
from kernel.schema import NarrowedField

SEATS = (SEAT_NUMBERS[0], SEAT_NUMBERS[-1])
CARDS = [str(card) for card in ALL_CARDS]


class SeatField(NarrowedField, StrictIntegerField):
    """A seat: any other integer is `invalid_seat` (422)."""

    narrowing = {"minimum": SEATS[0], "maximum": SEATS[1]}


class DeckCountField(NarrowedField, StrictIntegerField):
    """Decks in a shoe: any other integer is `invalid_deck_count` (422)."""

    narrowing = {"enum": list(DECK_COUNTS)}


class CardField(NarrowedField, CodeField):
    """A card as rank then suit (`AS`, `TD`): anything else is `invalid_card` (422)."""

    narrowing = {"enum": CARDS}


class WagerKindField(NarrowedField, CodeField):
    """A kind a seat may place when a round opens: anything else is `unknown_wager_kind` (422)."""

    def narrowed_schema(self) -> dict[str, Any]:
        # Read when the schema is rendered, once the side bets have registered.
        return {"enum": [str(kind) for kind in placeable_kinds()]}


class NarrowedList(NarrowedField, serializers.ListSerializer):
    """A list of nested inputs whose length the service checks; `narrowing` (`minItems`,
    `maxItems`) says so in the schema."""

    def __init__(self, *args: Any, narrowing: dict[str, Any], **kwargs: Any) -> None:
        self.list_narrowing = narrowing
        super().__init__(*args, **kwargs)

    def narrowed_schema(self) -> dict[str, Any]:
        return dict(self.list_narrowing)
