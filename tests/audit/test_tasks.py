"""The nightly Celery task verifies the chain and records a checkpoint."""

import os
import subprocess
import sys

import pytest
from celery.schedules import crontab
from django.db import connection, transaction

from audit.models import AuditCheckpoint
from audit.tasks import BEAT_SCHEDULE, verify_audit_chain


@pytest.mark.django_db
def test_task_records_the_verified_head(chain) -> None:
    events = chain(4)

    result = verify_audit_chain()

    checkpoint = AuditCheckpoint.objects.get()
    assert (checkpoint.ok, checkpoint.events, checkpoint.head_seq, checkpoint.head_hash) == (
        True,
        4,
        4,
        events[-1].hash,
    )
    assert checkpoint.broken_at is None
    assert result == {
        "checkpoint": checkpoint.pk,
        "ok": True,
        "events": 4,
        "head_seq": 4,
        "head": events[-1].hash,
    }


@pytest.mark.django_db
def test_task_on_an_empty_chain_records_the_genesis() -> None:
    verify_audit_chain()

    checkpoint = AuditCheckpoint.objects.get()
    assert (checkpoint.ok, checkpoint.events, checkpoint.head_seq, checkpoint.head_hash) == (
        True,
        0,
        None,
        "0" * 64,
    )


@pytest.mark.django_db
def test_task_records_a_break(chain, caplog) -> None:
    chain(3)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute("UPDATE audit_auditevent SET detail = 'x' WHERE seq = 2")

    result = verify_audit_chain()

    checkpoint = AuditCheckpoint.objects.get()
    assert result["ok"] is False
    assert (checkpoint.ok, checkpoint.events, checkpoint.head_seq) == (False, 1, 1)
    assert checkpoint.broken_at is not None
    assert checkpoint.broken_at["seq"] == 2
    assert checkpoint.broken_at["reason"] == "hash_mismatch"
    assert "AUDIT CHAIN BROKEN" in caplog.text


def test_task_is_late_acked_and_scheduled_nightly_and_weekly() -> None:
    assert verify_audit_chain.acks_late is True
    nightly = BEAT_SCHEDULE["audit-verify-chain-nightly"]
    weekly = BEAT_SCHEDULE["audit-verify-chain-weekly-full"]
    assert nightly["task"] == weekly["task"] == verify_audit_chain.name == "audit.tasks.verify_audit_chain"
    assert nightly["schedule"] == crontab(hour=6, minute=15)
    assert nightly["kwargs"] == {"since_checkpoint": True}
    assert weekly["schedule"] == crontab(hour=7, minute=0, day_of_week="sun")
    assert weekly["kwargs"] == {"since_checkpoint": False}


@pytest.mark.django_db
def test_the_nightly_run_walks_from_the_last_checkpoint(chain) -> None:
    chain(3)
    verify_audit_chain()
    events = chain(2)

    result = verify_audit_chain(since_checkpoint=True)

    assert result["ok"] is True
    assert (result["events"], result["head_seq"], result["head"]) == (5, 5, events[-1].hash)


def test_the_schedule_can_be_imported_before_django_is_set_up() -> None:
    code = "import audit.tasks, sys; assert 'audit.models' not in sys.modules; print(len(audit.tasks.BEAT_SCHEDULE))"
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}

    done = subprocess.run(  # noqa: S603 (our own interpreter and code)
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
    )

    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "2"
