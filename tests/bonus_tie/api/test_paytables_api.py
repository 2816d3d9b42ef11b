"""The paytable endpoints: propose, read, approve, reject, as staff clients call them."""

from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from audit.models import AuditEvent
from bonus_tie.models import PaytableStatus, PaytableVersion, RulesReport
from bonus_tie.services import compute_rules_report
from casino.models import StaffProfile
from casino.services.provisioning import provision_table
from tests.bonus_tie.conftest import (
    DEFAULT,
    LOW_PAYS,
    SMALL_SHOE,
    SYSTEM,
    Staff,
    compute,
    events,
    reject,
    state_of_paytables,
)
from tests.support.api import TableActors, post

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.bonus_tie.api.urls")]

PAYTABLES = "/api/v1/paytables/"


def propose_api(by: Staff, body: dict[str, Any] | None = None) -> dict[str, Any]:
    response = post(by.client, PAYTABLES, body or {"pays": LOW_PAYS})
    assert response.status_code == 201, response.json()
    return dict(response.json())


def approve_api(client: APIClient, version: int, body: dict[str, Any] | None = None, **kw: Any) -> Any:
    return post(client, f"{PAYTABLES}{version}/approve/", body, **kw)


def assert_problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/problem+json"
    body = dict(response.json())
    assert body["code"] == code
    return body


# --- propose and read --------------------------------------------------------------------------


def test_a_pit_boss_proposes_and_staff_read_it(pit_boss: Staff, staff: Callable[[str], Staff]) -> None:
    body = propose_api(pit_boss, {"pays": {**DEFAULT, "T21": 120}, "decks": 8, "h17": True})

    assert body["version"] == 2
    assert body["status"] == "proposed"
    assert body["in_force"] is False
    assert body["pays"] == {**DEFAULT, "T21": 120}
    assert list(body["pays"]) == ["T17", "T18", "T19", "T20", "T21", "TBJ", "LS", "RS"]
    assert (body["rules"]["decks"], body["rules"]["dealer"], body["rules"]["blackjack_pays"]) == (
        8,
        "H17",
        "3:2",
    )
    assert body["proposed_by"] == pit_boss.user.get_username()
    assert (body["report_status"], body["report"], body["flagged"]) == ("pending", None, None)
    assert (body["approved_by"], body["approved_at"], body["rejected_by"]) == (None, None, None)

    reader = staff("floor_supervisor").client
    assert reader.get(f"{PAYTABLES}2/").json() == body
    listed = reader.get(PAYTABLES).json()
    assert [(row["version"], row["status"], row["in_force"]) for row in listed] == [
        (2, "proposed", False),
        (1, "approved", True),
    ]
    assert listed[1]["report_status"] == "none"


def test_the_report_shows_once_computed(pit_boss: Staff) -> None:
    version = propose_api(pit_boss)["version"]
    compute(version)

    body = pit_boss.client.get(f"{PAYTABLES}{version}/").json()

    assert body["report_status"] == "ready"
    assert body["flagged"] == []
    rows = body["report"]["house_edge"]["rows"]
    assert [row["kind"] for row in rows] == ["T17", "T18", "T19", "T20", "T21", "TBJ", "LS", "RS"]
    assert set(rows[0]) == {
        "kind",
        "pays",
        "win_probability",
        "true_odds",
        "house_edge",
        "std_deviation",
        "outcomes",
        "std_error",
        "method",
    }
    assert {row["std_error"] for row in rows} == {0.0}  # every figure is exact
    assert body["report"]["steering"]["rows"][0]["label"] == "T17"
    assert "Flagged: none" in body["report"]["text"]


def edges_of(report: dict[str, Any]) -> dict[str, Any]:
    """The edges a stored report prices each wager kind at, primary first."""
    primary = {"primary": report["primary"]["basic_strategy_house_edge"]} if report["primary"] else {}
    return {**primary, **{row["kind"]: row["house_edge"] for row in report["house_edge"]["rows"]}}


def test_a_proposal_under_late_surrender_lists_its_report_with_its_edges_once_computed(
    pit_boss: Staff,
) -> None:
    body = propose_api(pit_boss, {"pays": LOW_PAYS, "decks": 8, "h17": True, "surrender": True})
    version = body["version"]
    compute(version)

    computed = pit_boss.client.get(f"{PAYTABLES}{version}/").json()

    assert body["rules"]["surrender"] is True
    [proposed] = body["reports_by_rules"]
    assert proposed["rules"] == {"decks": 8, "h17": True, "surrender": True, "blackjack_pays": "3:2"}
    assert (proposed["status"], proposed["house_edge"], proposed["flagged"]) == ("pending", None, None)
    [ready] = computed["reports_by_rules"]
    stored = PaytableVersion.objects.get(version=version).report
    assert stored is not None
    assert stored["rules"]["surrender"] is True  # priced under surrender, as proposed
    assert ready["status"] == "ready"
    assert ready["house_edge"] == edges_of(stored)
    assert list(ready["house_edge"])[-8:] == ["T17", "T18", "T19", "T20", "T21", "TBJ", "LS", "RS"]
    assert ready["flagged"] == stored["flagged"]


def test_a_version_lists_a_report_for_each_rule_set_a_table_deals_it_under(
    staff: Callable[[str], Staff],
) -> None:
    provision_table(name="BJ-09", decks=8, h17=True, surrender=True, now=timezone.now())
    reader = staff("floor_supervisor").client

    queued = reader.get(f"{PAYTABLES}1/").json()["reports_by_rules"]
    [table_rules] = RulesReport.objects.filter(paytable__version=1)
    compute_rules_report(report_id=table_rules.pk, actor=SYSTEM, composition=SMALL_SHOE, workers=0)
    computed = reader.get(f"{PAYTABLES}1/").json()["reports_by_rules"]
    listed = {row["version"]: row for row in reader.get(PAYTABLES).json()}[1]["reports_by_rules"]

    assert [(line["rules"], line["status"]) for line in queued] == [
        ({"decks": 6, "h17": False, "surrender": False, "blackjack_pays": "3:2"}, "pending"),
        ({"decks": 8, "h17": True, "surrender": True, "blackjack_pays": "3:2"}, "pending"),
    ]
    assert computed[1]["status"] == "ready"
    assert computed[1]["house_edge"] == edges_of(RulesReport.objects.get(pk=table_rules.pk).report or {})
    assert listed == computed


def test_a_rejected_version_is_never_priced(pit_boss: Staff, compliance: Staff) -> None:
    version = propose_api(pit_boss)["version"]
    reject(version, compliance)

    [own] = compliance.client.get(f"{PAYTABLES}{version}/").json()["reports_by_rules"]

    assert (own["status"], own["house_edge"]) == ("unpriced", None)


@pytest.mark.parametrize("surrender", ["yes", "true", "False", 1, 0, None, [], {"late": True}])
def test_surrender_is_true_or_false_and_anything_else_changes_nothing(
    pit_boss: Staff, surrender: Any
) -> None:
    before = state_of_paytables()

    problem = assert_problem(
        post(pit_boss.client, PAYTABLES, {"pays": LOW_PAYS, "surrender": surrender}), 400, "validation_error"
    )

    assert [error["field"] for error in problem["errors"]] == ["surrender"]
    assert state_of_paytables() == before


@pytest.mark.parametrize("role", ["compliance", "floor_supervisor"])
def test_only_a_pit_boss_or_admin_proposes(staff: Callable[[str], Staff], role: str) -> None:
    before = state_of_paytables()

    response = post(staff(role).client, PAYTABLES, {"pays": LOW_PAYS})

    assert_problem(response, 403, "role_not_allowed")
    assert state_of_paytables() == before


def test_a_terminal_may_neither_propose_nor_read(table: TableActors) -> None:
    before = state_of_paytables()

    assert_problem(post(table.terminal, PAYTABLES, {"pays": LOW_PAYS}), 403, "role_not_allowed")
    assert_problem(table.terminal.get(PAYTABLES), 403, "role_not_allowed")
    assert_problem(APIClient().get(PAYTABLES), 401, "not_authenticated")
    assert state_of_paytables() == before


@pytest.mark.parametrize(
    ("body", "status", "code", "field"),
    [
        ({"pays": {**DEFAULT, "T21": 0}}, 422, "invalid_pay", "pays.T21"),
        ({"pays": {**DEFAULT, "T21": 2.5}}, 422, "invalid_pay", "pays.T21"),
        ({"pays": {**DEFAULT, "T21": "150"}}, 422, "invalid_pay", "pays.T21"),
        ({"pays": {k: v for k, v in DEFAULT.items() if k != "RS"}}, 422, "missing_pay", "pays.RS"),
        ({"pays": {**DEFAULT, "T99": 5}}, 422, "unknown_wager_kind", "pays.T99"),
        ({"pays": LOW_PAYS, "decks": 7}, 422, "invalid_deck_count", "decks"),
        ({"pays": LOW_PAYS, "blackjack_pays": "1:1"}, 422, "invalid_blackjack_pays", "blackjack_pays"),
        ({"pays": [1, 2, 3]}, 400, "validation_error", "pays"),
        ({"pays": LOW_PAYS, "decks": "6"}, 400, "validation_error", "decks"),
        ({}, 400, "validation_error", "pays"),
    ],
)
def test_bad_pays_are_refused_with_a_code_and_change_nothing(
    pit_boss: Staff, body: dict[str, Any], status: int, code: str, field: str
) -> None:
    before = state_of_paytables()

    problem = assert_problem(post(pit_boss.client, PAYTABLES, body), status, code)

    assert [error["field"] for error in problem["errors"]] == [field]
    assert state_of_paytables() == before


def test_unknown_versions_are_404(staff: Callable[[str], Staff]) -> None:
    reader = staff("compliance").client

    assert_problem(reader.get(f"{PAYTABLES}99/"), 404, "not_found")
    assert_problem(reader.get(f"{PAYTABLES}99999999999999999999999/"), 404, "not_found")
    assert_problem(approve_api(reader, 99999999999999999999999), 404, "not_found")


# --- approve and reject ------------------------------------------------------------------------


def test_compliance_approves_once_the_report_is_in(
    pit_boss: Staff, compliance: Staff, staff: Callable[[str], Staff]
) -> None:
    version = propose_api(pit_boss)["version"]
    before = state_of_paytables()

    assert_problem(approve_api(compliance.client, version), 409, "report_pending")
    assert state_of_paytables() == before
    compute(version)
    before = state_of_paytables()
    assert_problem(approve_api(staff("pit_boss").client, version), 403, "role_not_allowed")
    assert_problem(approve_api(staff("admin").client, version), 403, "role_not_allowed")
    assert state_of_paytables() == before

    response = approve_api(compliance.client, version)

    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["status"], body["in_force"], body["approved_by"]) == (
        "approved",
        True,
        compliance.user.get_username(),
    )
    assert compliance.client.get(f"{PAYTABLES}1/").json()["in_force"] is False


def test_the_proposer_is_refused(pit_boss: Staff) -> None:
    version = propose_api(pit_boss)["version"]
    compute(version)
    StaffProfile.objects.filter(user=pit_boss.user).update(role="compliance")  # moved to compliance since
    before = state_of_paytables()

    assert_problem(approve_api(pit_boss.client, version), 403, "approver_is_proposer")

    assert state_of_paytables() == before


def test_a_flagged_paytable_needs_an_override_reason(pit_boss: Staff, compliance: Staff) -> None:
    version = propose_api(pit_boss, {"pays": DEFAULT})["version"]
    compute(version)
    flagged = compliance.client.get(f"{PAYTABLES}{version}/").json()["flagged"]
    assert flagged
    before = state_of_paytables()

    problem = assert_problem(approve_api(compliance.client, version), 422, "paytable_flagged")
    assert problem["errors"][0]["field"] == "override_reason"
    assert_problem(approve_api(compliance.client, version, {"override_reason": " "}), 422, "paytable_flagged")
    assert state_of_paytables() == before

    response = approve_api(compliance.client, version, {"override_reason": "Bonus limits cap steering."})

    assert response.status_code == 200, response.json()
    assert (response.json()["status"], response.json()["override_reason"]) == (
        "approved",
        "Bonus limits cap steering.",
    )
    (event,) = events("bonus_tie.paytable.approved_with_override")
    assert event.after is not None
    assert event.after["override_reason"] == "Bonus limits cap steering."


def test_an_override_reason_on_an_unflagged_paytable_is_refused(pit_boss: Staff, compliance: Staff) -> None:
    version = propose_api(pit_boss)["version"]
    compute(version)
    before = state_of_paytables()

    assert_problem(
        approve_api(compliance.client, version, {"override_reason": "why not"}), 422, "override_not_needed"
    )
    assert state_of_paytables() == before


def test_a_retried_approval_replays_and_approves_once(pit_boss: Staff, compliance: Staff) -> None:
    version = propose_api(pit_boss)["version"]
    compute(version)

    first = approve_api(compliance.client, version, key="approve-v2")
    second = approve_api(compliance.client, version, key="approve-v2")

    assert first.status_code == second.status_code == 200
    assert second.json() == first.json()
    assert second["Idempotent-Replayed"] == "true"
    assert len(events("bonus_tie.paytable.approved")) == 1
    # A new request for the same decision is a conflict.
    assert_problem(approve_api(compliance.client, version), 409, "paytable_not_pending")


def test_the_proposer_may_not_reject_either(pit_boss: Staff, compliance: Staff) -> None:
    version = propose_api(pit_boss)["version"]
    StaffProfile.objects.filter(user=pit_boss.user).update(role="compliance")  # moved to compliance since
    before = state_of_paytables()

    response = post(pit_boss.client, f"{PAYTABLES}{version}/reject/", {"reason": "changed my mind"})

    assert_problem(response, 403, "approver_is_proposer")
    assert state_of_paytables() == before
    assert events("bonus_tie.paytable.rejected") == []
    # Another compliance officer still decides on it.
    response = post(compliance.client, f"{PAYTABLES}{version}/reject/", {"reason": "T21 too generous"})
    assert response.status_code == 200, response.json()


def test_compliance_rejects_and_a_rejected_version_cannot_be_approved(
    pit_boss: Staff, compliance: Staff
) -> None:
    version = propose_api(pit_boss)["version"]
    before = state_of_paytables()
    assert_problem(
        post(compliance.client, f"{PAYTABLES}{version}/reject/", {"reason": ""}), 422, "reason_required"
    )
    assert_problem(post(compliance.client, f"{PAYTABLES}{version}/reject/", {}), 400, "validation_error")
    assert_problem(
        post(pit_boss.client, f"{PAYTABLES}{version}/reject/", {"reason": "no"}), 403, "role_not_allowed"
    )
    assert state_of_paytables() == before

    response = post(compliance.client, f"{PAYTABLES}{version}/reject/", {"reason": "T21 too generous"})

    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["status"], body["rejected_by"], body["rejection_reason"]) == (
        "rejected",
        compliance.user.get_username(),
        "T21 too generous",
    )
    compute(version)  # a decided version gets no report
    before = state_of_paytables()
    assert_problem(approve_api(compliance.client, version), 409, "paytable_not_pending")
    assert_problem(
        post(compliance.client, f"{PAYTABLES}{version}/reject/", {"reason": "again"}),
        409,
        "paytable_not_pending",
    )
    assert state_of_paytables() == before


def test_every_post_needs_an_idempotency_key(pit_boss: Staff, compliance: Staff) -> None:
    before = state_of_paytables()

    response = pit_boss.client.post(PAYTABLES, {"pays": LOW_PAYS}, format="json")

    assert_problem(response, 400, "idempotency_key_required")
    assert_problem(
        compliance.client.post(f"{PAYTABLES}1/approve/", {}, format="json"), 400, "idempotency_key_required"
    )
    assert state_of_paytables() == before


# --- rounds use the paytable in force when they open ------------------------------------------


def open_shoe(actors: TableActors) -> None:
    response = post(actors.terminal, "/api/v1/shoes/", {"mode": "reported"})
    assert response.status_code == 201, response.json()


def open_round_with_t18(actors: TableActors) -> dict[str, Any]:
    seats = [
        {
            "seat": 2,
            "wagers": [{"kind": "primary", "amount_cents": 10_000}, {"kind": "T18", "amount_cents": 200}],
        }
    ]
    response = post(actors.terminal, "/api/v1/rounds/", {"seats": seats})
    assert response.status_code == 201, response.json()
    return dict(response.json())


def play_a_tie_on_18(actors: TableActors, round_id: int) -> dict[str, Any]:
    """Player T 8, dealer 9 9: the player stands on 18 and ties; settle, return the T18 line."""
    for card in ["TS", "9H", "8C", "9D"]:
        assert post(actors.terminal, f"/api/v1/rounds/{round_id}/cards/", {"card": card}).status_code == 200
    stood = post(
        actors.terminal, f"/api/v1/rounds/{round_id}/actions/", {"seat": 2, "hand": 0, "action": "stand"}
    )
    assert stood.status_code == 200, stood.json()
    settled = post(actors.terminal, f"/api/v1/rounds/{round_id}/settle/")
    assert settled.status_code == 200, settled.json()
    lines = settled.json()["settlement"]["seats"][0]["wagers"]
    return dict(next(line for line in lines if line["kind"] == "T18"))


def test_a_new_version_applies_from_the_next_round_and_an_open_round_keeps_its_own(
    table: TableActors, pit_boss: Staff, compliance: Staff
) -> None:
    # Given a round open under version 1 (T18 pays 45 to 1),
    open_shoe(table)
    first = open_round_with_t18(table)
    assert first["paytable_version"] == 1
    # when version 2 (T18 pays 1 to 1) is proposed and approved,
    version = propose_api(pit_boss, {"pays": LOW_PAYS})["version"]
    compute(version)
    assert approve_api(compliance.client, version).status_code == 200

    # then the open round still settles on version 1,
    assert table.terminal.get(f"/api/v1/rounds/{first['id']}/").json()["paytable_version"] == 1
    assert play_a_tie_on_18(table, first["id"])["win_cents"] == 200 * 45
    # and the next round opens, and settles, on version 2.
    second = open_round_with_t18(table)
    assert second["paytable_version"] == version
    assert play_a_tie_on_18(table, second["id"])["win_cents"] == 200 * 1
    assert table.terminal.get("/api/v1/terminal/").json()["table"]["paytable_version"] == version
    assert PaytableVersion.objects.get(version=version).status == PaytableStatus.APPROVED
    assert AuditEvent.objects.filter(event_type="casino.round.opened").count() == 2
