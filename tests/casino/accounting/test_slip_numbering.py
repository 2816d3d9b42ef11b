"""Fill and credit slips are numbered in one continuous series per kind: no gaps, no repeats,
even when a request fails half way or many arrive at once."""

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from casino.ledger_checks import find_violations
from table_money.models import ChipSlip, SlipCounter
from table_money.services import accounting
from tests.support.api import TableActors, client_with_token, ok, open_table, request_slip
from tests.support.races import race

BANK = {"100000": 5}


@pytest.mark.django_db
def test_a_request_rolled_back_after_taking_its_number_leaves_no_gap(
    make_table: Callable[..., TableActors], supervisor: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    actors = make_table()
    ok(open_table(supervisor, actors, BANK), 201)
    first = ok(request_slip(actors.terminal, "fill", {"500": 2}), 201)

    written: list[bool] = []

    def fail_after_numbering(**kwargs: Any) -> None:
        written.append(ChipSlip.objects.filter(kind="fill", number=2).exists())  # number taken, row written
        raise RuntimeError("lost the connection half way")

    with monkeypatch.context() as patched:
        patched.setattr(accounting, "record_event", fail_after_numbering)
        failed = request_slip(actors.terminal, "fill", {"500": 4})
    second = ok(request_slip(actors.terminal, "fill", {"500": 6}), 201)
    credit = ok(request_slip(actors.terminal, "credit", {"500": 2}), 201)

    assert written == [True]
    assert failed.status_code == 500
    assert failed.json()["code"] == "internal_error"
    assert (first["number"], second["number"]) == (1, 2)
    assert credit["number"] == 1  # each kind has its own series
    assert list(
        ChipSlip.objects.filter(kind="fill").order_by("number").values_list("number", "amount_cents")
    ) == [
        (1, 1_000),
        (2, 3_000),
    ]
    assert SlipCounter.objects.get(series="fill").last_number == 2


@pytest.mark.django_db
def test_a_refused_request_takes_no_number(
    make_table: Callable[..., TableActors], supervisor: APIClient
) -> None:
    actors = make_table()
    ok(open_table(supervisor, actors, BANK), 201)

    refused = request_slip(actors.terminal, "fill", {"700": 2})
    taken = ok(request_slip(actors.terminal, "fill", {"500": 2}), 201)

    assert refused.status_code == 422
    assert taken["number"] == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_requests_at_many_tables_get_consecutive_numbers(
    make_table: Callable[..., TableActors], supervisor: APIClient
) -> None:
    tables = [make_table(f"RACE-{i}") for i in range(6)]
    for actors in tables:
        ok(open_table(supervisor, actors, BANK), 201)
    clients = [client_with_token(actors.provisioned.terminal_token) for actors in tables]
    statuses = race(lambda i: request_slip(clients[i], "fill", {"500": i + 1}).status_code, len(tables))

    assert statuses == [201] * len(tables)
    assert sorted(ChipSlip.objects.values_list("number", flat=True)) == list(range(1, len(tables) + 1))
    assert find_violations() == []
