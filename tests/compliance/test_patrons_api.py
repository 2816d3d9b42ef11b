"""Patrons through the API: created with a casino-issued number, found by number or name, quoted
on buy-ins and round seats; bad input is refused and changes nothing."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from audit.models import AuditEvent
from blackjack.models import Round, RoundSeat
from casino.models import LedgerEntry
from patrons.models import Patron, PatronIdentification
from table_money.models import BuyIn
from tests.compliance.conftest import Staff
from tests.support.api import TableActors, cash_buy_in, listed, new_patron, ok, post, problem

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("title31_clock")]


def test_patrons_get_casino_issued_numbers_and_are_found_by_number_or_name(
    supervisor_client: APIClient,
) -> None:
    anonymous = ok(post(supervisor_client, "/api/v1/patrons/", {"name": "Man in the red cap"}), 201)
    identified = ok(
        post(
            supervisor_client,
            "/api/v1/patrons/",
            {
                "name": "Ana Ruiz",
                "last_name": "Ruiz",
                "first_name": "Ana",
                "identification_type": "passport",
                "identification_reference": "X1234567",
            },
        ),
        201,
    )

    assert anonymous["number"] >= 100_001
    assert identified["number"] > anonymous["number"]
    assert (anonymous["is_identified"], identified["is_identified"]) == (False, True)
    assert identified["identification_type"] == "passport"
    by_name = listed(supervisor_client.get("/api/v1/patrons/", {"q": "ruiz"}))
    by_number = listed(supervisor_client.get("/api/v1/patrons/", {"q": str(anonymous["number"])}))
    assert [p["number"] for p in by_name] == [identified["number"]]
    assert [p["number"] for p in by_number] == [anonymous["number"]]
    assert AuditEvent.objects.filter(event_type="casino.patron.created").count() == 2


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        (
            {"name": "Ana", "last_name": "Ana", "identification_type": "passport"},
            422,
            "identification_incomplete",
        ),
        (
            {"name": "Ana", "last_name": "Ana", "identification_reference": "X1"},
            422,
            "invalid_identification_type",
        ),
        ({"name": "Ana", "identification_reference": "X1"}, 422, "name_required"),
        ({"name": "   "}, 400, "validation_error"),
        (
            {"name": "Ana", "identification_type": "library_card", "identification_reference": "1"},
            400,
            "validation_error",
        ),
        ({}, 400, "validation_error"),
    ],
)
def test_bad_patrons_are_refused_and_change_nothing(
    supervisor_client: APIClient, body: dict[str, str], status: int, code: str
) -> None:
    problem(post(supervisor_client, "/api/v1/patrons/", body), status, code)
    assert not Patron.objects.exists()


def test_who_may_create_and_find_patrons(make_staff: Staff, table: TableActors) -> None:
    for role in ("pit_boss", "cage_cashier", "compliance", "admin"):
        new_patron(make_staff(role)[1], f"Patron of {role}")
    problem(post(table.terminal, "/api/v1/patrons/", {"name": "Ana"}), 403, "role_not_allowed")
    problem(table.terminal.get("/api/v1/patrons/"), 403, "role_not_allowed")
    assert Patron.objects.count() == 4


def test_identifying_an_anonymous_patron_is_audited_and_a_correction_is_a_new_revision(
    supervisor_client: APIClient,
) -> None:
    number = new_patron(supervisor_client, "Woman, green scarf")
    body = {
        "last_name": "Kim",
        "first_name": "Bea",
        "identification_type": "drivers_license",
        "identification_reference": "D55",
        "id_issuer_state": "NV",
        "id_issuer_country": "US",
        "tin": "123-45-6789",
        "tin_type": "ssn_itin",
    }
    identified = ok(post(supervisor_client, f"/api/v1/patrons/{number}/identify/", body))
    assert identified["is_identified"] is True
    assert identified["name"] == "Bea Kim"
    assert identified["identification"]["tin"] == "•••••6789"  # a supervisor sees it masked
    event = AuditEvent.objects.get(event_type="casino.patron.identified")
    assert (event.before or {})["name"] == "Woman, green scarf"
    assert (event.after or {})["identification"]["id_number"] == "D55"
    assert (event.after or {})["identification"]["tin"] == "•••••6789"  # never in the clear

    corrected = ok(
        post(
            supervisor_client,
            f"/api/v1/patrons/{number}/identify/",
            {
                **body,
                "identification_type": "passport",
                "identification_reference": "P1",
                "id_issuer_state": "",
            },
        )
    )
    assert (corrected["identification"]["revision"], corrected["identification_reference"]) == (2, "P1")
    revisions = PatronIdentification.objects.filter(patron__number=number).order_by("revision")
    assert [(r.revision, r.id_type, r.id_number, r.tin) for r in revisions] == [
        (1, "drivers_license", "D55", "123456789"),
        (2, "passport", "P1", "123456789"),
    ]
    assert AuditEvent.objects.filter(event_type="casino.patron.identification_corrected").count() == 1


def test_a_buy_in_names_its_patron_and_an_unknown_one_changes_nothing(
    open_tables: list[TableActors], supervisor_client: APIClient
) -> None:
    number = new_patron(supervisor_client, "Ana Ruiz")
    table = open_tables[0]

    made = ok(cash_buy_in(table, 50_000, patron=number), 201)
    assert made["patron"] == number
    assert BuyIn.objects.get(pk=made["id"]).patron == Patron.objects.get(number=number)

    entries, buy_ins = LedgerEntry.objects.count(), BuyIn.objects.count()
    body = problem(cash_buy_in(table, 50_000, patron=999_999_999), 422, "unknown_patron")
    assert body["errors"][0]["field"] == "patron"
    problem(cash_buy_in(table, 50_000, patron=True), 400, "validation_error")
    assert (LedgerEntry.objects.count(), BuyIn.objects.count()) == (entries, buy_ins)


def test_round_seats_name_their_patrons(open_tables: list[TableActors], supervisor_client: APIClient) -> None:
    table = open_tables[0]
    ok(post(table.terminal, "/api/v1/shoes/", {"mode": "electronic"}), 201)
    ana, bea = new_patron(supervisor_client, "Ana"), new_patron(supervisor_client, "Bea")
    primary = [{"kind": "primary", "amount_cents": 2_500}]

    problem(
        post(
            table.terminal,
            "/api/v1/rounds/",
            {
                "seats": [
                    {"seat": 1, "patron": ana, "wagers": primary},
                    {"seat": 2, "patron": 1, "wagers": primary},
                ]
            },
        ),
        422,
        "unknown_patron",
    )
    assert not Round.objects.exists()

    opened = ok(
        post(
            table.terminal,
            "/api/v1/rounds/",
            {
                "seats": [
                    {"seat": 1, "patron": ana, "wagers": primary},
                    {"seat": 2, "player": "walk-in", "wagers": primary},
                    {"seat": 3, "patron": bea, "player": "Bea", "wagers": primary},
                ]
            },
        ),
        201,
    )
    seats = {
        s.seat: (s.patron.number if s.patron else None, s.player)
        for s in RoundSeat.objects.filter(round_id=opened["id"]).select_related("patron")
    }
    assert seats == {1: (ana, ""), 2: (None, "walk-in"), 3: (bea, "Bea")}


def test_naming_patrons_on_seats_costs_one_query_and_naming_none_costs_nothing(
    open_tables: list[TableActors], supervisor_client: APIClient
) -> None:
    ana, bea = new_patron(supervisor_client, "Ana"), new_patron(supervisor_client, "Bea")
    primary = [{"kind": "primary", "amount_cents": 2_500}]
    counts = []
    for table, patrons in zip(open_tables, ((None, None), (ana, bea)), strict=True):
        ok(post(table.terminal, "/api/v1/shoes/", {"mode": "electronic"}), 201)
        seats = [
            {"seat": seat, "patron": patron, "wagers": primary} for seat, patron in enumerate(patrons, 1)
        ]
        with CaptureQueriesContext(connection) as queries:
            ok(post(table.terminal, "/api/v1/rounds/", {"seats": seats}), 201)
        counts.append(len(queries.captured_queries))
    assert counts[1] == counts[0] + 1


@pytest.mark.parametrize(
    "query",
    [
        "",
        " ",
        "%",
        "_",
        "\\",
        "'; DROP TABLE casino_patron; --",
        "x" * 10_000,
        "\x00",
        "9" * 40,
        "-1",
        "名前",
    ],
)
def test_a_hostile_patron_search_is_answered_or_refused_never_a_500(
    supervisor_client: APIClient, query: str
) -> None:
    new_patron(supervisor_client, "Ana Ruiz")
    before = Patron.objects.count()

    response = supervisor_client.get("/api/v1/patrons/", {"q": query})

    assert response.status_code in (200, 400), (query[:20], response.status_code)
    if response.status_code == 400:
        assert response["Content-Type"].startswith("application/problem+json")
    assert Patron.objects.count() == before


def test_a_patron_search_with_a_lone_surrogate_is_a_clear_400(supervisor_client: APIClient) -> None:
    response = supervisor_client.get("/api/v1/patrons/?q=%ED%A0%80")

    assert response.status_code in (200, 400)
    assert response.status_code != 500
