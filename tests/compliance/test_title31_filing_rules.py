"""The rules of Title 31 filing, without a database: a CTR's due date and filing state, the BSA ID
FinCEN returns, and what an identification must say (FinCEN Form 112, Part I)."""

import dataclasses
import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernel.errors import ServiceError
from patrons.identification import IdentificationDetails, checked_details, masked_number, missing_for_filing
from table_money.engine.title31 import FilingState, ctr_due_on, ctr_filing_state, is_bsa_id

TODAY = dt.date(2026, 11, 20)
COMPLETE = IdentificationDetails(
    last_name="Ruiz",
    first_name="Ana",
    middle_name="Maria",
    street="100 Main Street",
    city="Las Vegas",
    state="nv",
    zip_code="89101-1234",
    country="us",
    date_of_birth=dt.date(1980, 5, 17),
    tin="123-45-6789",
    tin_type="ssn_itin",
    occupation="Nurse",
    id_type="drivers_license",
    id_number="nv-1234567",
    id_issuer_state="NV",
    id_issuer_country="US",
    id_expires_on=dt.date(2029, 5, 17),
)


def test_a_ctr_is_due_fifteen_calendar_days_after_its_gaming_day() -> None:
    assert ctr_due_on(dt.date(2026, 11, 20)) == dt.date(2026, 12, 5)
    assert ctr_due_on(dt.date(2026, 12, 20)) == dt.date(2027, 1, 4)  # across the year end


@pytest.mark.parametrize(
    ("today", "filed", "state"),
    [
        (dt.date(2026, 11, 21), False, FilingState.DUE),
        (dt.date(2026, 12, 5), False, FilingState.DUE),  # the due date itself is still in time
        (dt.date(2026, 12, 6), False, FilingState.OVERDUE),
        (dt.date(2026, 12, 6), True, FilingState.FILED),
        (dt.date(2026, 11, 21), True, FilingState.FILED),
    ],
)
def test_a_ctrs_filing_state(today: dt.date, filed: bool, state: FilingState) -> None:
    assert ctr_filing_state(gaming_day=dt.date(2026, 11, 20), filed=filed, today=today) == state


@pytest.mark.parametrize(
    ("text", "valid"),
    [
        ("31000123456789", True),
        ("00000000000001", True),
        ("00000000000000", False),  # "unknown" on an amendment, never a filed report's
        ("3100012345678", False),  # 13 digits
        ("310001234567890", False),  # 15 digits
        ("3100012345678X", False),
        ("3100-123456789", False),
        ("".join(chr(0xFF10 + int(d)) for d in "31000123456789"), False),  # full-width digits
        ("", False),
        (" 31000123456789", False),
    ],
)
def test_a_bsa_id_is_fourteen_ascii_digits(text: str, valid: bool) -> None:
    assert is_bsa_id(text) is valid


@given(st.text(max_size=20))
def test_anything_but_fourteen_digits_is_no_bsa_id(text: str) -> None:
    assert is_bsa_id(text) == (len(text) == 14 and text.isascii() and text.isdigit() and set(text) != {"0"})


def test_a_complete_identification_is_cleaned_and_has_everything_a_ctr_needs() -> None:
    cleaned = checked_details(COMPLETE, today=TODAY)
    assert (cleaned.state, cleaned.country, cleaned.zip_code) == ("NV", "US", "891011234")
    assert (cleaned.tin, cleaned.id_number) == ("123456789", "NV-1234567")
    assert cleaned.full_name == "Ana Maria Ruiz"
    assert missing_for_filing(cleaned) == []


def test_an_identification_with_only_the_document_identifies_but_cannot_be_filed() -> None:
    minimal = IdentificationDetails(last_name="Kim", id_type="passport", id_number="P1")
    checked_details(minimal, today=TODAY)
    assert missing_for_filing(minimal) == [
        "first name",
        "street address",
        "city",
        "ZIP or postal code",
        "country",
        "date of birth",
        "taxpayer identification number",
        "TIN type",
        "occupation",
        "identification issuing country",
    ]
    us_licence = dataclasses.replace(checked_details(COMPLETE, today=TODAY), id_issuer_state="", state="")
    assert missing_for_filing(us_licence) == ["state", "identification issuing state"]


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        ({"date_of_birth": dt.date(2026, 11, 21)}, "invalid_date_of_birth", "date_of_birth"),
        ({"date_of_birth": dt.date(1899, 12, 31)}, "invalid_date_of_birth", "date_of_birth"),
        ({"id_expires_on": dt.date(2026, 11, 19)}, "identification_expired", "id_expires_on"),
        ({"id_expires_on": dt.date(2099, 1, 1)}, "invalid_expiry", "id_expires_on"),
        ({"tin": "000-12-3456"}, "invalid_tin", "tin"),
        ({"tin": "666-12-3456"}, "invalid_tin", "tin"),
        ({"tin": "123-00-3456"}, "invalid_tin", "tin"),
        ({"tin": "12345678"}, "invalid_tin", "tin"),
        ({"tin": "12345678X"}, "invalid_tin", "tin"),
        ({"tin_type": ""}, "tin_type_required", "tin_type"),
        ({"tin_type": "bank"}, "invalid_tin_type", "tin_type"),
        ({"tin": "AB<script>", "tin_type": "foreign"}, "invalid_tin", "tin"),
        ({"country": "USA"}, "invalid_country", "country"),
        ({"state": "XX"}, "invalid_state", "state"),
        ({"zip_code": "8910"}, "invalid_zip_code", "zip_code"),
        ({"last_name": "   "}, "name_required", "last_name"),
        ({"last_name": "Ruiz\x00"}, "invalid_identification", "last_name"),
        ({"city": "L" * 51}, "invalid_identification", "city"),
        ({"id_type": "library_card"}, "invalid_identification_type", "id_type"),
        ({"id_number": ""}, "identification_incomplete", "id_number"),
        ({"id_number": "A1;DROP"}, "invalid_identification", "id_number"),
        ({"id_issuer_state": "NV", "id_issuer_country": "MX"}, "invalid_state", "id_issuer_state"),
        ({"id_issuer_country": "Mexico"}, "invalid_country", "id_issuer_country"),
    ],
)
def test_an_identification_that_breaks_a_rule_is_refused_on_its_field(
    change: dict[str, object], code: str, field: str
) -> None:
    with pytest.raises(ServiceError) as refused:
        checked_details(dataclasses.replace(COMPLETE, **change), today=TODAY)  # type: ignore[arg-type]
    assert (refused.value.code, refused.value.field) == (code, field)


def test_an_identification_expiring_today_is_still_valid() -> None:
    checked_details(dataclasses.replace(COMPLETE, id_expires_on=TODAY), today=TODAY)


def test_a_foreign_address_takes_a_postal_code_and_no_state() -> None:
    foreign = dataclasses.replace(
        COMPLETE, country="MX", state="", zip_code="06600", tin="RUAA800517", tin_type="foreign"
    )
    assert checked_details(foreign, today=TODAY).zip_code == "06600"


def test_a_number_is_masked_but_for_its_last_four_characters() -> None:
    assert masked_number("123456789") == "•••••6789"
    assert masked_number("123") == "•123"
    assert masked_number("") == ""
