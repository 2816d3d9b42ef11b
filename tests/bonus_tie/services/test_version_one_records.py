"""Version 1's records (migration 0004) and its report queued at the service's start: the pages
say "queued" only when it was."""

import datetime as dt
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from blackjack.engine.rules import HouseRules
from blackjack.mappers import rules_to_json
from bonus_tie import services
from bonus_tie.models import SYSTEM_MIGRATION, PaytableProposal, PaytableStatus, PaytableVersion
from config.management.commands.run_service import Command as RunService
from tests.bonus_tie.conftest import Staff, compute, propose

pytestmark = pytest.mark.django_db

TASK = "bonus_tie.tasks.compute_paytable_report"


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any]]]:
    """The messages handed to the task queue."""
    from config.celery import app

    messages: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(app, "send_task", lambda name, kwargs: messages.append((name, kwargs)))
    return messages


@pytest.fixture
def broker_down(monkeypatch: pytest.MonkeyPatch) -> None:
    from config.celery import app

    def refuse(name: str, kwargs: dict[str, Any]) -> None:
        raise BrokerError("connection refused")

    monkeypatch.setattr(app, "send_task", refuse)


def version_one() -> PaytableProposal:
    return PaytableProposal.objects.select_related("paytable").get(paytable__version=1)


def change_page(staff: Staff, version: int) -> str:
    client = Client()
    client.force_login(staff.user)
    pk = PaytableVersion.objects.get(version=version).pk
    response = client.get(f"/admin/bonus_tie/paytableversion/{pk}/change/")
    assert response.status_code == 200
    return response.content.decode()


def test_the_migration_records_the_system_as_proposer_and_approver_of_version_one() -> None:
    proposal = version_one()

    assert proposal.paytable.status == PaytableStatus.APPROVED
    assert (proposal.paytable.proposed_by_id, proposal.paytable.approved_by_id) == (None, None)
    assert (proposal.proposed_by_label, proposal.approved_by_label) == (SYSTEM_MIGRATION, SYSTEM_MIGRATION)
    assert proposal.rules == rules_to_json(HouseRules())
    # The report is left to the service's start: nothing claims it is queued
    assert (proposal.paytable.report, proposal.report_queued_at) == (None, None)


def test_an_actor_label_other_than_the_system_migration_is_refused_by_the_database() -> None:
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        PaytableProposal.objects.filter(paytable__version=1).update(approved_by_label="someone")

    assert version_one().approved_by_label == SYSTEM_MIGRATION


def test_the_start_queues_version_one_once_and_records_when(
    sent: list[tuple[str, dict[str, Any]]], pit_boss: Staff
) -> None:
    rejected = propose(pit_boss).version
    PaytableVersion.objects.filter(version=rejected).update(status=PaytableStatus.REJECTED)
    out, err = StringIO(), StringIO()
    before = timezone.now()

    RunService(stdout=out, stderr=err)._queue_paytable_reports()

    assert sent == [(TASK, {"version": 1})]  # the rejected version is never computed
    assert "Paytable v1: report queued" in out.getvalue()
    queued_at = version_one().report_queued_at
    assert queued_at is not None
    assert queued_at >= before

    # A second start soon after queues nothing more; one after the re-queue delay queues it again
    assert services.queue_missing_reports(now=timezone.now()) == []
    later = timezone.now() + services.REQUEUE_AFTER + dt.timedelta(seconds=1)
    assert services.queue_missing_reports(now=later) == [1]
    assert sent == [(TASK, {"version": 1}), (TASK, {"version": 1})]


def test_the_start_goes_on_when_the_queue_cannot_be_reached(broker_down: None) -> None:
    out, err = StringIO(), StringIO()

    RunService(stdout=out, stderr=err)._queue_paytable_reports()

    assert "Paytable reports not queued: The task queue cannot be reached" in err.getvalue()
    assert version_one().report_queued_at is None
    with pytest.raises(CommandError, match="no report was queued"):
        call_command("queue_paytable_reports", stdout=StringIO())


def test_the_page_says_not_computed_until_it_is_queued_then_queued_then_shows_the_report(
    sent: list[tuple[str, dict[str, Any]]], compliance: Staff
) -> None:
    html = change_page(compliance, 1)
    assert "Not computed: no computation is queued" in html
    assert "queue_paytable_reports" in html
    assert html.count(SYSTEM_MIGRATION) >= 2  # proposer and approver
    assert "being computed" not in html
    assert "queued at" not in html

    call_command("queue_paytable_reports", stdout=StringIO())
    html = change_page(compliance, 1)
    assert "Not computed yet: queued at " in html
    assert "Not computed: no computation is queued" not in html

    # The worker computes the report of the approved version 1 (a small shoe here, for speed)
    assert compute(1) is not None
    html = change_page(compliance, 1)
    assert "<strong>Primary wager:</strong> house edge" in html
    assert "standard deviation per hand" in html
    assert "Not computed" not in html
    assert version_one().report_computed_at is not None


def test_the_list_says_not_computed_or_queued(
    sent: list[tuple[str, dict[str, Any]]], compliance: Staff
) -> None:
    client = Client()
    client.force_login(compliance.user)

    assert "not computed" in client.get("/admin/bonus_tie/paytableversion/").content.decode()
    call_command("queue_paytable_reports", stdout=StringIO())
    html = client.get("/admin/bonus_tie/paytableversion/").content.decode()
    assert "report queued" in html
    assert "not computed" not in html


def test_a_queued_report_that_never_came_back_is_no_longer_called_queued(compliance: Staff) -> None:
    long_ago = timezone.now() - services.REQUEUE_AFTER - dt.timedelta(minutes=1)
    PaytableProposal.objects.filter(paytable__version=1).update(report_queued_at=long_ago)

    html = change_page(compliance, 1)

    assert "but no report came back" in html
    assert "Not computed yet" not in html
    assert "queue_paytable_reports" in html
