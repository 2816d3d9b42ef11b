"""Plain dicts in the shapes of API.md, built from the special-card game's snapshots."""

from typing import Any

from specials.engine import round as round_engine
from specials.selectors import MatchSnapshot, RoundSnapshot


def match_payload(snapshot: MatchSnapshot) -> dict[str, Any]:
    match, state = snapshot.match, snapshot.state
    names = {player.seat: player.player for player in snapshot.players}
    return {
        "id": match.pk,
        "table": match.table_id,
        "state": match.state,
        "start_points": match.start_points,
        "win_points": match.win_points,
        "lose_points": match.lose_points,
        "rounds_played": match.rounds_played,
        "round": snapshot.current_round_id,
        "players": [
            {
                "seat": player.seat,
                "player": names.get(player.seat) or None,
                "points": player.points,
                "special": str(player.special),
                "special_used": player.special_used,
            }
            for player in state.players
        ],
        "finished": state.finished,
        "winners": list(state.winners),
        "eliminated": list(state.eliminated),
        "points_ledger": [
            {
                "seq": entry.seq,
                "seat": entry.seat,
                "round": entry.round_id,
                "delta": entry.delta,
                "balance": entry.balance,
                "reason": entry.reason,
            }
            for entry in snapshot.ledger
        ],
    }


def round_payload(snapshot: RoundSnapshot) -> dict[str, Any]:
    row = snapshot.round
    return {
        "id": row.pk,
        "match": row.match_id,
        "shoe": row.shoe_id,
        "seq": row.seq,
        **round_engine.describe_round(snapshot.state),
        "outcome": row.outcome,
    }
