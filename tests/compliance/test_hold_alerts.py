"""A hold outside the expected range is an alert only once the drop reaches
`CASINO_HOLD_ALERT_MIN_DROP_CENTS`: in the shift reports and among the tables to investigate (the
live floor's card: tests/floor/test_live_floor.py)."""

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone

from kernel.gaming_day import gaming_day_and_shift
from reports.figures import DEFAULT_HOLD_ALERT_MIN_DROP_CENTS, hold_outside
from reports.models import ShiftReport
from reports.period import period_figures
from reports.read import shift_report_payload
from table_money.services.accounting import close_table
from tests.support.api import TableActors
from tests.support.live_floor import SYSTEM, open_for_play, staff


@pytest.mark.parametrize(
    ("hold_bp", "drop_cents", "alert"),
    [
        (5_000, DEFAULT_HOLD_ALERT_MIN_DROP_CENTS, True),  # 50 % on the minimum drop
        (5_000, DEFAULT_HOLD_ALERT_MIN_DROP_CENTS - 1, False),  # a cent short of it
        (-2_000, 10_000_000, True),
        (1_500, 10_000_000, False),  # inside 10-20 %
        (1_000, 10_000_000, False),  # the range's own bounds are inside it
        (2_000, 10_000_000, False),
        (None, 10_000_000, False),  # no hold known
        (5_000, None, False),  # no drop known
    ],
)
def test_a_hold_is_an_alert_outside_the_range_on_the_minimum_drop(
    hold_bp: int | None, drop_cents: int | None, alert: bool
) -> None:
    assert hold_outside(hold_bp=hold_bp, drop_cents=drop_cents) is alert


def test_the_default_minimum_is_the_setting(settings: Any) -> None:
    assert settings.CASINO_HOLD_ALERT_MIN_DROP_CENTS == DEFAULT_HOLD_ALERT_MIN_DROP_CENTS == 100_000
    settings.CASINO_HOLD_ALERT_MIN_DROP_CENTS = 0

    assert hold_outside(hold_bp=5_000, drop_cents=1)


def _closed_at_half_hold(make_table: Callable[..., TableActors]) -> None:
    actors = make_table("BJ-01", signed_in=False, pit_name="Pit 1")
    boss = staff("pit_boss", pits=("Pit 1",))
    open_for_play(actors, supervisor=boss, buy_in_cents=20_000)
    # $100 of the $200 bought in came back to the tray: a hold of 50 %, outside the range.
    close_table(table_id=actors.table.pk, total_cents=1_090_000, chips={"100000": 10, "2500": 36},
                supervisor=boss.user, actor=SYSTEM, now=timezone.now())  # fmt: skip


@pytest.mark.django_db
@pytest.mark.parametrize(("minimum", "outliers"), [(100_000, []), (20_000, ["BJ-01"])])
def test_the_shift_report_lists_a_hold_outlier_only_past_the_minimum_drop(
    make_table: Callable[..., TableActors], settings: Any, minimum: int, outliers: list[str]
) -> None:
    settings.CASINO_HOLD_ALERT_MIN_DROP_CENTS = minimum
    _closed_at_half_hold(make_table)
    day, shift = gaming_day_and_shift(timezone.now())

    payload = shift_report_payload(gaming_day=day, shifts=[shift], now=timezone.now())

    [table] = payload["tables"]
    assert table["hold_percent"] == "50.00"
    assert table["hold_outside_range"] is bool(outliers)
    assert [row["table"]["name"] for row in payload["hold_outliers"]] == outliers


@pytest.mark.django_db
@pytest.mark.parametrize(("drop_cents", "investigated"), [(99_999, []), (100_000, ["BJ-01"])])
def test_a_table_is_investigated_for_its_30_day_hold_only_past_the_minimum_drop(
    make_table: Callable[..., TableActors], drop_cents: int, investigated: list[str]
) -> None:
    table = make_table("BJ-01", signed_in=False, pit_name="Pit 1").table
    # One stored shift whose win is 90 % of its drop: far above the range.
    ShiftReport.objects.create(
        table=table, pit_id=table.pit_id, gaming_day=dt.date(2026, 11, 19), shift="day",
        opener_cents=100_000, closer_cents=100_000, drop_cents=drop_cents, estimated_drop_cents=drop_cents,
        markers_cents=0, fills_cents=0, credits_cents=0, win_cents=drop_cents * 9 // 10, rounds_settled=0,
        rounds_voided=0, hands_dealt=0, handle_cents=0, payouts_cents=0, house_net_cents=0,
        theo_win_cents=0, flags=[], complete=True, provisional=False,
        generated_at=dt.datetime(2026, 11, 20, tzinfo=dt.UTC),
    )  # fmt: skip

    period = period_figures(gaming_day=dt.date(2026, 11, 20), shifts=["day"])

    assert [row["table"]["name"] for row in period["hold_investigations"]] == investigated
    [row] = period["tables"]
    assert row["rolling_30_days"]["outside_range"] is bool(investigated)
