"""Races with real concurrent connections: exactly one effect each time, and a clean ledger.

Each thread has its own client and database connection; a barrier releases them together.
"""

import uuid
from collections import Counter
from typing import Any

import pytest

from blackjack import services as rounds
from blackjack.locks import LockedForNewRound
from blackjack.models import Round, RoundEvent, Settlement
from casino.ledger_checks import find_violations
from casino.models import LedgerTransaction
from tests.support.api import TableActors, client_with_token, post
from tests.support.races import THREADS, race

pytestmark = pytest.mark.django_db(transaction=True)

ROUNDS = "/api/v1/rounds/"


def ready_round(table: TableActors) -> dict[str, Any]:
    post(table.terminal, "/api/v1/shoes/", {"mode": "reported"})
    opened = post(
        table.terminal,
        ROUNDS,
        {"seats": [{"seat": 1, "wagers": [{"kind": "primary", "amount_cents": 1_000}]}]},
    ).json()
    for card in ["TS", "9H", "8C", "8D"]:
        post(table.terminal, f"{ROUNDS}{opened['id']}/cards/", {"card": card})
    stood = post(
        table.terminal, f"{ROUNDS}{opened['id']}/actions/", {"seat": 1, "hand": 0, "action": "stand"}
    )
    assert stood.json()["state"] == "ready_to_settle"
    return dict(stood.json())


def test_the_same_settle_with_the_same_key_pays_once(table: TableActors) -> None:
    round_ = ready_round(table)
    token, key = table.provisioned.terminal_token, str(uuid.uuid4())

    responses = race(lambda i: post(client_with_token(token), f"{ROUNDS}{round_['id']}/settle/", key=key))

    statuses = Counter(r.status_code for r in responses)
    assert set(statuses) <= {200, 409}
    assert statuses[200] >= 1
    bodies = {str(r.json()) for r in responses if r.status_code == 200}
    assert len(bodies) == 1  # every success is the same answer, replayed
    assert all(r.json()["code"] == "request_in_progress" for r in responses if r.status_code == 409)
    assert Settlement.objects.filter(round_id=round_["id"]).count() == 1
    assert LedgerTransaction.objects.filter(round_id=round_["id"], kind="payout").count() == 1
    assert find_violations() == []


def test_the_same_settle_with_different_keys_pays_once(table: TableActors) -> None:
    round_ = ready_round(table)
    token = table.provisioned.terminal_token

    responses = race(lambda i: post(client_with_token(token), f"{ROUNDS}{round_['id']}/settle/"))

    statuses = Counter(r.status_code for r in responses)
    assert statuses[200] == 1
    assert statuses[409] == THREADS - 1
    assert {r.json()["code"] for r in responses if r.status_code == 409} <= {
        "table_busy",
        "round_already_settled",
    }
    assert LedgerTransaction.objects.filter(round_id=round_["id"], kind="payout").count() == 1
    assert find_violations() == []


def test_actions_racing_on_one_round_apply_once(table: TableActors) -> None:
    post(table.terminal, "/api/v1/shoes/", {"mode": "reported"})
    opened = post(
        table.terminal,
        ROUNDS,
        {"seats": [{"seat": 1, "wagers": [{"kind": "primary", "amount_cents": 1_000}]}]},
    ).json()
    for card in ["5S", "9H", "6C", "7D"]:
        dealt = post(table.terminal, f"{ROUNDS}{opened['id']}/cards/", {"card": card}).json()
    events_before = RoundEvent.objects.filter(round_id=opened["id"]).count()
    token = table.provisioned.terminal_token
    body = {"seat": 1, "hand": 0, "action": "double", "expected_seq": dealt["seq"]}

    responses = race(lambda i: post(client_with_token(token), f"{ROUNDS}{opened['id']}/actions/", body))

    statuses = Counter(r.status_code for r in responses)
    assert statuses[200] == 1
    assert {r.json()["code"] for r in responses if r.status_code != 200} <= {"table_busy", "stale_round"}
    assert RoundEvent.objects.filter(round_id=opened["id"]).count() == events_before + 1
    assert Round.objects.get(pk=opened["id"]).seq == dealt["seq"] + 1
    assert LedgerTransaction.objects.filter(round_id=opened["id"], kind="wager").count() == 2  # open + double
    assert find_violations() == []


def test_two_rounds_opening_on_one_table_open_one(table: TableActors) -> None:
    post(table.terminal, "/api/v1/shoes/", {"mode": "reported"})
    token = table.provisioned.terminal_token

    responses = race(
        lambda i: post(
            client_with_token(token),
            ROUNDS,
            {"seats": [{"seat": 1 + i % 7, "wagers": [{"kind": "primary", "amount_cents": 1_000}]}]},
        )
    )

    statuses = Counter(r.status_code for r in responses)
    assert statuses[201] == 1
    assert {r.json()["code"] for r in responses if r.status_code != 201} <= {
        "table_busy",
        "round_in_progress",
    }
    assert Round.objects.filter(table=table.table).count() == 1
    assert LedgerTransaction.objects.filter(table=table.table, kind="wager").count() == 1
    assert find_violations() == []


def test_a_round_committed_between_the_snapshot_and_the_lock_is_refused_as_in_progress(
    table: TableActors, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lock's statement reads the open rounds in a snapshot taken before the lock is granted:
    a round committed in between is not in it. The database's one-open-round constraint then
    refuses the second round, and the terminal is told 409 round_in_progress, not 500."""
    post(table.terminal, "/api/v1/shoes/", {"mode": "reported"})
    seats = {"seats": [{"seat": 1, "wagers": [{"kind": "primary", "amount_cents": 1_000}]}]}
    assert post(table.terminal, ROUNDS, seats).status_code == 201
    real_lock = rounds.lock_table_for_new_round

    def stale_snapshot(**kwargs: Any) -> LockedForNewRound:
        return real_lock(**kwargs)._replace(round_open=False)

    monkeypatch.setattr(rounds, "lock_table_for_new_round", stale_snapshot)

    refused = post(table.terminal, ROUNDS, seats)

    assert (refused.status_code, refused.json()["code"]) == (409, "round_in_progress")
    assert Round.objects.filter(table=table.table).count() == 1
    assert LedgerTransaction.objects.filter(table=table.table, kind="wager").count() == 1
