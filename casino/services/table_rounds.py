"""The table-game kit: what every dealt game's round call does around its one engine step.

A round call of any table game (blackjack, the special-card game) runs the same way, in one
transaction: lock the table, then its shoe, then the round (the game's locks, in the house's
order of `casino.locks`); refuse a table of another game (`casino.games.check_table_game`); rebuild the round once from its
stored events; check `expected_seq`; ask the game's engine once; write what the step changed
(its events, the cards it took from the shoe, the round row) in one go; record the audit
event; return the snapshot the API presents. `RoundAtTable` holds what every game shares; a
game's services subclass it with their own rows and writes.
"""

import datetime as dt
from collections.abc import Iterator, Sequence
from typing import ClassVar, Protocol

from audit.context import AuditActor
from audit.services import record_event
from casino.engine.cards import Card
from casino.models import Shoe, Table, Terminal
from kernel.errors import ConflictError

__all__ = ["RoundAtTable", "RoundRow"]


class RoundRow(Protocol):
    """A game's round row: every game's has these."""

    pk: int
    seq: int


class RoundAtTable:
    """A locked round with its table and shoe, and the parts of a round call every game shares."""

    subject_type: ClassVar[str]  # the audit trail's name for the game's rounds

    def __init__(self, *, table: Table, shoe: Shoe, round_: RoundRow, events_stored: int) -> None:
        self.table = table
        self.shoe = shoe
        self.round_row = round_
        self.events_stored = events_stored  # the next event is numbered one more

    def check_seq(self, expected_seq: int | None) -> None:
        """The terminal saw the round as it is now, or it sent no `expected_seq` (API.md)."""
        seq = self.round_row.seq
        if expected_seq is not None and expected_seq != seq:
            raise ConflictError(
                "stale_round",
                f"The round is at seq {seq}, not {expected_seq}; reload it and try again.",
                field="expected_seq",
            )

    def numbered(
        self, events: Sequence[object], *, terminal: Terminal | None
    ) -> Iterator[tuple[int, Terminal | None]]:
        """Number a step's events after the stored ones; the first was reported by `terminal`
        (None for the opening deal), the rest were drawn by the service from an electronic shoe."""
        for i, _ in enumerate(events):
            self.events_stored += 1
            yield self.events_stored, terminal if i == 0 else None

    def take_from_shoe(self, drawn: Sequence[Card], *, cut_card_reached: bool) -> list[str]:
        """The cards a step took from the shoe, added to its dealt cards, and whether its cut card
        came out; the cards as stored, in order (empty, and the shoe unchanged, when none)."""
        shoe = self.shoe
        cards = [str(card) for card in drawn]
        shoe.dealt = [*shoe.dealt, *cards]
        shoe.cut_card_reached = shoe.cut_card_reached or cut_card_reached
        return cards

    def close_shoe_if(self, close: bool, *, now: dt.datetime) -> bool:
        """Close the shoe when the cut card came out at the round's end; whether it closed now."""
        if close and self.shoe.closed_at is None:
            self.shoe.closed_at = now
            return True
        return False

    def subject_label(self) -> str:
        return f"round {self.round_row.pk} at {self.table.name}"

    def audit_context(self) -> dict[str, object]:
        """What every audit event of the game's rounds records beside the step's own values."""
        return {}

    def audit(
        self,
        event_type: str,
        *,
        actor: AuditActor,
        now: dt.datetime,
        before: dict[str, object],
        after: dict[str, object],
    ) -> None:
        record_event(
            event_type=event_type,
            actor=actor,
            table_id=self.table.pk,
            table_name=self.table.name,
            subject_type=self.subject_type,
            subject_id=str(self.round_row.pk),
            subject_label=self.subject_label(),
            before=before,
            after={**self.audit_context(), **after},
            occurred_at=now,
        )
