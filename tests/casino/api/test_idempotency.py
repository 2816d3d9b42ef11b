"""Idempotency-Key on every POST (API.md, Idempotency)."""

import uuid

import psycopg
import pytest
from django.db import connection

from blackjack.models import Round
from casino.models import LedgerTransaction
from kernel.idempotency import _lock_id
from kernel.models import IdempotencyRecord
from tests.support.api import TableActors, post

ROUNDS = "/api/v1/rounds/"
OPEN = {"seats": [{"seat": 1, "wagers": [{"kind": "primary", "amount_cents": 1_000}]}]}


@pytest.mark.django_db
def test_a_repeated_request_replays_the_first_answer_and_changes_nothing(table: TableActors) -> None:
    post(table.terminal, "/api/v1/shoes/", {"mode": "reported"})
    key = str(uuid.uuid4())
    first = post(table.terminal, ROUNDS, OPEN, key=key)
    counts = (Round.objects.count(), LedgerTransaction.objects.count(), IdempotencyRecord.objects.count())

    again = post(table.terminal, ROUNDS, OPEN, key=key)

    assert first.status_code == 201
    assert again.status_code == 201
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first
    assert (
        Round.objects.count(),
        LedgerTransaction.objects.count(),
        IdempotencyRecord.objects.count(),
    ) == counts


@pytest.mark.django_db
def test_the_same_key_with_another_body_is_idempotency_key_reused(table: TableActors) -> None:
    post(table.terminal, "/api/v1/shoes/", {"mode": "reported"})
    key = str(uuid.uuid4())
    post(table.terminal, ROUNDS, OPEN, key=key)

    reused = post(
        table.terminal,
        ROUNDS,
        {"seats": [{"seat": 2, "wagers": [{"kind": "primary", "amount_cents": 1_000}]}]},
        key=key,
    )

    assert reused.status_code == 422
    assert reused.json()["code"] == "idempotency_key_reused"
    assert Round.objects.count() == 1


@pytest.mark.django_db
def test_a_post_without_a_key_is_idempotency_key_required(table: TableActors) -> None:
    response = table.terminal.post("/api/v1/shoes/", {"mode": "reported"}, format="json")

    assert response.status_code == 400
    assert response["Content-Type"].startswith("application/problem+json")
    assert response.json()["code"] == "idempotency_key_required"


@pytest.mark.django_db
def test_a_key_longer_than_255_characters_is_refused(table: TableActors) -> None:
    response = post(table.terminal, "/api/v1/shoes/", {"mode": "reported"}, key="k" * 256)

    assert response.status_code == 400
    assert response.json()["code"] == "invalid_idempotency_key"


@pytest.mark.django_db
def test_keys_are_scoped_to_their_sender(make_table) -> None:
    one, two = make_table("BJ-1"), make_table("BJ-2")
    key = str(uuid.uuid4())

    first = post(one.terminal, "/api/v1/shoes/", {"mode": "reported"}, key=key)
    second = post(two.terminal, "/api/v1/shoes/", {"mode": "reported"}, key=key)

    assert first.status_code == second.status_code == 201
    assert first.json()["id"] != second.json()["id"]


@pytest.mark.django_db
def test_a_failed_request_stores_no_key_and_can_be_retried(table: TableActors) -> None:
    key = str(uuid.uuid4())
    refused = post(table.terminal, ROUNDS, OPEN, key=key)  # no shoe yet
    post(table.terminal, "/api/v1/shoes/", {"mode": "reported"})

    retried = post(table.terminal, ROUNDS, OPEN, key=key)

    assert refused.status_code == 409
    assert retried.status_code == 201


@pytest.mark.django_db(transaction=True)
def test_a_twin_still_in_progress_is_request_in_progress(table: TableActors) -> None:
    key = str(uuid.uuid4())
    scope = f"terminal:{table.provisioned.terminal.pk}"
    params = connection.get_connection_params()
    with psycopg.connect(
        **{k: v for k, v in params.items() if k != "cursor_factory"}, autocommit=True
    ) as other:
        other.execute("SELECT pg_advisory_lock(%s)", [_lock_id(scope, key)])  # the twin holds the key

        response = post(table.terminal, "/api/v1/shoes/", {"mode": "reported"}, key=key)

        other.execute("SELECT pg_advisory_unlock(%s)", [_lock_id(scope, key)])
    assert response.status_code == 409
    assert response.json()["code"] == "request_in_progress"
    assert not IdempotencyRecord.objects.filter(key=key).exists()
