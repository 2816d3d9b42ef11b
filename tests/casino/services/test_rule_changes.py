"""Limit and house-rule changes: requested, decided by another pit boss, applied from the next round."""

import datetime as dt
import json
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from audit.context import AuditActor
from audit.exports import export_gaming_day
from audit.models import AuditEvent
from blackjack import services as rounds
from blackjack.engine.wagers import SeatRequest, WagerRequest
from blackjack.models import Round, SettlementLine
from casino import tasks
from casino.models import RuleChangeStatus, Table, TableLimit, TableRuleChange, Terminal
from casino.services.provisioning import ProvisionedStaff
from casino.services.rule_changes import (
    apply_due_rule_changes,
    approve_rule_change,
    current_settings,
    reject_rule_change,
    request_rule_change,
    withdraw_rule_change,
)
from kernel.errors import ConflictError, ForbiddenError, ServiceError
from kernel.gaming_day import gaming_day_and_shift
from tests.support.api import TableActors, post
from tests.support.rounds import ROUNDS, deal, open_round, open_shoe, primary

pytestmark = pytest.mark.django_db

MakeStaff = Callable[[str], tuple[ProvisionedStaff, APIClient]]


def actor_of(staff: ProvisionedStaff) -> AuditActor:
    return AuditActor(kind="user", user_id=staff.user.pk, username=staff.user.username, role=staff.role)


def request(
    table: Table,
    staff: ProvisionedStaff,
    *,
    limits: dict[str, tuple[int, int]] | None = None,
    rules: dict[str, Any] | None = None,
    reason: str = "High-limit weekend",
    now: dt.datetime | None = None,
    effective_at: dt.datetime | None = None,
) -> TableRuleChange:
    now = now or timezone.now()
    return request_rule_change(
        table_id=table.pk,
        limits=limits or {},
        rules=rules or {},
        reason=reason,
        effective_at=effective_at or now,
        user=staff.user,
        actor=actor_of(staff),
        now=now,
    )


def approve(
    change: TableRuleChange, staff: ProvisionedStaff, *, now: dt.datetime | None = None
) -> TableRuleChange:
    return approve_rule_change(
        change_id=change.pk, user=staff.user, actor=actor_of(staff), now=now or timezone.now()
    )


def limits_of(table: Table) -> dict[str, tuple[int, int]]:
    return {row.kind: (row.min_cents, row.max_cents) for row in TableLimit.objects.filter(table=table)}


def events_of(change: TableRuleChange) -> list[AuditEvent]:
    return list(
        AuditEvent.objects.filter(subject_type="rule_change", subject_id=str(change.pk)).order_by("id")
    )


def test_a_supervisors_request_applies_once_another_pit_boss_approves_it(
    table: TableActors, make_staff: MakeStaff
) -> None:
    supervisor, _ = make_staff("floor_supervisor")
    boss, _ = make_staff("pit_boss")
    change = request(table.table, supervisor, limits={"primary": (2_500, 250_000)}, rules={"surrender": True})

    assert change.status == RuleChangeStatus.PENDING
    assert change.changes == {"limits": {"primary": [2_500, 250_000]}, "rules": {"surrender": True}}
    assert change.previous == {"limits": {"primary": [500, 100_000]}, "rules": {"surrender": False}}
    assert limits_of(table.table)["primary"] == (500, 100_000)  # nothing moves before approval

    approved = approve(change, boss)

    assert approved.status == RuleChangeStatus.APPLIED
    assert approved.decided_by_id == boss.user.pk
    table.table.refresh_from_db()
    assert table.table.surrender is True
    assert limits_of(table.table)["primary"] == (2_500, 250_000)
    assert limits_of(table.table)["T17"] == (100, 50_000)  # what it does not name stays
    requested, approved_event, applied = events_of(change)
    assert [requested.event_type, approved_event.event_type, applied.event_type] == [
        "casino.rule_change.requested",
        "casino.rule_change.approved",
        "casino.rule_change.applied",
    ]
    assert requested.username == supervisor.user.username
    assert requested.after is not None
    assert requested.after["reason"] == "High-limit weekend"
    assert approved_event.username == boss.user.username
    assert applied.before == {"limits": {"primary": [500, 100_000]}, "rules": {"surrender": False}}
    assert applied.after is not None
    assert applied.after["limits"] == {"primary": [2_500, 250_000]}
    assert {event.table_id for event in (requested, approved_event, applied)} == {table.table.pk}


def test_the_gaming_day_export_carries_each_step_with_before_and_after(
    table: TableActors, make_staff: MakeStaff
) -> None:
    supervisor, _ = make_staff("floor_supervisor")
    boss, _ = make_staff("pit_boss")
    now = timezone.now()
    change = request(table.table, supervisor, rules={"dealer_hits_soft_17": True}, now=now)
    approve(change, boss, now=now)

    day, _ = gaming_day_and_shift(now)
    rows = [json.loads(line) for line in "".join(export_gaming_day(day=day, fmt="jsonl")).splitlines()]
    steps = {row["event_type"]: row for row in rows if row["subject_type"] == "rule_change"}

    assert set(steps) == {
        "casino.rule_change.requested",
        "casino.rule_change.approved",
        "casino.rule_change.applied",
    }
    assert steps["casino.rule_change.applied"]["before"] == {
        "limits": {},
        "rules": {"dealer_hits_soft_17": False},
    }
    assert steps["casino.rule_change.applied"]["after"]["rules"] == {"dealer_hits_soft_17": True}
    assert steps["casino.rule_change.approved"]["username"] == boss.user.username


def test_the_requester_never_approves_their_own_change(table: TableActors, make_staff: MakeStaff) -> None:
    boss, _ = make_staff("pit_boss")
    change = request(table.table, boss, limits={"primary": (1_000, 100_000)})

    with pytest.raises(ForbiddenError) as refused:
        approve(change, boss)

    assert refused.value.code == "approver_is_requester"
    change.refresh_from_db()
    assert change.status == RuleChangeStatus.PENDING
    assert limits_of(table.table)["primary"] == (500, 100_000)
    assert [event.event_type for event in events_of(change)] == ["casino.rule_change.requested"]


def test_only_a_pit_boss_approves(table: TableActors, make_staff: MakeStaff) -> None:
    requester, _ = make_staff("pit_boss")
    supervisor, _ = make_staff("floor_supervisor")
    change = request(table.table, requester, limits={"primary": (1_000, 100_000)})

    with pytest.raises(ForbiddenError) as refused:
        approve(change, supervisor)

    assert refused.value.code == "pit_boss_decides"
    change.refresh_from_db()
    assert change.status == RuleChangeStatus.PENDING


@pytest.mark.parametrize(
    ("limits", "rules", "code", "field"),
    [
        ({"primary": (0, 100_000)}, {}, "invalid_limit", "limits.primary.min_cents"),
        ({"primary": (5_000, 4_000)}, {}, "invalid_limit", "limits.primary.max_cents"),
        # A side's wagers hold at most half the primary (RULES.md §1.3): with a $600 primary
        # maximum, a $500 T17 maximum could never be placed in full.
        ({"primary": (500, 60_000)}, {}, "side_limit_above_half_primary", "limits.T17.max_cents"),
        ({"T18": (100, 50_001)}, {}, "side_limit_above_half_primary", "limits.T18.max_cents"),
        ({"insurance": (100, 200)}, {}, "unknown_limit", "limits.insurance"),
        ({}, {"decks": 7}, "invalid_deck_count", "rules.decks"),
        ({}, {"penetration_percent": 99}, "invalid_house_rule", "rules.penetration_percent"),
        ({}, {"max_hands": 5}, "invalid_house_rule", "rules.max_hands"),
        ({}, {"blackjack_pays": "2:1"}, "invalid_blackjack_pays", "rules.blackjack_pays"),
        ({}, {"aggregate_limit_cents": 0}, "invalid_aggregate_limit", "rules.aggregate_limit_cents"),
        ({}, {"is_active": False}, "unknown_house_rule", "rules.is_active"),
        ({"primary": (500, 100_000)}, {"surrender": False}, "no_change", "limits"),
    ],
)
def test_an_invalid_request_is_refused_and_records_nothing(
    table: TableActors,
    make_staff: MakeStaff,
    limits: dict[str, tuple[int, int]],
    rules: dict[str, Any],
    code: str,
    field: str,
) -> None:
    supervisor, _ = make_staff("floor_supervisor")
    before = current_settings(table.table)

    with pytest.raises(ServiceError) as refused:
        request(table.table, supervisor, limits=limits, rules=rules)

    assert (refused.value.code, refused.value.field) == (code, field)
    assert TableRuleChange.objects.count() == 0
    assert not AuditEvent.objects.filter(subject_type="rule_change").exists()
    assert current_settings(table.table) == before


def test_a_request_needs_a_reason_and_a_time_not_in_the_past(
    table: TableActors, make_staff: MakeStaff
) -> None:
    supervisor, _ = make_staff("floor_supervisor")
    now = timezone.now()
    with pytest.raises(ServiceError) as no_reason:
        request(table.table, supervisor, limits={"primary": (1_000, 100_000)}, reason="  ")
    with pytest.raises(ServiceError) as past:
        request(
            table.table,
            supervisor,
            limits={"primary": (1_000, 100_000)},
            now=now,
            effective_at=now - dt.timedelta(minutes=1),
        )
    assert (no_reason.value.code, past.value.code) == ("reason_required", "effective_time_past")
    assert TableRuleChange.objects.count() == 0


def test_a_table_has_one_open_change_at_a_time(table: TableActors, make_staff: MakeStaff) -> None:
    supervisor, _ = make_staff("floor_supervisor")
    request(table.table, supervisor, limits={"primary": (1_000, 100_000)})

    with pytest.raises(ConflictError) as refused:
        request(table.table, supervisor, rules={"surrender": True})

    assert refused.value.code == "rule_change_open"
    assert TableRuleChange.objects.count() == 1


def test_a_rejection_needs_a_reason_and_changes_nothing(table: TableActors, make_staff: MakeStaff) -> None:
    supervisor, _ = make_staff("floor_supervisor")
    boss, _ = make_staff("pit_boss")
    change = request(table.table, supervisor, rules={"blackjack_pays": "6:5"})

    with pytest.raises(ServiceError):
        reject_rule_change(
            change_id=change.pk, user=boss.user, reason="", actor=actor_of(boss), now=timezone.now()
        )
    rejected = reject_rule_change(
        change_id=change.pk,
        user=boss.user,
        reason="Not on a weekend",
        actor=actor_of(boss),
        now=timezone.now(),
    )

    assert (rejected.status, rejected.rejection_reason) == (RuleChangeStatus.REJECTED, "Not on a weekend")
    table.table.refresh_from_db()
    assert (table.table.blackjack_pays_num, table.table.blackjack_pays_den) == (3, 2)
    assert events_of(change)[-1].after == {"status": "rejected", "reason": "Not on a weekend"}
    with pytest.raises(ConflictError):
        approve(change, boss)


def test_only_the_requester_withdraws_a_pending_change(table: TableActors, make_staff: MakeStaff) -> None:
    supervisor, _ = make_staff("floor_supervisor")
    boss, _ = make_staff("pit_boss")
    change = request(table.table, supervisor, rules={"insurance": False})

    with pytest.raises(ForbiddenError):
        withdraw_rule_change(change_id=change.pk, user=boss.user, actor=actor_of(boss), now=timezone.now())
    withdrawn = withdraw_rule_change(
        change_id=change.pk, user=supervisor.user, actor=actor_of(supervisor), now=timezone.now()
    )

    assert withdrawn.status == RuleChangeStatus.WITHDRAWN
    request(table.table, supervisor, rules={"insurance": False})  # the table is free for another


def test_an_open_round_keeps_its_rules_and_the_next_round_has_the_new_ones(
    table: TableActors, make_staff: MakeStaff
) -> None:
    supervisor, _ = make_staff("floor_supervisor")
    boss, _ = make_staff("pit_boss")
    open_shoe(table)
    first = open_round(table, [{"seat": 1, "wagers": [primary(1_000)]}])

    change = request(
        table.table,
        supervisor,
        limits={"primary": (2_000, 100_000)},
        rules={"blackjack_pays": "6:5", "dealer_hits_soft_17": True},
    )
    approve(change, boss)

    # The open round plays on as it opened: its Blackjack pays 3:2, not 6:5.
    dealt = deal(table.terminal, first["id"], ["AS", "9H", "KD", "7C"])
    assert dealt["needs"] == {"kind": "settle"}
    assert post(table.terminal, f"{ROUNDS}{first['id']}/settle/").status_code == 200
    line = SettlementLine.objects.get(settlement__round_id=first["id"], kind="primary")
    assert line.win_cents == 1_500
    assert Round.objects.get(pk=first["id"]).rules["blackjack_pays"] == "3:2"

    # The next round is held to the new minimum and plays the new rules.
    below = post(table.terminal, ROUNDS, {"seats": [{"seat": 1, "wagers": [primary(1_000)]}]})
    assert below.status_code == 422
    assert below.json()["code"] == "below_table_minimum"
    second = open_round(table, [{"seat": 1, "wagers": [primary(2_000)]}])
    rules = Round.objects.get(pk=second["id"]).rules
    assert (rules["blackjack_pays"], rules["dealer"]) == ("6:5", "H17")


def test_a_change_for_later_applies_when_the_first_round_opens_at_its_time(
    table: TableActors, make_staff: MakeStaff
) -> None:
    supervisor, _ = make_staff("floor_supervisor")
    boss, _ = make_staff("pit_boss")
    open_shoe(table)
    now = timezone.now()
    later = now + dt.timedelta(hours=2)
    change = request(table.table, supervisor, rules={"surrender": True}, now=now, effective_at=later)
    approve(change, boss, now=now)
    assert TableRuleChange.objects.get(pk=change.pk).status == RuleChangeStatus.APPROVED

    terminal = Terminal.objects.get(table=table.table)  # with the dealer signed in
    seats = [SeatRequest(seat=1, wagers=[WagerRequest(kind="primary", amount_cents=1_000)])]
    dealer = AuditActor(kind="terminal", terminal_id=terminal.pk, terminal_name=terminal.name)
    before = rounds.open_round(
        terminal=terminal, seats=seats, players={}, actor=dealer, now=later - dt.timedelta(seconds=1)
    )
    assert before.round.rules["surrender"] is False
    rounds.void_round(round_id=before.round.pk, reason="test", user=boss.user, actor=dealer, now=later)

    at_its_time = rounds.open_round(terminal=terminal, seats=seats, players={}, actor=dealer, now=later)

    assert at_its_time.round.rules["surrender"] is True
    change.refresh_from_db()
    assert (change.status, change.applied_at) == (RuleChangeStatus.APPLIED, later)
    assert events_of(change)[-1].username == "rule-changes"


def test_the_periodic_task_applies_a_change_whose_time_has_come(
    table: TableActors, make_staff: MakeStaff
) -> None:
    supervisor, _ = make_staff("floor_supervisor")
    boss, _ = make_staff("pit_boss")
    asked_at = timezone.now() - dt.timedelta(minutes=10)
    change = request(
        table.table,
        supervisor,
        rules={"max_hands": 3},
        now=asked_at,
        effective_at=asked_at + dt.timedelta(minutes=5),
    )
    approve(change, boss, now=asked_at)
    assert apply_due_rule_changes(now=asked_at + dt.timedelta(minutes=4)) == []

    result = tasks.apply_due_rule_changes()

    assert result == {"applied": [change.pk]}
    table.table.refresh_from_db()
    assert table.table.max_hands == 3
    entry = tasks.BEAT_SCHEDULE["casino-apply-due-rule-changes"]
    assert entry["task"] == tasks.apply_due_rule_changes.name


@pytest.mark.django_db(transaction=True)
def test_the_periodic_task_leaves_a_busy_table_for_its_next_run(
    table: TableActors, make_staff: MakeStaff
) -> None:
    supervisor, _ = make_staff("floor_supervisor")
    boss, _ = make_staff("pit_boss")
    due_at = timezone.now()
    asked_at = due_at - dt.timedelta(minutes=2)
    change = request(table.table, supervisor, rules={"insurance": False}, now=asked_at, effective_at=due_at)
    change = approve(change, boss, now=asked_at)
    assert change.status == RuleChangeStatus.APPROVED

    other = connection.get_new_connection(connection.get_connection_params())
    try:
        with other.cursor() as cursor:  # a round's step holds the table's row
            cursor.execute("SELECT 1 FROM casino_table WHERE id = %s FOR UPDATE", [table.table.pk])
            assert apply_due_rule_changes(now=due_at) == []
        other.rollback()
    finally:
        other.close()

    assert [applied.pk for applied in apply_due_rule_changes(now=due_at)] == [change.pk]
    table.table.refresh_from_db()
    assert table.table.insurance is False
