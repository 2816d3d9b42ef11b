"""Many writers appending at once: one chain never forks or gaps; different chains never wait for each other."""

import threading
from collections.abc import Callable

import pytest
from django.db import IntegrityError, OperationalError, connection, transaction

from audit.models import AuditEvent
from audit.services import verify_chain
from tests.audit.conftest import append

THREADS = 12
EVENTS_PER_THREAD = 15
TABLES = 16
EVENTS_PER_TABLE = 10


def _run_threads(count: int, work: Callable[[int], None]) -> list[BaseException]:
    """Run `work(number)` in `count` threads, each on its own connection, released together."""
    barrier = threading.Barrier(count)
    failures: list[BaseException] = []

    def run(number: int) -> None:
        try:
            barrier.wait(timeout=30)
            work(number)
        except BaseException as exc:
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(number,)) for number in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return failures


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("table_id", [None, 5])
def test_concurrent_appends_to_one_chain_form_one_unforked_chain(table_id: int | None) -> None:
    name = "casino" if table_id is None else f"table:{table_id}"

    def writer(number: int) -> None:
        for event in range(EVENTS_PER_THREAD):
            with transaction.atomic():
                append(
                    subject_id=f"{number}-{event}", table_id=table_id, table_name="BJ-05" if table_id else ""
                )
                # Widen the window between taking the chain lock and committing.
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_sleep(0.001)")

    failures = _run_threads(THREADS, writer)

    assert failures == []
    total = THREADS * EVENTS_PER_THREAD
    events = AuditEvent.objects.filter(chain=name)
    assert list(events.order_by("seq").values_list("seq", flat=True)) == list(range(1, total + 1))
    assert events.values("prev_hash").distinct().count() == total
    # Ids are drawn after the lock: within a chain, id order is seq order.
    assert list(events.order_by("id").values_list("seq", flat=True)) == list(range(1, total + 1))
    assert set(events.values_list("subject_id", flat=True)) == {
        f"{number}-{event}" for number in range(THREADS) for event in range(EVENTS_PER_THREAD)
    }
    result = verify_chain()
    assert result.ok
    assert (result.events, [chain.chain for chain in result.chains]) == (total, [name])


@pytest.mark.django_db(transaction=True)
def test_sixteen_tables_append_at_once_each_to_its_own_chain() -> None:
    def writer(number: int) -> None:
        table_id = number + 1
        for event in range(EVENTS_PER_TABLE):
            append(subject_id=str(event), table_id=table_id, table_name=f"BJ-{table_id:02d}")
            if event % 3 == 0:  # and now and then an event of no table, as staff cause
                append(subject_id=f"staff-{number}-{event}")

    failures = _run_threads(TABLES, writer)

    assert failures == []
    result = verify_chain()
    assert result.ok
    by_chain = {chain.chain: (chain.events, chain.head_seq) for chain in result.chains}
    assert by_chain == {
        "casino": (TABLES * 4, TABLES * 4),
        **{f"table:{table_id}": (EVENTS_PER_TABLE, EVENTS_PER_TABLE) for table_id in range(1, TABLES + 1)},
    }


@pytest.mark.django_db(transaction=True)
def test_an_open_append_holds_only_its_own_chain() -> None:
    holder = threading.Event()
    release = threading.Event()
    failures: list[BaseException] = []

    def hold_table_1() -> None:
        try:
            with transaction.atomic():
                append(table_id=1, table_name="BJ-01")
                holder.set()
                release.wait(timeout=30)
        except BaseException as exc:
            failures.append(exc)
            holder.set()
        finally:
            connection.close()

    thread = threading.Thread(target=hold_table_1)
    thread.start()
    try:
        assert holder.wait(timeout=30)
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '500ms'")
            other = append(table_id=2, table_name="BJ-02")  # does not wait
            casino = append()
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '200ms'")
            with pytest.raises(OperationalError, match="lock timeout"):
                append(table_id=1, table_name="BJ-01")  # waits for the holder
    finally:
        release.set()
        thread.join(timeout=30)

    assert failures == []
    assert ((other.chain, other.seq), (casino.chain, casino.seq)) == (("table:2", 1), ("casino", 1))
    assert verify_chain().ok


@pytest.mark.django_db
@pytest.mark.parametrize(("seq", "links_to_first"), [(2, False), (3, True)])
def test_the_database_refuses_a_fork_even_without_the_lock(seq: int, links_to_first: bool) -> None:
    first = append(table_id=3, table_name="BJ-03")
    append(table_id=3, table_name="BJ-03")
    # What a writer that skipped the lock would insert: a second #2 (its own predecessor), or
    # a #3 that links to #1 as #2 already does.
    columns = [field.column for field in AuditEvent._meta.concrete_fields]
    overrides = {"id": "id + 1000", "seq": "%s", "prev_hash": "%s", "hash": "repeat('f', 64)"}
    selected = ", ".join(overrides.get(column, f'"{column}"') for column in columns)
    prev_hash = first.hash if links_to_first else "a" * 64

    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO audit_auditevent ({', '.join(columns)}) "  # noqa: S608
            f"SELECT {selected} FROM audit_auditevent WHERE chain = 'table:3' AND seq = 2",
            [seq, prev_hash],
        )

    assert AuditEvent.objects.filter(chain="table:3").count() == 2
