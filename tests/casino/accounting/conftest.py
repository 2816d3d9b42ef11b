"""Fixtures of the table-money and shift-report tests: the casino's clock fixed in the day shift
(tests/support/gaming_day.py), and a supervisor pair."""

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from casino.services.provisioning import ProvisionedStaff
from tests.support.gaming_day import Clock, day_shift_clock


@pytest.fixture(autouse=True)
def clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Clock:
    return day_shift_clock(monkeypatch, settings)


@pytest.fixture
def supervisors(
    make_staff: Callable[[str], tuple[ProvisionedStaff, APIClient]],
) -> tuple[APIClient, APIClient]:
    """Two different supervisors: one requests, the other approves."""
    return make_staff("floor_supervisor")[1], make_staff("pit_boss")[1]
