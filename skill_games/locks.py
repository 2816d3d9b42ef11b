"""Row locks of the skill games (STYLE.md §8). A game is one row: every change to it (a move, a
deadline acting, the reveal) first locks that row here, so a deadline acts once however many
requests and beat runs reach it together."""

from skill_games.models import Game
from skill_games.selectors import game_row


def lock_game(*, game_id: int, skip_locked: bool = False) -> Game | None:
    """The game's row, locked `FOR UPDATE` (waiting for the holder, or with `skip_locked` passing
    over a row another transaction holds); None if there is no such game (or it was skipped)."""
    return game_row(game_id=game_id, lock="FOR UPDATE SKIP LOCKED" if skip_locked else "FOR UPDATE")
