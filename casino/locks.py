"""Row locks, parent first (table, shoe, round) and in pk order (STYLE.md §8).

Terminal paths lock with NOWAIT: a table is a serial process, so a second
request that finds it busy answers 409 at once rather than queueing.
"""

from django.db import OperationalError

from casino.errors import ConflictError, NotFoundError
from casino.models import Round, Shoe, Table


def _busy() -> ConflictError:
    return ConflictError("table_busy", "Another request is changing this table right now; retry shortly.")


def lock_table(*, table_id: int) -> Table:
    try:
        table = Table.objects.select_for_update(nowait=True, of=("self",)).filter(pk=table_id).first()
    except OperationalError as exc:
        raise _busy() from exc
    if table is None:
        raise NotFoundError("not_found", f"No table {table_id}.")
    return table


def lock_open_shoe(*, table: Table) -> Shoe | None:
    return Shoe.objects.select_for_update(of=("self",)).filter(table=table, closed_at__isnull=True).first()


def lock_round(*, round_id: int) -> Round:
    round_ = Round.objects.select_for_update(of=("self",)).filter(pk=round_id).first()
    if round_ is None:
        raise NotFoundError("not_found", f"No round {round_id}.")
    return round_
