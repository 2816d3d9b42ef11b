"""Reads of paytable versions (STYLE.md §6): querysets for lists, one row for the detail, and
each version's reports per rule set."""

from collections.abc import Sequence
from typing import Any

from django.db.models import Prefetch, QuerySet

from blackjack.engine.rules import HouseRules
from blackjack.mappers import rules_to_json
from bonus_tie.models import PaytableProposal, PaytableStatus, PaytableVersion, RulesReport

# The versions that have, or should have, a report: a rejected one is never computed.
REPORTED_STATUSES = (PaytableStatus.PROPOSED, PaytableStatus.APPROVED)


def _versions() -> QuerySet[PaytableVersion]:
    return PaytableVersion.objects.select_related(
        "proposed_by", "approved_by", "proposal", "proposal__rejected_by"
    ).prefetch_related(Prefetch("rules_reports", queryset=RulesReport.objects.order_by("pk")))


def _rule_set(rules: dict[str, Any]) -> dict[str, Any]:
    """The house rules that tell one report from another, as staff name them."""
    return {
        "decks": rules["decks"],
        "h17": rules["dealer"] == "H17",
        "surrender": rules["surrender"],
        "blackjack_pays": rules["blackjack_pays"],
    }


def _edges(report: dict[str, Any]) -> dict[str, Any]:
    """The house edge of each wager a report prices: the primary bet's (basic strategy), then each
    bonus kind's, as the report stores them."""
    primary = report.get("primary") or {}
    edges = {"primary": primary.get("basic_strategy_house_edge")} if primary else {}
    edges.update({row["kind"]: row["house_edge"] for row in report["house_edge"]["rows"]})
    return edges


def _report_line(
    rules: dict[str, Any], report: dict[str, Any] | None, *, to_be_computed: bool
) -> dict[str, Any]:
    return {
        "rules": _rule_set(rules),
        "house_rules": rules,
        "status": "ready" if report is not None else ("pending" if to_be_computed else "unpriced"),
        "house_edge": _edges(report) if report is not None else None,
        "flagged": list(report["flagged"]) if report is not None else None,
    }


def list_reports_by_rules(row: PaytableVersion) -> list[dict[str, Any]]:
    """A version's reports, one per set of house rules: its own (for its proposal's rules; the
    default rules for a version older than proposals), then one for each other rule set a table
    deals it under. Each is `ready` with its edges, `pending` while it is to be computed, or
    `unpriced` when it never will be (a rejected version's): the handle it would price stays
    unpriced."""
    try:
        own_rules = row.proposal.rules
    except PaytableProposal.DoesNotExist:
        own_rules = rules_to_json(HouseRules())
    lines = [_report_line(own_rules, row.report, to_be_computed=row.status in REPORTED_STATUSES)]
    lines += [
        _report_line(other.rules, other.report, to_be_computed=True) for other in row.rules_reports.all()
    ]
    return lines


def list_paytable_versions() -> QuerySet[PaytableVersion]:
    """Every version, newest first."""
    return _versions().order_by("-version")


def get_paytable_version(*, version: int) -> PaytableVersion | None:
    return _versions().filter(version=version).first()


def get_version_in_force() -> int | None:
    """The number of the newest approved version: the one the next round of every table uses."""
    return (
        PaytableVersion.objects.filter(status=PaytableStatus.APPROVED)
        .order_by("-version")
        .values_list("version", flat=True)
        .first()
    )


def get_paytable_in_force() -> PaytableVersion | None:
    """The newest approved version: the one the next round of every table uses."""
    return PaytableVersion.objects.filter(status=PaytableStatus.APPROVED).order_by("-version").first()


def list_versions_missing_report(*, statuses: Sequence[str]) -> QuerySet[PaytableVersion]:
    """Versions in `statuses` that have no report yet, oldest first."""
    return _versions().filter(report__isnull=True, status__in=statuses).order_by("version")
