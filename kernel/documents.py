"""Data text in the files the service writes: CSV cells a spreadsheet opens, and reportlab
`Paragraph`s in PDFs. A name staff typed (a table, a pit, a patron, a location, a reason) is shown
as written in both, never run: a CSV cell starting with = + - @ or a tab/CR is a formula to a
spreadsheet (CSV injection) and gets an apostrophe in front; a Paragraph reads its text as
markup, where `<img src=x>` stops the render and `<b>` or `<font>` silently change what it says,
so its text is XML-escaped. Every CSV and every PDF of the service goes through these two.

A filing document (a report, the Title 31 records) prints on every page its header, the SHA-256
of its figures (`figures_sha256`) and "Page N of M" (`paged_canvas`)."""

import hashlib
import json
from typing import Any
from xml.sax.saxutils import escape

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_text(value: str) -> str:
    """A text cell as a spreadsheet shows it, never as a formula."""
    return f"'{value}" if value.startswith(_FORMULA_START) else value


def paragraph_text(value: object) -> str:
    """Text for a reportlab Paragraph that prints as written (`&`, `<` and `>` escaped)."""
    return escape(str(value))


def figures_sha256(figures: dict[str, Any]) -> str:
    """SHA-256 of the figures in canonical JSON (sorted keys, no spaces): what the report says,
    not the bytes of a document that prints the hash."""
    canonical = json.dumps(figures, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canonical.encode("ascii")).hexdigest()


def paged_canvas(header: dict[str, Any], *, provisional: bool, subtitle: str) -> type:
    """A reportlab canvas class for a filing document: it holds its pages back until the last, to
    print on each the header (`licensee`, `property`, `generated_at`, `generated_by`, `version`,
    `figures_sha256`), `subtitle` and "Page N of M", and PROVISIONAL in red when it is."""
    from reportlab.lib import colors
    from reportlab.pdfgen.canvas import Canvas

    class PagedCanvas(Canvas):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._held_pages: list[dict[str, Any]] = []

        def showPage(self) -> None:
            self._held_pages.append(dict(self.__dict__))
            self._startPage()

        def save(self) -> None:
            total = len(self._held_pages)
            for number, state in enumerate(self._held_pages, start=1):
                self.__dict__.update(state)
                self._draw_header(number, total)
                super().showPage()
            super().save()

        def _draw_header(self, number: int, total: int) -> None:
            width, height = self._pagesize
            left, right, top = 34.0, width - 34.0, height - 28.0
            self.saveState()
            self.setFont("Helvetica-Bold", 10)
            self.drawString(left, top, f"{header['licensee']} - {header['property']}")
            self.setFont("Helvetica", 9)
            self.drawRightString(right, top, f"Page {number} of {total}")
            self.drawString(left, top - 12, subtitle)
            self.drawString(
                left,
                top - 24,
                f"Generated at {header['generated_at']} by {header['generated_by']}",
            )
            self.setFont("Helvetica", 7)
            self.drawString(
                left,
                top - 35,
                f"Report version {header['version']}   Figures SHA-256 {header['figures_sha256']}",
            )
            if provisional:
                self.setFillColor(colors.HexColor("#c62828"))
                self.setFont("Helvetica-Bold", 22)
                self.drawRightString(right, top - 30, "PROVISIONAL")
            self.setStrokeColor(colors.black)
            self.setLineWidth(0.5)
            self.line(left, top - 41, right, top - 41)
            self.restoreState()

    return PagedCanvas
