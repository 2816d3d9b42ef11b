"""Every refusal of the special-card game's API answers its API.md code and changes nothing."""

from collections.abc import Callable
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from audit.context import AuditActor
from casino.models import Shoe, Table, Terminal
from kernel.errors import ConflictError
from specials import services
from specials.models import Match, PointsEntry, SpecialsRound, SpecialsRoundEvent
from tests.support.api import TableActors, post
from tests.support.specials import API, act, card, start

pytestmark = pytest.mark.django_db


def refused(response: Any, status: int, code: str) -> dict[str, Any]:
    body = response.json()
    assert (response.status_code, body.get("code")) == (status, code), body
    assert response["Content-Type"].startswith("application/problem+json")
    return body


def counts() -> tuple[int, ...]:
    return (
        Match.objects.count(),
        SpecialsRound.objects.count(),
        SpecialsRoundEvent.objects.count(),
        PointsEntry.objects.count(),
    )


def open_round(actors: TableActors, match: dict[str, Any]) -> dict[str, Any]:
    response = post(actors.terminal, f"{API}/matches/{match['id']}/rounds/")
    assert response.status_code == 201, response.json()
    return response.json()


def dealt(actors: TableActors, *cards: str, **body: Any) -> dict[str, Any]:
    """A new match's first round with `cards` reported in deal order."""
    round_ = open_round(actors, start(actors, **body))
    for text in cards:
        round_ = card(actors, round_, text)
    return round_


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"start_points": 10, "win_points": 10, "lose_points": 0}, "invalid_points"),
        ({"start_points": 0, "win_points": 10, "lose_points": 0}, "invalid_points"),
        ({"players": [{"seat": 8}]}, "invalid_seat"),
        ({"players": [{"seat": 1}, {"seat": 1}]}, "duplicate_seat"),
        ({"players": []}, "seats_required"),
        ({"players": [{"seat": 1, "special": "JOKER"}]}, "invalid_special_card"),
    ],
)
def test_a_match_that_cannot_start(specials_table: TableActors, body: dict[str, Any], code: str) -> None:
    body = {"players": [{"seat": 1}], **body}
    refused(post(specials_table.terminal, f"{API}/matches/", body), 422, code)
    assert counts() == (0, 0, 0, 0)


def test_one_unfinished_match_per_table(specials_table: TableActors) -> None:
    start(specials_table)
    before = counts()
    refused(
        post(specials_table.terminal, f"{API}/matches/", {"players": [{"seat": 1}]}), 409, "match_in_progress"
    )
    assert counts() == before


def test_a_blackjack_table_runs_no_match(make_table: Callable[..., TableActors]) -> None:
    blackjack = make_table("BJ-01")
    refused(post(blackjack.terminal, f"{API}/matches/", {"players": [{"seat": 1}]}), 409, "wrong_game")
    assert counts() == (0, 0, 0, 0)


def test_a_specials_table_opens_no_blackjack_round(specials_table: TableActors) -> None:
    body = {"seats": [{"seat": 1, "wagers": [{"kind": "primary", "amount_cents": 2500}]}]}
    refused(post(specials_table.terminal, "/api/v1/rounds/", body), 409, "wrong_game")


def test_the_service_deals_the_special_cards_it_is_not_told(specials_table: TableActors) -> None:
    match = start(specials_table, players=[{"seat": seat} for seat in range(1, 8)])
    assert {p["special"] for p in match["players"]} <= {"SWAP", "PLUS_ONE"}
    assert len(match["players"]) == 7


def test_one_round_at_a_time_and_none_without_a_shoe(specials_table: TableActors) -> None:
    match = start(specials_table)
    round_ = open_round(specials_table, match)
    refused(post(specials_table.terminal, f"{API}/matches/{match['id']}/rounds/"), 409, "round_in_progress")
    assert round_["state"] == "dealing"
    shoe = Shoe.objects.get(table=specials_table.table, closed_at__isnull=True)
    SpecialsRound.objects.filter(pk=round_["id"]).update(state="finished")
    assert post(specials_table.terminal, f"/api/v1/shoes/{shoe.pk}/close/").status_code == 200
    before = counts()
    refused(post(specials_table.terminal, f"{API}/matches/{match['id']}/rounds/"), 409, "no_open_shoe")
    assert counts() == before


def test_a_finished_match_plays_no_more_rounds(specials_table: TableActors) -> None:
    round_ = dealt(
        specials_table, "TS", "7C", "8D", "KD",
        players=[{"seat": 1, "special": "SWAP"}], start_points=5, win_points=6, lose_points=4,
    )  # fmt: skip
    round_ = act(specials_table, round_, seat=1, action="stand")
    assert round_["outcome"] == [{"seat": 1, "result": "win", "delta": 1, "points": 6}]
    match = specials_table.terminal.get(f"{API}/matches/{round_['match']}/").json()
    assert (match["state"], match["finished"], match["winners"], match["eliminated"]) == (
        "finished",
        True,
        [1],
        [],
    )
    refused(post(specials_table.terminal, f"{API}/matches/{match['id']}/rounds/"), 409, "match_finished")
    assert start(specials_table)["state"] == "playing"  # the table may start the next match


def test_an_ace_waits_for_its_declaration(specials_table: TableActors) -> None:
    round_ = dealt(specials_table, "AS")
    assert round_["needs"] == {"kind": "declare_ace", "seat": 1, "card": "AS"}
    assert round_["seats"][0]["cards"] == [{"card": "AS", "value": None}]
    before = counts()
    refused(
        post(specials_table.terminal, f"{API}/rounds/{round_['id']}/cards/", {"card": "9H"}),
        422,
        "ace_value_required",
    )
    path = f"{API}/rounds/{round_['id']}/actions/"
    refused(
        post(specials_table.terminal, path, {"seat": 1, "action": "declare_ace", "value": 5}),
        422,
        "invalid_ace_value",
    )
    refused(
        post(specials_table.terminal, path, {"seat": 1, "action": "declare_ace"}), 422, "invalid_ace_value"
    )
    refused(post(specials_table.terminal, path, {"seat": 1, "action": "hit"}), 422, "ace_value_required")
    assert counts() == before
    round_ = act(specials_table, round_, seat=1, action="declare_ace", value=11)
    assert round_["seats"][0]["cards"] == [{"card": "AS", "value": 11}]
    assert round_["needs"] == {"kind": "card", "to": {"seat": 2}}


def test_refused_actions(specials_table: TableActors) -> None:
    round_ = dealt(specials_table, "TS", "9H", "7C", "8D", "5S", "KD")
    path = f"{API}/rounds/{round_['id']}/actions/"
    before = counts()
    refused(post(specials_table.terminal, path, {"seat": 2, "action": "hit"}), 422, "not_your_turn")
    body = refused(
        post(specials_table.terminal, path, {"seat": 1, "action": "declare_ace", "value": 1}),
        422,
        "action_not_allowed",
    )
    assert "hit" in body["detail"]
    refused(
        post(specials_table.terminal, path, {"seat": 1, "action": "use_special", "discard": "QH"}),
        422,
        "card_not_in_hand",
    )
    refused(
        post(specials_table.terminal, f"{API}/rounds/{round_['id']}/cards/", {"card": "2C"}),
        422,
        "no_card_expected",
    )
    refused(
        post(specials_table.terminal, f"{API}/rounds/{round_['id']}/cards/", {"card": "ZZ"}),
        422,
        "invalid_card",
    )
    refused(
        post(specials_table.terminal, path, {"seat": 1, "action": "stand", "expected_seq": 0}),
        409,
        "stale_round",
    )
    assert counts() == before
    round_ = act(specials_table, round_, seat=1, action="use_special", discard="8D")
    assert round_["seats"][0]["discarded"] == ["8D"]
    assert round_["needs"] == {"kind": "card", "to": {"seat": 1}}
    round_ = card(specials_table, round_, "2C")
    assert [c["card"] for c in round_["seats"][0]["cards"]] == ["TS", "2C"]
    assert round_["needs"]["allowed"] == ["hit", "stand"]
    refused(
        post(specials_table.terminal, path, {"seat": 1, "action": "use_special", "discard": "2C"}),
        422,
        "special_already_used",
    )


def test_a_card_the_shoe_no_longer_holds(specials_table: TableActors) -> None:
    Shoe.objects.filter(table=specials_table.table, closed_at__isnull=True).update(dealt=["AS"] * 6)
    round_ = dealt(specials_table)
    before = counts()
    refused(
        post(specials_table.terminal, f"{API}/rounds/{round_['id']}/cards/", {"card": "AS"}),
        422,
        "card_not_in_shoe",
    )
    assert counts() == before


def test_terminals_see_only_their_own_table(make_specials_table: Callable[..., TableActors]) -> None:
    ours, theirs = make_specials_table("SP-01"), make_specials_table("SP-02")
    round_ = dealt(ours)
    refused(theirs.terminal.get(f"{API}/matches/{round_['match']}/"), 403, "other_table")
    refused(theirs.terminal.get(f"{API}/rounds/{round_['id']}/"), 403, "other_table")
    refused(post(theirs.terminal, f"{API}/rounds/{round_['id']}/cards/", {"card": "2C"}), 403, "other_table")
    refused(post(theirs.terminal, f"{API}/matches/{round_['match']}/rounds/"), 403, "other_table")
    refused(ours.terminal.get(f"{API}/matches/999999/"), 404, "not_found")


def test_a_dealer_must_be_signed_in(specials_table: TableActors) -> None:
    assert post(specials_table.terminal, "/api/v1/terminal/sign-out/").status_code == 200
    refused(
        post(specials_table.terminal, f"{API}/matches/", {"players": [{"seat": 1}]}),
        403,
        "dealer_not_signed_in",
    )


def test_a_deactivated_table_deals_nothing(specials_table: TableActors) -> None:
    round_ = dealt(specials_table, "TS")
    Table.objects.filter(pk=specials_table.table.pk).update(is_active=False)
    before = counts()
    refused(
        post(specials_table.terminal, f"{API}/rounds/{round_['id']}/cards/", {"card": "9H"}),
        403,
        "dealer_not_signed_in",
    )
    terminal = Terminal.objects.get(pk=specials_table.provisioned.terminal.pk)
    actor = AuditActor(kind="terminal", terminal_id=terminal.pk, terminal_name=terminal.name)
    with pytest.raises(ConflictError) as refusal, transaction.atomic():
        services.report_card(
            terminal=terminal,
            round_id=round_["id"],
            card="9H",
            expected_seq=None,
            actor=actor,
            now=timezone.now(),
        )
    assert refusal.value.code == "table_inactive"
    assert counts() == before


def test_a_repeated_request_is_answered_again_and_applied_once(specials_table: TableActors) -> None:
    round_ = dealt(specials_table, "TS", "9H", "7C", "8D", "5S", "KD")
    path, body = f"{API}/rounds/{round_['id']}/actions/", {"seat": 1, "action": "stand"}
    first = post(specials_table.terminal, path, body, key="stand-seat-1")
    again = post(specials_table.terminal, path, body, key="stand-seat-1")
    assert first.status_code == again.status_code == 200
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert SpecialsRoundEvent.objects.filter(round_id=round_["id"], kind="action").count() == 1
    refused(
        post(specials_table.terminal, path, {"seat": 2, "action": "stand"}, key="stand-seat-1"),
        422,
        "idempotency_key_reused",
    )
