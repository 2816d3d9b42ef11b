"""The report of every rule set a table deals the paytable in force under: queued once the
provisioning or the rule change commits, only when none covers the rules (surrender included)."""

import io
from collections.abc import Callable
from typing import Any

import pytest
from celery import current_app
from django.core.management import call_command
from django.utils import timezone
from rest_framework.test import APIClient

from audit.context import AuditActor
from bonus_tie.models import RulesReport
from bonus_tie.services import RULES_REPORT_TASK, compute_rules_report
from casino.services.provisioning import ProvisionedStaff, provision_table
from casino.services.rule_changes import approve_rule_change, request_rule_change
from tests.support.factories import restore_migrated_rows
from tests.support.gaming_day import price_paytable

pytestmark = pytest.mark.django_db

SMALL_SHOE = [4, 0, 0, 0, 0, 0, 4, 4, 4, 16]
SYSTEM = AuditActor(kind="system", username="test")


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any]]]:
    restore_migrated_rows()
    calls: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(current_app, "send_task", lambda name, kwargs: calls.append((name, kwargs)))
    return calls


def provision(name: str, **rules: Any) -> Any:
    return provision_table(name=name, decks=rules.pop("decks", 6), now=timezone.now(), **rules)


def test_provisioning_queues_the_missing_report_of_its_rules_on_commit(
    sent: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    price_paytable(version=1, table=provision("BJ-01").table)
    sent.clear()

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        provision("BJ-02", decks=8, h17=True, surrender=True)
    assert sent == []  # nothing before the commit

    for callback in callbacks:
        callback()
    [row] = RulesReport.objects.all()
    assert sent == [(RULES_REPORT_TASK, {"report_id": row.pk})]
    assert (row.rules["decks"], row.rules["dealer"], row.rules["surrender"]) == (8, "H17", True)
    assert row.queued_at is not None


def test_rules_its_version_or_a_computed_report_covers_queue_nothing(
    sent: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    price_paytable(version=1, table=provision("BJ-01").table)
    provision("BJ-02", decks=8, h17=True, surrender=True)
    [row] = RulesReport.objects.all()
    compute_rules_report(report_id=row.pk, actor=SYSTEM, composition=SMALL_SHOE, workers=0)

    with django_capture_on_commit_callbacks(execute=True):
        provision("BJ-03")  # v1's own rules
        provision("BJ-04", decks=8, h17=True, surrender=True)  # BJ-02's rules, now priced

    assert RulesReport.objects.count() == 1
    report = RulesReport.objects.get().report
    assert report is not None
    assert report["rules"]["surrender"] is True
    assert compute_rules_report(report_id=row.pk, actor=SYSTEM, composition=SMALL_SHOE, workers=0) is None


def test_approving_a_rule_change_queues_the_report_of_the_new_rules_on_commit(
    sent: list[Any],
    django_capture_on_commit_callbacks: Any,
    make_staff: Callable[[str], tuple[ProvisionedStaff, APIClient]],
) -> None:
    table = provision("BJ-01").table
    price_paytable(version=1, table=table)
    supervisor, _ = make_staff("floor_supervisor")
    boss, _ = make_staff("pit_boss")
    now = timezone.now()
    change = request_rule_change(
        table_id=table.pk,
        limits={},
        rules={"surrender": True},
        reason="surrender on weekends",
        effective_at=now,
        user=supervisor.user,
        actor=SYSTEM,
        now=now,
    )
    sent.clear()

    with django_capture_on_commit_callbacks(execute=True):
        approve_rule_change(change_id=change.pk, user=boss.user, actor=SYSTEM, now=now)

    [row] = RulesReport.objects.all()
    assert row.rules["surrender"] is True
    assert sent == [(RULES_REPORT_TASK, {"report_id": row.pk})]


def test_a_report_whose_message_was_lost_is_queued_again_at_the_next_start(
    sent: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    price_paytable(version=1, table=provision("BJ-01").table)
    provision("BJ-02", decks=8, h17=True, surrender=True)  # its callback never ran: the message is lost
    [row] = RulesReport.objects.all()
    out = io.StringIO()

    call_command("queue_paytable_reports", stdout=out)

    assert sent == [(RULES_REPORT_TASK, {"report_id": row.pk})]
    assert "Paytable v1 under a table's rules (8 decks, H17, surrender): report queued" in out.getvalue()
    sent.clear()
    call_command("queue_paytable_reports", stdout=io.StringIO())
    assert sent == []  # queued a moment ago
