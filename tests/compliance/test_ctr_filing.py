"""Title 31 filing on the console and through the services: identification kept as revisions, the
MTL's description kept as written, a CTR worksheet filed once (its gaming day over, its patron
identified with everything Form 112 needs, a BSA ID of 14 digits), the Title 31 documents printing
the identification, and the SAR referral queue that only compliance sees."""

import csv
import datetime as dt
import io
import itertools
from typing import Any, cast

import pytest
from django.db import DatabaseError, transaction
from django.test import Client
from rest_framework.test import APIClient

from audit.context import AuditActor
from audit.models import AuditEvent
from kernel.errors import ConflictError
from patrons.models import Patron, PatronIdentification
from table_money.models import CtrFiling, CtrWorksheet, MtlEntry, SarDecision, SarReferral
from table_money.services import filing
from tests.floor.form_keys import post_form
from tests.support.api import TableActors, cash_buy_in, new_patron, ok, post, problem, redeem
from tests.support.factories import StaffFactory
from tests.support.gaming_day import CASINO_ZONE, GAMING_DAY, Clock
from tests.support.report_documents import pdf_page_texts

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("title31_clock")]

TWO_DAYS_LATER = dt.datetime(2026, 11, 22, 10, 0, tzinfo=CASINO_ZONE)
COMPLETE = {
    "last_name": "Ruiz",
    "first_name": "Ana",
    "middle_name": "",
    "street": "100 Main Street",
    "city": "Las Vegas",
    "state": "NV",
    "zip_code": "89101",
    "country": "US",
    "date_of_birth": "1980-05-17",
    "tin": "123-45-6789",
    "tin_type": "ssn_itin",
    "occupation": "Nurse",
    "id_type": "drivers_license",
    "id_number": "NV1234567",
    "id_issuer_state": "NV",
    "id_issuer_country": "US",
    "id_expires_on": "2029-05-17",
}
SYSTEM = AuditActor(kind="system", username="test")


_STAFF_NUMBERS = itertools.count()


def signed_in(role: str) -> Client:
    staff = StaffFactory.create(username=f"{role}-filing-{next(_STAFF_NUMBERS)}", role=role)
    client = Client()
    client.force_login(cast(Any, staff.user))
    return client


def _identify(client: Client, number: int, **fields: str) -> Any:
    return post_form(client, f"/floor/patrons/{number}/identify/", fields)


@pytest.fixture
def over_the_line(open_tables: list[TableActors], supervisor_client: APIClient) -> dict[str, Any]:
    """A patron put on file as "Tall man, red cap" buys in $12,000 cash: an MTL entry and a CTR."""
    number = new_patron(supervisor_client, "Tall man, red cap")
    ok(cash_buy_in(open_tables[0], 1_200_000, patron=number), 201)
    (worksheet,) = CtrWorksheet.objects.all()
    return {"number": number, "worksheet": worksheet}


def test_identifying_keeps_the_mtl_description_and_every_earlier_revision(
    over_the_line: dict[str, Any],
) -> None:
    number = over_the_line["number"]
    pit_boss = signed_in("pit_boss")
    first = _identify(
        pit_boss, number, last_name="Ruiz", first_name="Ana", id_type="passport", id_number="X1"
    )
    assert first.status_code == 302
    second = _identify(pit_boss, number, **COMPLETE)
    assert second.status_code == 302

    (entry,) = MtlEntry.objects.all()
    assert entry.description == "Tall man, red cap"
    assert entry.patron is not None
    assert entry.patron.name == "Ana Ruiz"
    revisions = list(PatronIdentification.objects.filter(patron__number=number).order_by("revision"))
    assert [(r.revision, r.id_type, r.id_number, r.street) for r in revisions] == [
        (1, "passport", "X1", ""),
        (2, "drivers_license", "NV1234567", "100 Main Street"),
    ]
    assert Patron.objects.get(number=number).current_identification == revisions[1]
    with pytest.raises(DatabaseError), transaction.atomic():
        PatronIdentification.objects.filter(pk=revisions[0].pk).update(id_number="X2")

    day = signed_in("compliance").get(f"/floor/compliance/{GAMING_DAY.isoformat()}/").content.decode()
    assert "Tall man, red cap" in day
    assert "identified since as Ana Ruiz" in day
    page = pit_boss.get(f"/floor/patrons/{number}/").content.decode()
    assert "•••••6789" in page
    assert "123456789" not in page
    assert "123456789" in signed_in("compliance").get(f"/floor/patrons/{number}/").content.decode()


def test_a_correction_may_leave_the_tin_as_it_is_on_file(over_the_line: dict[str, Any]) -> None:
    number = over_the_line["number"]
    cashier = signed_in("cage_cashier")
    assert _identify(cashier, number, **COMPLETE).status_code == 302
    assert _identify(cashier, number, **{**COMPLETE, "tin": "", "street": "7 Elm Road"}).status_code == 302
    current = Patron.objects.get(number=number).current_identification
    assert current is not None
    assert (current.revision, current.street, current.tin) == (2, "7 Elm Road", "123456789")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"id_expires_on": "2026-11-19"}, "The identification expired on 2026-11-19"),
        ({"date_of_birth": "2030-01-01"}, "The date of birth cannot be in the future."),
        ({"date_of_birth": "17/05/1980"}, "Enter a valid date."),
        ({"date_of_birth": "1980-02-30"}, "Enter a valid date."),
        ({"tin": "000-00-0000"}, "That is not a number the SSA or the IRS issues."),
        ({"state": "ZZ"}, "ZZ is not a US state or territory code."),
        ({"country": "U$"}, "The country is its two-letter code"),
        ({"zip_code": "ABCDE"}, "A US ZIP code is 5 or 9 digits."),
        ({"last_name": "x" * 151}, "Ensure this value has at most 150 characters"),
        ({"last_name": "Ruiz\x00"}, "Null characters are not allowed."),
        ({"id_type": "library_card"}, "Select a valid choice."),
        ({"id_number": ""}, "This field is required."),
    ],
)
def test_a_bad_identification_is_a_form_error_and_changes_nothing(
    over_the_line: dict[str, Any], change: dict[str, str], message: str
) -> None:
    number = over_the_line["number"]
    answer = _identify(signed_in("floor_supervisor"), number, **{**COMPLETE, **change})
    assert answer.status_code == 200
    assert message in answer.content.decode()
    assert not PatronIdentification.objects.exists()
    assert Patron.objects.get(number=number).name == "Tall man, red cap"


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        (
            {
                "last_name": "Kim",
                "identification_type": "passport",
                "identification_reference": "P1",
                "date_of_birth": "not a date",
            },
            400,
            "validation_error",
        ),
        (
            {
                "last_name": "Kim",
                "identification_type": "passport",
                "identification_reference": "P1",
                "id_expires_on": "2020-01-01",
            },
            422,
            "identification_expired",
        ),
        (
            {
                "last_name": "Kim",
                "identification_type": "passport",
                "identification_reference": "P1",
                "tin": "123456789",
            },
            422,
            "tin_type_required",
        ),
        (
            {
                "last_name": "Kim",
                "identification_type": "passport",
                "identification_reference": "P1",
                "tin_type": "ssn",
            },
            400,
            "validation_error",
        ),
        (
            {"last_name": "Kim\u0000", "identification_type": "passport", "identification_reference": "P1"},
            400,
            "validation_error",
        ),
        (
            {"last_name": ["Kim"], "identification_type": "passport", "identification_reference": "P1"},
            400,
            "validation_error",
        ),
        (
            {"last_name": "Kim", "identification_type": "passport", "identification_reference": "P" * 26},
            400,
            "validation_error",
        ),
        ({"identification_type": "passport", "identification_reference": "P1"}, 422, "name_required"),
    ],
)
def test_a_bad_identification_through_the_api_is_refused_and_changes_nothing(
    supervisor_client: APIClient, body: dict[str, Any], status: int, code: str
) -> None:
    number = new_patron(supervisor_client, "Woman, green scarf")
    problem(post(supervisor_client, f"/api/v1/patrons/{number}/identify/", body), status, code)
    assert not PatronIdentification.objects.exists()


def _file(client: Client, worksheet: CtrWorksheet, **fields: str) -> Any:
    return post_form(client, f"/floor/compliance/ctrs/{worksheet.pk}/", fields)


def test_a_ctr_is_filed_once_its_day_is_over_and_its_patron_fully_identified(
    over_the_line: dict[str, Any], title31_clock: Clock
) -> None:
    worksheet, number = over_the_line["worksheet"], over_the_line["number"]
    compliance = signed_in("compliance")
    body = {"bsa_id": "31000123456789", "filed_on": "2026-11-22"}

    early = _file(compliance, worksheet, **{**body, "filed_on": "2026-11-20"})
    assert "The gaming day is not over" in early.content.decode()

    title31_clock.set(TWO_DAYS_LATER)
    compliance = signed_in("compliance")  # a console session does not outlive two idle days
    unidentified = _file(compliance, worksheet, **body)
    assert f"Patron {number} is not identified." in unidentified.content.decode()
    _identify(compliance, number, last_name="Ruiz", id_type="passport", id_number="X1")
    incomplete = _file(compliance, worksheet, **body).content.decode()
    assert "lacks what the CTR needs: first name, street address" in incomplete
    assert not CtrFiling.objects.exists()

    _identify(compliance, number, **COMPLETE)
    filed = _file(compliance, worksheet, **body)
    assert filed.status_code == 302
    page = compliance.get(filed["Location"]).content.decode()
    assert "The CTR is recorded as filed on 2026-11-22, BSA ID 31000123456789." in page
    assert '<dd id="ctr-state-value">Filed</dd>' in page
    assert "Record the filing" not in page
    filing_row = CtrFiling.objects.get()
    assert (filing_row.bsa_id, filing_row.filed_on, filing_row.identification.revision) == (
        "31000123456789",
        dt.date(2026, 11, 22),
        2,
    )
    event = AuditEvent.objects.get(event_type="compliance.ctr.filed")
    assert (event.after or {})["bsa_id"] == "31000123456789"
    assert (event.after or {})["due_on"] == "2026-12-05"

    with pytest.raises(ConflictError) as again:
        filing.record_ctr_filing(
            worksheet_id=worksheet.pk,
            bsa_id="31000123456790",
            filed_on=dt.date(2026, 11, 22),
            user=filing_row.filed_by,
            actor=SYSTEM,
            now=TWO_DAYS_LATER,
        )
    assert again.value.code == "ctr_already_filed"
    listing = compliance.get("/floor/compliance/ctrs/?state=filed").content.decode()
    assert "31000123456789" in listing


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"bsa_id": "3100012345678", "filed_on": "2026-11-22"}, "A BSA ID is the 14 digits"),
        ({"bsa_id": "00000000000000", "filed_on": "2026-11-22"}, "A BSA ID is the 14 digits"),
        ({"bsa_id": "31000-12345678", "filed_on": "2026-11-22"}, "A BSA ID is the 14 digits"),
        ({"bsa_id": "=1+1", "filed_on": "2026-11-22"}, "A BSA ID is the 14 digits"),
        ({"bsa_id": "3" * 21, "filed_on": "2026-11-22"}, "Ensure this value has at most 20 characters"),
        ({"bsa_id": "31000123456789", "filed_on": "2026-11-23"}, "A filing date cannot be in the future."),
        ({"bsa_id": "31000123456789", "filed_on": "2026-11-19"}, "It was filed on or after 2026-11-20."),
        ({"bsa_id": "31000123456789", "filed_on": "yesterday"}, "Enter a valid date."),
        ({"bsa_id": "31000123456789\x00", "filed_on": "2026-11-22"}, "Null characters are not allowed."),
        ({"bsa_id": "", "filed_on": ""}, "This field is required."),
    ],
)
def test_a_bad_filing_is_a_form_error_and_records_nothing(
    over_the_line: dict[str, Any], title31_clock: Clock, body: dict[str, str], message: str
) -> None:
    worksheet, number = over_the_line["worksheet"], over_the_line["number"]
    title31_clock.set(TWO_DAYS_LATER)
    compliance = signed_in("compliance")
    _identify(compliance, number, **COMPLETE)
    answer = _file(compliance, worksheet, **body)
    assert answer.status_code == 200
    assert message in answer.content.decode()
    assert not CtrFiling.objects.exists()
    assert not AuditEvent.objects.filter(event_type="compliance.ctr.filed").exists()


def test_a_superseded_revision_is_not_filed_and_an_unfiled_ctr_turns_overdue(
    over_the_line: dict[str, Any], open_tables: list[TableActors], title31_clock: Clock
) -> None:
    number = over_the_line["number"]
    ok(cash_buy_in(open_tables[1], 300_000, patron=number), 201)
    first, second = CtrWorksheet.objects.order_by("revision")
    title31_clock.set(TWO_DAYS_LATER)
    compliance = signed_in("compliance")
    _identify(compliance, number, **COMPLETE)
    refused = _file(compliance, first, bsa_id="31000123456789", filed_on="2026-11-22").content.decode()
    assert "Revision 2 of this worksheet is the one to file, not 1." in refused

    listing = compliance.get("/floor/compliance/ctrs/").content.decode()
    assert "2026-12-05" in listing
    assert "Overdue" not in listing
    title31_clock.set(dt.datetime(2026, 12, 6, 10, 0, tzinfo=CASINO_ZONE))
    overdue = signed_in("compliance").get("/floor/compliance/ctrs/?state=overdue").content.decode()
    assert '<span class="alarm">Overdue</span>' in overdue
    assert f"/floor/compliance/ctrs/{second.pk}/" in overdue
    assert f"/floor/compliance/ctrs/{first.pk}/" not in overdue  # only the latest revision is listed


def test_only_compliance_files(over_the_line: dict[str, Any]) -> None:
    worksheet = over_the_line["worksheet"]
    for role in ("pit_boss", "floor_supervisor", "cage_cashier", "admin"):
        client = signed_in(role)
        assert client.get(f"/floor/compliance/ctrs/{worksheet.pk}/").status_code == 403
        assert client.get("/floor/compliance/ctrs/").status_code == 403
    assert signed_in("compliance").get("/floor/compliance/ctrs/999999/").status_code == 404


def test_the_title31_documents_print_the_identification_page_numbers_and_the_figures_hash(
    over_the_line: dict[str, Any], cashier: APIClient
) -> None:
    number = over_the_line["number"]
    compliance = signed_in("compliance")
    _identify(compliance, number, **COMPLETE)
    ok(redeem(cashier, 350_000, description="Man, grey suit"), 201)
    day = f"/floor/compliance/{GAMING_DAY.isoformat()}/"

    rows = [
        row for row in csv.reader(io.StringIO(compliance.get(day + "title31.csv").content.decode())) if row
    ]
    (version,) = [row for row in rows if row[0] == "Version"]
    digest = version[3]
    assert len(digest) == 64
    assert version[1] == f"title31-2-{digest[:12]}"
    (ctr,) = [row for row in rows if row[0] == "CTR"]
    assert ctr[9] == "Ruiz, Ana; Driver's licence •••••4567 (NV US); 100 Main Street, Las Vegas, NV 89101, US"
    assert ctr[10:] == ["due", "2026-12-05", "", ""]

    pages = pdf_page_texts(compliance.get(day + "title31.pdf").content)
    for page_number, text in enumerate(pages, start=1):
        assert f"Page {page_number} of {len(pages)}" in text
        assert f"Figures SHA-256 {digest}" in text
    words = " ".join(" ".join(pages).split())
    assert "•••••4567" in words
    assert "NEEDED" not in words
    assert "Tall man, red cap" in words  # the MTL as it was taken


def test_staff_refer_suspicious_activity_and_only_compliance_sees_the_queue(
    over_the_line: dict[str, Any],
) -> None:
    number = over_the_line["number"]
    cashier = signed_in("cage_cashier")
    referred = post_form(
        cashier,
        "/floor/patrons/refer/",
        {
            "patron": str(number),
            "description": "",
            "gaming_day": GAMING_DAY.isoformat(),
            "amount": "9,500",
            "narrative": "Asked twice how to stay under the reporting line; split his cash-out.",
        },
    )
    assert referred.status_code == 302
    confirmation = cashier.get(referred["Location"]).content.decode()
    assert "Your referral is recorded" in confirmation
    referral = SarReferral.objects.get()
    assert (referral.patron_id, referral.amount_cents, referral.referred_by_role) == (
        Patron.objects.get(number=number).pk,
        950_000,
        "cage_cashier",
    )
    event = AuditEvent.objects.get(event_type="compliance.sar.referred")
    assert str(number) not in event.subject_label + str(event.after)  # the trail names no patron

    for role in ("cage_cashier", "pit_boss", "floor_supervisor", "admin"):
        client = signed_in(role)
        assert client.get("/floor/compliance/sar/").status_code == 403
        assert client.get(f"/floor/compliance/sar/{referral.pk}/").status_code == 403
    assert "Refer as suspicious" in cashier.get(f"/floor/patrons/{number}/").content.decode()
    assert "SAR" not in cashier.get(f"/floor/patrons/{number}/").content.decode()

    compliance = signed_in("compliance")
    queue = compliance.get("/floor/compliance/sar/").content.decode()
    assert f"/floor/compliance/sar/{referral.pk}/" in queue
    assert "Tall man, red cap" in queue
    url = f"/floor/compliance/sar/{referral.pk}/"
    no_reason = post_form(compliance, url, {"outcome": "no_sar", "reason": " "})
    assert "Write the reason no SAR is filed." in no_reason.content.decode()
    bad_id = post_form(compliance, url, {"outcome": "sar_filed", "bsa_id": "123", "filed_on": "2026-11-20"})
    assert "A BSA ID is the 14 digits" in bad_id.content.decode()
    mixed = post_form(compliance, url, {"outcome": "no_sar", "bsa_id": "31000123456789", "reason": "x"})
    assert "a BSA ID or filing date does not belong" in mixed.content.decode()
    assert not SarDecision.objects.exists()

    decided = post_form(
        compliance, url, {"outcome": "sar_filed", "bsa_id": "31000987654321", "filed_on": "2026-11-20"}
    )
    assert decided.status_code == 302
    page = compliance.get(url).content.decode()
    assert "SAR filed: filed 2026-11-20, BSA ID 31000987654321" in page
    assert "Record the decision" not in page
    with pytest.raises(ConflictError) as again:
        filing.decide_sar_referral(
            referral_id=referral.pk,
            outcome="no_sar",
            bsa_id="",
            filed_on=None,
            reason="second thoughts",
            user=SarDecision.objects.get().decided_by,
            actor=SYSTEM,
            now=dt.datetime(2026, 11, 20, 11, 0, tzinfo=CASINO_ZONE),
        )
    assert again.value.code == "sar_already_decided"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"patron": "", "description": "", "narrative": "x"}, "Name the patron (their number) or describe"),
        ({"patron": "999999", "description": "", "narrative": "x"}, "No patron number 999999 is on file."),
        ({"patron": "-1", "description": "", "narrative": "x"}, "greater than or equal to 1"),
        ({"patron": "", "description": "Man", "narrative": "  "}, "This field is required."),
        ({"patron": "", "description": "Man", "narrative": "x" * 4001}, "at most 4000 characters"),
        ({"patron": "", "description": "Man", "narrative": "x", "amount": "-5"}, "cannot be negative"),
        (
            {"patron": "", "description": "Man", "narrative": "x", "gaming_day": "2026-11-22"},
            "cannot be in the future",
        ),
    ],
)
def test_a_bad_referral_is_a_form_error_and_records_nothing(body: dict[str, str], message: str) -> None:
    answer = post_form(
        signed_in("pit_boss"), "/floor/patrons/refer/", {"gaming_day": GAMING_DAY.isoformat(), **body}
    )
    assert answer.status_code == 200
    assert message in answer.content.decode()
    assert not SarReferral.objects.exists()


def test_the_title31_api_answers_the_days_mtl_and_ctr_with_their_filing_state(
    over_the_line: dict[str, Any], cashier: APIClient, make_staff: Any
) -> None:
    number = over_the_line["number"]
    ok(redeem(cashier, 350_000, description="Man, grey suit"), 201)
    compliance = make_staff("compliance")[1]
    answer = ok(compliance.get("/api/v1/title31/", {"gaming_day": GAMING_DAY.isoformat()}))
    assert answer["gaming_day"] == GAMING_DAY.isoformat()
    assert [
        (m["patron"], m["description"], m["direction"], m["amount_cents"], m["kind"]) for m in answer["mtl"]
    ] == [
        (number, "Tall man, red cap", "in", 1_200_000, "buy_in"),
        (None, "Man, grey suit", "out", 350_000, "redemption"),
    ]
    (ctr,) = answer["ctr"]
    assert {key: ctr[key] for key in ("patron", "direction", "total_cents", "identified")} == {
        "patron": number,
        "direction": "in",
        "total_cents": 1_200_000,
        "identified": False,
    }
    assert (ctr["due_on"], ctr["filing_state"], ctr["bsa_id"]) == ("2026-12-05", "due", None)

    as_csv = compliance.get(
        "/api/v1/title31/", {"gaming_day": GAMING_DAY.isoformat()}, HTTP_ACCEPT="text/csv"
    )
    assert as_csv["Content-Type"] == "text/csv; charset=utf-8"
    rows = list(csv.DictReader(io.StringIO(as_csv.content.decode())))
    assert [(row["record"], row["amount_cents"], row["filing_state"]) for row in rows] == [
        ("MTL", "1200000", ""),
        ("MTL", "350000", ""),
        ("CTR", "1200000", "due"),
    ]


@pytest.mark.parametrize(
    ("gaming_day", "code"),
    [
        ("", "validation_error"),
        ("2026-13-01", "validation_error"),
        ("yesterday", "validation_error"),
        ("2026-11-20\x00", "validation_error"),
        ("1999-12-31", "gaming_day_out_of_range"),
    ],
)
def test_the_title31_api_refuses_a_bad_gaming_day_with_a_problem(
    make_staff: Any, gaming_day: str, code: str
) -> None:
    compliance = make_staff("compliance")[1]
    problem(compliance.get("/api/v1/title31/", {"gaming_day": gaming_day}), 400, code)


def test_only_compliance_reads_the_title31_api(make_staff: Any) -> None:
    for role in ("pit_boss", "floor_supervisor", "cage_cashier", "admin"):
        problem(
            make_staff(role)[1].get("/api/v1/title31/", {"gaming_day": GAMING_DAY.isoformat()}),
            403,
            "role_not_allowed",
        )


def test_a_bsa_id_names_one_report_only(over_the_line: dict[str, Any], title31_clock: Clock) -> None:
    worksheet, number = over_the_line["worksheet"], over_the_line["number"]
    title31_clock.set(TWO_DAYS_LATER)
    compliance = signed_in("compliance")
    _identify(compliance, number, **COMPLETE)
    post_form(
        compliance,
        "/floor/patrons/refer/",
        {"patron": str(number), "gaming_day": "2026-11-21", "narrative": "Structured buy-ins."},
    )
    referral = SarReferral.objects.get()
    decided = post_form(
        compliance,
        f"/floor/compliance/sar/{referral.pk}/",
        {"outcome": "sar_filed", "bsa_id": "31000123456789", "filed_on": "2026-11-22"},
    )
    assert decided.status_code == 302
    reused = _file(compliance, worksheet, bsa_id="31000123456789", filed_on="2026-11-22")
    assert "BSA ID 31000123456789 is already recorded for another report." in reused.content.decode()
    assert not CtrFiling.objects.exists()


@pytest.mark.parametrize(
    "next_page", ["https://evil.example/", "//evil.example/x", "javascript:alert(1)", "/floor/cage/"]
)
def test_identifying_returns_only_to_a_page_of_this_site(
    over_the_line: dict[str, Any], next_page: str
) -> None:
    number = over_the_line["number"]
    client = signed_in("cage_cashier")
    answer = post_form(
        client,
        f"/floor/patrons/{number}/identify/?next={next_page}",
        {**COMPLETE, "next": next_page},
    )
    assert answer.status_code == 302
    expected = next_page if next_page == "/floor/cage/" else f"/floor/patrons/{number}/"
    assert answer["Location"] == expected
