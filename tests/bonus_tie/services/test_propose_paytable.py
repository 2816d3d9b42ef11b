"""propose_paytable: the next version number, the rules of its report, and what it refuses."""

from collections.abc import Callable
from typing import Any

import pytest

from bonus_tie import services
from bonus_tie.models import PaytableProposal, PaytableStatus, PaytableVersion
from kernel.errors import CodedError, ServiceError
from kernel.problems import status_of
from tests.bonus_tie.conftest import DEFAULT, LOW_PAYS, Staff, events, propose, state_of_paytables

pytestmark = pytest.mark.django_db


def test_a_proposal_is_the_next_version_with_no_report_yet(pit_boss: Staff) -> None:
    # Given version 1 (the migration's default), when two paytables are proposed:
    first = propose(pit_boss, LOW_PAYS)
    second = propose(pit_boss, {**DEFAULT, "T21": 120})

    # Then they are versions 2 and 3, proposed by the pit boss, waiting for their reports.
    assert (first.version, second.version) == (2, 3)
    stored = PaytableVersion.objects.get(version=3)
    assert stored.status == PaytableStatus.PROPOSED
    assert stored.pays == {**DEFAULT, "T21": 120}
    assert stored.proposed_by_id == pit_boss.user.pk
    assert stored.report is None
    assert (stored.approved_by_id, stored.approved_at) == (None, None)


def test_the_report_defaults_to_six_decks_s17_and_3_to_2(pit_boss: Staff) -> None:
    row = propose(pit_boss)

    rules = PaytableProposal.objects.get(paytable=row).rules
    assert (rules["decks"], rules["dealer"], rules["blackjack_pays"]) == (6, "S17", "3:2")
    assert (rules["double_after_split"], rules["max_hands"], rules["surrender"]) == (True, 4, False)


def test_the_proposer_chooses_the_decks_and_h17(pit_boss: Staff) -> None:
    row = propose(pit_boss, decks=8, h17=True, blackjack_pays="6:5")

    rules = PaytableProposal.objects.get(paytable=row).rules
    assert (rules["decks"], rules["dealer"], rules["blackjack_pays"]) == (8, "H17", "6:5")


def test_the_proposal_is_audited_with_its_pays_and_rules(pit_boss: Staff) -> None:
    row = propose(pit_boss, LOW_PAYS, decks=8)

    (event,) = events("bonus_tie.paytable.proposed")
    assert (event.subject_type, event.subject_id, event.username, event.role) == (
        "paytable",
        str(row.version),
        pit_boss.user.get_username(),
        "pit_boss",
    )
    assert event.after is not None
    assert event.after["pays"] == LOW_PAYS
    assert event.after["rules"]["decks"] == 8


@pytest.mark.parametrize(
    ("pays", "code", "field"),
    [
        ({k: v for k, v in DEFAULT.items() if k != "TBJ"}, "missing_pay", "pays.TBJ"),
        ({**DEFAULT, "T21": 0}, "invalid_pay", "pays.T21"),
        ({**DEFAULT, "T21": -5}, "invalid_pay", "pays.T21"),
        ({**DEFAULT, "T18": 45.5}, "invalid_pay", "pays.T18"),
        ({**DEFAULT, "T18": 45.0}, "invalid_pay", "pays.T18"),
        ({**DEFAULT, "LS": "15"}, "invalid_pay", "pays.LS"),
        ({**DEFAULT, "RS": True}, "invalid_pay", "pays.RS"),
        ({**DEFAULT, "RS": None}, "invalid_pay", "pays.RS"),
        ({**DEFAULT, "TBJ": services.MAX_PAYS + 1}, "invalid_pay", "pays.TBJ"),
        ({**DEFAULT, "T22": 10}, "unknown_wager_kind", "pays.T22"),
        ({**DEFAULT, "primary": 1}, "unknown_wager_kind", "pays.primary"),
        ([45] * 8, "invalid_pays", "pays"),
    ],
)
def test_pays_must_be_whole_numbers_of_at_least_one_for_every_kind(
    pit_boss: Staff, pays: Any, code: str, field: str
) -> None:
    before = state_of_paytables()

    with pytest.raises(ServiceError) as refused:
        propose(pit_boss, pays)

    assert (status_of(refused.value), refused.value.code, refused.value.field) == (422, code, field)
    assert state_of_paytables() == before


def test_the_top_pay_allowed_is_accepted(pit_boss: Staff) -> None:
    row = propose(pit_boss, {**DEFAULT, "TBJ": services.MAX_PAYS})

    assert row.pays["TBJ"] == services.MAX_PAYS


@pytest.mark.parametrize(
    ("rules", "code"),
    [
        ({"decks": 7}, "invalid_deck_count"),
        ({"decks": 1}, "invalid_deck_count"),
        ({"decks": True}, "invalid_deck_count"),
        ({"blackjack_pays": "2:1"}, "invalid_blackjack_pays"),
    ],
)
def test_the_rules_are_those_a_table_can_have(pit_boss: Staff, rules: dict[str, Any], code: str) -> None:
    before = state_of_paytables()

    with pytest.raises(CodedError) as refused:
        propose(pit_boss, LOW_PAYS, **rules)

    assert (status_of(refused.value), refused.value.code) == (422, code)
    assert state_of_paytables() == before


@pytest.mark.parametrize("role", ["compliance", "floor_supervisor"])
def test_only_a_pit_boss_or_an_admin_proposes(staff: Callable[[str], Staff], role: str) -> None:
    before = state_of_paytables()

    with pytest.raises(ServiceError) as refused:
        propose(staff(role))

    assert (status_of(refused.value), refused.value.code) == (403, "role_not_allowed")
    assert state_of_paytables() == before


def test_an_admin_may_propose(staff: Callable[[str], Staff]) -> None:
    assert propose(staff("admin")).status == PaytableStatus.PROPOSED


def test_the_report_is_enqueued_once_the_proposal_commits(
    pit_boss: Staff, django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from config.celery import app

    sent: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(app, "send_task", lambda name, kwargs: sent.append((name, kwargs)))

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        row = propose(pit_boss)
        assert sent == []  # nothing leaves before the commit

    assert len(callbacks) == 1
    callbacks[0]()
    assert sent == [("bonus_tie.tasks.compute_paytable_report", {"version": row.version})]


def test_a_refused_proposal_enqueues_nothing(
    pit_boss: Staff, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=False) as callbacks, pytest.raises(ServiceError):
        propose(pit_boss, {**DEFAULT, "T17": 0})

    assert callbacks == []
