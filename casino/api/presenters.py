"""Plain dicts in the shapes of API.md, built from snapshots and rows."""

from typing import Any

from casino.engine import round as engine
from casino.mappers import rules_to_json, shoe_state
from casino.models import Shoe, Table, Terminal
from casino.selectors import RoundSnapshot
from casino.side_bets import side_bet_for


def round_payload(snapshot: RoundSnapshot) -> dict[str, Any]:
    state, row = snapshot.state, snapshot.round
    need = engine.needs(state)
    dealer = engine.dealer_view(state)
    return {
        "id": row.pk,
        "table": row.table_id,
        "shoe": row.shoe_id,
        "paytable_version": row.paytable.version,
        "seq": row.seq,
        "state": row.state,
        "needs": need.to_dict() if need is not None else None,
        "dealer": {
            "cards": [str(card) for card in dealer.cards],
            "total": dealer.total,
            "soft": dealer.soft,
            "blackjack": dealer.blackjack,
            "bust": dealer.bust,
        },
        "seats": [
            {
                "seat": seat.seat,
                "player": snapshot.players.get(seat.seat) or None,
                "wagers": [
                    {"kind": str(kind), "amount_cents": cents} for kind, cents in engine.wagers_of(seat)
                ],
                "hands": [
                    {
                        "cards": [str(card) for card in hand.cards],
                        "total": hand.total,
                        "soft": hand.soft,
                        "blackjack": hand.blackjack,
                        "bust": hand.bust,
                        "doubled": hand.doubled,
                        "split_from_aces": hand.split_from_aces,
                        "status": str(hand.status),
                    }
                    for hand in seat.hands
                ],
            }
            for seat in state.seats
        ],
        "settlement": _settlement_payload(snapshot),
    }


def _settlement_payload(snapshot: RoundSnapshot) -> dict[str, Any] | None:
    row = snapshot.settlement
    if row is None:
        return None
    seats: dict[int, list[dict[str, Any]]] = {}
    for line in snapshot.lines:
        seats.setdefault(line.seat, []).append(
            {
                "kind": line.kind,
                "hand": line.hand,
                "amount_cents": line.amount_cents,
                "result": line.result,
                "win_cents": line.win_cents,
                "paid_cents": line.paid_cents,
            }
        )
    return {
        "wagered_cents": row.wagered_cents,
        "paid_cents": row.paid_cents,
        "house_net_cents": row.house_net_cents,
        "aggregate_limit_applied": row.aggregate_limit_applied,
        "aggregate_reduction_cents": row.aggregate_reduction_cents,
        "seats": [{"seat": seat, "wagers": lines} for seat, lines in sorted(seats.items())],
    }


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


def table_payload(table: Table) -> dict[str, Any]:
    from casino.mappers import house_rules_for

    side_bet = side_bet_for(table.game)
    in_force = side_bet.terms_in_force() if side_bet else None
    return {
        "id": table.pk,
        "name": table.name,
        "game": table.game,
        "decks": table.decks,
        "limits": {
            limit.kind: {"min_cents": limit.min_cents, "max_cents": limit.max_cents}
            for limit in table.limits.all()
        },
        "house_rules": rules_to_json(house_rules_for(table)),
        "paytable_version": in_force.offer.version if in_force else None,
        "aggregate_limit_cents": table.aggregate_limit_cents,
    }


def dealer_payload(terminal: Terminal) -> dict[str, Any] | None:
    if terminal.dealer is None:
        return None
    return {
        "badge": terminal.dealer.badge,
        "name": terminal.dealer.name,
        "signed_in_at": terminal.dealer_signed_in_at,
    }
