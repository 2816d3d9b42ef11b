"""The round endpoints of API.md, driven as a dealer terminal would."""

from typing import Any

import pytest
from rest_framework.test import APIClient

from blackjack.models import Round, RoundEvent, Wager
from casino.ledger import balance_cents
from casino.models import AccountKind, LedgerEntry, Shoe
from tests.support.api import TableActors, post
from tests.support.rounds import ROUNDS, act, deal, open_round, open_shoe, primary

pytestmark = pytest.mark.django_db


def snapshot_counts() -> tuple[int, ...]:
    return (
        Round.objects.count(),
        Wager.objects.count(),
        RoundEvent.objects.count(),
        LedgerEntry.objects.count(),
    )


def test_a_tie_on_18_pushes_the_primary_and_pays_t18_45_to_1(table: TableActors) -> None:
    open_shoe(table)
    opened = open_round(
        table,
        [{"seat": 2, "player": None, "wagers": [primary(10_000), {"kind": "T18", "amount_cents": 200}]}],
    )
    assert opened["state"] == "dealing"
    assert opened["seq"] == 0
    assert opened["needs"] == {"kind": "card", "to": {"seat": 2, "hand": 0}}

    dealt = deal(table.terminal, opened["id"], ["TS", "9H", "8C", "9D"])
    assert dealt["needs"] == {
        "kind": "action",
        "seat": 2,
        "hand": 0,
        "allowed": ["hit", "stand", "double", "split"][:3],
    }
    assert dealt["dealer"]["cards"] == ["9H"]  # the hole card stays hidden

    stood = act(table.terminal, opened["id"], seat=2, hand=0, action="stand")
    assert stood["state"] == "ready_to_settle"
    assert stood["dealer"] == {
        "cards": ["9H", "9D"],
        "total": 18,
        "soft": False,
        "blackjack": False,
        "bust": False,
    }

    settled = post(table.terminal, f"{ROUNDS}{opened['id']}/settle/")
    assert settled.status_code == 200
    body = settled.json()
    assert body["state"] == "settled"
    assert body["needs"] is None
    assert body["settlement"] == {
        "wagered_cents": 10_200,
        "paid_cents": 19_200,
        "house_net_cents": -9_000,
        "aggregate_limit_applied": False,
        "aggregate_reduction_cents": 0,
        "seats": [{"seat": 2, "wagers": [
            {"kind": "primary", "hand": 0, "amount_cents": 10_000, "result": "push", "win_cents": 0, "paid_cents": 10_000},
            {"kind": "T18", "hand": 0, "amount_cents": 200, "result": "win", "win_cents": 9_000, "paid_cents": 9_200},
        ]}],
    }  # fmt: skip
    assert balance_cents(table=table.table, kind=AccountKind.WAGERS) == 0
    assert balance_cents(table=table.table, kind=AccountKind.TRAY) == -9_000
    assert balance_cents(table=table.table, kind=AccountKind.PATRONS) == 9_000


def test_seq_rises_by_one_on_every_change(table: TableActors) -> None:
    open_shoe(table)
    opened = open_round(table, [{"seat": 1, "wagers": [primary(1_000)]}])

    after_one = deal(table.terminal, opened["id"], ["5S"])

    assert after_one["seq"] == opened["seq"] + 1


def test_a_double_adds_its_stake_to_the_ledger_and_the_line(table: TableActors) -> None:
    open_shoe(table)
    opened = open_round(table, [{"seat": 1, "wagers": [primary(1_000)]}])
    deal(table.terminal, opened["id"], ["5S", "9H", "6C", "7D"])

    doubled = act(table.terminal, opened["id"], seat=1, hand=0, action="double")
    assert doubled["needs"] == {"kind": "card", "to": {"seat": 1, "hand": 0}}
    assert balance_cents(table=table.table, kind=AccountKind.WAGERS) == 2_000
    deal(table.terminal, opened["id"], ["TC"])  # 21; dealer 16 draws
    finished = deal(table.terminal, opened["id"], ["TH"])  # dealer busts
    assert finished["state"] == "ready_to_settle"

    settled = post(table.terminal, f"{ROUNDS}{opened['id']}/settle/").json()
    line = settled["settlement"]["seats"][0]["wagers"][0]
    assert line == {
        "kind": "primary",
        "hand": 0,
        "amount_cents": 2_000,
        "result": "win",
        "win_cents": 2_000,
        "paid_cents": 4_000,
    }


def test_electronic_shoe_deals_by_itself_and_its_reveal_verifies(make_table: Any) -> None:
    from casino.engine.cards import parse_card
    from casino.engine.shoe import verify_commitment

    table = make_table(decks=8)  # a shoe has its table's deck count
    shoe = open_shoe(table, mode="electronic", decks=8)
    assert shoe["decks"] == 8
    assert len(shoe["commitment"]) == 64
    opened = open_round(
        table, [{"seat": 1, "wagers": [primary(1_000)]}, {"seat": 3, "wagers": [primary(2_000)]}]
    )
    assert opened["needs"]["kind"] in ("action", "insurance", "settle")
    refused = post(table.terminal, f"{ROUNDS}{opened['id']}/cards/", {"card": "AS"})
    assert refused.status_code == 422
    assert refused.json()["code"] == "no_card_expected"

    body = opened
    while body["needs"]["kind"] != "settle":
        need = body["needs"]
        if need["kind"] == "insurance":
            body = act(table.terminal, opened["id"], seat=need["seat"], hand=0, action="decline_insurance")
        else:
            body = act(table.terminal, opened["id"], seat=need["seat"], hand=need["hand"], action="stand")
    settled = post(table.terminal, f"{ROUNDS}{opened['id']}/settle/")
    assert settled.status_code == 200
    closed = post(table.terminal, f"/api/v1/shoes/{shoe['id']}/close/")
    assert closed.status_code == 200
    reveal = closed.json()["reveal"]

    order = [parse_card(card) for card in reveal["order"]]
    assert verify_commitment(order, bytes.fromhex(reveal["salt"]), shoe["commitment"])
    dealt = list(
        RoundEvent.objects.filter(round_id=opened["id"], kind="card")
        .order_by("number")
        .values_list("card", flat=True)
    )
    assert dealt == reveal["order"][: len(dealt)]


def test_void_returns_every_wager_and_needs_a_supervisor(table: TableActors, supervisor: APIClient) -> None:
    open_shoe(table)
    opened = open_round(table, [{"seat": 1, "wagers": [primary(1_000), {"kind": "LS", "amount_cents": 500}]}])
    by_terminal = post(table.terminal, f"{ROUNDS}{opened['id']}/void/", {"reason": "misdeal"})
    assert by_terminal.status_code == 403
    assert by_terminal.json()["code"] == "role_not_allowed"

    voided = post(supervisor, f"{ROUNDS}{opened['id']}/void/", {"reason": "misdeal"})

    assert voided.status_code == 200
    assert voided.json()["state"] == "void"
    assert balance_cents(table=table.table, kind=AccountKind.WAGERS) == 0
    assert balance_cents(table=table.table, kind=AccountKind.PATRONS) == 0


@pytest.mark.parametrize(
    ("seats", "code"),
    [
        ([{"seat": 1, "wagers": [{"kind": "T18", "amount_cents": 100}]}], "primary_required"),
        ([{"seat": 1, "wagers": [primary(2_501), {"kind": "LS", "amount_cents": 1_251}]}], "left_side_limit"),
        ([{"seat": 1, "wagers": [primary(2_000), {"kind": "T20", "amount_cents": 600}, {"kind": "RS", "amount_cents": 500}]}], "right_side_limit"),
        ([{"seat": 1, "wagers": [primary(100)]}], "below_table_minimum"),
        ([{"seat": 1, "wagers": [primary(10_000_000)]}], "above_table_maximum"),
        ([{"seat": 1, "wagers": [primary(1_000), {"kind": "T22", "amount_cents": 100}]}], "unknown_wager_kind"),
        ([{"seat": 1, "wagers": [primary(1_000)]}, {"seat": 1, "wagers": [primary(1_000)]}], "duplicate_seat"),
        ([{"seat": 8, "wagers": [primary(1_000)]}], "invalid_seat"),
    ],
)  # fmt: skip
def test_placement_limits_reject_the_whole_request(
    table: TableActors, seats: list[dict[str, Any]], code: str
) -> None:
    open_shoe(table)
    before = snapshot_counts()

    response = post(table.terminal, ROUNDS, {"seats": seats})

    assert response.status_code == 422
    assert response["Content-Type"].startswith("application/problem+json")
    assert response.json()["code"] == code
    assert snapshot_counts() == before


def test_half_the_primary_is_exact_to_the_cent(table: TableActors) -> None:
    open_shoe(table)

    response = post(
        table.terminal,
        ROUNDS,
        {"seats": [{"seat": 1, "wagers": [primary(2_501), {"kind": "LS", "amount_cents": 1_250}]}]},
    )

    assert response.status_code == 201


def test_second_open_round_is_round_in_progress(table: TableActors) -> None:
    open_shoe(table)
    open_round(table, [{"seat": 1, "wagers": [primary(1_000)]}])
    before = snapshot_counts()

    response = post(table.terminal, ROUNDS, {"seats": [{"seat": 2, "wagers": [primary(1_000)]}]})

    assert response.status_code == 409
    assert response.json()["code"] == "round_in_progress"
    assert snapshot_counts() == before


def test_no_open_shoe(table: TableActors) -> None:
    response = post(table.terminal, ROUNDS, {"seats": [{"seat": 1, "wagers": [primary(1_000)]}]})

    assert response.status_code == 409
    assert response.json()["code"] == "no_open_shoe"


@pytest.mark.parametrize(
    ("card", "code"), [("ZZ", "invalid_card"), ("as", "invalid_card"), ("", "invalid_card")]
)
def test_bad_cards_are_invalid_card(table: TableActors, card: str, code: str) -> None:
    open_shoe(table)
    opened = open_round(table, [{"seat": 1, "wagers": [primary(1_000)]}])
    before = snapshot_counts()

    response = post(table.terminal, f"{ROUNDS}{opened['id']}/cards/", {"card": card})

    assert response.status_code in (400, 422)
    assert response.json()["code"] in (code, "validation_error")
    assert snapshot_counts() == before


def test_a_seventh_ace_of_spades_is_not_in_a_six_deck_shoe(table: TableActors) -> None:
    shoe = open_shoe(table)
    Shoe.objects.filter(pk=shoe["id"]).update(dealt=["AS"] * 6)
    opened = open_round(table, [{"seat": 1, "wagers": [primary(1_000)]}])
    before = snapshot_counts()

    response = post(table.terminal, f"{ROUNDS}{opened['id']}/cards/", {"card": "AS"})

    assert response.status_code == 422
    assert response.json()["code"] == "card_not_in_shoe"
    assert snapshot_counts() == before
    assert Shoe.objects.get(pk=shoe["id"]).dealt == ["AS"] * 6


def test_a_card_when_an_action_is_due_is_no_card_expected(table: TableActors) -> None:
    open_shoe(table)
    opened = open_round(table, [{"seat": 1, "wagers": [primary(1_000)]}])
    deal(table.terminal, opened["id"], ["5S", "9H", "6C", "7D"])

    response = post(table.terminal, f"{ROUNDS}{opened['id']}/cards/", {"card": "2C"})

    assert response.status_code == 422
    assert response.json()["code"] == "no_card_expected"


def test_wrong_seat_is_not_your_turn_and_bad_action_lists_the_allowed(table: TableActors) -> None:
    open_shoe(table)
    opened = open_round(
        table, [{"seat": 1, "wagers": [primary(1_000)]}, {"seat": 2, "wagers": [primary(1_000)]}]
    )
    deal(table.terminal, opened["id"], ["5S", "6S", "9H", "6C", "7D", "7H"])

    wrong_seat = post(
        table.terminal, f"{ROUNDS}{opened['id']}/actions/", {"seat": 2, "hand": 0, "action": "hit"}
    )
    not_allowed = post(
        table.terminal, f"{ROUNDS}{opened['id']}/actions/", {"seat": 1, "hand": 0, "action": "split"}
    )

    assert wrong_seat.status_code == 422
    assert wrong_seat.json()["code"] == "not_your_turn"
    assert not_allowed.status_code == 422
    assert not_allowed.json()["code"] == "action_not_allowed"
    assert "hit, stand, double" in not_allowed.json()["detail"]


def test_settle_before_the_end_is_not_ready_to_settle(table: TableActors) -> None:
    open_shoe(table)
    opened = open_round(table, [{"seat": 1, "wagers": [primary(1_000)]}])

    response = post(table.terminal, f"{ROUNDS}{opened['id']}/settle/")

    assert response.status_code == 409
    assert response.json()["code"] == "not_ready_to_settle"


def test_stale_expected_seq_changes_nothing(table: TableActors) -> None:
    open_shoe(table)
    opened = open_round(table, [{"seat": 1, "wagers": [primary(1_000)]}])
    deal(table.terminal, opened["id"], ["5S"])
    before = snapshot_counts()

    response = post(
        table.terminal, f"{ROUNDS}{opened['id']}/cards/", {"card": "9H", "expected_seq": opened["seq"]}
    )

    assert response.status_code == 409
    assert response.json()["code"] == "stale_round"
    assert snapshot_counts() == before


def test_a_terminal_cannot_touch_another_tables_round(make_table: Any) -> None:
    mine, other = make_table("BJ-A"), make_table("BJ-B")
    open_shoe(other)
    theirs = open_round(other, [{"seat": 1, "wagers": [primary(1_000)]}])

    read = mine.terminal.get(f"{ROUNDS}{theirs['id']}/")
    write = post(mine.terminal, f"{ROUNDS}{theirs['id']}/cards/", {"card": "5S"})

    assert read.status_code == 403
    assert read.json()["code"] == "other_table"
    assert write.status_code == 403
    assert write.json()["code"] == "other_table"
    assert Round.objects.get(pk=theirs["id"]).seq == 0
