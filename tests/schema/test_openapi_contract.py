"""The OpenAPI schema states what the server accepts (API.md): ranges, choices and patterns the
services check, a required Idempotency-Key on every POST, a JSON object as every body, and the
problem+json answers each operation can give."""

import re
import warnings
from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.validation import validate_schema

from casino.engine.cards import ALL_CARDS

Schema = dict[str, Any]


@pytest.fixture(scope="module")
def schema() -> Schema:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        generated: Schema = SchemaGenerator().get_schema(request=None, public=True)
    assert [str(w.message) for w in caught] == []
    validate_schema(generated)
    return generated


def body(schema: Schema, path: str) -> Schema:
    content = schema["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
    return resolved(schema, content)


def resolved(schema: Schema, node: Schema) -> Schema:
    """`node` with its `$ref` (or a lone `allOf` reference) followed, and the others merged in."""
    if "$ref" in node:
        return resolved(schema, schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]])
    if "allOf" in node and len(node["allOf"]) == 1 and "$ref" in node["allOf"][0]:
        rest = {key: value for key, value in node.items() if key != "allOf"}
        return {**resolved(schema, node["allOf"][0]), **rest}
    return node


def prop(schema: Schema, path: str, *names: str) -> Schema:
    node = body(schema, path)
    for name in names:
        node = resolved(schema, node["items"] if name == "[]" else node["properties"][name])
    return node


def operations(schema: Schema) -> list[tuple[str, str, Schema]]:
    return [(path, method, op) for path, ops in schema["paths"].items() for method, op in ops.items()]


def test_seats_are_1_to_7_wherever_a_seat_is_named(schema: Schema) -> None:
    for path, names in [
        ("/api/v1/rounds/", ("seats", "[]", "seat")),
        ("/api/v1/buy-ins/", ("seat",)),
        ("/api/v1/rounds/{round_id}/actions/", ("seat",)),
    ]:
        seat = prop(schema, path, *names)
        assert (seat["minimum"], seat["maximum"]) == (1, 7), path


def test_a_round_opens_with_one_to_seven_seats_each_with_a_wager(schema: Schema) -> None:
    seats = prop(schema, "/api/v1/rounds/", "seats")
    assert (seats["minItems"], seats["maxItems"]) == (1, 7)
    assert prop(schema, "/api/v1/rounds/", "seats", "[]", "wagers")["minItems"] == 1


def test_wager_kinds_cards_and_decks_are_the_values_the_services_take(schema: Schema) -> None:
    kind = prop(schema, "/api/v1/rounds/", "seats", "[]", "wagers", "[]", "kind")
    assert kind["enum"] == ["primary", "T17", "T18", "T19", "T20", "T21", "TBJ", "LS", "RS"]
    card = prop(schema, "/api/v1/rounds/{round_id}/cards/", "card")
    assert card["enum"] == [str(c) for c in ALL_CARDS]
    assert len(card["enum"]) == 52
    shoe_decks = body(schema, "/api/v1/shoes/")["properties"]["decks"]
    assert [resolved(schema, option).get("enum") for option in shoe_decks["oneOf"]] == [[6, 8], [None]]
    assert prop(schema, "/api/v1/paytables/", "decks")["enum"] == [6, 8]
    assert prop(schema, "/api/v1/paytables/", "blackjack_pays")["enum"] == ["3:2", "6:5"]


def test_pays_are_one_whole_figure_for_each_tie_bonus_kind(schema: Schema) -> None:
    pays = prop(schema, "/api/v1/paytables/", "pays")
    kinds = ["T17", "T18", "T19", "T20", "T21", "TBJ", "LS", "RS"]
    assert pays["required"] == kinds
    assert pays["additionalProperties"] is False
    assert {kind: (p["type"], p["minimum"], p["maximum"]) for kind, p in pays["properties"].items()} == {
        kind: ("integer", 1, 100_000) for kind in kinds
    }


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/fills/",
        "/api/v1/credits/",
        "/api/v1/tables/{table_id}/open/",
        "/api/v1/tables/{table_id}/close/",
    ],
)
def test_chips_are_counted_by_the_denominations_in_use(schema: Schema, path: str) -> None:
    chips = prop(schema, path, "chips")
    assert chips["additionalProperties"] is False
    assert list(chips["properties"]) == [
        "50", "100", "250", "500", "2500", "10000", "50000", "100000", "500000", "1000000"
    ]  # fmt: skip
    assert all((c["minimum"], c["maximum"]) == (0, 1_000_000) for c in chips["properties"].values())


def test_amounts_start_at_one_cent_and_a_count_at_nothing(schema: Schema) -> None:
    for path in ["/api/v1/buy-ins/", "/api/v1/fills/", "/api/v1/credits/"]:
        assert prop(schema, path, "amount_cents")["minimum"] == 1, path
    assert prop(schema, "/api/v1/rounds/", "seats", "[]", "wagers", "[]", "amount_cents")["minimum"] == 1
    assert prop(schema, "/api/v1/tables/{table_id}/open/", "total_cents")["minimum"] == 0


@pytest.mark.parametrize(
    ("text", "allowed"),
    [("why", True), ("  why  ", True), ("", False), ("   ", False), ("\t\n", False), ("wh\x00y", False)],
)
def test_reasons_need_some_text_and_no_nul(schema: Schema, text: str, allowed: bool) -> None:
    """DRF strips a reason and refuses it blank, and refuses a NUL anywhere."""
    for path in ["/api/v1/rounds/{round_id}/void/", "/api/v1/fills/{slip_id}/void/"]:
        assert bool(re.search(prop(schema, path, "reason")["pattern"], text)) is allowed, path
    reject = prop(schema, "/api/v1/paytables/{version}/reject/", "reason")
    assert bool(re.search(reject["allOf"][0]["pattern"], text)) is allowed


def test_every_post_needs_an_idempotency_key_of_1_to_255_printable_characters(schema: Schema) -> None:
    posts = [(path, op) for path, method, op in operations(schema) if method == "post"]
    assert len(posts) >= 20
    for path, op in posts:
        (key,) = [p for p in op.get("parameters", []) if p["name"] == "Idempotency-Key"]
        assert key["in"] == "header", path
        assert key["required"] is True, path
        assert (key["schema"]["minLength"], key["schema"]["maxLength"]) == (1, 255), path


def test_every_post_body_is_a_json_object(schema: Schema) -> None:
    for path, method, op in operations(schema):
        if method == "post":
            content = op["requestBody"]["content"]["application/json"]["schema"]
            assert resolved(schema, content)["type"] == "object", path


def test_every_refusal_is_problem_json_with_the_statuses_the_operation_can_give(schema: Schema) -> None:
    for path, method, op in operations(schema):
        refusals = {status for status in op["responses"] if status[0] == "4"}
        expected = {"401", "403", "406", "429"}
        if method == "post":
            expected |= {"400", "409", "413", "415", "422"}
        if "{" in path:
            expected.add("404")
        assert expected <= refusals, (method, path)
        for status in refusals:
            content = op["responses"][status]["content"]
            assert content == {
                "application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}
            }
        assert op["responses"]["401"]["headers"]["WWW-Authenticate"]["required"] is True
    assert "415" not in schema["paths"]["/api/v1/terminal/"]["get"]["responses"]


def test_staff_name_the_table_of_a_slip_which_may_not_exist(schema: Schema) -> None:
    assert "404" in schema["paths"]["/api/v1/fills/"]["post"]["responses"]
    table = prop(schema, "/api/v1/fills/", "table")
    assert (table["minimum"], table["maximum"]) == (1, 2**63 - 1)


def test_report_formats_and_audit_paging_are_bounded(schema: Schema) -> None:
    report = {p["name"]: p for p in schema["paths"]["/api/v1/reports/shifts/"]["get"]["parameters"]}
    assert report["format"]["schema"]["enum"] == ["csv", "csv-machine", "json", "pdf"]
    assert report["gaming_day"]["required"] is True
    assert "404" in schema["paths"]["/api/v1/reports/shifts/"]["get"]["responses"]  # an unknown ?format=
    audit = {p["name"]: p for p in schema["paths"]["/api/v1/audit/events/"]["get"]["parameters"]}
    assert (audit["page_size"]["schema"]["minimum"], audit["page_size"]["schema"]["maximum"]) == (1, 1000)
    assert (
        audit["chain"]["schema"]["pattern"] == "^(casino|table:[1-9][0-9]{0,18}|tournament:[1-9][0-9]{0,18})$"
    )


def test_path_ids_are_positive_database_ids(schema: Schema) -> None:
    for path, _, op in operations(schema):
        for parameter in op.get("parameters", []):
            if parameter["in"] == "path":
                assert (parameter["schema"]["minimum"], parameter["schema"]["maximum"]) == (1, 2**63 - 1), (
                    path
                )
