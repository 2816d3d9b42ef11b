"""Plain dicts in the shapes of API.md, built from snapshots and rows."""

from typing import Any

from casino.mappers import shoe_state
from casino.models import Shoe, Terminal


def shoe_payload(shoe: Shoe) -> dict[str, Any]:
    return {
        "id": shoe.pk,
        "mode": shoe.mode,
        "decks": shoe.decks,
        "cards_remaining": shoe_state(shoe).cards_remaining,
        "commitment": shoe.commitment or None,
        "cut_card_reached": shoe.cut_card_reached,
        "opened_at": shoe.opened_at,
        "closed_at": shoe.closed_at,
    }


def shoe_closed_payload(shoe: Shoe) -> dict[str, Any]:
    reveal = None
    if shoe.order is not None:
        reveal = {"order": list(shoe.order), "salt": shoe.salt_hex, "commitment": shoe.commitment}
    return {"id": shoe.pk, "closed_at": shoe.closed_at, "reveal": reveal}


def dealer_payload(terminal: Terminal) -> dict[str, Any] | None:
    if terminal.dealer is None:
        return None
    return {
        "badge": terminal.dealer.badge,
        "name": terminal.dealer.name,
        "signed_in_at": terminal.dealer_signed_in_at,
    }
