"""Limit and house-rule changes by two people: requested, approved or rejected, then applied.

- `request_rule_change`: a floor supervisor or pit boss asks for new limits and/or house rules,
  with a reason and the moment they take effect (now or later). Only what differs from the
  table's current values is recorded; the table's values after the change must obey every rule
  (`check_settings`), or nothing is recorded. A table has one open change at a time.
- `approve_rule_change` / `reject_rule_change`: a pit boss who is not the requester decides.
  An approval whose effective time has come applies the change at once.
- `withdraw_rule_change`: the requester takes back a change not yet decided.
- `apply_due_rule_change` (under the lock of a round's opening) and `apply_due_rule_changes`
  (the periodic task) apply approved changes whose effective time has come.

A change is applied under the table's row lock, which every round's opening takes too, and a
round records its house rules and aggregate limit when it opens (its wagers were checked against
the limits then): a round already open keeps what it opened with; the next one has the new
values. A new deck count is the table's from its next shoe: a shoe keeps the decks it holds.

Each step is an event of the table's audit chain (`casino.rule_change.*`), with the values
before and after, so it is in the gaming day's audit export.
"""

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from audit.context import AuditActor
from audit.services import record_event
from casino.engine import money
from casino.engine.errors import RuleError
from casino.engine.wager_kinds import WagerKind
from casino.games import game_for
from casino.locks import lock_table
from casino.models import (
    OPEN_RULE_CHANGE_STATES,
    RuleChangeStatus,
    StaffRole,
    Table,
    TableLimit,
    TableRuleChange,
)
from casino.side_bets import side_bet_for
from kernel.errors import ConflictError, ForbiddenError, NotFoundError, ServiceError
from kernel.formatting import dollars
from kernel.gaming_day import DayOutOfBoundsError, check_effective_time

RULE_CHANGE_TASK = AuditActor(kind="system", username="rule-changes")

Settings = dict[str, dict[str, Any]]  # {"limits": {kind: [min, max]}, "rules": {field: value}}


def rule_fields_of(table: Table) -> tuple[str, ...]:
    return game_for(table.game).rule_fields


def current_settings(table: Table) -> Settings:
    """The table's limits (by kind, `[min_cents, max_cents]`) and house rules, as a change holds them."""
    limits = {
        row.kind: [row.min_cents, row.max_cents]
        for row in TableLimit.objects.filter(table=table).order_by("pk")
    }
    rules = {field: _rule_value(table, field) for field in rule_fields_of(table)}
    return {"limits": limits, "rules": rules}


def _rule_value(table: Table, field: str) -> Any:
    if field == "blackjack_pays":
        return f"{table.blackjack_pays_num}:{table.blackjack_pays_den}"
    return getattr(table, field)


def _kind_label(kind: str) -> str:
    return "Primary" if kind == WagerKind.PRIMARY else kind


def _refuse(code: str, detail: str, field: str) -> ServiceError:
    return ServiceError(code, detail, field=field)


def check_settings(table: Table, settings: Settings) -> None:
    """Every rule a table's limits and house rules obey, with the first violation as a ServiceError
    whose `field` is `limits.<kind>.min_cents`, `limits.<kind>.max_cents` or `rules.<field>`."""
    limits = settings["limits"]
    for kind, (low, high) in limits.items():
        label = _kind_label(kind)
        if type(low) is not int or low <= 0:
            raise _refuse(
                "invalid_limit", f"{label}: the minimum is more than $0.00.", f"limits.{kind}.min_cents"
            )
        if type(high) is not int or high < low:
            raise _refuse(
                "invalid_limit",
                f"{label}: the maximum {dollars(high)} is below the minimum {dollars(low)}.",
                f"limits.{kind}.max_cents",
            )
    adapter = side_bet_for(table.game)
    primary = limits.get(WagerKind.PRIMARY)
    if adapter is not None and primary is not None:
        half = money.side_limit(primary[1])
        for kind in adapter.side_bet.kinds:
            if kind in limits and limits[kind][1] > half:
                raise _refuse(
                    "side_limit_above_half_primary",
                    f"{kind}: the maximum {dollars(limits[kind][1])} is more than half the primary "
                    f"maximum ({dollars(half)}); a side's wagers hold at most half the primary.",
                    f"limits.{kind}.max_cents",
                )
    rules = settings["rules"]
    for field, value in rules.items():
        _check_rule(table, field, value)


def _check_rule(table: Table, field: str, value: Any) -> None:
    """The table's game decides which values its house rules take."""
    try:
        game_for(table.game).check_rule(field, value)
    except RuleError as refused:
        raise _refuse(refused.code, refused.detail, f"rules.{field}") from None


def _changed(
    table: Table, current: Settings, limits: Mapping[str, Any], rules: Mapping[str, Any]
) -> Settings:
    """What `limits` and `rules` change of `current`; refuses a kind or field the table has not."""
    changed: Settings = {"limits": {}, "rules": {}}
    for kind, pair in limits.items():
        if kind not in current["limits"]:
            raise _refuse("unknown_limit", f"{table.name} has no limit for {kind}.", f"limits.{kind}")
        low, high = pair
        if [low, high] != current["limits"][kind]:
            changed["limits"][kind] = [low, high]
    allowed = rule_fields_of(table)
    for field, value in rules.items():
        if field not in allowed:
            raise _refuse(
                "unknown_house_rule", f"{field} is not a house rule of {table.name}'s game.", f"rules.{field}"
            )
        if value != current["rules"][field] or type(value) is not type(current["rules"][field]):
            changed["rules"][field] = value
    return changed


def _after(current: Settings, changes: Settings) -> Settings:
    return {key: {**current[key], **changes[key]} for key in ("limits", "rules")}


def _previous(current: Settings, changes: Settings) -> Settings:
    return {key: {name: current[key][name] for name in changes[key]} for key in ("limits", "rules")}


def _audit(
    change: TableRuleChange,
    table: Table,
    *,
    event_type: str,
    actor: AuditActor,
    now: dt.datetime,
    before: dict[str, Any],
    after: dict[str, Any],
) -> None:
    record_event(
        event_type=event_type,
        actor=actor,
        table_id=table.pk,
        table_name=table.name,
        subject_type="rule_change",
        subject_id=str(change.pk),
        subject_label=f"rule change #{change.pk} at {table.name}",
        before=before,
        after=after,
        occurred_at=now,
    )


@transaction.atomic
def request_rule_change(
    *,
    table_id: int,
    limits: Mapping[str, tuple[int, int] | list[int]],
    rules: Mapping[str, Any],
    reason: str,
    effective_at: dt.datetime,
    user: AbstractBaseUser,
    actor: AuditActor,
    now: dt.datetime,
) -> TableRuleChange:
    """Ask for new `limits` (by kind, min and max in cents) and/or house `rules` (by field), taking
    effect at `effective_at` (at or after `now`). Only the values that differ are recorded."""
    table, _ = lock_table(table_id=table_id)
    reason = reason.strip()
    if not reason:
        raise _refuse("reason_required", "Give the reason for the change.", "reason")
    if effective_at < now:
        raise _refuse(
            "effective_time_past", "The change takes effect now or at a later time.", "effective_at"
        )
    try:
        check_effective_time(effective_at, now=now)
    except DayOutOfBoundsError as refused:
        raise _refuse(refused.code, refused.message, "effective_at") from None
    open_change = TableRuleChange.objects.filter(table=table, status__in=OPEN_RULE_CHANGE_STATES).first()
    if open_change is not None:
        raise ConflictError(
            "rule_change_open",
            f"{table.name} already has rule change #{open_change.pk} "
            f"({open_change.get_status_display().lower()}); it is decided, applied or withdrawn "
            "before another is requested.",
        )
    current = current_settings(table)
    changes = _changed(table, current, limits, rules)
    if not changes["limits"] and not changes["rules"]:
        raise _refuse("no_change", "Nothing to change: these are the table's current values.", "limits")
    check_settings(table, _after(current, changes))
    change = TableRuleChange.objects.create(
        table=table,
        changes=changes,
        previous=_previous(current, changes),
        reason=reason,
        effective_at=effective_at,
        requested_by_id=user.pk,
        requested_at=now,
    )
    _audit(
        change,
        table,
        event_type="casino.rule_change.requested",
        actor=actor,
        now=now,
        before=change.previous,
        after={**changes, "reason": reason, "effective_at": effective_at.isoformat()},
    )
    return change


def _lock_change(change_id: int) -> tuple[Table, TableRuleChange]:
    """The change's table, then the change (the lock order of `casino.locks`)."""
    table_id = TableRuleChange.objects.filter(pk=change_id).values_list("table_id", flat=True).first()
    if table_id is None:
        raise NotFoundError("not_found", f"There is no rule change {change_id}.")
    table, _ = lock_table(table_id=table_id)
    return table, TableRuleChange.objects.select_for_update(of=("self",)).get(pk=change_id)


def _check_pending(change: TableRuleChange, verb: str) -> None:
    if change.status != RuleChangeStatus.PENDING:
        raise ConflictError(
            "rule_change_not_pending",
            f"Rule change #{change.pk} is {change.get_status_display().lower()}: only a change awaiting "
            f"approval is {verb}.",
        )


def _check_deciding_pit_boss(change: TableRuleChange, user: AbstractBaseUser, verb: str) -> None:
    """Maker-checker: a pit boss decides, and never on a change they requested."""
    if change.requested_by_id == user.pk:
        raise ForbiddenError(
            "approver_is_requester", f"You requested rule change #{change.pk}: another pit boss {verb} it."
        )
    profile = getattr(user, "staff", None)
    if profile is None or profile.role != StaffRole.PIT_BOSS:
        raise ForbiddenError("pit_boss_decides", f"Only a pit boss {verb} a rule change.")


def _apply(change: TableRuleChange, table: Table, *, actor: AuditActor, now: dt.datetime) -> None:
    """Set the table's limits and house rules to the change's values (the caller holds the table's
    lock) and record it, with the values they replace."""
    current = current_settings(table)
    changes: Settings = change.changes
    check_settings(table, _after(current, changes))
    updated = []
    for field, value in changes["rules"].items():
        if field == "blackjack_pays":
            table.blackjack_pays_num, table.blackjack_pays_den = (int(part) for part in value.split(":"))
            updated += ["blackjack_pays_num", "blackjack_pays_den"]
        else:
            setattr(table, field, value)
            updated.append(field)
    if updated:
        table.save(update_fields=updated)
        _price_rules(table)
    for kind, (low, high) in changes["limits"].items():
        TableLimit.objects.filter(table=table, kind=kind).update(min_cents=low, max_cents=high)
    change.status = RuleChangeStatus.APPLIED
    change.applied_at = now
    change.save(update_fields=["status", "applied_at"])
    _audit(
        change,
        table,
        event_type="casino.rule_change.applied",
        actor=actor,
        now=now,
        before=_previous(current, changes),
        after={**changes, "effective_at": change.effective_at.isoformat()},
    )


def _with_rules(table: Table, rules: Mapping[str, Any]) -> Table:
    """An unsaved copy of the table with the house rules of a change set."""
    copy = Table(**{f.attname: getattr(table, f.attname) for f in Table._meta.concrete_fields})
    for field, value in rules.items():
        if field == "blackjack_pays":
            copy.blackjack_pays_num, copy.blackjack_pays_den = (int(part) for part in value.split(":"))
        else:
            setattr(copy, field, value)
    return copy


def _price_rules(table: Table) -> None:
    """Queue (on commit) the paytable report of the table's house rules if it has none."""
    side_bet = side_bet_for(table.game)
    if side_bet is not None:
        side_bet.price_table_rules(table)


@transaction.atomic
def approve_rule_change(
    *, change_id: int, user: AbstractBaseUser, actor: AuditActor, now: dt.datetime
) -> TableRuleChange:
    """A pit boss who did not request it approves the change; it applies at once if its time has come."""
    table, change = _lock_change(change_id)
    _check_pending(change, "approved")
    _check_deciding_pit_boss(change, user, "approves")
    check_settings(table, _after(current_settings(table), change.changes))
    change.status = RuleChangeStatus.APPROVED
    change.decided_by_id = user.pk
    change.decided_at = now
    change.save(update_fields=["status", "decided_by", "decided_at"])
    _audit(
        change,
        table,
        event_type="casino.rule_change.approved",
        actor=actor,
        now=now,
        before={"status": RuleChangeStatus.PENDING},
        after={"status": RuleChangeStatus.APPROVED, "effective_at": change.effective_at.isoformat()},
    )
    if change.effective_at <= now:
        _apply(change, table, actor=actor, now=now)
    elif change.changes["rules"]:
        _price_rules(_with_rules(table, change.changes["rules"]))  # priced before they apply
    return change


@transaction.atomic
def reject_rule_change(
    *, change_id: int, user: AbstractBaseUser, reason: str, actor: AuditActor, now: dt.datetime
) -> TableRuleChange:
    """A pit boss who did not request it rejects the change, with the reason."""
    reason = reason.strip()
    if not reason:
        raise _refuse("reason_required", "Give the reason for rejecting the change.", "reason")
    table, change = _lock_change(change_id)
    _check_pending(change, "rejected")
    _check_deciding_pit_boss(change, user, "rejects")
    change.status = RuleChangeStatus.REJECTED
    change.decided_by_id = user.pk
    change.decided_at = now
    change.rejection_reason = reason
    change.save(update_fields=["status", "decided_by", "decided_at", "rejection_reason"])
    _audit(
        change,
        table,
        event_type="casino.rule_change.rejected",
        actor=actor,
        now=now,
        before={"status": RuleChangeStatus.PENDING},
        after={"status": RuleChangeStatus.REJECTED, "reason": reason},
    )
    return change


@transaction.atomic
def withdraw_rule_change(
    *, change_id: int, user: AbstractBaseUser, actor: AuditActor, now: dt.datetime
) -> TableRuleChange:
    """The requester takes back a change that is still awaiting approval."""
    table, change = _lock_change(change_id)
    _check_pending(change, "withdrawn")
    if change.requested_by_id != user.pk:
        raise ForbiddenError("not_the_requester", "Only the person who requested a change withdraws it.")
    change.status = RuleChangeStatus.WITHDRAWN
    change.decided_at = now
    change.save(update_fields=["status", "decided_at"])
    _audit(
        change,
        table,
        event_type="casino.rule_change.withdrawn",
        actor=actor,
        now=now,
        before={"status": RuleChangeStatus.PENDING},
        after={"status": RuleChangeStatus.WITHDRAWN},
    )
    return change


def apply_due_rule_change(*, table: Table, now: dt.datetime) -> None:
    """Apply the table's approved change whose effective time has come, if there is one.

    A step of a round's opening (`blackjack.services.open_round`), which holds the table's lock
    and asks only when its lock statement found such a change.
    """
    change = (
        TableRuleChange.objects.select_for_update(of=("self",))
        .filter(table=table, status=RuleChangeStatus.APPROVED, effective_at__lte=now)
        .first()
    )
    if change is not None:
        _apply(change, table, actor=RULE_CHANGE_TASK, now=now)


@transaction.atomic
def apply_due_rule_changes(*, now: dt.datetime) -> list[TableRuleChange]:
    """Apply every approved change whose effective time has come (the periodic task). A table busy
    with a round's step is left to the next run, or to its next round's opening."""
    applied = []
    due = (
        TableRuleChange.objects.filter(status=RuleChangeStatus.APPROVED, effective_at__lte=now)
        .order_by("table_id")
        .values_list("pk", "table_id")
    )
    for change_id, table_id in list(due):
        try:
            with transaction.atomic():
                table, _ = lock_table(table_id=table_id)
                change = TableRuleChange.objects.select_for_update(of=("self",)).get(pk=change_id)
                if change.status != RuleChangeStatus.APPROVED:
                    continue  # applied by a round's opening meanwhile
                _apply(change, table, actor=RULE_CHANGE_TASK, now=now)
        except ConflictError:
            continue
        applied.append(change)
    return applied
