"""Shift and daily reports as documents: a filing PDF, a filing CSV, and the machine CSV.

The entry point of `reports.documents` for the API, the admin and the commands: assemble a
document (`report_document`, `assemble_document`), then render it (`shift_report_csv`,
`shift_report_pdf`); the machine CSV renders the API's payload itself
(`shift_report_machine_csv`).

Money stays integer cents until it is printed: the PDF shows dollars ("$1,234.56"), the filing
CSV plain decimal dollars ("1234.56") under a units row; the machine CSV keeps the cents and
basis points of the API. Only the chart converts to floats, to draw them.
"""

from reports.documents.assembly import (
    DOCUMENT_FORMAT,
    SCHEDULED_JOB,
    assemble_document,
    figures_sha256,
    report_document,
)
from reports.documents.filing_csv import shift_report_csv
from reports.documents.machine_csv import csv_columns, shift_report_machine_csv
from reports.documents.pdf import SIGN_OFF_ROLES, shift_report_pdf
from reports.documents.tournament import tournament_report_csv, tournament_report_pdf
from reports.documents.wording import decimal_dollars

__all__ = [
    "DOCUMENT_FORMAT",
    "SCHEDULED_JOB",
    "SIGN_OFF_ROLES",
    "assemble_document",
    "csv_columns",
    "decimal_dollars",
    "figures_sha256",
    "report_document",
    "shift_report_csv",
    "shift_report_machine_csv",
    "shift_report_pdf",
    "tournament_report_csv",
    "tournament_report_pdf",
]
