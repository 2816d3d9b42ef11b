"""An electronic shoe's commitment, checked against its reveal once the shoe is closed.

The check follows API.md ("Verifying an electronic shoe") word for word, from the stored text
alone and without the engine: the SHA-256 of the ASCII bytes of the cards joined by commas,
then `:`, then the salt in lower-case hex. It also checks that the reveal is a whole shoe (each
card as many times as the shoe has decks) and that the cards dealt were drawn in its order.
"""

import hashlib
import hmac
from collections import Counter
from dataclasses import dataclass

from django.db.models import QuerySet

from audit.models import AuditEvent
from blackjack.models import Round
from casino.engine.cards import ALL_CARDS
from casino.models import Shoe, ShoeMode
from floor.rounds.audit_trail import subject_audit_events
from specials.models import SpecialsRound


@dataclass(frozen=True)
class ShoeCheck:
    recomputed_commitment: str
    commitment_matches: bool
    whole_shoe: bool
    dealt_in_order: bool

    @property
    def verified(self) -> bool:
        return self.commitment_matches and self.whole_shoe and self.dealt_in_order


def commitment_of(*, order: list[str], salt_hex: str) -> str:
    """The commitment API.md publishes: `sha256("AS,TD,...,QH:" + salt_hex)`, lower-case hex."""
    return hashlib.sha256((",".join(order) + ":" + salt_hex.lower()).encode("ascii")).hexdigest()


def reveal_is_public(shoe: Shoe) -> bool:
    """An electronic shoe's order and salt stay secret until it closes."""
    return shoe.mode == ShoeMode.ELECTRONIC and shoe.closed_at is not None and shoe.order is not None


def check_shoe(shoe: Shoe) -> ShoeCheck | None:
    """The closed electronic shoe's reveal checked; None while there is nothing public to check."""
    if not reveal_is_public(shoe) or shoe.order is None:
        return None
    order = list(shoe.order)
    try:
        recomputed = commitment_of(order=order, salt_hex=shoe.salt_hex)
    except UnicodeEncodeError:
        recomputed = ""
    counts = Counter(order)
    whole = set(counts) == {str(card) for card in ALL_CARDS} and set(counts.values()) == {shoe.decks}
    return ShoeCheck(
        recomputed_commitment=recomputed,
        commitment_matches=bool(recomputed) and hmac.compare_digest(recomputed, shoe.commitment.lower()),
        whole_shoe=whole,
        dealt_in_order=list(shoe.dealt) == order[: len(shoe.dealt)],
    )


def shoe_rounds(shoe: Shoe) -> tuple[QuerySet[Round], QuerySet[SpecialsRound]]:
    """The blackjack and special-card rounds dealt from the shoe, in the order they opened."""
    return (
        Round.objects.filter(shoe=shoe).select_related("dealer").order_by("pk"),
        SpecialsRound.objects.filter(shoe=shoe).select_related("match").order_by("pk"),
    )


def shoe_audit_events(shoe: Shoe) -> QuerySet[AuditEvent]:
    return subject_audit_events(
        table_id=shoe.table_id,
        subject_type="shoe",
        subject_id=shoe.pk,
        start=shoe.opened_at,
        end=shoe.closed_at,
    )
