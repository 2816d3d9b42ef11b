"""A patron's identification as a currency transaction report (FinCEN Form 112, Part I) needs it,
and the rules it is checked against before it is recorded.

Recording an identification needs the last name and an identifying document (its type and
number); the rest may follow in a correction. A CTR is filed only for a patron whose current
identification has every field Form 112 asks for (`missing_for_filing`).

The taxpayer identification number is sensitive: it is stored as given (digits only for a US
SSN or ITIN) and shown masked (`masked_number`) to everyone but compliance.
"""

import datetime as dt
import re
from dataclasses import dataclass, fields, replace
from typing import Any

from kernel.errors import ServiceError
from patrons.models import IdentificationType, PatronIdentification, TinType

UNITED_STATES = "US"
# The states, district and territories the USPS codes (FinCEN's state list).
US_STATES = frozenset(
    [
        "AL",
        "AK",
        "AZ",
        "AR",
        "CA",
        "CO",
        "CT",
        "DE",
        "DC",
        "FL",
        "GA",
        "HI",
        "ID",
        "IL",
        "IN",
        "IA",
        "KS",
        "KY",
        "LA",
        "ME",
        "MD",
        "MA",
        "MI",
        "MN",
        "MS",
        "MO",
        "MT",
        "NE",
        "NV",
        "NH",
        "NJ",
        "NM",
        "NY",
        "NC",
        "ND",
        "OH",
        "OK",
        "OR",
        "PA",
        "RI",
        "SC",
        "SD",
        "TN",
        "TX",
        "UT",
        "VT",
        "VA",
        "WA",
        "WV",
        "WI",
        "WY",
        "AS",
        "GU",
        "MP",
        "PR",
        "VI",
        "UM",
        "FM",
        "MH",
        "PW",
        "AA",
        "AE",
        "AP",
    ]
)
_COUNTRY = re.compile(r"^[A-Z]{2}$")
_US_ZIP = re.compile(r"^\d{5}(\d{4})?$")
_FOREIGN_POSTAL = re.compile(r"^[A-Z0-9 -]{1,9}$")
_FOREIGN_TIN = re.compile(r"^[A-Z0-9-]{1,25}$")
_ID_NUMBER = re.compile(r"^[A-Z0-9 -]{1,25}$")
_PRINTABLE = re.compile(r"^[^\x00-\x1f\x7f]*$")
EARLIEST_BIRTH = dt.date(1900, 1, 1)
LONGEST_VALIDITY_YEARS = 50


@dataclass(frozen=True, slots=True)
class IdentificationDetails:
    """What the identifying employee writes down, as typed (checked by `checked_details`)."""

    last_name: str
    first_name: str = ""
    middle_name: str = ""
    street: str = ""
    city: str = ""
    state: str = ""
    zip_code: str = ""
    country: str = ""
    date_of_birth: dt.date | None = None
    tin: str = ""
    tin_type: str = ""
    occupation: str = ""
    id_type: str = ""
    id_number: str = ""
    id_issuer_state: str = ""
    id_issuer_country: str = ""
    id_expires_on: dt.date | None = None

    @property
    def full_name(self) -> str:
        given = " ".join(part for part in (self.first_name, self.middle_name) if part)
        return f"{given} {self.last_name}".strip()


# Form 112 Part I: what a filed CTR says of the person, and the field each is typed in.
FILING_FIELDS: tuple[tuple[str, str], ...] = (
    ("last_name", "last name"),
    ("first_name", "first name"),
    ("street", "street address"),
    ("city", "city"),
    ("zip_code", "ZIP or postal code"),
    ("country", "country"),
    ("date_of_birth", "date of birth"),
    ("tin", "taxpayer identification number"),
    ("tin_type", "TIN type"),
    ("occupation", "occupation"),
    ("id_type", "identification type"),
    ("id_number", "identification number"),
    ("id_issuer_country", "identification issuing country"),
)
MAX_LENGTHS = {
    "last_name": 150,
    "first_name": 35,
    "middle_name": 35,
    "street": 100,
    "city": 50,
    "occupation": 50,
}


def _refuse(code: str, detail: str, field: str) -> ServiceError:
    return ServiceError(code, detail, field=field)


def _text(details: IdentificationDetails) -> IdentificationDetails:
    """Text fields trimmed; codes upper-cased; no control characters; within their lengths."""
    changes: dict[str, Any] = {}
    for field in fields(details):
        value = getattr(details, field.name)
        if not isinstance(value, str):
            continue
        value = " ".join(value.split()) if field.name not in ("tin",) else value.strip()
        if not _PRINTABLE.match(value):
            raise _refuse("invalid_identification", "Control characters are not allowed.", field.name)
        if field.name in (
            "state",
            "country",
            "zip_code",
            "tin",
            "id_number",
            "id_issuer_state",
            "id_issuer_country",
        ):
            value = value.upper()
        limit = MAX_LENGTHS.get(field.name, 25)
        if len(value) > limit:
            raise _refuse("invalid_identification", f"At most {limit} characters.", field.name)
        changes[field.name] = value
    return replace(details, **changes)


def _check_address(details: IdentificationDetails) -> IdentificationDetails:
    country, state, zip_code = details.country, details.state, details.zip_code
    if country and not _COUNTRY.match(country):
        raise _refuse("invalid_country", "The country is its two-letter code, such as US or MX.", "country")
    if country == UNITED_STATES:
        if state and state not in US_STATES:
            raise _refuse("invalid_state", f"{state} is not a US state or territory code.", "state")
        zip_code = zip_code.replace("-", "")
        if zip_code and not _US_ZIP.match(zip_code):
            raise _refuse("invalid_zip_code", "A US ZIP code is 5 or 9 digits.", "zip_code")
    elif zip_code and not _FOREIGN_POSTAL.match(zip_code):
        raise _refuse("invalid_zip_code", "A postal code is up to 9 letters and digits.", "zip_code")
    return replace(details, zip_code=zip_code)


def _check_tin(details: IdentificationDetails) -> IdentificationDetails:
    tin, tin_type = details.tin, details.tin_type
    if tin_type and tin_type not in TinType.values:
        raise _refuse("invalid_tin_type", "The TIN type is ssn_itin or foreign.", "tin_type")
    if tin and not tin_type:
        raise _refuse(
            "tin_type_required", "Say whether the TIN is a US SSN/ITIN or a foreign one.", "tin_type"
        )
    if tin_type == TinType.SSN_ITIN and tin:
        digits = tin.replace("-", "").replace(" ", "")
        if not (digits.isascii() and digits.isdigit() and len(digits) == 9):
            raise _refuse("invalid_tin", "An SSN or ITIN is 9 digits.", "tin")
        if digits[:3] in ("000", "666") or digits[3:5] == "00" or digits[5:] == "0000":
            raise _refuse("invalid_tin", "That is not a number the SSA or the IRS issues.", "tin")
        tin = digits
    elif tin and not _FOREIGN_TIN.match(tin):
        raise _refuse("invalid_tin", "A foreign TIN is up to 25 letters, digits and dashes.", "tin")
    return replace(details, tin=tin)


def _check_dates(details: IdentificationDetails, *, today: dt.date) -> None:
    birth, expiry = details.date_of_birth, details.id_expires_on
    if birth is not None:
        if birth > today:
            raise _refuse(
                "invalid_date_of_birth", "The date of birth cannot be in the future.", "date_of_birth"
            )
        if birth < EARLIEST_BIRTH:
            raise _refuse("invalid_date_of_birth", "The date of birth is before 1900.", "date_of_birth")
    if expiry is not None:
        if expiry < today:
            raise _refuse(
                "identification_expired",
                f"The identification expired on {expiry.isoformat()}: ask for a current one.",
                "id_expires_on",
            )
        if expiry.year > today.year + LONGEST_VALIDITY_YEARS:
            raise _refuse("invalid_expiry", "No identification is valid that long.", "id_expires_on")
        if birth is not None and expiry <= birth:
            raise _refuse(
                "invalid_expiry", "The identification expires before its holder was born.", "id_expires_on"
            )


def _check_document(details: IdentificationDetails) -> None:
    if not details.last_name:
        raise _refuse("name_required", "An identification needs at least the last name.", "last_name")
    if details.id_type not in IdentificationType.values:
        raise _refuse(
            "invalid_identification_type",
            f"Identification is one of {', '.join(IdentificationType.values)}.",
            "id_type",
        )
    if not details.id_number:
        raise _refuse("identification_incomplete", "Give the identification's number.", "id_number")
    if not _ID_NUMBER.match(details.id_number):
        raise _refuse("invalid_identification", "Letters, digits, spaces and dashes only.", "id_number")
    if details.id_issuer_country and not _COUNTRY.match(details.id_issuer_country):
        raise _refuse(
            "invalid_country", "The issuing country is its two-letter code, such as US.", "id_issuer_country"
        )
    if details.id_issuer_state and (
        details.id_issuer_country != UNITED_STATES or details.id_issuer_state not in US_STATES
    ):
        raise _refuse(
            "invalid_state",
            "The issuing state is a US state code, with issuing country US.",
            "id_issuer_state",
        )


def checked_details(details: IdentificationDetails, *, today: dt.date) -> IdentificationDetails:
    """The details cleaned (trimmed, codes upper-case, the SSN as digits), or the first rule they
    break as a `ServiceError` naming its field. `today` is the casino's local date."""
    cleaned = _check_tin(_check_address(_text(details)))
    _check_document(cleaned)
    _check_dates(cleaned, today=today)
    return cleaned


def missing_for_filing(details: IdentificationDetails) -> list[str]:
    """What Form 112 needs of the person that this identification does not give."""
    missing = [label for name, label in FILING_FIELDS if not getattr(details, name)]
    if details.country == UNITED_STATES and not details.state:
        missing.append("state")
    if (
        details.id_issuer_country == UNITED_STATES
        and details.id_type != IdentificationType.PASSPORT
        and not details.id_issuer_state
    ):
        missing.append("identification issuing state")
    return missing


def masked_number(tin: str) -> str:
    """The last four characters only: a TIN as staff other than compliance see it, an ID number as
    the Title 31 documents print it."""
    if not tin:
        return ""
    return "•" * max(len(tin) - 4, 1) + tin[-4:]


def identification_values(details: IdentificationDetails) -> dict[str, object]:
    """The details as the columns of a `PatronIdentification`."""
    return {field.name: getattr(details, field.name) for field in fields(details)}


def details_of(identification: PatronIdentification) -> IdentificationDetails:
    return IdentificationDetails(
        **{field.name: getattr(identification, field.name) for field in fields(IdentificationDetails)}
    )
