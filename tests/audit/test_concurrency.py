"""Many writers appending at once still make one chain, with no fork and no gap."""

import threading

import pytest
from django.db import connection, transaction

from audit.models import AuditEvent
from audit.services import verify_chain
from tests.audit.conftest import append

THREADS = 12
EVENTS_PER_THREAD = 15


@pytest.mark.django_db(transaction=True)
def test_concurrent_appends_form_one_unforked_chain() -> None:
    barrier = threading.Barrier(THREADS)
    failures: list[BaseException] = []

    def writer(number: int) -> None:
        try:
            barrier.wait(timeout=30)
            for event in range(EVENTS_PER_THREAD):
                with transaction.atomic():
                    append(subject_id=f"{number}-{event}")
                    # Widen the window between taking the chain lock and committing.
                    with connection.cursor() as cursor:
                        cursor.execute("SELECT pg_sleep(0.001)")
        except BaseException as exc:
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=writer, args=(number,)) for number in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    assert failures == []
    total = THREADS * EVENTS_PER_THREAD
    assert list(AuditEvent.objects.order_by("seq").values_list("seq", flat=True)) == list(range(1, total + 1))
    assert AuditEvent.objects.values("prev_hash").distinct().count() == total
    assert set(AuditEvent.objects.values_list("subject_id", flat=True)) == {
        f"{number}-{event}" for number in range(THREADS) for event in range(EVENTS_PER_THREAD)
    }
    result = verify_chain()
    assert result.ok
    assert result.events == total
