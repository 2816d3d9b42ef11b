"""The skill games as a tournament sees them: the registry's terms, turned into the engine's
`GameTerms`. Nothing here names a game."""

from collections.abc import Mapping
from typing import Any

from skill_games.registry import game_for, games
from tournaments.engine.settings import GameTerms


def terms_for(kind: str) -> GameTerms:
    game = game_for(kind)
    adapter = game.adapter
    play = adapter.tournament

    def check_game_settings(body: Mapping[str, Any], players: int | None) -> dict[str, Any]:
        # Checked as a table of `players` would take them; stored as given, so that a table's own
        # defaults (one game per seat) follow the entries seated when registration closes.
        checked = adapter.tournament_settings(body, players=players)
        return {key: checked[key] for key in body if key in checked}

    return GameTerms(
        kind=game.kind,
        name=game.name,
        lower_wins=play.lower_wins,
        no_show_score=play.no_show_score,
        table_seats=play.table_seats,
        check_game_settings=check_game_settings,
    )


def all_terms() -> dict[str, GameTerms]:
    return {game.kind: terms_for(game.kind) for game in games()}
