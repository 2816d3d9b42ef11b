"""Malformed bodies get a problem+json 4xx with a stable code and change nothing: depth, size,
Unicode and shape limits of the API's one JSON parser, and the 422 codes API.md names for values
out of range."""

import json
import uuid
from typing import Any

import pytest
from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.test import RequestFactory
from rest_framework.renderers import JSONRenderer
from rest_framework.test import APIClient

from audit.models import AuditEvent
from blackjack.models import Round
from bonus_tie.models import PaytableStatus, PaytableVersion
from casino.models import LedgerEntry, Shoe, Terminal
from kernel.parsers import MAX_DEPTH
from kernel.problems import bad_request, problem
from tests.bonus_tie.conftest import LOW_PAYS, Staff, compliance, compute, pit_boss, propose, staff
from tests.support.api import TableActors, post

pytestmark = pytest.mark.django_db

__all__ = ["compliance", "pit_boss", "staff"]  # fixtures the paytable tests use

PROBLEM = "application/problem+json"
ROUNDS = "/api/v1/rounds/"


def send(client: APIClient, url: str, raw: bytes | str, **headers: Any) -> Any:
    """POST `raw` as it is, with a fresh Idempotency-Key."""
    headers.setdefault("content_type", "application/json")
    return client.post(url, raw, HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()), **headers)


def assert_problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content[:500]
    assert response["Content-Type"] == PROBLEM
    body = dict(json.loads(response.content.decode("utf-8")))  # strict UTF-8: no lone surrogate
    assert (body["status"], body["code"]) == (status, code), body
    assert set(body) == {"type", "title", "status", "detail", "code", "errors"}
    for error in body["errors"]:
        assert set(error) == {"field", "code", "message"}
    return body


def nested(depth: int) -> str:
    """`{"mode": [[...]]}`: an object holding lists, `depth` levels in all."""
    return '{"mode": ' + "[" * (depth - 1) + "]" * (depth - 1) + "}"


def shoe_count() -> int:
    return Shoe.objects.count()


# --- depth -------------------------------------------------------------------------------------


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 950, 5_000, 100_000])
def test_json_nested_deeper_than_the_limit_is_malformed_request(table: TableActors, depth: int) -> None:
    before = shoe_count()

    response = send(table.terminal, "/api/v1/shoes/", nested(depth))

    body = assert_problem(response, 400, "malformed_request")
    assert str(MAX_DEPTH) in body["detail"]
    assert shoe_count() == before


def test_json_at_the_depth_limit_is_parsed_and_validated(table: TableActors) -> None:
    response = send(table.terminal, "/api/v1/shoes/", nested(MAX_DEPTH))

    body = assert_problem(response, 400, "validation_error")
    assert body["errors"][0]["field"] == "mode"


# --- size --------------------------------------------------------------------------------------


def test_a_body_over_the_upload_limit_is_413(table: TableActors) -> None:
    padding = "x" * settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    before = shoe_count()

    response = send(table.terminal, "/api/v1/shoes/", json.dumps({"mode": "reported", "pad": padding}))

    body = assert_problem(response, 413, "request_too_large")
    assert str(settings.DATA_UPLOAD_MAX_MEMORY_SIZE) in body["detail"]
    assert shoe_count() == before


def test_a_content_length_claiming_too_large_a_body_is_413(table: TableActors) -> None:
    before = shoe_count()

    response = send(
        table.terminal,
        "/api/v1/shoes/",
        '{"mode": "reported"}',
        CONTENT_LENGTH=str(settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1),
    )

    assert_problem(response, 413, "request_too_large")
    assert shoe_count() == before


# --- Unicode -----------------------------------------------------------------------------------

LONE_SURROGATE = '"\\ud800"'  # JSON text of a string holding U+D800 alone, put where `@` is


def _surrogate_cases(table: TableActors) -> list[tuple[str, str]]:
    return [
        ("/api/v1/shoes/", '{"mode": @}'.replace("@", LONE_SURROGATE)),
        ("/api/v1/buy-ins/", '{"seat": 1, "amount_cents": 500, "method": @}'.replace("@", LONE_SURROGATE)),
        ("/api/v1/fills/", '{"amount_cents": 500, "chips": {@: 1}}'.replace("@", LONE_SURROGATE)),
        ("/api/v1/credits/", '{"amount_cents": 500, "chips": {@: 1}}'.replace("@", LONE_SURROGATE)),
        ("/api/v1/rounds/1/actions/", '{"seat": 1, "hand": 0, "action": @}'.replace("@", LONE_SURROGATE)),
        ("/api/v1/rounds/", '{"seats": [{"seat": 1, "wagers": [{"kind": @, "amount_cents": 5}]}]}'
         .replace("@", LONE_SURROGATE)),
        ("/api/v1/terminal/sign-in/", '{"badge": "a\\udfffb", "pin": "1"}'),
    ]  # fmt: skip


def test_a_lone_surrogate_anywhere_in_a_terminal_body_is_400_and_not_echoed(table: TableActors) -> None:
    for url, raw in _surrogate_cases(table):
        response = send(table.terminal, url, raw)

        body = assert_problem(response, 400, "malformed_request")
        assert "\\ud800" not in response.content.decode("utf-8"), url
        assert "Unicode" in body["detail"]
    assert shoe_count() == 0


@pytest.mark.parametrize("action", ["open", "close"])
def test_a_lone_surrogate_in_a_supervisors_chip_key_is_400(
    table: TableActors, supervisor: APIClient, action: str
) -> None:
    response = send(
        supervisor,
        f"/api/v1/tables/{table.table.pk}/{action}/",
        '{"total_cents": 500, "chips": {@: 1}}'.replace("@", LONE_SURROGATE),
    )

    assert_problem(response, 400, "malformed_request")


def test_a_lone_surrogate_in_a_paytable_pays_key_is_400(pit_boss: Staff) -> None:
    before = PaytableVersion.objects.count()

    response = send(pit_boss.client, "/api/v1/paytables/", '{"pays": {@: 5}}'.replace("@", LONE_SURROGATE))

    assert_problem(response, 400, "malformed_request")
    assert PaytableVersion.objects.count() == before


@pytest.mark.parametrize(
    "raw", [b'{"mode": "reported\xff"}', b'{"mode": "\xed\xa0\x80"}', b"\xfe\xff\x00{", b'{"mode": "\xc3"}']
)
def test_bytes_that_are_not_utf8_are_400(table: TableActors, raw: bytes) -> None:
    response = send(table.terminal, "/api/v1/shoes/", raw)

    body = assert_problem(response, 400, "malformed_request")
    assert "UTF-8" in body["detail"]
    assert shoe_count() == 0


def test_a_problem_never_writes_a_lone_surrogate_it_quotes() -> None:
    response = problem(
        status_code=422,
        code="some_code",
        detail="not a kind: \ud800",
        errors=[{"field": "pays.\udfff", "code": "some_code", "message": "\ud800"}],
    )

    text = JSONRenderer().render(response.data).decode("utf-8")

    assert "\\\\ud800" in text
    assert "\\\\udfff" in text


# --- bodies that are not objects ---------------------------------------------------------------

NOT_OBJECTS = ["[]", "null", "false", "0", '""', "[{}]", "1.5", '"{}"', " ", "{", "{}}", "NaN"]


def ready_to_settle(table: TableActors) -> int:
    assert post(table.terminal, "/api/v1/shoes/", {"mode": "reported"}).status_code == 201
    opened = post(
        table.terminal,
        ROUNDS,
        {"seats": [{"seat": 2, "wagers": [{"kind": "primary", "amount_cents": 10_000}]}]},
    ).json()
    for card in ["TS", "9H", "8C", "9D"]:
        assert post(table.terminal, f"{ROUNDS}{opened['id']}/cards/", {"card": card}).status_code == 200
    stood = post(
        table.terminal, f"{ROUNDS}{opened['id']}/actions/", {"seat": 2, "hand": 0, "action": "stand"}
    )
    assert stood.json()["state"] == "ready_to_settle"
    return int(opened["id"])


def test_settle_refuses_a_body_that_is_not_a_json_object(table: TableActors) -> None:
    round_id = ready_to_settle(table)
    entries = LedgerEntry.objects.count()

    for raw in NOT_OBJECTS:
        response = send(table.terminal, f"{ROUNDS}{round_id}/settle/", raw)

        assert_problem(response, 400, "malformed_request")
        assert Round.objects.get(pk=round_id).state == "ready_to_settle", raw
        assert LedgerEntry.objects.count() == entries

    # No body at all is still a settle (API.md shows none).
    settled = table.terminal.post(f"{ROUNDS}{round_id}/settle/", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()))
    assert settled.status_code == 200, settled.content
    assert settled.json()["state"] == "settled"


def test_paytable_approve_refuses_a_body_that_is_not_a_json_object(
    pit_boss: Staff, compliance: Staff
) -> None:
    version = propose(pit_boss, LOW_PAYS).version
    compute(version)
    events = AuditEvent.objects.count()

    for raw in NOT_OBJECTS:
        response = send(compliance.client, f"/api/v1/paytables/{version}/approve/", raw)

        assert_problem(response, 400, "malformed_request")
        assert PaytableVersion.objects.get(version=version).status == PaytableStatus.PROPOSED, raw
        assert AuditEvent.objects.count() == events

    approved = compliance.client.post(
        f"/api/v1/paytables/{version}/approve/", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4())
    )
    assert approved.status_code == 200, approved.content
    assert approved.json()["status"] == PaytableStatus.APPROVED


@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/x-www-form-urlencoded", "application/xml"]
)
def test_a_body_that_is_not_json_is_415(table: TableActors, content_type: str) -> None:
    response = send(table.terminal, "/api/v1/shoes/", "mode=reported", content_type=content_type)

    assert_problem(response, 415, "unsupported_media_type")
    assert shoe_count() == 0


# --- the 422 codes of API.md -------------------------------------------------------------------


def open_shoe(table: TableActors) -> None:
    assert post(table.terminal, "/api/v1/shoes/", {"mode": "reported"}).status_code == 201


@pytest.mark.parametrize("kind", ["LS ", " LS", "primary ", "\tT17", "", "L\x00S"])
def test_a_padded_or_blank_wager_kind_is_unknown_wager_kind(table: TableActors, kind: str) -> None:
    open_shoe(table)
    seats = [
        {
            "seat": 1,
            "wagers": [{"kind": "primary", "amount_cents": 1_000}, {"kind": kind, "amount_cents": 100}],
        }
    ]

    response = post(table.terminal, ROUNDS, {"seats": seats})

    body = assert_problem(response, 422, "unknown_wager_kind")
    assert body["errors"][0]["code"] == "unknown_wager_kind"
    assert Round.objects.count() == 0


@pytest.mark.parametrize("decks", [-1, 0, 1001, -(10**30), 10**30, 7])
def test_a_shoe_of_other_than_6_or_8_decks_is_invalid_deck_count(table: TableActors, decks: int) -> None:
    response = post(table.terminal, "/api/v1/shoes/", {"mode": "reported", "decks": decks})

    body = assert_problem(response, 422, "invalid_deck_count")
    assert body["errors"] == [{"field": "decks", "code": "invalid_deck_count", "message": body["detail"]}]
    assert shoe_count() == 0


@pytest.mark.parametrize("decks", [-1, 1001, 10**30])
def test_a_paytable_for_other_than_6_or_8_decks_is_invalid_deck_count(pit_boss: Staff, decks: int) -> None:
    before = PaytableVersion.objects.count()

    response = post(pit_boss.client, "/api/v1/paytables/", {"pays": LOW_PAYS, "decks": decks})

    assert_problem(response, 422, "invalid_deck_count")
    assert PaytableVersion.objects.count() == before


@pytest.mark.parametrize("seat", [-1001, 1001, 0, 8, 10**30])
def test_a_seat_out_of_range_opening_a_round_is_invalid_seat(table: TableActors, seat: int) -> None:
    open_shoe(table)

    response = post(
        table.terminal,
        ROUNDS,
        {"seats": [{"seat": seat, "wagers": [{"kind": "primary", "amount_cents": 1_000}]}]},
    )

    body = assert_problem(response, 422, "invalid_seat")
    assert body["errors"][0]["field"].endswith("seat")
    assert Round.objects.count() == 0


@pytest.mark.parametrize("seat", [-1001, 1001, 10**30])
def test_a_seat_out_of_range_buying_in_is_invalid_seat(table: TableActors, seat: int) -> None:
    response = post(table.terminal, "/api/v1/buy-ins/", {"seat": seat, "amount_cents": 500, "method": "cash"})

    assert_problem(response, 422, "invalid_seat")
    assert LedgerEntry.objects.count() == 0


@pytest.mark.parametrize("card", ["", "\x00", "A\x00S", "AS\x00", " AS", "AS "])
def test_a_blank_padded_or_nul_card_is_invalid_card(table: TableActors, card: str) -> None:
    open_shoe(table)
    opened = post(
        table.terminal,
        ROUNDS,
        {"seats": [{"seat": 1, "wagers": [{"kind": "primary", "amount_cents": 1_000}]}]},
    ).json()

    response = post(table.terminal, f"{ROUNDS}{opened['id']}/cards/", {"card": card})

    body = assert_problem(response, 422, "invalid_card")
    assert body["errors"][0]["field"] == "card"
    assert Round.objects.get(pk=opened["id"]).seq == opened["seq"]


def test_a_body_too_large_for_django_itself_is_413_on_api_paths_only() -> None:
    """What Django refuses before DRF runs goes through the project's handler400."""
    too_big = RequestDataTooBig("Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE.")

    api = bad_request(RequestFactory().post("/api/v1/shoes/"), too_big)
    admin = bad_request(RequestFactory().post("/admin/login/"), too_big)

    assert (api.status_code, api["Content-Type"]) == (413, PROBLEM)
    assert json.loads(api.content)["code"] == "request_too_large"
    assert admin.status_code == 400
    assert not admin["Content-Type"].startswith(PROBLEM)


def test_a_padded_blackjack_pays_is_invalid_blackjack_pays(pit_boss: Staff) -> None:
    before = PaytableVersion.objects.count()

    response = post(pit_boss.client, "/api/v1/paytables/", {"pays": LOW_PAYS, "blackjack_pays": " 3:2"})

    assert_problem(response, 422, "invalid_blackjack_pays")
    assert PaytableVersion.objects.count() == before


def test_a_padded_badge_signs_no_one_in(make_table: Any) -> None:
    actors = make_table("PAD-1", signed_in=False)
    badge = actors.provisioned.dealer.badge

    response = post(
        actors.terminal,
        "/api/v1/terminal/sign-in/",
        {"badge": f" {badge} ", "pin": actors.provisioned.dealer_pin},
    )

    assert_problem(response, 401, "bad_credentials")
    assert Terminal.objects.get(pk=actors.provisioned.terminal.pk).dealer_id is None
