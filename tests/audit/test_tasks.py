"""The Celery tasks anchor all chain heads every few minutes and verify every chain nightly and weekly."""

import json
import os
import subprocess
import sys

import pytest
from celery.schedules import crontab
from django.db import connection, transaction

from audit.chain import anchor_digest
from audit.models import AuditAnchor, AuditCheckpoint
from audit.tasks import BEAT_SCHEDULE, anchor_audit_chains, verify_audit_chain


@pytest.mark.django_db
def test_the_anchor_task_hashes_every_chain_head_records_and_logs_it(chain, caplog) -> None:
    casino, table = chain(3), chain(2, table_id=8)
    heads = [["casino", 3, casino[-1].hash], ["table:8", 2, table[-1].hash]]

    with caplog.at_level("INFO", logger="audit.anchor"):
        result = anchor_audit_chains()

    anchor = AuditAnchor.objects.get()
    assert (anchor.chains, anchor.events, anchor.heads) == (2, 5, heads)
    assert anchor.digest == anchor_digest(tuple(head) for head in heads)
    assert result == {"anchor": anchor.pk, "digest": anchor.digest, "chains": 2, "events": 5}
    assert [record.name for record in caplog.records] == ["audit.anchor"]
    assert f"digest={anchor.digest} chains=2 events=5 anchor={anchor.pk}" in caplog.text


@pytest.mark.django_db
def test_the_anchor_task_records_nothing_new_while_no_chain_moves(chain) -> None:
    chain(1)
    first = anchor_audit_chains()
    again = anchor_audit_chains()
    chain(1, table_id=2)
    moved = anchor_audit_chains()

    assert again == first
    assert moved["anchor"] != first["anchor"]
    assert AuditAnchor.objects.count() == 2


@pytest.mark.django_db
def test_anchors_are_append_only() -> None:
    anchor_audit_chains()
    with pytest.raises(Exception, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE audit_auditanchor SET events = 99")


@pytest.mark.django_db
def test_task_records_the_verified_heads_as_an_anchor(chain) -> None:
    events = chain(4)
    table = chain(1, table_id=3)

    result = verify_audit_chain()

    checkpoint = AuditCheckpoint.objects.get()
    heads = [["casino", 4, events[-1].hash], ["table:3", 1, table[-1].hash]]
    digest = anchor_digest(tuple(head) for head in heads)
    assert (checkpoint.ok, checkpoint.events, checkpoint.head_seq, checkpoint.head_hash) == (
        True,
        5,
        None,
        digest,
    )
    assert checkpoint.broken_at is None
    assert checkpoint.anchor is not None
    assert (checkpoint.anchor.heads, checkpoint.anchor.digest) == (heads, digest)
    assert result == {
        "checkpoint": checkpoint.pk,
        "ok": True,
        "events": 5,
        "anchor": checkpoint.anchor.pk,
        "head": digest,
    }


@pytest.mark.django_db
def test_task_on_no_events_records_the_digest_of_no_heads() -> None:
    verify_audit_chain()

    checkpoint = AuditCheckpoint.objects.get()
    assert (checkpoint.ok, checkpoint.events, checkpoint.head_hash) == (True, 0, anchor_digest([]))
    assert checkpoint.anchor is not None
    assert checkpoint.anchor.heads == []


@pytest.mark.django_db
def test_task_records_a_break(chain, caplog) -> None:
    chain(3)
    chain(2, table_id=5)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute("UPDATE audit_auditevent SET detail = 'x' WHERE chain = 'table:5' AND seq = 2")

    result = verify_audit_chain()

    checkpoint = AuditCheckpoint.objects.get()
    assert result["ok"] is False
    assert (checkpoint.ok, checkpoint.events, checkpoint.anchor) == (False, 4, None)
    assert checkpoint.broken_at is not None
    assert (checkpoint.broken_at["chain"], checkpoint.broken_at["seq"]) == ("table:5", 2)
    assert checkpoint.broken_at["reason"] == "hash_mismatch"
    assert "AUDIT CHAIN BROKEN" in caplog.text
    logged = json.loads(caplog.text.split("AUDIT CHAIN BROKEN: ", 1)[1].splitlines()[0])
    assert logged["broken_at"]["chain"] == "table:5"


def test_tasks_are_late_acked_and_scheduled() -> None:
    assert verify_audit_chain.acks_late is True
    assert anchor_audit_chains.acks_late is True
    anchors = BEAT_SCHEDULE["audit-anchor-chains"]
    nightly = BEAT_SCHEDULE["audit-verify-chain-nightly"]
    weekly = BEAT_SCHEDULE["audit-verify-chain-weekly-full"]
    assert anchors["task"] == anchor_audit_chains.name == "audit.tasks.anchor_audit_chains"
    assert anchors["schedule"] == crontab(minute="*/5")
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
    assert (result["events"], result["head"]) == (5, anchor_digest([("casino", 5, events[-1].hash)]))


def test_the_schedule_can_be_imported_before_django_is_set_up() -> None:
    code = "import audit.tasks, sys; assert 'audit.models' not in sys.modules; print(len(audit.tasks.BEAT_SCHEDULE))"
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}

    done = subprocess.run(  # noqa: S603 (our own interpreter and code)
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
    )

    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "4"
