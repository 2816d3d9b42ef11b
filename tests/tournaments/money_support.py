"""A tournament run quickly to its prizes for the money, Title 31, report and audit tests: a Squares
tournament of one heat that nobody plays, so every entry scores -630 and the entries share the
places they tie over."""

from collections.abc import Callable
from typing import Any

from tests.support.api import ok, post
from tests.support.gaming_day import Clock

from .conftest import Run, at


def squares_run(create: Callable[..., Run], clock: Clock, **changes: Any) -> Run:
    body: dict[str, Any] = {
        "game": "squares",
        "deal": "individual",
        "settings": {"limit_s": 600},
        "heats": [{"starts_at": at(clock, 65)}],
        "guarantee_cents": 0,
        "added_cents": 0,
    }
    body.update(changes)
    run = create(**body)
    run.file()
    return run


def play_out(run: Run) -> dict[str, Any]:
    """Registration closed, the heat opened and closed unplayed, the results proposed and
    approved: the approved results with their prizes."""
    run.advance(minutes=60)
    run.advance(minutes=8)
    assert run.read()["state"] == "playing_done"
    ok(post(run.staff.director, f"{run.url}results/"), 201)
    return ok(post(run.staff.compliance, f"{run.url}results/approve/"))


def pay(run: Run, prize_id: int, paid_with: str = "cash") -> Any:
    return post(run.staff.cashier, f"/api/v1/prizes/{prize_id}/pay/", {"paid_with": paid_with})
