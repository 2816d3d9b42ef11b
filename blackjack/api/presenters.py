"""Plain dicts in the shapes of API.md, built from blackjack round snapshots and table rows."""

from typing import Any

from blackjack.engine import round as engine
from blackjack.mappers import house_rules_for, rules_to_json
from blackjack.selectors import RoundSnapshot
from casino.games import game_for
from casino.models import Table
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


def table_payload(table: Table) -> dict[str, Any]:
    side_bet = side_bet_for(table.game)
    in_force = side_bet.terms_in_force() if side_bet else None
    return {
        "id": table.pk,
        "name": table.name,
        "game": game_for(table.game).code,  # as `provision_table --game` names it (API.md)
        "decks": table.decks,
        "limits": {
            limit.kind: {"min_cents": limit.min_cents, "max_cents": limit.max_cents}
            for limit in table.limits.all()
        },
        "house_rules": rules_to_json(house_rules_for(table)),
        "paytable_version": in_force.offer.version if in_force else None,
        "aggregate_limit_cents": table.aggregate_limit_cents,
    }
