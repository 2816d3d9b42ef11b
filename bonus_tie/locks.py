"""Row locks for paytable versions (STYLE.md §8). Staff paths wait: the transactions are short."""

from django.db import connection

from bonus_tie.models import PaytableVersion
from kernel.errors import NotFoundError

# pg_advisory_xact_lock(int4, int4), a key space apart from the single-bigint idempotency locks
# and the audit chain's pair: "bont" "pays".
NUMBERING_LOCK = (0x626F6E74, 0x70617973)


def lock_paytable_numbering() -> None:
    """Serialise the choice of the next version number until the transaction ends.

    A row lock would not do: two proposals read the same highest version, and the second
    proposal's new row is invisible to the first. The unique constraint on `version` stays the
    last line of defence.
    """
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", list(NUMBERING_LOCK))


def lock_paytable_version(*, version: int) -> PaytableVersion:
    row = (
        PaytableVersion.objects.select_for_update(of=("self",))
        .select_related("proposal")
        .filter(version=version)
        .first()
    )
    if row is None:
        raise NotFoundError("not_found", f"No paytable version {version}.")
    return row
