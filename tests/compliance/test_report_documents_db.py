"""Filing documents of stored reports: a played shift's PDF rendered to PNG and read back (header,
PROVISIONAL, per-denomination counts, slips with voids, totals), the filing and machine CSVs
through the API, and the month-to-date, year-to-date and 30-day figures against hand sums."""

import csv
import datetime as dt
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pytest
from django.conf import settings as django_settings
from rest_framework.test import APIClient

from audit.context import AuditActor
from casino.models import GameKind, Table
from casino.services.provisioning import ProvisionedStaff
from reports.models import ShiftReport
from reports.period import period_figures
from table_money.services import soft_counts
from tests.casino.accounting import conftest as accounting
from tests.support.api import TableActors, ok
from tests.support.gaming_day import CASINO_ZONE, REPORTS, Clock, PlayedShift, play_the_day_shift, produce

pytestmark = pytest.mark.django_db

# The table-money fixtures: the casino clock at 10:00 on 2026-11-20, and two supervisors.
clock = accounting.clock
supervisors = accounting.supervisors
SCREENSHOT = Path(django_settings.BASE_DIR) / ".local" / "screenshots" / "report-page-1.png"


def pdf_pages(pdf: bytes, *, save_first_page_to: Path | None = None) -> list[str]:
    document = pdfium.PdfDocument(pdf)
    try:
        if save_first_page_to is not None:
            save_first_page_to.parent.mkdir(parents=True, exist_ok=True)
            document[0].render(scale=1.5).to_pil().save(save_first_page_to)
        return [str(page.get_textpage().get_text_range()) for page in document]
    finally:
        document.close()


def csv_sections(lines: list[list[str]]) -> dict[str, list[dict[str, Any]]]:
    """The filing CSV's sections by title: each row as a dict, with the units row under "units"."""
    sections: dict[str, list[dict[str, Any]]] = {}
    for i, line in enumerate(lines):
        if len(line) == 1 and line[0].startswith("["):
            header, units = lines[i + 1], lines[i + 2]
            rows = []
            for row in lines[i + 3 :]:
                if not row:
                    break
                rows.append(
                    {**dict(zip(header, row, strict=True)), "units": dict(zip(header, units, strict=True))}
                )
            sections[line[0].strip("[]")] = rows
    return sections


def test_the_pdf_of_a_running_shift_is_provisional_and_prints_every_figure(
    make_table: Callable[..., TableActors], supervisors: tuple[APIClient, APIClient], settings: Any
) -> None:
    settings.CASINO_LICENSEE, settings.CASINO_PROPERTY = "Example Gaming LLC", "Example Casino"
    play_the_day_shift(make_table, supervisors)
    produce()  # at 10:00 in the casino: the day shift runs until 14:00
    payload = ok(supervisors[0].get(REPORTS, {"gaming_day": "2026-11-20", "shift": "day"}))

    response = supervisors[0].get(
        REPORTS, {"gaming_day": "2026-11-20", "shift": "day"}, HTTP_ACCEPT="application/pdf"
    )

    assert response.status_code == 200
    pages = pdf_pages(response.content, save_first_page_to=SCREENSHOT)
    text = "\n".join(pages)
    for number, page in enumerate(pages, start=1):
        assert "Example Gaming LLC - Example Casino" in page
        assert "Shift report - gaming day 2026-11-20, shift day - time zone America/Los_Angeles" in page
        assert "Generated at 2026-11-20 10:00:00 PST by floor_supervisor-" in page
        assert f"Page {number} of {len(pages)}" in page
        assert "PROVISIONAL" in page
        assert "Figures SHA-256 " in page
    assert "PROVISIONAL: the day shift has not ended" in pages[0]
    # BJ-01 as computed by hand in tests/casino/accounting/test_shift_report.py.
    assert "BJ-01 (Main pit), day shift: win -$45.00, hold -2.65 %" in text
    for figure in ("$11,000.00", "$9,755.00", "$1,700.00", "$2,000.00", "$1,500.00"):
        assert figure in text
    # The opener's $1,000 chips (4) and $25 chips (80), the closer's $1,000 chips (9).
    assert "$1,000.00 4 $4,000.00 9 $9,000.00" in text
    assert "$25.00 80 $2,000.00 2 $50.00" in text
    # The fills in number order, the voided ones marked; the credit.
    assert "Fill #1 $2,000.00 approved" in text
    assert "Fill #2 $500.00 VOID (approved, reversed) wrong table" in text
    assert "Fill #3 $50.00 VOID not needed" in text
    assert "Credit #1 $1,500.00 approved" in text
    # The casino roll-up, as the API reports it.
    # No table's soft count is in: both are listed apart, and the roll-ups add none.
    [casino] = payload["casinos"]
    assert casino["tables_incomplete"] == 2
    assert "Casino total: Main casino" in text
    assert "2 incomplete" in text
    assert "BJ-01 Main pit no soft count $11,000.00 $9,755.00 $1,700.00 $2,000.00 $1,500.00" in text
    for role in ("Pit boss", "Shift manager", "Revenue audit"):
        assert role in pages[-1]
    assert SCREENSHOT.stat().st_size > 10_000


def test_once_counted_and_ended_the_report_is_final_and_its_totals_match_hand_sums(
    make_table: Callable[..., TableActors],
    make_staff: Callable[[str], tuple[ProvisionedStaff, APIClient]],
    supervisors: tuple[APIClient, APIClient],
    clock: Clock,
) -> None:
    play_and_count_the_day_shift(make_table, make_staff, supervisors, clock)

    response = supervisors[0].get(
        REPORTS, {"gaming_day": "2026-11-20", "shift": "day"}, HTTP_ACCEPT="application/pdf"
    )

    text = "\n".join(pdf_pages(response.content))
    assert "PROVISIONAL" not in text
    assert "Generated at 2026-11-20 14:30:00 PST" in text
    # Hand sums: drop 1,700 + 300 = 2,000; win -45 + -5 = -50; hold -50 / 2,000 = -2.50 %;
    # opener 11,000 + 5,000; closer 9,755 + 4,695; fills 2,000; credits 1,500.
    assert (
        "day Casino total: Main casino $16,000.00 $14,450.00 $2,000.00 (counted) $2,000.00 $0.00 "
        "$2,000.00 $1,500.00 -$50.00 -2.50 % !"
    ) in text
    assert "day Pit total: Main pit $11,000.00 $9,755.00 $1,700.00 (counted)" in text
    assert "Incomplete tables" not in text


def play_and_count_the_day_shift(
    make_table: Callable[..., TableActors],
    make_staff: Callable[[str], tuple[ProvisionedStaff, APIClient]],
    supervisors: tuple[APIClient, APIClient],
    clock: Clock,
) -> PlayedShift:
    """The day shift played, then at 14:30 (it ended at 14:00) both tables' drop boxes counted
    and signed by two count-team members, and the reports stored."""
    played = play_the_day_shift(make_table, supervisors)
    clock.set(dt.datetime(2026, 11, 20, 14, 30, tzinfo=CASINO_ZONE))
    counter, witness = make_staff("count_team")[0], make_staff("count_team")[0]
    # The drop boxes hold the cash buy-ins; BJ-01's marker is counted as a total.
    for table, hundreds, markers in ((played.main.table, 7, 100_000), (played.side.table, 3, 0)):
        count = soft_counts.record_soft_count(
            table_id=table.pk,
            gaming_day=dt.date(2026, 11, 20),
            shift="day",
            currency={"10000": hundreds},
            markers_cents=markers,
            user=counter.user,
            actor=AuditActor(kind="user", user_id=counter.user.pk, username=counter.user.get_username()),
            now=clock(),
        )
        soft_counts.record_soft_count_tally(
            count_id=count.pk,
            currency={"10000": hundreds},
            markers_cents=markers,
            user=witness.user,
            actor=AuditActor(kind="user", user_id=witness.user.pk, username=witness.user.get_username()),
            now=clock(),
        )
    produce()
    return played


def characters_off_the_page(pdf: bytes, *, save_pages_to: str) -> list[tuple[int, str]]:
    """(page number, character) of every character drawn wholly or partly beyond the page's
    right or bottom edge (clipped when printed); each page is saved as `save_pages_to` % number."""
    Path(save_pages_to).parent.mkdir(parents=True, exist_ok=True)
    document = pdfium.PdfDocument(pdf)
    off: list[tuple[int, str]] = []
    try:
        for number, page in enumerate(document, start=1):
            page.render(scale=1.5).to_pil().save(save_pages_to % number)
            width, _ = page.get_size()
            text = page.get_textpage()
            for index in range(text.count_chars()):
                _left, bottom, right, _top = text.get_charbox(index)
                if right > width or bottom < 0:
                    off.append((number, text.get_text_range(index, 1)))
    finally:
        document.close()
    return off


def test_the_pdf_of_a_day_keeps_every_column_on_the_page_and_names_its_roll_ups_once(
    make_table: Callable[..., TableActors],
    make_staff: Callable[[str], tuple[ProvisionedStaff, APIClient]],
    supervisors: tuple[APIClient, APIClient],
    clock: Clock,
) -> None:
    played = play_and_count_the_day_shift(make_table, make_staff, supervisors, clock)
    # Every flag a complete table can carry at once: the longest Flags cell there is.
    flags = ["opener_differs_from_previous_closer", "slips_pending", "ledger_mismatch", "theo_incomplete"]
    ShiftReport.objects.filter(table=played.main.table).update(flags=flags)

    response = supervisors[0].get(
        REPORTS, {"gaming_day": "2026-11-20", "shift": "day"}, HTTP_ACCEPT="application/pdf"
    )

    assert (
        characters_off_the_page(
            response.content, save_pages_to=str(SCREENSHOT.parent / "report-flags-page-%d.png")
        )
        == []
    )
    text = "\n".join(pdf_pages(response.content))
    assert "Pit total: Main pit" in text
    assert "Casino total: Main casino" in text
    assert "Pit Main pit" not in text
    assert "Casino Main casino" not in text
    # The flags as words, wrapped within their column.
    words = " ".join(text.split())
    assert (
        "$4.48 opener differs from previous closer; slips pending; ledger mismatch; theo incomplete" in words
    )


def test_a_gaming_day_under_way_names_its_running_shift_as_the_last_one_included(
    make_table: Callable[..., TableActors], supervisors: tuple[APIClient, APIClient]
) -> None:
    play_the_day_shift(make_table, supervisors)
    produce()  # at 10:00 in the casino: the day shift runs; swing and grave have not begun

    response = supervisors[0].get(REPORTS, {"gaming_day": "2026-11-20"}, HTTP_ACCEPT="application/pdf")

    words = " ".join("\n".join(pdf_pages(response.content)).split())
    assert "(from 2026-01-01) through 2026-11-20 day" in words
    assert "through 2026-11-20 grave" not in words
    assert "the 30 gaming days from 2026-10-22 through 2026-11-20 day" in words


def test_the_filing_csv_has_units_and_dollars_and_the_machine_csv_keeps_cents(
    make_table: Callable[..., TableActors], supervisors: tuple[APIClient, APIClient], clock: Clock
) -> None:
    play_the_day_shift(make_table, supervisors)
    produce()
    query = {"gaming_day": "2026-11-20", "shift": "day"}

    filing = supervisors[1].get(REPORTS, query, HTTP_ACCEPT="text/csv")
    machine = supervisors[1].get(REPORTS, {**query, "format": "csv-machine"})

    assert filing.status_code == 200
    assert filing["Content-Type"] == "text/csv; charset=utf-8"
    lines = list(csv.reader(io.StringIO(filing.content.decode())))
    assert lines[0] == ["report", "Shift report"]
    assert lines[7][0] == "generated_by"
    assert lines[7][1].startswith("pit_boss-")
    assert lines[10] == ["status", "Provisional"]
    assert lines[11] == [
        "provisional_reasons",
        "the day shift has not ended; BJ-02 day: no soft count; BJ-01 day: no soft count",
    ]
    sections = csv_sections(lines)
    figures = [
        *sections["Shifts: complete tables, pit and casino roll-ups"],
        *sections["Shifts: incomplete tables (not in the roll-ups)"],
    ]
    units = figures[0]["units"]
    assert units["drop"] == units["win"] == units["fills"] == "USD"
    assert (units["hold"], units["rounds_settled"]) == ("%", "count")
    main = next(row for row in figures if row["table"] == "BJ-01")
    assert (main["drop"], main["fills"], main["credits"], main["win"], main["hold"]) == (
        "1700.00",
        "2000.00",
        "1500.00",
        "-45.00",
        "-2.65",
    )
    slips = {row["number"]: row for row in sections["Fill and credit slips"] if row["kind"] == "fill"}
    assert [slips[n]["status"] for n in ("1", "2", "3")] == ["approved", "VOID (approved, reversed)", "VOID"]
    assert slips["2"]["amount"] == "500.00"
    denominations = sections["Inventories by denomination"]
    assert {
        "table": "BJ-01",
        "shift": "day",
        "kind": "opener",
        "denomination": "1000.00",
        "chips": "4",
    }.items() <= (
        next(r for r in denominations if r["kind"] == "opener" and r["denomination"] == "1000.00").items()
    )
    assert machine.status_code == 200
    assert machine["Content-Disposition"] == 'attachment; filename="shift-report-2026-11-20-day.machine.csv"'
    machine_rows = list(csv.DictReader(io.StringIO(machine.content.decode())))
    assert next(r for r in machine_rows if r["table"] == "BJ-01")["win_cents"] == "-4500"


def _stored(table: Table, day: str, shift: str, *, drop: int, win: int | None) -> None:
    ShiftReport.objects.create(
        table=table,
        pit_id=table.pit_id,
        gaming_day=dt.date.fromisoformat(day),
        shift=shift,
        opener_cents=100_000,
        closer_cents=None if win is None else 100_000,
        drop_cents=drop,
        estimated_drop_cents=drop,
        markers_cents=0,
        fills_cents=0,
        credits_cents=0,
        win_cents=win,
        rounds_settled=0,
        rounds_voided=0,
        hands_dealt=0,
        handle_cents=0,
        payouts_cents=0,
        house_net_cents=0,
        theo_win_cents=0,
        flags=[] if win is not None else ["no_closer"],
        complete=win is not None,
        provisional=False,
        generated_at=dt.datetime(2026, 11, 21, tzinfo=dt.UTC),
    )


def test_month_and_year_to_date_and_the_30_day_hold_match_hand_sums(
    make_table: Callable[..., TableActors],
) -> None:
    first = make_table("BJ-01", pit_name="Main pit", signed_in=False).table
    second = make_table("SP-01", pit_name="Main pit", signed_in=False).table
    Table.objects.filter(pk=second.pk).update(game=GameKind.SPECIAL_POINTS)
    _stored(first, "2025-12-30", "day", drop=100_000, win=99_999)  # before the year
    _stored(first, "2026-01-05", "day", drop=200_000, win=30_000)  # year only
    _stored(first, "2026-10-25", "swing", drop=100_000, win=50_000)  # year and 30 days
    _stored(first, "2026-11-02", "day", drop=300_000, win=45_000)
    _stored(first, "2026-11-10", "grave", drop=80_000, win=None)  # incomplete: counted apart
    _stored(first, "2026-11-20", "day", drop=100_000, win=15_000)
    _stored(first, "2026-11-20", "swing", drop=100_000, win=-90_000)  # after the report's shift
    _stored(second, "2026-11-19", "day", drop=200_000, win=30_000)

    period = period_figures(gaming_day=dt.date(2026, 11, 20), shifts=["day"])

    by_table = {t["table"]["name"]: t for t in period["tables"]}
    one = by_table["BJ-01"]
    assert one["game"] == "Tie-bonus blackjack"
    assert one["month_to_date"] == {
        "shifts": 3,
        "shifts_incomplete": 1,
        "drop_cents": 400_000,
        "win_cents": 60_000,
        "hold_bp": 1_500,
        "hold_percent": "15.00",
    }
    assert one["year_to_date"] == {
        "shifts": 5,
        "shifts_incomplete": 1,
        "drop_cents": 700_000,
        "win_cents": 140_000,
        "hold_bp": 2_000,
        "hold_percent": "20.00",
    }
    # 2026-10-22 to 2026-11-20: 110,000 / 500,000 = 22 %, above the 10-20 % expected.
    assert (one["rolling_30_days"]["hold_bp"], one["rolling_30_days"]["outside_range"]) == (2_200, True)
    assert by_table["SP-01"]["rolling_30_days"]["outside_range"] is False
    assert [(f["table"]["name"], f["hold_percent"]) for f in period["hold_investigations"]] == [
        ("BJ-01", "22.00")
    ]
    games = {g["game"]: g for g in period["games"]}
    assert games["Tie-bonus blackjack"]["month_to_date"]["win_cents"] == 60_000
    assert games["Special-card points"]["year_to_date"]["drop_cents"] == 200_000
    # The whole gaming day reaches its grave shift: the swing shift's loss now counts.
    whole_day = period_figures(
        gaming_day=dt.date(2026, 11, 20),
        shifts=["day", "swing", "grave"],
        now=dt.datetime(2026, 11, 21, 7, 0, tzinfo=CASINO_ZONE),  # the day and its grave shift are over
    )
    assert {t["table"]["name"]: t for t in whole_day["tables"]}["BJ-01"]["month_to_date"]["win_cents"] == (
        60_000 - 90_000
    )
