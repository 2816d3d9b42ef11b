"""Round detail for disputes (issue 12, item 4), read through Django's test client: the round's
story, its re-verification (which must be able to fail), electronic shoes, special-card rounds,
the rounds index, and who may read which round. The browser flows are in
test_round_detail_browser.py; these helpers play the rounds for both."""

from collections.abc import Callable
from typing import Any, cast

import pytest
from django.contrib.auth.models import User
from django.test import Client

from blackjack.models import Round, RoundEvent, Settlement, SettlementLine
from casino.models import GameKind, Pit, Shoe, StaffProfile
from specials.models import SpecialsRound
from tests.support.api import TableActors, new_patron, post
from tests.support.factories import StaffFactory
from tests.support.round_stories import (
    ROUNDS,
    call,
    play_disputed_round,
    play_electronic_round_and_close_shoe,
    play_special_round,
)


def staff_client(role: str, *, pits: tuple[Pit, ...] = (), username: str | None = None) -> Client:
    staff = StaffFactory.create(username=username or f"{role}-reader", role=role)
    StaffProfile.objects.get(user_id=staff.user.pk).pits.set(pits)
    client = Client()
    client.force_login(cast(User, staff.user))
    return client


# --- the tests -------------------------------------------------------------------------------

pytestmark = pytest.mark.django_db


def test_a_settled_round_tells_its_story_in_dealing_order_and_dollars(table: TableActors) -> None:
    settled = play_disputed_round(table)
    boss = staff_client("pit_boss", pits=(table.table.pit,))

    page = boss.get(f"/floor/rounds/{settled['id']}/")

    assert page.status_code == 200
    steps = [(s.number, s.card.label if s.card else s.action, s.recipient, s.face)
             for s in page.context["story"].steps]  # fmt: skip
    assert steps == [
        (1, "10♠", "Seat 2", "face up"), (2, "6♣", "Seat 5", "face up"), (3, "9♥", "Dealer", "up card"),
        (4, "8♣", "Seat 2", "face up"), (5, "5♦", "Seat 5", "face up"), (6, "9♦", "Dealer", "hole card"),
        (7, "stand", "Seat 2", ""), (8, "double down", "Seat 5", ""), (9, "10♥", "Seat 5", "face up"),
    ]  # fmt: skip
    text = page.content.decode()
    for shown in ("$202.00", "$392.00", "-$190.00", "$90.00", "$92.00", "$200.00", "Version 1",
                  table.table.terminal.name, "casino.round.settled", "casino.round.action_applied"):  # fmt: skip
        assert shown in text, shown


def test_re_verify_finds_the_stored_settlement_to_the_cent(table: TableActors) -> None:
    settled = play_disputed_round(table)
    boss = staff_client("pit_boss", pits=(table.table.pit,))

    page = boss.get(f"/floor/rounds/{settled['id']}/reverify/")

    assert page.status_code == 200
    verdict = page.context["verdict"]
    assert verdict.matches
    assert [(line.seat, line.hand, line.kind) for line in verdict.lines] == [
        (2, 0, "primary"), (2, 0, "T18"), (5, 0, "primary")
    ]  # fmt: skip
    assert "The recomputed settlement matches to the cent." in page.content.decode()


def test_re_verify_reports_a_tampered_settlement_line(table: TableActors) -> None:
    settled = play_disputed_round(table)
    SettlementLine.objects.filter(settlement__round_id=settled["id"], kind="T18").update(
        paid_cents=9_300, win_cents=9_100
    )
    boss = staff_client("pit_boss", pits=(table.table.pit,))

    page = boss.get(f"/floor/rounds/{settled['id']}/reverify/")

    verdict = page.context["verdict"]
    assert not verdict.matches
    [differing] = verdict.differing_lines
    assert (differing.kind, differing.stored.paid_cents, differing.recomputed.paid_cents) == (
        "T18",
        9_300,
        9_200,
    )
    text = page.content.decode()
    assert "matches to the cent" not in text
    assert "differs from the stored one: 1 line and 0 figures" in text
    assert "$93.00" in text
    assert "$92.00" in text


def test_re_verify_holds_the_totals_against_the_ledger(table: TableActors) -> None:
    settled = play_disputed_round(table)
    Settlement.objects.filter(round_id=settled["id"]).update(paid_cents=39_100, house_net_cents=-18_900)
    boss = staff_client("floor_supervisor", pits=(table.table.pit,))

    verdict = boss.get(f"/floor/rounds/{settled['id']}/reverify/").context["verdict"]

    assert [(f.label, f.stored, f.recomputed) for f in verdict.differing_figures] == [
        ("Paid to players", 39_100, 39_200),
        ("House net", -18_900, -19_000),
    ]
    assert {f.label for f in verdict.figures if f.matches} >= {
        "Ledger: paid to players",
        "Ledger: staked by players",
    }


def test_a_stored_event_the_engine_refuses_is_shown_and_fails_re_verification(table: TableActors) -> None:
    settled = play_disputed_round(table)
    RoundEvent.objects.filter(round_id=settled["id"], number=7).update(action="split")  # 10 and 8: no pair
    boss = staff_client("pit_boss", pits=(table.table.pit,))

    story = boss.get(f"/floor/rounds/{settled['id']}/")
    verified = boss.get(f"/floor/rounds/{settled['id']}/reverify/")

    assert [step.number for step in story.context["story"].steps if step.refused] == [7]
    assert "The engine refuses this stored event" in story.content.decode()
    assert not verified.context["verdict"].matches
    text = verified.content.decode()
    assert "The stored events do not replay:" in text
    assert "is not allowed now; allowed: hit, stand, double" in text


def test_a_voided_round_re_verifies_against_the_wagers_returned(table: TableActors, supervisor: Any) -> None:
    call(table, "/api/v1/shoes/", {"mode": "reported"}, status=201)
    opened = call(table, ROUNDS, {"seats": [{"seat": 1, "wagers": [{"kind": "primary", "amount_cents": 1_500}]}]},
                  status=201)  # fmt: skip
    call(table, f"{ROUNDS}{opened['id']}/cards/", {"card": "5S"})
    assert post(supervisor, f"{ROUNDS}{opened['id']}/void/", {"reason": "misdeal"}).status_code == 200
    boss = staff_client("pit_boss", pits=(table.table.pit,))

    page = boss.get(f"/floor/rounds/{opened['id']}/reverify/")

    verdict = page.context["verdict"]
    assert verdict.matches
    assert ("Ledger: returned to players", 1_500, 1_500) in [
        (f.label, f.stored, f.recomputed) for f in verdict.figures
    ]
    assert "misdeal" in boss.get(f"/floor/rounds/{opened['id']}/").content.decode()


def test_a_voided_round_names_its_patron_and_shows_its_hands_voided(
    table: TableActors, supervisor: Any
) -> None:
    patron = new_patron(supervisor, "Ada Byron")
    call(table, "/api/v1/shoes/", {"mode": "reported"}, status=201)
    seats = [{"seat": 2, "patron": patron, "wagers": [{"kind": "primary", "amount_cents": 1_500}]}]
    opened = call(table, ROUNDS, {"seats": seats}, status=201)
    for card in ("5S", "9H", "7C", "8D"):
        call(table, f"{ROUNDS}{opened['id']}/cards/", {"card": card})
    assert post(supervisor, f"{ROUNDS}{opened['id']}/void/", {"reason": "misdeal"}).status_code == 200
    boss = staff_client("pit_boss", pits=(table.table.pit,))

    page = boss.get(f"/floor/rounds/{opened['id']}/")

    story = page.context["story"]
    assert [(seat.seat, seat.player) for seat in story.seats] == [(2, f"Patron {patron} Ada Byron")]
    assert [(hand.owner, hand.total, hand.status) for hand in story.hands] == [
        ("Seat 2", 12, "voided"),
        ("Dealer", 17, ""),
    ]
    text = page.content.decode()
    assert f"Patron {patron} Ada Byron" in text
    assert "<td>voided</td>" in text
    assert "<td>playing</td>" not in text
    assert "Reported shoe: the dealer dealt each card from the physical shoe" in text
    assert "drew each card itself" not in text


def test_an_electronic_shoe_round_shows_the_electronic_legend_only(table: TableActors) -> None:
    _, settled = play_electronic_round_and_close_shoe(table)
    boss = staff_client("pit_boss", pits=(table.table.pit,))

    text = boss.get(f"/floor/rounds/{settled['id']}/").content.decode()

    assert '"Electronic shoe": the service drew each card itself' in text
    assert "Reported shoe" not in text


def test_an_open_round_keeps_the_hole_card_face_down(table: TableActors) -> None:
    call(table, "/api/v1/shoes/", {"mode": "reported"}, status=201)
    opened = call(table, ROUNDS, {"seats": [{"seat": 1, "wagers": [{"kind": "primary", "amount_cents": 1_500}]}]},
                  status=201)  # fmt: skip
    for card in ("5S", "9H", "6C", "KD"):
        call(table, f"{ROUNDS}{opened['id']}/cards/", {"card": card})
    boss = staff_client("pit_boss", pits=(table.table.pit,))

    page = boss.get(f"/floor/rounds/{opened['id']}/")

    hole = page.context["story"].steps[3]
    assert (hole.card, hole.recipient) == (None, "Dealer")
    assert "K♦" not in page.content.decode()
    assert boss.get(f"/floor/rounds/{opened['id']}/reverify/").context["verdict"].matches


def test_rounds_of_another_pit_are_not_found(make_table: Callable[..., TableActors]) -> None:
    table = make_table("BJ-01", pit_name="Pit 1")
    other = make_table("BJ-02", pit_name="Pit 2")
    settled = play_disputed_round(table)
    outsider = staff_client("pit_boss", pits=(other.table.pit,))
    shoe_id = Round.objects.get(pk=settled["id"]).shoe_id

    for path in (f"/floor/rounds/{settled['id']}/", f"/floor/rounds/{settled['id']}/reverify/",
                 f"/floor/rounds/shoes/{shoe_id}/", f"/floor/rounds/?table={table.table.pk}"):  # fmt: skip
        assert outsider.get(path).status_code == 404, path
    searched = outsider.get("/floor/rounds/", {"kind": "round", "number": settled["id"]})
    assert f"No blackjack round {settled['id']} on your tables." in searched.content.decode()
    assert staff_client("compliance").get(f"/floor/rounds/{settled['id']}/").status_code == 200
    assert Client().get(f"/floor/rounds/{settled['id']}/").status_code == 302  # to the sign-in page


def test_the_index_lists_rounds_and_finds_one_by_number(table: TableActors) -> None:
    settled = play_disputed_round(table)
    boss = staff_client("pit_boss", pits=(table.table.pit,))

    index = boss.get("/floor/rounds/", {"table": table.table.pk})
    found = boss.get("/floor/rounds/", {"kind": "round", "number": settled["id"]})
    malformed = boss.get("/floor/rounds/", {"kind": "round", "number": "12a"})

    assert [r.pk for r in index.context["rounds"]] == [settled["id"]]
    assert found.status_code == 302
    assert found["Location"] == f"/floor/rounds/{settled['id']}/"
    assert "Enter the number alone, such as 1234." in malformed.content.decode()


def test_an_electronic_shoe_keeps_its_order_secret_until_it_closes_then_verifies(table: TableActors) -> None:
    shoe = call(table, "/api/v1/shoes/", {"mode": "electronic"}, status=201)
    stored = Shoe.objects.get(pk=shoe["id"])
    reader = staff_client("compliance")

    while_open = reader.get(f"/floor/rounds/shoes/{shoe['id']}/").content.decode()
    call(table, f"/api/v1/shoes/{shoe['id']}/close/")
    closed = reader.get(f"/floor/rounds/shoes/{shoe['id']}/")
    Shoe.objects.filter(pk=shoe["id"]).update(salt_hex="ab" * 32)
    tampered = reader.get(f"/floor/rounds/shoes/{shoe['id']}/")

    assert shoe["commitment"] in while_open
    assert stored.salt_hex not in while_open
    assert "reveal-order" not in while_open
    assert closed.context["check"].verified
    assert "Verified: the revealed order and salt hash to the published commitment" in closed.content.decode()
    assert stored.salt_hex in closed.content.decode()
    assert not tampered.context["check"].commitment_matches
    assert "The reveal does NOT verify" in tampered.content.decode()


def test_a_special_card_round_tells_its_story_and_re_verifies(make_table: Callable[..., TableActors]) -> None:
    actors = make_table("SP-01", game=GameKind.SPECIAL_POINTS)
    call(actors, "/api/v1/shoes/", {"mode": "reported"}, status=201)
    finished = play_special_round(actors)
    boss = staff_client("pit_boss", pits=(actors.table.pit,))

    page = boss.get(f"/floor/rounds/specials/{finished['id']}/")
    verified = boss.get(f"/floor/rounds/specials/{finished['id']}/reverify/")
    SpecialsRound.objects.filter(pk=finished["id"]).update(
        outcome=[{"seat": 1, "result": "win", "delta": 1, "points": 6},
                 {"seat": 2, "result": "draw", "delta": 0, "points": 5}]
    )  # fmt: skip
    tampered = boss.get(f"/floor/rounds/specials/{finished['id']}/reverify/")

    text = page.content.decode()
    steps = [(s.card.label if s.card else s.what, s.recipient, s.face) for s in page.context["story"].steps]
    assert steps[:6] == [("10♠", "Seat 1", "face up"), ("9♥", "Seat 2", "face up"), ("7♣", "Dealer", "up card"),
                         ("8♦", "Seat 1", "face up"), ("5♠", "Seat 2", "face up"), ("K♦", "Dealer", "hole card")]  # fmt: skip
    assert steps[6:] == [("stand", "Seat 1", ""), ("use the special card", "Seat 2", ""), ("hit", "Seat 2", ""),
                         ("6♥", "Seat 2", "face up")]  # fmt: skip
    assert "specials.round.card_dealt" in text
    assert [(e.seat, e.delta, e.balance) for e in page.context["story"].points_entries] == [
        (1, 1, 6),
        (2, 1, 6),
    ]
    assert verified.context["verdict"].matches
    assert "The replay matches the stored round" in verified.content.decode()
    assert not tampered.context["verdict"].matches
    assert [row.seat for row in tampered.context["verdict"].outcome if not row.matches] == [2]
