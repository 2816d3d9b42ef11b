"""Whether a table may deal and take money: one rule for shoes, rounds, buy-ins, fills and credits.

A table's state is its `is_active` flag and its latest count (`casino.locks.LatestCount`), both
read by the statement that locks the table, so the check costs no query.

| the table | new play (open a shoe, open a round) | finishing an open round (cards, actions, settle) | money (buy-ins, fill and credit requests and approvals) |
|---|---|---|---|
| deactivated | `table_inactive` | `table_inactive` (a supervisor voids the round) | `table_inactive` |
| closed for the shift (latest count a closer) | `table_not_open` | `table_not_open` | `table_not_open` |
| open for a shift that has ended | `shift_change_required` | allowed, so the round can end and the shift be closed | `shift_change_required` |
| open for the current shift | allowed | allowed | allowed |
| never opened (no count yet) | allowed | allowed | `table_not_open` |

All are 409. A supervisor cannot close a table while a round is open (409
`round_in_progress`): the round is finished or voided first, so a closed table has no round
in progress. A voided round returns its wagers whatever the table's state.
"""

import datetime as dt
import enum

from casino.locks import LatestCount
from casino.models import InventoryKind, Table
from kernel.errors import ConflictError
from kernel.gaming_day import gaming_day_and_shift


class TableUse(enum.Enum):
    NEW_PLAY = "new play"
    FINISH_ROUND = "finishing a round"
    MONEY = "money"


def check_table_in_play(table: Table, count: LatestCount | None, *, use: TableUse, now: dt.datetime) -> None:
    """Refuse (409) what the table's state does not allow (the module's table)."""
    if not table.is_active:
        raise ConflictError(
            "table_inactive", f"{table.name} is deactivated: it deals nothing and takes no money."
        )
    if count is None:
        if use is TableUse.MONEY:
            raise ConflictError("table_not_open", f"{table.name} is not open: a supervisor opens it first.")
        return
    if count.kind == InventoryKind.CLOSER:
        raise ConflictError(
            "table_not_open",
            f"{table.name} is closed (for {count.gaming_day} {count.shift}): a supervisor opens it first.",
        )
    if use is not TableUse.FINISH_ROUND and (count.gaming_day, count.shift) != gaming_day_and_shift(now):
        raise ConflictError(
            "shift_change_required",
            f"{table.name} was opened for the {count.gaming_day} {count.shift} shift, which has ended: "
            "a supervisor closes it for that shift and opens it for this one.",
        )
