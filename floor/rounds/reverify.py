"""Re-verify a tie-bonus round: replay its stored events through the engine, from the seats, house
rules, paytable and aggregate limit it opened with, settle the replay anew, and hold the result
line by line against the stored settlement and the round's ledger movements.

`compare_settlement` is pure: it takes the stored settlement as plain values (`StoredSettlement`),
so whatever is stored, or a copy of it, can be held against a recomputation.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from blackjack.engine import round as engine
from blackjack.engine.settlement import Line, settle, void_settlement
from blackjack.engine.settlement import Settlement as EngineSettlement
from blackjack.models import Round, RoundState, Settlement
from blackjack.selectors import round_ledger_cents
from casino.engine.errors import RuleError
from casino.models import AccountKind, MovementKind
from casino.side_bets import side_bet_for, wager_kinds
from floor.rounds.story import replayed_state


@dataclass(frozen=True)
class StoredLine:
    seat: int
    hand: int
    kind: str
    amount_cents: int
    result: str
    win_cents: int
    paid_cents: int

    @property
    def key(self) -> tuple[int, int, str]:
        return (self.seat, self.hand, self.kind)


@dataclass(frozen=True)
class StoredSettlement:
    wagered_cents: int
    paid_cents: int
    house_net_cents: int
    aggregate_limit_applied: bool
    aggregate_reduction_cents: int
    lines: tuple[StoredLine, ...]


@dataclass(frozen=True)
class LineCheck:
    """One wager's settlement line: stored and recomputed (None when one side has no such line)."""

    seat: int
    hand: int
    kind: str
    stored: StoredLine | None
    recomputed: StoredLine | None

    @property
    def matches(self) -> bool:
        return self.stored == self.recomputed


@dataclass(frozen=True)
class FigureCheck:
    """One figure of the round: what is stored against what the replay gives."""

    label: str
    stored: int | bool | str | None
    recomputed: int | bool | str | None
    money: bool = True

    @property
    def matches(self) -> bool:
        return self.stored == self.recomputed


@dataclass(frozen=True)
class Verdict:
    lines: tuple[LineCheck, ...]
    figures: tuple[FigureCheck, ...]
    problem: str = ""  # why the round could not be replayed or compared at all
    note: str = ""  # what was compared, when there is no settlement to compare

    @property
    def matches(self) -> bool:
        return (
            not self.problem and all(c.matches for c in self.lines) and all(c.matches for c in self.figures)
        )

    @property
    def differing_lines(self) -> tuple[LineCheck, ...]:
        return tuple(line for line in self.lines if not line.matches)

    @property
    def differing_figures(self) -> tuple[FigureCheck, ...]:
        return tuple(figure for figure in self.figures if not figure.matches)


def stored_settlement_of(settlement: Settlement) -> StoredSettlement:
    return StoredSettlement(
        wagered_cents=settlement.wagered_cents,
        paid_cents=settlement.paid_cents,
        house_net_cents=settlement.house_net_cents,
        aggregate_limit_applied=settlement.aggregate_limit_applied,
        aggregate_reduction_cents=settlement.aggregate_reduction_cents,
        lines=tuple(
            StoredLine(line.seat, line.hand, line.kind, line.amount_cents, line.result, line.win_cents,
                       line.paid_cents)
            for line in settlement.lines.order_by("seat", "hand", "pk")
        ),
    )  # fmt: skip


def _recomputed_line(line: Line) -> StoredLine:
    return StoredLine(
        line.seat,
        line.hand,
        str(line.kind),
        line.amount_cents,
        str(line.result),
        line.win_cents,
        line.paid_cents,
    )


def compare_settlement(*, stored: StoredSettlement, recomputed: EngineSettlement) -> tuple[
    tuple[LineCheck, ...], tuple[FigureCheck, ...]
]:  # fmt: skip
    """Every line of either settlement, matched on (seat, hand, kind) and in seat order, and the
    settlement's totals."""
    stored_lines = {line.key: line for line in stored.lines}
    recomputed_lines = {line.key: line for line in map(_recomputed_line, recomputed.lines)}
    kinds = [str(kind) for kind in wager_kinds()]
    keys = sorted(
        stored_lines.keys() | recomputed_lines.keys(),
        key=lambda key: (key[0], key[1], kinds.index(key[2]) if key[2] in kinds else len(kinds), key[2]),
    )
    lines = tuple(
        LineCheck(seat, hand, kind, stored_lines.get((seat, hand, kind)), recomputed_lines.get((seat, hand, kind)))
        for seat, hand, kind in keys
    )  # fmt: skip
    figures = (
        FigureCheck("Wagered", stored.wagered_cents, recomputed.wagered_cents),
        FigureCheck("Paid to players", stored.paid_cents, recomputed.paid_cents),
        FigureCheck("House net", stored.house_net_cents, recomputed.house_net_cents),
        FigureCheck(
            "Aggregate limit applied",
            _yes_no(stored.aggregate_limit_applied),
            _yes_no(recomputed.aggregate_limit_applied),
            money=False,
        ),
        FigureCheck("Aggregate limit reduction", stored.aggregate_reduction_cents, recomputed.aggregate_reduction_cents),
    )  # fmt: skip
    return lines, figures


def _yes_no(value: bool) -> str:
    return "yes" if value else "no"


def _ledger_figures(
    ledger: Mapping[tuple[str, str], int], *, staked_cents: int, closing: Iterable[tuple[str, str, str, int]]
) -> tuple[FigureCheck, ...]:
    staked = FigureCheck(
        "Ledger: staked by players", ledger.get((MovementKind.WAGER, AccountKind.WAGERS), 0), staked_cents
    )
    return (
        staked,
        *(
            FigureCheck(label, ledger.get((movement, account), 0), cents)
            for label, movement, account, cents in closing
        ),
    )


def reverify_round(round_: Round) -> Verdict:
    """Replay and settle the round anew and compare: a settled round with its settlement and its
    ledger; a voided one with the wagers the ledger returned; an open one with its stored state."""
    try:
        state = replayed_state(round_)
    except (RuleError, ValueError, KeyError) as error:
        return Verdict((), (), problem=f"The stored events do not replay: {error}")
    ledger = round_ledger_cents(round_=round_)
    staked = engine.staked_cents(state)
    if round_.state == RoundState.SETTLED:
        return _reverify_settled(round_, state, ledger, staked)
    if round_.state == RoundState.VOID:
        try:
            returned = void_settlement(state)
        except RuleError as error:
            return Verdict((), (), problem=f"The replayed round cannot be voided: {error}")
        figures = _ledger_figures(
            ledger,
            staked_cents=staked,
            closing=[
                ("Ledger: returned to players", MovementKind.VOID, AccountKind.PATRONS, returned.paid_cents)
            ],
        )
        return Verdict((), figures, note="The round was voided: every wager staked is returned in full.")
    figures = (
        FigureCheck("State after the replay", round_.state, str(state.phase), money=False),
        *_ledger_figures(ledger, staked_cents=staked, closing=[]),
    )
    return Verdict(
        (), figures, note="The round is not settled yet: its state and stakes so far are compared."
    )


def _reverify_settled(
    round_: Round, state: engine.RoundState, ledger: Mapping[tuple[str, str], int], staked: int
) -> Verdict:
    settlement = Settlement.objects.filter(round=round_).first()
    if settlement is None:
        return Verdict((), (), problem="The round is marked settled but no settlement is stored.")
    adapter = side_bet_for(round_.table.game)
    offer = adapter.terms_of(round_.paytable) if adapter else None
    try:
        recomputed = settle(state, side_bet=offer, aggregate_limit_cents=round_.aggregate_limit_cents)
    except (RuleError, ValueError) as error:
        return Verdict((), (), problem=f"The replayed round cannot be settled: {error}")
    lines, figures = compare_settlement(stored=stored_settlement_of(settlement), recomputed=recomputed)
    ledger_figures = _ledger_figures(
        ledger,
        staked_cents=staked,
        closing=[
            ("Ledger: paid to players", MovementKind.PAYOUT, AccountKind.PATRONS, recomputed.paid_cents),
            (
                "Ledger: to the table's tray",
                MovementKind.PAYOUT,
                AccountKind.TRAY,
                recomputed.house_net_cents,
            ),
        ],
    )
    return Verdict(lines, (*figures, *ledger_figures))
