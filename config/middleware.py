"""Staff read times in the casino's own time zone: the admin site's and the floor console's pages render and take dates
in `CASINO_TIME_ZONE`. The API keeps UTC (ISO 8601 with its offset), as terminals expect.

A request whose `Content-Type` names a charset that does not write ASCII as ASCII (`utf-16`,
`utf-32`, `utf-7`, EBCDIC, a bytes-to-bytes codec such as `base64`) or that no codec is called
(`bogus`), or a urlencoded form in anything but UTF-8 (which Django refuses to read), is refused
with a 400 before anything reads its form data: Django decodes the form body,
the query string and the CSRF token in that charset, and a sender choosing it (with a CSRF cookie
of their choosing) used to get a 500 on any path."""

import codecs
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.http import parse_header_parameters

from kernel.gaming_day import casino_zone
from kernel.problems import refuse_request

_ASCII = "".join(chr(code) for code in range(0x20, 0x7F))
MAX_CHARSET_NAME = 40
FORM = "application/x-www-form-urlencoded"

STAFF_PAGES = ("/admin/", "/floor/")


class CasinoLocalTimeForStaffPages:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith(STAFF_PAGES):
            return self.get_response(request)
        timezone.activate(casino_zone())
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


def readable_charset(name: str, *, form: bool = False) -> bool:
    """Whether a declared charset writes (and reads) printable ASCII as plain ASCII, as query
    strings, multipart headers and tokens need; a urlencoded form must be UTF-8 (Django reads no
    other)."""
    if not name or len(name) > MAX_CHARSET_NAME or not name.isascii():
        return False
    try:
        if form:
            return name.lower() == "utf-8"  # as Django compares it
        codec = codecs.lookup(name)
        return bool(
            codec.encode(_ASCII)[0] == _ASCII.encode("ascii")
            and codec.decode(_ASCII.encode("ascii"))[0] == _ASCII
        )
    except Exception:  # unknown, or a codec that is not text to bytes at all
        return False


class RefuseUnreadableCharset:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        _, params = parse_header_parameters(request.META.get("CONTENT_TYPE", ""))
        charset = params.get("charset")
        if charset is not None and not readable_charset(charset, form=request.content_type == FORM):
            shown = "".join(c if c.isprintable() else "?" for c in charset[:MAX_CHARSET_NAME])
            return refuse_request(
                request,
                code="unsupported_charset",
                detail=f"The charset {shown!r} is not supported: send UTF-8.",
            )
        return self.get_response(request)
