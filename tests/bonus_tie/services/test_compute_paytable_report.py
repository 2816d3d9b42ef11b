"""compute_paytable_report and its Celery task: the review stored as the version's report.

The task function is called directly (STYLE.md §13) on the small shoe: the same path a worker
takes, with the figures checked against the engine's own review.
"""

import billiard
import pytest

from blackjack.engine.rules import DealerRule, HouseRules
from bonus_tie import services
from bonus_tie.engine.kinds import BONUS_KINDS
from bonus_tie.engine.paytable_review import format_review, review_paytable
from bonus_tie.mappers import paytable_for
from bonus_tie.models import PaytableProposal, PaytableStatus, PaytableVersion
from bonus_tie.reports import REPORT_FORMAT, process_map
from bonus_tie.tasks import compute_paytable_report
from tests.bonus_tie.conftest import (
    DEFAULT,
    LOW_PAYS,
    SMALL_SHOE,
    Staff,
    compute,
    events,
    propose,
    reject,
)

pytestmark = pytest.mark.django_db


def run_task(version: int, workers: int = 0) -> dict[str, object]:
    return compute_paytable_report(version=version, composition=list(SMALL_SHOE), workers=workers)


def test_the_task_is_the_one_the_proposal_enqueues() -> None:
    assert compute_paytable_report.name == services.COMPUTE_TASK


def test_the_task_computes_and_stores_the_report(pit_boss: Staff) -> None:
    row = propose(pit_boss, LOW_PAYS, h17=True)

    result = run_task(row.version)

    assert result == {"version": row.version, "computed": True, "flagged": []}
    stored = PaytableVersion.objects.get(version=row.version)
    report = stored.report
    assert report is not None
    assert [r["kind"] for r in report["house_edge"]["rows"]] == [k.value for k in BONUS_KINDS]
    assert report["rules"]["dealer"] == "H17"
    assert report["composition"] == list(SMALL_SHOE)
    assert report["flagged"] == []
    # The figures are the engine's, for the version's pays and rules.
    expected = review_paytable(
        paytable=paytable_for(stored),
        rules=HouseRules(dealer=DealerRule.H17),
        composition=SMALL_SHOE,
    )
    for stored_row, engine_row in zip(report["house_edge"]["rows"], expected.house_edge.rows, strict=True):
        assert stored_row["pays"] == 1
        assert stored_row["win_probability"] == engine_row.win_probability
        assert stored_row["house_edge"] == engine_row.house_edge
        assert stored_row["house_edge"] == pytest.approx(1 - 2 * stored_row["win_probability"])
        assert stored_row["std_error"] == 0.0  # every figure is exact
        assert stored_row["method"] == "basic strategy, exact"
        assert stored_row["std_deviation"] == engine_row.std_deviation
        assert [o["net"] for o in stored_row["outcomes"]] == [1, -1]
        assert sum(o["probability"] for o in stored_row["outcomes"]) == pytest.approx(1.0, abs=1e-15)
    assert report["format"] == REPORT_FORMAT
    assert expected.steering.primary is not None
    assert report["primary"]["basic_strategy_house_edge"] == -expected.steering.primary.basic_resplit
    spread = expected.primary_outcomes
    assert report["primary"]["std_deviation"] == spread.std_deviation
    assert report["primary"]["outcomes_model"] == "basic strategy, exact, one split (no re-split)"
    assert [(o["net"], o["probability"]) for o in report["primary"]["outcomes"]] == [
        (float(net), p) for net, p in spread.outcomes
    ]
    assert [b["kind"] for b in report["steering"]["break_even_pays"]] == [k.value for k in BONUS_KINDS]
    assert [r["steering_edge"] for r in report["steering"]["rows"]] == [
        r.steering_edge for r in expected.steering.rows
    ]
    assert report["text"] == format_review(expected)
    proposal = PaytableProposal.objects.get(paytable=stored)
    assert proposal.flagged is False
    assert proposal.report_computed_at is not None
    (event,) = events("bonus_tie.paytable.report_computed")
    assert event.after is not None
    assert event.after["flagged"] == []
    assert event.actor_kind == "system"


def test_a_bet_the_player_can_steer_into_an_edge_is_flagged(pit_boss: Staff) -> None:
    row = propose(pit_boss, DEFAULT)

    result = run_task(row.version)

    stored = PaytableVersion.objects.get(version=row.version)
    assert stored.report is not None
    flagged = stored.report["flagged"]
    assert flagged  # the default pays on this tiny shoe: steering wins
    assert result["flagged"] == flagged
    assert flagged == [r["label"] for r in stored.report["steering"]["rows"] if r["steering_edge"] > 0]
    assert PaytableProposal.objects.get(paytable=stored).flagged is True


def test_the_task_is_idempotent(pit_boss: Staff) -> None:
    row = propose(pit_boss)
    run_task(row.version)
    first = PaytableVersion.objects.get(version=row.version).report

    again = run_task(row.version)

    assert again == {"version": row.version, "computed": False}
    assert PaytableVersion.objects.get(version=row.version).report == first
    assert len(events("bonus_tie.paytable.report_computed")) == 1


def test_a_decided_version_is_not_computed(pit_boss: Staff, compliance: Staff) -> None:
    row = propose(pit_boss)
    reject(row.version, compliance)

    assert run_task(row.version) == {"version": row.version, "computed": False}
    assert PaytableVersion.objects.get(version=row.version).report is None


def test_worker_processes_give_the_same_report(pit_boss: Staff) -> None:
    serial = propose(pit_boss)
    parallel = propose(pit_boss)
    compute(serial.version, workers=0)

    compute(parallel.version, workers=2)

    one = PaytableVersion.objects.get(version=serial.version).report
    two = PaytableVersion.objects.get(version=parallel.version).report
    assert one is not None
    assert two is not None
    assert one["house_edge"]["rows"] == two["house_edge"]["rows"]
    assert one["steering"]["rows"] == two["steering"]["rows"]
    assert (one["workers"], two["workers"]) == (1, 2)


def _square(x: int) -> int:
    return x * x


def _pool_inside_a_daemon(_: int) -> list[int]:
    with process_map(2) as task_map:
        assert task_map is not None
        return list(task_map(_square, [1, 2, 3]))


def test_the_pool_starts_inside_a_celery_prefork_child() -> None:
    # Celery's prefork children are daemonic: the standard library's pool refuses to start there.
    with billiard.Pool(1) as worker:
        assert worker.map(_pool_inside_a_daemon, [0]) == [[1, 4, 9]]


def test_an_unknown_version_is_not_found() -> None:
    with pytest.raises(services.NotFoundError):
        compute(99)


def test_a_rejected_version_needs_no_report(pit_boss: Staff) -> None:
    version = propose(pit_boss).version
    PaytableVersion.objects.filter(version=version).update(status=PaytableStatus.REJECTED)

    assert compute(version) is None
    assert PaytableVersion.objects.get(version=version).report is None


def test_the_approved_version_one_gets_its_report() -> None:
    # Version 1 is created approved by a migration, without a report (test_version_one_records)
    row = compute(1)

    assert row is not None
    assert row.report is not None
    assert row.status == PaytableStatus.APPROVED
