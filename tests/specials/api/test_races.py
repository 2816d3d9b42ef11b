"""Races on one round of the special-card game, with real concurrent connections: whatever the
timing, exactly one request changes the round and the points ledger stays whole."""

from collections import Counter
from typing import Any

import pytest

from specials.models import PointsEntry, SpecialsRoundEvent
from tests.support.api import TableActors, client_with_token, post
from tests.support.races import race
from tests.support.specials import API, card, start

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_last_decision_of_a_round_scores_it_once(specials_table: TableActors) -> None:
    round_ = post(specials_table.terminal, f"{API}/matches/{start(specials_table)['id']}/rounds/").json()
    for text in ("TS", "9H", "7C", "8D", "9S", "KD"):
        round_ = card(specials_table, round_, text)
    stood = post(
        specials_table.terminal, f"{API}/rounds/{round_['id']}/actions/", {"seat": 1, "action": "stand"}
    )
    round_ = stood.json()
    assert round_["needs"] == {"kind": "action", "seat": 2, "allowed": ["hit", "stand", "use_special"]}
    token = specials_table.provisioned.terminal_token
    body = {"seat": 2, "action": "stand", "expected_seq": round_["seq"]}

    responses = race(lambda i: post(client_with_token(token), f"{API}/rounds/{round_['id']}/actions/", body))

    statuses = Counter(r.status_code for r in responses)
    assert statuses[200] == 1, [r.json() for r in responses]
    refusals: set[Any] = {r.json()["code"] for r in responses if r.status_code != 200}
    assert refusals <= {"stale_round", "table_busy"}
    finished = next(r.json() for r in responses if r.status_code == 200)
    assert finished["state"] == "finished"
    assert SpecialsRoundEvent.objects.filter(round_id=round_["id"], kind="action").count() == 2
    assert list(PointsEntry.objects.filter(match_id=finished["match"]).values_list("seq", "seat", "balance")) == [
        (1, 1, 5), (2, 2, 5), (3, 1, 6), (4, 2, 6)
    ]  # fmt: skip
