"""What the live floor shows of each table, read in a fixed number of queries whatever the number
of tables: the tables with their terminal, dealer and limits, then one query per kind of fact
(latest count, open shoe, the play in progress as its game tells it, pending slips, locked dealers) over all
of them, and the shift report's own figures (`reports.figures.compute_shift_figures`) once
per shift the tables are open for.

Figures are those of the shift a table is open for (its latest opener's), else of the current
shift. Win so far = drop + credits - fills + (tray now - opener), where "tray now" is the tray as
the ledger holds it: the counted opener plus every tray movement of the shift since (buy-ins,
fills, credits, settled rounds). Once the closer is counted it is the shift report's win.
"""

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.conf import settings
from django.db.models import Count, F, Func, IntegerField, Q, QuerySet, Sum

from audit.models import AuditEvent
from casino.engine.wager_kinds import WagerKind
from casino.games import PlayOnFloor, game_for, games
from casino.models import (
    AccountKind,
    Dealer,
    InventoryKind,
    LedgerEntry,
    MovementKind,
    Pit,
    Shoe,
    Table,
    TableInventory,
    Terminal,
)
from casino.services.terminals import session_is_live
from floor.compliance.day import ctr_alerts_by_table
from kernel.formatting import local_time
from kernel.gaming_day import gaming_day_and_shift
from reports.figures import (
    TableFigures,
    compute_shift_figures,
    expected_hold_bp,
    hold_basis_points,
    hold_outside,
    hold_percent_text,
    table_win_cents,
)
from reports.house_edges import kind_sort_key
from table_money.models import ChipSlip, SlipStatus

CARDS_PER_DECK = 52
CORE_WAGER_KINDS = frozenset(kind.value for kind in WagerKind)
DEALER_LOCKED_OUT_EVENT = "security.dealer_locked_out"

Period = tuple[dt.date, str]


@dataclass(frozen=True)
class LimitLine:
    kinds: str  # the wager kinds that share these limits, e.g. "T17, T18, T19"
    min_cents: int
    max_cents: int


@dataclass(frozen=True)
class ShoeLine:
    shoe_id: int
    mode: str
    cards_dealt: int
    cards_in_shoe: int
    cut_percent: int
    cut_card_reached: bool

    @property
    def penetration_percent(self) -> int:
        return self.cards_dealt * 100 // self.cards_in_shoe


@dataclass(frozen=True)
class TableCard:
    table: Table
    status: str  # a CSS class of floor.css: open, dealing, idle, closed, alarm
    status_label: str
    limits: tuple[LimitLine, ...]
    dealer: Dealer | None
    dealer_signed_in_at: dt.datetime | None
    shoe: ShoeLine | None
    floor_label: str  # what the table's game calls its play: "Round", "Match"
    play: PlayOnFloor | None
    handles_money: bool  # the game takes money (limits, figures, slips, hold): not a points game
    period: Period
    drop_cents: int
    fills_cents: int
    credits_cents: int
    win_cents: int | None
    win_counted: bool  # the closer is counted: the shift report's win, not a running figure
    hold_text: str | None
    pending_slips: int
    alerts: tuple[str, ...]


@dataclass
class PitGroup:
    pit: Pit
    cards: list[TableCard] = field(default_factory=list)


@dataclass(frozen=True)
class FloorView:
    pits: tuple[PitGroup, ...]
    now: dt.datetime
    current_period: Period

    @property
    def tables(self) -> int:
        return sum(len(group.cards) for group in self.pits)


def _latest_counts(table_ids: Sequence[int]) -> dict[int, TableInventory]:
    """Each table's latest count (counts are written one at a time: the highest id is the latest)."""
    rows = (
        TableInventory.objects.filter(table_id__in=table_ids)
        .order_by("table_id", "-pk")
        .distinct("table_id")
        .only("table_id", "kind", "gaming_day", "shift", "total_cents", "counted_at")
    )
    return {row.table_id: row for row in rows}


def _open_shoes(table_ids: Sequence[int]) -> dict[int, Shoe]:
    rows = (
        Shoe.objects.filter(table_id__in=table_ids, closed_at__isnull=True)
        .annotate(cards_dealt=Func(F("dealt"), function="cardinality", output_field=IntegerField()))
        .only("id", "table_id", "mode", "decks", "cut_card_reached")
    )
    return {row.table_id: row for row in rows}


def _in_periods(periods: dict[Period, list[int]], *, prefix: str = "") -> Q:
    condition = Q(pk__in=[])
    for (gaming_day, shift), ids in periods.items():
        condition |= Q(
            **{f"{prefix}gaming_day": gaming_day, f"{prefix}shift": shift, f"{prefix}table_id__in": ids}
        )
    return condition


def _tray_movements(periods: dict[Period, list[int]]) -> dict[int, int]:
    """What entered (+) or left (-) each tray in its shift, the opener's own transfer aside."""
    rows = (
        LedgerEntry.objects.filter(
            _in_periods(periods, prefix="transaction__"), account__kind=AccountKind.TRAY
        )
        .exclude(transaction__kind=MovementKind.OPENER)
        .values("transaction__table_id")
        .annotate(cents=Sum("amount_cents"))
        .order_by()
    )
    return {row["transaction__table_id"]: int(row["cents"]) for row in rows}


def _pending_slips(periods: dict[Period, list[int]]) -> dict[int, int]:
    rows = (
        ChipSlip.objects.filter(_in_periods(periods), status=SlipStatus.PENDING)
        .values("table_id")
        .annotate(n=Count("id"))
        .order_by()
    )
    return {row["table_id"]: int(row["n"]) for row in rows}


def locked_out_dealers(table_ids: Sequence[int]) -> dict[int, list[Dealer]]:
    """Dealers locked out now, by the table whose terminal took the failed sign-ins that locked
    them (the audit event of the lockout, written at the very moment of `Dealer.locked_at`)."""
    locked = {dealer.pk: dealer for dealer in Dealer.objects.filter(locked_at__isnull=False)}
    if not locked:
        return {}
    events = AuditEvent.objects.filter(
        event_type=DEALER_LOCKED_OUT_EVENT,
        occurred_at__gte=min(dealer.locked_at for dealer in locked.values() if dealer.locked_at),
        subject_id__in=[str(pk) for pk in locked],
        table_id__in=list(table_ids),
    ).values_list("table_id", "subject_id", "occurred_at")
    by_table: dict[int, list[Dealer]] = defaultdict(list)
    for table_id, subject_id, occurred_at in events:
        dealer = locked[int(subject_id)]
        if table_id is not None and dealer.locked_at == occurred_at:
            by_table[int(table_id)].append(dealer)
    return by_table


def _figures(periods: dict[Period, list[int]]) -> dict[int, TableFigures]:
    figures: dict[int, TableFigures] = {}
    for (gaming_day, shift), ids in periods.items():
        for row in compute_shift_figures(gaming_day=gaming_day, shift=shift, table_ids=ids):
            figures[row.table_id] = row
    return figures


def _terminal_alerts(terminal: Terminal | None, *, table_open: bool, now: dt.datetime) -> list[str]:
    if terminal is None:
        return ["No terminal at this table."]
    alerts = []
    if not terminal.is_active:
        alerts.append(f"Terminal {terminal.name} is deactivated.")
    window = dt.timedelta(seconds=settings.CASINO_TERMINAL_SIGN_IN_WINDOW_SECONDS)
    since = terminal.sign_in_failures_since
    if terminal.sign_in_failures and since is not None and now - since < window:
        refusing = terminal.sign_in_failures >= settings.CASINO_TERMINAL_SIGN_IN_FAILURES
        alerts.append(
            f"{terminal.sign_in_failures} failed dealer sign-in{'s' if terminal.sign_in_failures != 1 else ''} "
            f"at the terminal since {local_time(since)}"
            + ("; it refuses sign-ins for now." if refusing else ".")
        )
    # Without a dealer signed in the terminal has nothing to send: the table shows as idle instead.
    if table_open and session_is_live(terminal, now=now):
        silent_for = dt.timedelta(seconds=settings.CASINO_TERMINAL_SILENT_SECONDS)
        if terminal.dealer_seen_at is not None and now - terminal.dealer_seen_at >= silent_for:
            alerts.append(
                f"Terminal silent: no change from it since {local_time(terminal.dealer_seen_at)} "
                f"(over {int(silent_for.total_seconds()) // 60} min)."
            )
    return alerts


def _kind_label(kind: str) -> str:
    """The core's wagers by name; a side bet's by the code on the layout (T17, LS...)."""
    return kind.capitalize() if kind in CORE_WAGER_KINDS else kind


def _limit_lines(table: Table) -> tuple[LimitLine, ...]:
    """The table's limits in the layout's order, kinds with the same limits on one line."""
    kinds_by_limits: dict[tuple[int, int], list[str]] = {}
    for limit in sorted(table.limits.all(), key=lambda limit: kind_sort_key(limit.kind)):
        kinds_by_limits.setdefault((limit.min_cents, limit.max_cents), []).append(_kind_label(limit.kind))
    return tuple(
        LimitLine(kinds=", ".join(kinds), min_cents=low, max_cents=high)
        for (low, high), kinds in kinds_by_limits.items()
    )


def _status(
    table: Table, count: TableInventory | None, *, dealing: bool, dealer: Dealer | None
) -> tuple[str, str]:
    if not table.is_active:
        return "closed", "Deactivated"
    if dealing:
        return "dealing", "Dealing a round"
    if count is None:
        return "closed", "Not opened yet"
    if count.kind == InventoryKind.CLOSER:
        return "closed", f"Closed for the {count.shift} shift"
    if dealer is None:
        return "idle", "Open, idle (no dealer)"
    return "open", "Open"


def _card(
    table: Table,
    *,
    now: dt.datetime,
    current: Period,
    count: TableInventory | None,
    shoe: Shoe | None,
    play: PlayOnFloor | None,
    figures: TableFigures,
    tray_movement: int,
    pending_slips: int,
    locked_dealers: Iterable[Dealer],
    compliance_alerts: Iterable[str] = (),
) -> TableCard:
    terminal: Terminal | None = getattr(table, "terminal", None)
    dealer = terminal.dealer if terminal is not None and session_is_live(terminal, now=now) else None
    dealing = play is not None and play.dealing
    status, status_label = _status(table, count, dealing=dealing, dealer=dealer)
    game = game_for(table.game)
    table_open = table.is_active and count is not None and count.kind == InventoryKind.OPENER

    win_counted = figures.closer_cents is not None and figures.opener_cents is not None
    win: int | None
    if win_counted:
        win = figures.win_cents
    elif figures.opener_cents is not None:
        win = table_win_cents(
            drop_cents=figures.drop_cents,
            credits_cents=figures.credits_cents,
            fills_cents=figures.fills_cents,
            inventory_change_cents=tray_movement,
        )
    else:
        win = None
    hold_bp = hold_basis_points(win_cents=win, drop_cents=figures.drop_cents)

    alerts: list[str] = []
    # A points game's table takes no money: a hold there means nothing.
    if game.handles_money and hold_outside(hold_bp=hold_bp, drop_cents=figures.drop_cents):
        low, high = expected_hold_bp()
        alerts.append(
            f"Hold {hold_percent_text(hold_bp)}% is outside the expected "
            f"{hold_percent_text(low)}-{hold_percent_text(high)}%."
        )
    if table_open and count is not None and (count.gaming_day, count.shift) != current:
        alerts.append(
            f"Opened for the {count.gaming_day} {count.shift} shift, which has ended: "
            "close it for that shift and open it for this one."
        )
    if table.is_active:
        alerts += _terminal_alerts(terminal, table_open=table_open, now=now)
    alerts += [
        f"Dealer {dealer.badge} {dealer.name} locked out after wrong PINs at this table "
        f"({local_time(dealer.locked_at)}): a supervisor unlocks them on the table's page."
        for dealer in locked_dealers
    ]
    if "ledger_mismatch" in figures.flags:
        alerts.append("The tray's ledger and the settled rounds disagree: check the shift report.")
    alerts += compliance_alerts

    return TableCard(
        table=table,
        status=status,
        status_label=status_label,
        limits=_limit_lines(table),
        dealer=dealer,
        dealer_signed_in_at=terminal.dealer_signed_in_at if dealer is not None and terminal else None,
        shoe=ShoeLine(
            shoe_id=shoe.pk,
            mode=shoe.get_mode_display(),
            cards_dealt=shoe.cards_dealt,  # type: ignore[attr-defined]
            cards_in_shoe=shoe.decks * CARDS_PER_DECK,
            cut_percent=table.penetration_percent,
            cut_card_reached=shoe.cut_card_reached,
        )
        if shoe is not None
        else None,
        floor_label=game.floor_label,
        play=play,
        handles_money=game.handles_money,
        period=(figures.gaming_day, figures.shift),
        drop_cents=figures.drop_cents,
        fills_cents=figures.fills_cents,
        credits_cents=figures.credits_cents,
        win_cents=win,
        win_counted=win_counted,
        hold_text=hold_percent_text(hold_bp),
        pending_slips=pending_slips,
        alerts=tuple(alerts),
    )


def floor_view(*, tables: QuerySet[Table], now: dt.datetime) -> FloorView:
    """The pit map of `tables` (already scoped to the viewer: `floor.access.visible_tables`)."""
    rows = list(
        tables.select_related("pit", "pit__casino", "terminal", "terminal__dealer")
        .prefetch_related("limits")
        .order_by("pit__casino__name", "pit__name", "name")
    )
    current = gaming_day_and_shift(now)
    ids = [table.pk for table in rows]
    counts = _latest_counts(ids)
    periods: dict[Period, list[int]] = defaultdict(list)
    for table in rows:
        count = counts.get(table.pk)
        opened_for = (count.gaming_day, count.shift) if count and count.kind == InventoryKind.OPENER else None
        periods[opened_for or current].append(table.pk)
    figures = _figures(periods)
    shoes = _open_shoes(ids)
    plays: dict[int, PlayOnFloor] = {}
    for game in games():
        plays.update(game.plays_on_floor([table.pk for table in rows if table.game == game.kind]))
    trays = _tray_movements(periods)
    pending = _pending_slips(periods)
    locked = locked_out_dealers(ids)
    ctr_alerts = ctr_alerts_by_table(gaming_day=current[0], table_names=[table.name for table in rows])

    groups: dict[int, PitGroup] = {}
    for table in rows:
        group = groups.setdefault(table.pit_id, PitGroup(pit=table.pit))
        group.cards.append(
            _card(
                table,
                now=now,
                current=current,
                count=counts.get(table.pk),
                shoe=shoes.get(table.pk),
                play=plays.get(table.pk),
                figures=figures[table.pk],
                tray_movement=trays.get(table.pk, 0),
                pending_slips=pending.get(table.pk, 0),
                locked_dealers=locked.get(table.pk, ()),
                compliance_alerts=ctr_alerts.get(table.name, ()),
            )
        )
    return FloorView(pits=tuple(groups.values()), now=now, current_period=current)
