"""Row locks of the special-card game, in the floor's order: table, then shoe, then match, then
round (STYLE.md §8, as `casino.locks`). Every write path of a specials table takes its locks
here. The table is locked with NOWAIT (`casino.locks.lock_table`): a second request that finds
it busy answers 409 `table_busy` at once rather than queueing, as at a blackjack table."""

from casino.games import check_table_game
from casino.locks import LockedTable, lock_table
from casino.models import GameKind, Shoe, Table
from kernel.errors import ForbiddenError, NotFoundError
from specials.models import Match, MatchState, SpecialsRound


def lock_specials_table(*, table_id: int) -> LockedTable:
    """The terminal's table, locked with its latest count; refused unless it runs the
    special-card game."""
    locked = lock_table(table_id=table_id)
    check_table_game(locked.table, GameKind.SPECIAL_POINTS)
    return locked


def lock_match(*, table: Table, match_id: int) -> Match:
    match = Match.objects.select_for_update(of=("self",)).filter(pk=match_id).first()
    if match is None:
        raise NotFoundError("not_found", f"No match {match_id}.")
    if match.table_id != table.pk:
        raise ForbiddenError("other_table", "A terminal may only play its own table's matches.")
    return match


def lock_round(*, table: Table, round_id: int) -> tuple[Shoe, Match, SpecialsRound]:
    """A round of the table with its shoe and match, locked in the floor's order."""
    found = (
        SpecialsRound.objects.filter(pk=round_id)
        .values_list("match__table_id", "shoe_id", "match_id")
        .first()
    )
    if found is None:
        raise NotFoundError("not_found", f"No round {round_id}.")
    table_id, shoe_id, match_id = found
    if table_id != table.pk:
        raise ForbiddenError("other_table", "A terminal may only play its own table's rounds.")
    shoe = Shoe.objects.select_for_update(of=("self",)).get(pk=shoe_id)
    match = Match.objects.select_for_update(of=("self",)).get(pk=match_id)
    round_ = SpecialsRound.objects.select_for_update(of=("self",)).get(pk=round_id)
    return shoe, match, round_


def unfinished_match_of(*, table: Table) -> Match | None:
    """The table's unfinished match (its table row locked by the caller), locked."""
    return Match.objects.select_for_update(of=("self",)).filter(table=table, state=MatchState.PLAYING).first()
