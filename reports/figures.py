"""The figures of a shift report, computed by the database: a handful of aggregate queries
grouped by table (and wager kind), whatever the number of wagers; Python only combines the
per-table sums.

Where each figure comes from (gaming day and shift as stamped on each record when written):

- estimated drop: the drop account's entries (buy-ins, cash and marker, as typed at the
  terminal); markers: the marker buy-ins.
- counted drop: the complete soft count of the table and shift (two blind tallies that agree; not
  superseded by a correction: `table_money.engine.count.count_result`), when the
  casino counts per shift (`CASINO_SOFT_COUNT_PER`); the drop the win is based on (`drop_basis`)
  is the counted one when it exists, else the estimated one.
- fills / credits: the tray's entries of FILL / CREDIT transactions (approvals, less the
  reversals of voided slips, which are stamped with the slip's own shift).
- opener / closer: the inventory slips of the shift.
- win = drop + credits - fills + (closer - opener) (backoffice-anchors §2.5); null when the
  opener or the closer is missing (0 for an idle table: no count and nothing moved).
- hold = win / drop in basis points (1 bp = 0.01 %), rounded half to even; null when drop is 0.
- rounds settled / voided: the PAYOUT / VOID transactions of the shift; hands dealt: the primary
  settlement lines (one per hand, split hands included) of the rounds settled in the shift.
- handle and payouts per wager kind: the settlement lines of those rounds; house net = handle -
  payouts (the wager-based win), checked against the tray's PAYOUT entries (flag
  `ledger_mismatch` if they ever differ).
- theoretical win: per kind, the exact sum of handle x the house edge of the terms each round was
  dealt under (its paytable version's report and its house rules: reports.paytable_edges),
  rounded once to the cent, half to even. Handle whose terms give no edge (no report yet for the
  round's rules) is unpriced: left out of theo, counted apart (`unpriced_handle_cents`, per kind and
  per table), never priced as a zero edge; a kind with no priced handle has no house edge (null),
  and the table is flagged `theo_incomplete`.
- complete: opener and closer counted and, when the casino counts per shift, the soft count complete
  (or an idle table); only complete tables enter the pit and casino rollups.
- provisional: the shift had not ended at `now`, a count (opener, closer, soft count) is missing,
  or a slip is still pending (reports.status says the same of a whole report, with its reasons).
"""

import datetime as dt
from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, NamedTuple

from django.conf import settings
from django.db import connection
from django.db.models import Count, Q, Sum
from django.utils import timezone

from casino.models import (
    AccountKind,
    InventoryKind,
    LedgerEntry,
    LedgerTransaction,
    MovementKind,
    Table,
    TableInventory,
)
from kernel.gaming_day import shift_bounds
from reports.definition import KIND_FIGURES, stored_keys
from reports.house_edges import kind_sort_key
from reports.models import DropBasis, ShiftReport, ShiftReportLine
from reports.paytable_edges import TermsBook, TermsEdges, round_half_even_cents
from table_money.models import BuyIn, BuyInMethod, ChipSlip, SlipStatus, SoftCount
from table_money.selectors import counted_drops, tables_with_drop_box

BASIS_POINTS = 10_000
# Blackjack holds 10-20 % of the drop (backoffice-anchors §2.5); a setting may say otherwise.
DEFAULT_EXPECTED_HOLD_BP = (1_000, 2_000)
# A hold on a small drop says nothing (a table just opened, one buy-in in the box): below this drop
# a hold outside the range is no alert. A setting may say otherwise.
DEFAULT_HOLD_ALERT_MIN_DROP_CENTS = 100_000


def expected_hold_bp() -> tuple[int, int]:
    low, high = getattr(settings, "CASINO_EXPECTED_HOLD_BP", DEFAULT_EXPECTED_HOLD_BP)
    return int(low), int(high)


def table_win_cents(
    *, drop_cents: int, credits_cents: int, fills_cents: int, inventory_change_cents: int
) -> int:
    """The one win formula: drop + credits - fills + (closer - opener) (backoffice-anchors §2.5).
    The floor's running "win so far" passes the tray as the ledger holds it now in place of the closer."""
    return drop_cents + credits_cents - fills_cents + inventory_change_cents


def ratio_units(*, part: int, whole: int, per_one: int) -> int:
    """part / whole in units of 1 / `per_one`, rounded half to even (Python's `round` of an exact
    fraction): the one rounding of the reports' ratios (hold, theo / handle)."""
    return round(Fraction(part * per_one, whole))


def fixed_point_text(units: int, *, places: int, negative: bool | None = None) -> str:
    """An integer count of 10^-places as a decimal with `places` decimals, exactly:
    `fixed_point_text(-1234, places=2)` -> "-12.34". `negative` prints the sign of the figure
    the units were rounded from, where that rounded to nothing ("-0.000")."""
    whole, rest = divmod(abs(units), 10**places)
    sign = "-" if (units < 0 if negative is None else negative) else ""
    return f"{sign}{whole}.{rest:0{places}d}"


def hold_basis_points(*, win_cents: int | None, drop_cents: int) -> int | None:
    """win / drop in basis points, rounded half to even."""
    if win_cents is None or drop_cents <= 0:
        return None
    return ratio_units(part=win_cents, whole=drop_cents, per_one=BASIS_POINTS)


def hold_percent_text(hold_bp: int | None) -> str | None:
    """Basis points as a percentage with two decimals ("12.34"), exactly."""
    if hold_bp is None:
        return None
    return fixed_point_text(hold_bp, places=2)


def hold_alert_min_drop_cents() -> int:
    return int(getattr(settings, "CASINO_HOLD_ALERT_MIN_DROP_CENTS", DEFAULT_HOLD_ALERT_MIN_DROP_CENTS))


def hold_outside(*, hold_bp: int | None, drop_cents: int | None) -> bool:
    """Whether a hold is an alert (on the floor, in the reports, among the tables to investigate):
    outside the expected range, on a drop of at least `CASINO_HOLD_ALERT_MIN_DROP_CENTS`."""
    if hold_bp is None or drop_cents is None or drop_cents < hold_alert_min_drop_cents():
        return False
    low, high = expected_hold_bp()
    return not low <= hold_bp <= high


@dataclass(frozen=True)
class KindFigures:
    kind: str
    wagers: int
    handle_cents: int
    payouts_cents: int
    house_edge: Decimal | None  # None: none of its handle is priced
    theo_win_cents: int
    unpriced_handle_cents: int

    @property
    def house_net_cents(self) -> int:
        return self.handle_cents - self.payouts_cents


@dataclass(frozen=True)
class TableFigures:
    table_id: int
    pit_id: int
    gaming_day: dt.date
    shift: str
    opener_cents: int | None
    closer_cents: int | None
    drop_cents: int
    markers_cents: int
    fills_cents: int
    credits_cents: int
    win_cents: int | None
    hold_bp: int | None
    hold_outside_range: bool
    rounds_settled: int
    rounds_voided: int
    hands_dealt: int
    handle_cents: int
    payouts_cents: int
    house_net_cents: int
    win_minus_house_net_cents: int | None
    theo_win_cents: int
    unpriced_handle_cents: int
    kinds: tuple[KindFigures, ...]
    flags: tuple[str, ...]
    estimated_drop_cents: int
    counted_drop_cents: int | None
    drop_basis: DropBasis
    complete: bool
    provisional: bool


def _by_table(rows: object, key: str = "table_id") -> dict[int, dict[str, int]]:
    return {row.pop(key): row for row in rows}  # type: ignore[attr-defined]


class _SettledLines(NamedTuple):
    table_id: int
    paytable_id: int
    rules_text: str
    kind: str
    wagers: int
    handle_cents: int
    payouts_cents: int


def _settled_lines(
    *, gaming_day: dt.date, shift: str, table_ids: Collection[int] | None
) -> list[_SettledLines]:
    """The settlement lines of the rounds settled in the shift (their PAYOUT transaction is stamped
    with it), summed by table, terms (paytable and house rules) and kind. SQL: the settlement is
    found by the transaction's own round_id, the round by its primary key for its terms."""
    sql = """
        SELECT t.table_id, r.paytable_id, r.rules::text, l.kind,
               COUNT(*), SUM(l.amount_cents), SUM(l.paid_cents)
          FROM casino_ledgertransaction t
          JOIN casino_round r ON r.id = t.round_id
          JOIN casino_settlement s ON s.round_id = t.round_id
          JOIN casino_settlementline l ON l.settlement_id = s.id
         WHERE t.kind = %s AND t.gaming_day = %s AND t.shift = %s
    """
    params: list[Any] = [MovementKind.PAYOUT.value, gaming_day, shift]
    if table_ids is not None:
        sql += " AND t.table_id = ANY(%s)"
        params.append(list(table_ids))
    with connection.cursor() as cursor:
        cursor.execute(sql + " GROUP BY t.table_id, r.paytable_id, r.rules::text, l.kind", params)
        return [
            _SettledLines(int(a), int(p), str(r), str(k), int(n), int(h), int(d))
            for a, p, r, k, n, h, d in cursor.fetchall()
        ]


def _counted_drops(*, gaming_day: dt.date, shift: str, table_ids: Collection[int] | None) -> dict[int, int]:
    """Each table's counted drop of the shift (`table_money.selectors.counted_drops`: its count
    that counts, complete and not superseded); none when the casino counts per gaming day."""
    if str(getattr(settings, "CASINO_SOFT_COUNT_PER", "shift")) != "shift":
        return {}
    return counted_drops(gaming_day=gaming_day, shift=shift, table_ids=table_ids)


def compute_shift_figures(
    *,
    gaming_day: dt.date,
    shift: str,
    table_ids: Collection[int] | None = None,
    now: dt.datetime | None = None,
) -> list[TableFigures]:
    """Figures for every table of the shift: the given ones, or every active table and every
    table with anything recorded in the shift. `now` decides whether the shift has ended (the
    report is provisional until it has)."""
    ended = shift_bounds(gaming_day, shift)[1] <= (now or timezone.now())
    in_shift = Q(gaming_day=gaming_day, shift=shift)
    if table_ids is not None:
        in_shift &= Q(table_id__in=list(table_ids))

    money = _by_table(
        LedgerEntry.objects.filter(
            transaction__gaming_day=gaming_day,
            transaction__shift=shift,
            transaction__kind__in=[
                MovementKind.BUY_IN,
                MovementKind.FILL,
                MovementKind.CREDIT,
                MovementKind.PAYOUT,
            ],
            account__kind__in=[AccountKind.DROP, AccountKind.TRAY],
            **({"transaction__table_id__in": list(table_ids)} if table_ids is not None else {}),
        )
        .values("transaction__table_id")
        .annotate(
            drop=Sum("amount_cents", filter=Q(account__kind=AccountKind.DROP), default=0),
            fills=Sum(
                "amount_cents",
                filter=Q(account__kind=AccountKind.TRAY, transaction__kind=MovementKind.FILL),
                default=0,
            ),
            credits_out=Sum(
                "amount_cents",
                filter=Q(account__kind=AccountKind.TRAY, transaction__kind=MovementKind.CREDIT),
                default=0,
            ),
            tray_payouts=Sum(
                "amount_cents",
                filter=Q(account__kind=AccountKind.TRAY, transaction__kind=MovementKind.PAYOUT),
                default=0,
            ),
        )
        .order_by(),
        key="transaction__table_id",
    )
    rounds = _by_table(
        LedgerTransaction.objects.filter(in_shift)
        .values("table_id")
        .annotate(
            settled=Count("id", filter=Q(kind=MovementKind.PAYOUT)),
            voided=Count("id", filter=Q(kind=MovementKind.VOID)),
        )
        .order_by()
    )
    lines: dict[int, dict[str, dict[str, int]]] = defaultdict(dict)
    settled = _settled_lines(gaming_day=gaming_day, shift=shift, table_ids=table_ids)
    terms = TermsBook({line.paytable_id for line in settled})
    handle_by_terms: dict[int, list[tuple[TermsEdges, str, int]]] = defaultdict(list)
    for line in settled:
        sums = lines[line.table_id].setdefault(line.kind, {"wagers": 0, "handle": 0, "paid": 0})
        sums["wagers"] += line.wagers
        sums["handle"] += line.handle_cents
        sums["paid"] += line.payouts_cents
        handle_by_terms[line.table_id].append(
            (terms.of(line.paytable_id, line.rules_text), line.kind, line.handle_cents)
        )
    soft_counts = _counted_drops(gaming_day=gaming_day, shift=shift, table_ids=table_ids)
    counts: dict[int, dict[str, TableInventory]] = defaultdict(dict)
    for inventory in TableInventory.objects.filter(in_shift).only(
        "table_id", "kind", "total_cents", "previous_closer_cents"
    ):
        counts[inventory.table_id][inventory.kind] = inventory
    markers = _by_table(
        BuyIn.objects.filter(in_shift, method=BuyInMethod.MARKER)
        .values("table_id")
        .annotate(cents=Sum("amount_cents"))
        .order_by()
    )
    pending = _by_table(
        ChipSlip.objects.filter(in_shift, status=SlipStatus.PENDING)
        .values("table_id")
        .annotate(n=Count("id"))
        .order_by()
    )

    if table_ids is not None:
        tables = Table.objects.filter(pk__in=list(table_ids))
    else:
        seen = set(money) | set(rounds) | set(lines) | set(counts) | set(pending) | set(soft_counts)
        tables = Table.objects.filter(Q(is_active=True) | Q(pk__in=seen))
    return [
        _table_figures(
            table_id=table_id,
            pit_id=pit_id,
            gaming_day=gaming_day,
            shift=shift,
            money=money.get(table_id, {}),
            rounds=rounds.get(table_id, {}),
            lines=lines.get(table_id, {}),
            handle_by_terms=handle_by_terms.get(table_id, []),
            counts=counts.get(table_id, {}),
            counted_drop_cents=soft_counts.get(table_id),
            markers_cents=markers.get(table_id, {}).get("cents", 0),
            pending_slips=pending.get(table_id, {}).get("n", 0),
            ended=ended,
        )
        for table_id, pit_id in tables.order_by("pk").values_list("pk", "pit_id")
    ]


def _table_figures(
    *,
    table_id: int,
    pit_id: int,
    gaming_day: dt.date,
    shift: str,
    money: dict[str, int],
    rounds: dict[str, int],
    lines: dict[str, dict[str, int]],
    handle_by_terms: list[tuple[TermsEdges, str, int]],
    counts: dict[str, TableInventory],
    counted_drop_cents: int | None,
    markers_cents: int,
    pending_slips: int,
    ended: bool,
) -> TableFigures:
    estimated_drop = money.get("drop", 0)
    drop = counted_drop_cents if counted_drop_cents is not None else estimated_drop
    fills = money.get("fills", 0)
    credits = -money.get("credits_out", 0)
    exact_theo: dict[str, Fraction] = defaultdict(Fraction)
    kind_edges: dict[str, set[Fraction]] = defaultdict(set)
    priced: dict[str, int] = defaultdict(int)
    unpriced_handle: dict[str, int] = defaultdict(int)
    for edges, kind, handle_cents in handle_by_terms:
        edge = edges.edge(kind)
        if edge is None:
            unpriced_handle[kind] += handle_cents
            continue
        exact_theo[kind] += handle_cents * edge
        kind_edges[kind].add(edge)
        priced[kind] += handle_cents
    theo = {kind: round_half_even_cents(amount) for kind, amount in exact_theo.items()}
    kinds = tuple(
        KindFigures(
            kind=kind,
            wagers=lines[kind]["wagers"],
            handle_cents=lines[kind]["handle"],
            payouts_cents=lines[kind]["paid"],
            house_edge=_shown_edge(kind_edges[kind], exact_theo=exact_theo[kind], handle=priced[kind]),
            theo_win_cents=theo.get(kind, 0),
            unpriced_handle_cents=unpriced_handle[kind],
        )
        for kind in sorted(lines, key=kind_sort_key)
    )
    unpriced = any(unpriced_handle.values())
    handle = sum(k.handle_cents for k in kinds)
    payouts = sum(k.payouts_cents for k in kinds)
    house_net = handle - payouts
    settled, voided = rounds.get("settled", 0), rounds.get("voided", 0)
    opener = counts.get(InventoryKind.OPENER)
    closer = counts.get(InventoryKind.CLOSER)
    opener_cents = opener.total_cents if opener else None
    closer_cents = closer.total_cents if closer else None

    flags: list[str] = []
    # `rounds` has a row for every table with any ledger transaction in the shift.
    idle = not (rounds or money or kinds or counts or pending_slips)
    win: int | None
    if opener_cents is not None and closer_cents is not None:
        win = table_win_cents(
            drop_cents=drop,
            credits_cents=credits,
            fills_cents=fills,
            inventory_change_cents=closer_cents - opener_cents,
        )
    elif idle:
        win = 0
        flags.append("idle")
    else:
        win = None
    if not idle and opener_cents is None:
        flags.append("no_opener")
    if not idle and closer_cents is None:
        flags.append("no_closer")
    if (
        opener
        and opener.previous_closer_cents is not None
        and opener.previous_closer_cents != opener.total_cents
    ):
        flags.append("opener_differs_from_previous_closer")
    soft_count_required = str(getattr(settings, "CASINO_SOFT_COUNT_PER", "shift")) == "shift"
    if not idle and soft_count_required and counted_drop_cents is None:
        flags.append("no_soft_count")
    if pending_slips:
        flags.append("slips_pending")
    if money.get("tray_payouts", 0) != house_net:
        flags.append("ledger_mismatch")
    if unpriced:
        flags.append("theo_incomplete")
    complete = win is not None and not {"no_opener", "no_closer", "no_soft_count"} & set(flags)
    hold_bp = hold_basis_points(win_cents=win, drop_cents=drop)
    return TableFigures(
        table_id=table_id,
        pit_id=pit_id,
        gaming_day=gaming_day,
        shift=shift,
        opener_cents=opener_cents,
        closer_cents=closer_cents,
        drop_cents=drop,
        markers_cents=markers_cents,
        fills_cents=fills,
        credits_cents=credits,
        win_cents=win,
        hold_bp=hold_bp,
        hold_outside_range=hold_outside(hold_bp=hold_bp, drop_cents=drop),
        rounds_settled=settled,
        rounds_voided=voided,
        hands_dealt=lines.get("primary", {}).get("wagers", 0),
        handle_cents=handle,
        payouts_cents=payouts,
        house_net_cents=house_net,
        win_minus_house_net_cents=win - house_net if win is not None else None,
        theo_win_cents=sum(k.theo_win_cents for k in kinds),
        unpriced_handle_cents=sum(k.unpriced_handle_cents for k in kinds),
        kinds=kinds,
        flags=tuple(flags),
        estimated_drop_cents=estimated_drop,
        counted_drop_cents=counted_drop_cents,
        drop_basis=DropBasis.COUNTED if counted_drop_cents is not None else DropBasis.ESTIMATED,
        complete=complete,
        provisional=not ended or not complete or bool(pending_slips),
    )


def _shown_edge(edges: set[Fraction], *, exact_theo: Fraction, handle: int) -> Decimal | None:
    """The edge a report line shows, to six places: the one edge its priced rounds were settled
    under, or, when they were dealt under several terms, the effective edge (theo / priced handle);
    None when none of its handle is priced (never a zero edge)."""
    if not edges:
        return None
    edge = next(iter(edges)) if len(edges) == 1 else (exact_theo / handle if handle else Fraction(0))
    return (Decimal(edge.numerator) / Decimal(edge.denominator)).quantize(Decimal("0.000001"))


def unsaved_report(figures: TableFigures, *, now: dt.datetime) -> ShiftReport:
    """The report row of a table's figures, not saved: what the upsert stores, and what a running
    shift's report is read from on request."""
    values = {key: getattr(figures, key) for key in stored_keys() if key != "generated_at"}
    return ShiftReport(
        table_id=figures.table_id,
        pit_id=figures.pit_id,
        gaming_day=figures.gaming_day,
        shift=figures.shift,
        **{**values, "flags": list(figures.flags)},
        generated_at=now,
    )


def unsaved_lines(figures: TableFigures, *, report_id: int | None = None) -> list[ShiftReportLine]:
    """The per-kind lines of a table's figures, not saved."""
    owner = {} if report_id is None else {"report_id": report_id}
    return [
        ShiftReportLine(
            **owner, kind=kind.kind, **{key: getattr(kind, key) for key in stored_keys(KIND_FIGURES)}
        )
        for kind in figures.kinds
    ]


def tables_with_activity(*, gaming_day: dt.date, shift: str) -> set[int]:
    """The tables with anything recorded in the shift: a ledger movement, an opener or closer, a
    slip or a soft count not superseded (the tables a report of the shift must have a row for)."""
    return tables_with_drop_box(gaming_day=gaming_day, shifts=[shift]) | set(
        SoftCount.objects.filter(gaming_day=gaming_day, shift=shift, superseded_by__isnull=True)
        .values_list("table_id", flat=True)
        .distinct()
    )
