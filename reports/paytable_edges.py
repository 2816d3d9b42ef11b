"""The house edge of each wager, from the terms its round was dealt under: theoretical win from
stored figures, never from another paytable's or another rule set's.

A round records the paytable version it opened under (`Round.paytable`) and the house rules in
force (`Round.rules`, with the shoe's deck count). The edge of one of its wagers, per unit of
handle:

- a side bet's kind (T17 ... RS): the approved report of that paytable version
  (`PaytableVersion.report`, `house_edge.rows[].house_edge`);
- primary: the same report's basic-strategy house edge with re-splits to the rules' hand limit
  (`primary.basic_strategy_house_edge`, report format 2 on);
- insurance: from the rules alone. The dealer shows an Ace and the bet pays 2 to 1 when the hole
  card is a ten, so with d decks it wins with probability 16d / (52d - 1) and its edge is
  (4d - 1) / (52d - 1): 23/311 (7.395 %) with six decks.

A report is computed for one set of house rules (`report["rules"]`). Its figures price a round
only when the round's rules agree in everything that moves an edge (`EDGE_RULES`: all but the cut
card's penetration and whether insurance is offered). A version has its own report (for its
proposal's rules) and a report for each other rule set a table deals it under (the side-bet app's
`rules_reports`, queued when a table is provisioned or its rules change): the one whose rules
agree prices the round. When none agrees, or none is computed yet, or a report is older than the
primary figure, the kind has no edge: its handle is unpriced, shown apart with the reason, and is
never priced with a figure for other terms (nor as a zero edge).

Edges are exact fractions: a report's float is read as its shortest decimal text. Theoretical
win of a set of wagers = the exact sum of handle x edge, rounded once to the cent, half to even
(half to even, the rounding of the shift reports).
"""

import json
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db.models import Model

from blackjack.models import Round
from casino.engine.wager_kinds import WagerKind

# The house rules (blackjack.mappers.rules_to_json keys) whose difference changes an edge.
EDGE_RULES = (
    "decks",
    "dealer",
    "blackjack_pays",
    "double_any_two",
    "double_after_split",
    "max_hands",
    "split_aces_one_card",
    "resplit_aces",
    "split_by_value",
    "surrender",
)


def insurance_edge(decks: int) -> Fraction:
    """(4d - 1) / (52d - 1): insurance pays 2 to 1 and wins on 16d of the 52d - 1 unseen cards."""
    return Fraction(4 * decks - 1, 52 * decks - 1)


def _fraction(value: object) -> Fraction | None:
    """A report's figure as an exact fraction of its shortest decimal text; None if it is none."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return Fraction(Decimal(repr(value)))


def _rules_text(rules: Mapping[str, Any], names: Iterable[str]) -> str:
    return ", ".join(f"{name.replace('_', ' ')} {rules.get(name)}" for name in names)


@dataclass(frozen=True)
class TermsEdges:
    """The edge of every kind a round of these terms may hold, and why a kind has none."""

    paytable_version: int
    edges: Mapping[str, Fraction]
    no_edge_reason: str = ""  # why kinds outside `edges` (other than insurance) have none
    missing_kinds: Mapping[str, str] = field(default_factory=dict)

    def edge(self, kind: str) -> Fraction | None:
        return self.edges.get(kind)

    def why_no_edge(self, kind: str) -> str:
        return self.missing_kinds.get(kind) or self.no_edge_reason or f"no house edge is known for {kind}"


def terms_edges(
    *, paytable_version: int, report: Mapping[str, Any] | None, round_rules: Mapping[str, Any]
) -> TermsEdges:
    """The edges of a round's terms: its paytable version's stored report and its house rules."""
    edges: dict[str, Fraction] = {}
    decks = round_rules.get("decks")
    if isinstance(decks, int) and not isinstance(decks, bool) and decks > 0:
        edges[WagerKind.INSURANCE.value] = insurance_edge(decks)
    label = f"paytable v{paytable_version}"
    if not report:
        return TermsEdges(paytable_version, edges, f"{label} has no report yet")
    report_rules = report.get("rules") or {}
    differing = [name for name in EDGE_RULES if report_rules.get(name) != round_rules.get(name)]
    if differing:
        return TermsEdges(
            paytable_version,
            edges,
            f"the report of {label} is for other house rules ({_rules_text(report_rules, differing)}; "
            f"the round: {_rules_text(round_rules, differing)})",
        )
    missing: dict[str, str] = {}
    for row in (report.get("house_edge") or {}).get("rows") or []:
        kind, edge = str(row.get("kind")), _fraction(row.get("house_edge"))
        if edge is None:
            missing[kind] = f"the report of {label} gives no house edge for {kind}"
        else:
            edges[kind] = edge
    primary = _fraction((report.get("primary") or {}).get("basic_strategy_house_edge"))
    if primary is None:
        missing[WagerKind.PRIMARY.value] = (
            f"the report of {label} has no primary house edge (report format {report.get('format', 1)})"
        )
    else:
        edges[WagerKind.PRIMARY.value] = primary
    return TermsEdges(paytable_version, edges, f"the report of {label} gives no house edge for it", missing)


class TermsBook:
    """The edges of each (paytable version, house rules) a set of rounds was dealt under, worked
    out once each: one query for the paytables' reports, then `of(paytable_id, rules_text)` with a
    round's `paytable_id` and its `rules` as the database's JSON text (`rules::text`)."""

    def __init__(self, paytable_ids: Collection[int]) -> None:
        # The paytable model is the side-bet app's, reached through the round's foreign key: the
        # core imports no side-bet app (pyproject.toml, import contracts).
        paytable_model = Round._meta.get_field("paytable").related_model
        assert isinstance(paytable_model, type)  # noqa: S101  (a model class, never "self")
        rows = paytable_model._default_manager.filter(pk__in=list(paytable_ids)) if paytable_ids else None
        self.reports: dict[int, tuple[int, Any]] = {
            pk: (version, report)
            for pk, version, report in (
                rows.values_list("pk", "version", "report") if rows is not None else []
            )
        }
        self.paytable_model = paytable_model
        self.other_reports: dict[int, list[Any]] | None = None  # read when a round needs one
        self.known: dict[tuple[int, str], TermsEdges] = {}

    def _others(self, paytable_id: int) -> list[Any]:
        """The computed reports of the versions under other tables' rules (one query, the first
        time a round's rules are not its version's own report's)."""
        if self.other_reports is None:
            self.other_reports = {}
            others = self.paytable_model._meta.get_field("rules_reports").related_model
            assert isinstance(others, type)  # noqa: S101  (a model class, never "self")
            assert issubclass(others, Model)  # noqa: S101
            for pk, report in others._default_manager.filter(
                paytable_id__in=list(self.reports), report__isnull=False
            ).values_list("paytable_id", "report"):
                self.other_reports.setdefault(pk, []).append(report)
        return self.other_reports.get(paytable_id, [])

    def of(self, paytable_id: int, rules_text: str) -> TermsEdges:
        key = (paytable_id, rules_text)
        if key not in self.known:
            version, report = self.reports[paytable_id]
            round_rules = json.loads(rules_text)
            if not _for_rules(report, round_rules):
                report = next(
                    (other for other in self._others(paytable_id) if _for_rules(other, round_rules)),
                    report,
                )
            self.known[key] = terms_edges(paytable_version=version, report=report, round_rules=round_rules)
        return self.known[key]


def _for_rules(report: Mapping[str, Any] | None, round_rules: Mapping[str, Any]) -> bool:
    """Is `report` computed for rules that agree with the round's in everything moving an edge?"""
    rules = (report or {}).get("rules") or {}
    return bool(report) and all(rules.get(name) == (round_rules or {}).get(name) for name in EDGE_RULES)


def round_half_even_cents(amount: Fraction) -> int:
    """An exact amount of cents rounded to the cent, half to even (Python rounds a Fraction so)."""
    return round(amount)
