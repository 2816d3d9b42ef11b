"""A whole round of a match through the API, step by step (API.md, "Special-card points game")."""

import json
from typing import Any

import pytest
from django.utils import timezone

from audit.exports import export_gaming_day
from casino.models import Shoe
from kernel.gaming_day import gaming_day_and_shift
from tests.support.api import TableActors, post
from tests.support.specials import API, act, card, start

pytestmark = pytest.mark.django_db


def test_a_round_dealt_played_and_scored(specials_table: TableActors) -> None:
    match = start(specials_table)
    assert match["state"] == "playing"
    assert [(p["seat"], p["points"], p["special"], p["special_used"]) for p in match["players"]] == [
        (1, 5, "SWAP", False),
        (2, 5, "PLUS_ONE", False),
    ]
    assert [(e["seq"], e["seat"], e["delta"], e["balance"], e["reason"]) for e in match["points_ledger"]] == [
        (1, 1, 5, 5, "start"),
        (2, 2, 5, 5, "start"),
    ]
    response = post(specials_table.terminal, f"{API}/matches/{match['id']}/rounds/")
    assert response.status_code == 201, response.json()
    round_ = response.json()
    assert round_["needs"] == {"kind": "card", "to": {"seat": 1}}
    for text in ("TS", "9H", "7C", "8D", "5S"):
        round_ = card(specials_table, round_, text)
    assert round_["needs"] == {"kind": "card", "to": "dealer"}
    round_ = card(specials_table, round_, "KD")
    assert round_["dealer"]["cards"] == ["7C"]  # the hole card stays hidden
    assert round_["needs"] == {"kind": "action", "seat": 1, "allowed": ["hit", "stand", "use_special"]}
    round_ = act(specials_table, round_, seat=1, action="stand")
    round_ = act(specials_table, round_, seat=2, action="use_special")
    seat_2 = round_["seats"][1]
    assert (seat_2["plus_one"], seat_2["total"]) == (True, 15)
    round_ = act(specials_table, round_, seat=2, action="hit")
    assert round_["needs"] == {"kind": "card", "to": {"seat": 2}}
    round_ = card(specials_table, round_, "6H")
    assert round_["state"] == "finished"
    assert round_["dealer"] == {"cards": ["7C", "KD"], "total": 17, "bust": False}
    assert round_["outcome"] == [
        {"seat": 1, "result": "win", "delta": 1, "points": 6},
        {"seat": 2, "result": "win", "delta": 1, "points": 6},
    ]
    match = specials_table.terminal.get(f"{API}/matches/{match['id']}/").json()
    assert match["rounds_played"] == 1
    assert match["round"] == round_["id"]  # the last round played
    assert [(p["seat"], p["points"], p["special_used"]) for p in match["players"]] == [
        (1, 6, False),
        (2, 6, True),
    ]
    assert [
        (e["seq"], e["seat"], e["round"], e["delta"], e["balance"], e["reason"])
        for e in match["points_ledger"]
    ][2:] == [
        (3, 1, round_["id"], 1, 6, "win"),
        (4, 2, round_["id"], 1, 6, "win"),
    ]
    assert specials_table.terminal.get(f"{API}/rounds/{round_['id']}/").json() == round_


def test_the_audit_export_carries_the_match_history(specials_table: TableActors) -> None:
    match = start(specials_table, players=[{"seat": 1, "special": "PLUS_ONE"}])
    round_ = post(specials_table.terminal, f"{API}/matches/{match['id']}/rounds/").json()
    for text in ("TS", "7C", "9D", "KD"):
        round_ = card(specials_table, round_, text)
    round_ = act(specials_table, round_, seat=1, action="use_special")
    round_ = act(specials_table, round_, seat=1, action="stand")
    assert round_["outcome"] == [{"seat": 1, "result": "win", "delta": 1, "points": 6}]

    day, _ = gaming_day_and_shift(timezone.now())
    rows = [json.loads(line) for line in export_gaming_day(day=day, fmt="jsonl")]
    history = [
        (row["event_type"], row["subject_id"]) for row in rows if row["event_type"].startswith("specials.")
    ]
    assert history == [
        ("specials.match.started", str(match["id"])),
        ("specials.round.opened", str(round_["id"])),
        *[("specials.round.card_dealt", str(round_["id"]))] * 4,
        *[("specials.round.action_taken", str(round_["id"]))] * 2,
    ]
    last = next(row for row in reversed(rows) if row["event_type"] == "specials.round.action_taken")
    assert last["after"]["outcome"] == round_["outcome"]
    assert last["after"]["match_finished"] is False


def test_an_electronic_shoe_deals_every_card_itself(make_specials_table: Any) -> None:
    actors = make_specials_table("SP-E", mode="electronic")
    match = start(actors)
    response = post(actors.terminal, f"{API}/matches/{match['id']}/rounds/")
    assert response.status_code == 201, response.json()
    round_ = response.json()
    while round_["needs"] is not None:
        need = round_["needs"]
        assert need["kind"] != "card"  # the service deals: the terminal only declares and decides
        refusal = post(actors.terminal, f"{API}/rounds/{round_['id']}/cards/", {"card": "2C"}).json()
        assert refusal["code"] == "no_card_expected"
        if need["kind"] == "declare_ace":
            round_ = act(actors, round_, seat=need["seat"], action="declare_ace", value=1)
        else:
            round_ = act(actors, round_, seat=need["seat"], action="stand")
    assert round_["state"] == "finished"
    assert [o["seat"] for o in round_["outcome"]] == [1, 2]
    dealt = [c["card"] for seat in round_["seats"] for c in seat["cards"]] + round_["dealer"]["cards"]
    shoe = Shoe.objects.get(pk=round_["shoe"])
    assert sorted(shoe.dealt) == sorted(dealt)
    assert shoe.order is not None
    assert shoe.dealt == shoe.order[: len(dealt)]  # dealt in the committed order


def test_a_cut_card_change_applied_mid_round_waits_for_the_next_round(specials_table: TableActors) -> None:
    """An approved rule change can be applied while a round is dealt (the periodic task); the
    round keeps the cut card it opened with (RULES.md: changes take effect from the next round)."""
    from django.db import transaction

    from casino.models import Table, Terminal
    from specials.models import SpecialsRound
    from specials.services import _RoundAtTable

    match = start(specials_table)
    round_ = post(specials_table.terminal, f"{API}/matches/{match['id']}/rounds/").json()
    Table.objects.filter(pk=specials_table.table.pk).update(penetration_percent=10)

    assert SpecialsRound.objects.get(pk=round_["id"]).penetration_percent == 75
    terminal = Terminal.objects.get(pk=specials_table.provisioned.terminal.pk)
    with transaction.atomic():
        at = _RoundAtTable.locked(terminal=terminal, round_id=round_["id"], now=timezone.now())
        assert at._penetration_percent() == 75
