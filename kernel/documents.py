"""Data text in the files the service writes: CSV cells a spreadsheet opens, and reportlab
`Paragraph`s in PDFs. A name staff typed (a table, a pit, a patron, a location, a reason) is shown
as written in both, never run: a CSV cell starting with = + - @ or a tab/CR is a formula to a
spreadsheet (CSV injection) and gets an apostrophe in front; a Paragraph reads its text as
markup, where `<img src=x>` stops the render and `<b>` or `<font>` silently change what it says,
so its text is XML-escaped. Every CSV and every PDF of the service goes through these two."""

from xml.sax.saxutils import escape

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_text(value: str) -> str:
    """A text cell as a spreadsheet shows it, never as a formula."""
    return f"'{value}" if value.startswith(_FORMULA_START) else value


def paragraph_text(value: object) -> str:
    """Text for a reportlab Paragraph that prints as written (`&`, `<` and `>` escaped)."""
    return escape(str(value))
