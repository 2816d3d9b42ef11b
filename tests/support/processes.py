"""Waiting on what a started process does: a condition within a time limit, and whether a process
still runs."""

import time
from collections.abc import Callable
from typing import TypeVar

import psutil
import pytest

T = TypeVar("T")


def wait_for(what: str, check: Callable[[], T | None], *, timeout: float) -> T:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    pytest.fail(f"timed out after {timeout} s waiting for {what}")


def still_running(process: psutil.Process) -> bool:
    """Running, as opposed to gone or exited and waiting to be reaped (a zombie holds nothing)."""
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False
