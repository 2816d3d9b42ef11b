"""The figures of a shift report, defined once.

Each `Figure` says what one figure of a table's shift report is: its key (the `ShiftReport` field
and the API's key), its unit, how a pit, casino or gaming-day roll-up gets it (`rolls_up`), and
where the documents print it. Everything that lists the figures derives its list from `FIGURES`:
the stored row and its upsert (reports.services), the API's payloads and schema (reports.read,
reports.api), the roll-ups (reports.read), the filing and machine CSVs and the PDF
(reports.documents) and the admin page. The model's fields are checked against it by a test.

`FIGURES` is in the documents' reading order: the count (opener, closer, the drop and the drop it
rests on, markers, fills, credits, win, hold), then the play, then the row's status. The API
mirrors the stored row, in the model's field order (`reports.read.API_ORDER`).

Pure Python: no Django, so the engine-free tests and every layer of the app may read it.
"""

from dataclasses import dataclass
from enum import StrEnum


class Unit(StrEnum):
    CENTS = "cents"  # integer cents; the documents print dollars
    BASIS_POINTS = "basis_points"  # 1 bp = 0.01 %
    PERCENT = "percent"  # text: a basis-points figure as a percentage with two decimals
    COUNT = "count"
    YES_NO = "yes_no"
    TEXT = "text"
    FLAGS = "flags"  # a list of flag names
    MOMENT = "moment"
    EDGE = "edge"  # a decimal fraction of the handle (a wager kind's house edge)


# The units row of the filing CSV, under its header row.
FILING_UNITS: dict[Unit, str] = {
    Unit.CENTS: "USD",
    Unit.PERCENT: "%",
    Unit.COUNT: "count",
    Unit.YES_NO: "yes/no",
}


class RollUp(StrEnum):
    SUM = "sum"  # added up over the complete tables of a roll-up (and over a table's shifts)
    RECOMPUTE = "recompute"  # worked out again from the sums (win, hold, ...): never added up
    NONE = "none"  # the row's own: a roll-up has none


class Section(StrEnum):
    COUNT = "count"  # what the pit counts, and the win and hold that follow from it
    DROP = "drop"  # the counted and the estimated drop, and which one the win rests on
    PLAY = "play"  # the rounds and the wagers
    STATUS = "status"  # the row's flags, when it was stored, whether it is complete


@dataclass(frozen=True, slots=True)
class Figure:
    key: str  # the stored field and the API's key
    label: str  # the PDF's column header
    unit: Unit
    rolls_up: RollUp
    section: Section
    nullable: bool = False
    stored: bool = True  # False: worked out on read from the stored figures
    follows: str = ""  # where a figure worked out on read stands in the API: after this one
    column: str = ""  # its column in the filing CSV ("": not in it)
    machine: bool = False  # a column of the machine CSV
    pdf: bool = False  # a column of the PDF's figure tables
    help: str = ""  # the API schema's description
    choices: tuple[str, ...] = ()


_C, _P, _D, _S = Section.COUNT, Section.PLAY, Section.DROP, Section.STATUS

FIGURES: tuple[Figure, ...] = (
    Figure("opener_cents", "Opener", Unit.CENTS, RollUp.SUM, _C, nullable=True, column="opener",
           machine=True, pdf=True),
    Figure("closer_cents", "Closer", Unit.CENTS, RollUp.SUM, _C, nullable=True, column="closer",
           machine=True, pdf=True),
    Figure("drop_cents", "Drop", Unit.CENTS, RollUp.SUM, _C, column="drop", machine=True, pdf=True),
    Figure("counted_drop_cents", "Counted drop", Unit.CENTS, RollUp.RECOMPUTE, _D, nullable=True,
           column="drop_counted",
           help="The count team's complete soft count (two blind counts that agree); null until there is one."),
    Figure("estimated_drop_cents", "Est. drop", Unit.CENTS, RollUp.SUM, _D, column="drop_estimated",
           pdf=True, help="The buy-ins typed at the terminals."),
    Figure("drop_basis", "Drop basis", Unit.TEXT, RollUp.RECOMPUTE, _D, column="drop_basis",
           help="The drop `drop_cents` and the win are based on.",
           choices=("counted", "estimated", "mixed")),
    Figure("drop_difference_cents", "Counted - est.", Unit.CENTS, RollUp.RECOMPUTE, _D, nullable=True,
           stored=False, follows="counted_drop_cents", column="drop_counted_minus_estimated", pdf=True,
           help="Counted - estimated."),
    Figure("markers_cents", "Markers", Unit.CENTS, RollUp.SUM, _C, column="markers", machine=True),
    Figure("fills_cents", "Fills", Unit.CENTS, RollUp.SUM, _C, column="fills", machine=True, pdf=True),
    Figure("credits_cents", "Credits", Unit.CENTS, RollUp.SUM, _C, column="credits", machine=True,
           pdf=True),
    Figure("win_cents", "Win", Unit.CENTS, RollUp.RECOMPUTE, _C, nullable=True, column="win",
           machine=True, pdf=True),
    Figure("hold_bp", "Hold (bp)", Unit.BASIS_POINTS, RollUp.RECOMPUTE, _C, nullable=True, machine=True,
           help="win / drop in basis points, half to even."),
    Figure("hold_percent", "Hold", Unit.PERCENT, RollUp.RECOMPUTE, _C, nullable=True, stored=False,
           follows="hold_bp", column="hold", machine=True, pdf=True),
    Figure("hold_outside_range", "Hold outside range", Unit.YES_NO, RollUp.RECOMPUTE, _C,
           column="hold_outside_range", machine=True),
    Figure("rounds_settled", "Rounds", Unit.COUNT, RollUp.SUM, _P, column="rounds_settled", machine=True,
           pdf=True),
    Figure("rounds_voided", "Rounds voided", Unit.COUNT, RollUp.SUM, _P, column="rounds_voided",
           machine=True),
    Figure("hands_dealt", "Hands", Unit.COUNT, RollUp.SUM, _P, column="hands_dealt", machine=True,
           pdf=True),
    Figure("handle_cents", "Handle", Unit.CENTS, RollUp.SUM, _P, column="handle", machine=True, pdf=True),
    Figure("payouts_cents", "Payouts", Unit.CENTS, RollUp.SUM, _P, column="payouts", machine=True),
    Figure("house_net_cents", "House net", Unit.CENTS, RollUp.SUM, _P, column="house_net", machine=True,
           pdf=True),
    Figure("win_minus_house_net_cents", "Win - house net", Unit.CENTS, RollUp.RECOMPUTE, _P,
           nullable=True, column="win_minus_house_net", machine=True),
    Figure("theo_win_cents", "Theo", Unit.CENTS, RollUp.SUM, _P, column="theo_win", machine=True,
           pdf=True),
    Figure("unpriced_handle_cents", "Unpriced handle", Unit.CENTS, RollUp.SUM, _P, machine=True,
           help="Handle whose terms have no computed paytable report yet: not in theo."),
    Figure("flags", "Flags", Unit.FLAGS, RollUp.NONE, _S, column="flags", machine=True, pdf=True),
    Figure("generated_at", "Generated at", Unit.MOMENT, RollUp.NONE, _S),
    Figure("complete", "Complete", Unit.YES_NO, RollUp.NONE, _S),
    Figure("provisional", "Provisional", Unit.YES_NO, RollUp.RECOMPUTE, _S,
           help="The shift has not ended, or a count is missing."),
)  # fmt: skip

# The figures of one wager kind in a report (`ShiftReportLine`), in the API's order.
KIND_FIGURES: tuple[Figure, ...] = (
    Figure("wagers", "Wagers", Unit.COUNT, RollUp.SUM, _P, pdf=True),
    Figure("handle_cents", "Handle", Unit.CENTS, RollUp.SUM, _P, machine=True, pdf=True),
    Figure("payouts_cents", "Payouts", Unit.CENTS, RollUp.SUM, _P, machine=True, pdf=True),
    Figure("house_net_cents", "House net", Unit.CENTS, RollUp.RECOMPUTE, _P, pdf=True),
    Figure("theo_win_cents", "Theo", Unit.CENTS, RollUp.SUM, _P, machine=True, pdf=True),
    Figure("unpriced_handle_cents", "Unpriced handle", Unit.CENTS, RollUp.SUM, _P, machine=True, pdf=True,
           help="Handle whose terms have no computed paytable report yet: not in theo."),
    Figure("house_edge", "House edge", Unit.EDGE, RollUp.NONE, _P, nullable=True,
           help="Per unit of priced handle (tables only); unpriced when none is priced."),
)  # fmt: skip

FIGURE: dict[str, Figure] = {figure.key: figure for figure in FIGURES}
KIND_FIGURE: dict[str, Figure] = {figure.key: figure for figure in KIND_FIGURES}


def stored_keys(figures: tuple[Figure, ...] = FIGURES) -> tuple[str, ...]:
    """The keys of the figures a row stores, in definition order."""
    return tuple(figure.key for figure in figures if figure.stored)


def filing_columns() -> tuple[Figure, ...]:
    """The figures of the filing CSV, in its column order."""
    return tuple(figure for figure in FIGURES if figure.column)


def machine_columns() -> tuple[Figure, ...]:
    """The figures of the machine CSV, in its column order."""
    return tuple(figure for figure in FIGURES if figure.machine)


def pdf_columns() -> tuple[Figure, ...]:
    """The figures of the PDF's figure tables, in their column order."""
    return tuple(figure for figure in FIGURES if figure.pdf)


def machine_kind_columns(kinds: tuple[str, ...]) -> tuple[str, ...]:
    """The machine CSV's per-kind columns: `<kind>_<figure>` for each kind, then each figure."""
    return tuple(f"{kind}_{figure.key}" for kind in kinds for figure in KIND_FIGURES if figure.machine)
