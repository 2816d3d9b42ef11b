"""Game terms for the engine tests, shaped as the registry gives them for a solitaire game that
ranks higher scores first and for a table game that ranks fewer cards first."""

from collections.abc import Mapping
from typing import Any

from kernel.errors import CodedError
from tournaments.engine.settings import GameTerms


def _solitaire_settings(body: Mapping[str, Any], players: int | None) -> dict[str, Any]:
    if body:
        raise CodedError("takes no setting", code="invalid_game_settings", field=sorted(body)[0])
    return {}


def _table_settings(body: Mapping[str, Any], players: int | None) -> dict[str, Any]:
    games = body.get("games", players)
    if type(games) is not int or not 1 <= games <= 20:
        raise CodedError("games is 1 to 20", code="invalid_game_settings", field="games")
    return {"games": games} if "games" in body else {}


SOLITAIRE = GameTerms(
    kind="solo",
    name="Solo",
    lower_wins=False,
    no_show_score=-630,
    table_seats=None,
    check_game_settings=_solitaire_settings,
)
TABLE = GameTerms(
    kind="table",
    name="Table",
    lower_wins=True,
    no_show_score=None,
    table_seats=(2, 5),
    check_game_settings=_table_settings,
)
TERMS = {terms.kind: terms for terms in (SOLITAIRE, TABLE)}
