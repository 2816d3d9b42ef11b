"""The project's own middleware.

Staff read times in the casino's own time zone: the admin site's and the floor console's pages render and take dates
in `CASINO_TIME_ZONE`. The API keeps UTC (ISO 8601 with its offset), as terminals expect.

A request whose `Content-Type` names a charset that does not write ASCII as ASCII (`utf-16`,
`utf-32`, `utf-7`, EBCDIC, a bytes-to-bytes codec such as `base64`) or that no codec is called
(`bogus`), or a urlencoded form in anything but UTF-8 (which Django refuses to read), is refused
with a 400 before anything reads its form data: Django decodes the form body,
the query string and the CSRF token in that charset, and a sender choosing it (with a CSRF cookie
of their choosing) used to get a 500 on any path.

The rest is security (docs/security.md): Secure cookies on secure requests, no caching of staff and
API responses, and the staff sessions' idle and absolute timeouts."""

import codecs
from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import SESSION_KEY, logout
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.http import parse_header_parameters

from floor.sign_in import SEEN_AT, SIGNED_IN_AT
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


class SecureCookiesOnSecureRequests:
    """Every cookie of a response to a secure request is marked Secure.

    Django's `SESSION_COOKIE_SECURE` and `CSRF_COOKIE_SECURE` are fixed per deployment, but the
    same service is reached over TLS through the proxy (`SECURE_PROXY_SSL_HEADER`) and, in the demo
    and development, over plain HTTP. Placed outside the session, CSRF and messages middleware,
    so it sees the cookies they set."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.is_secure():
            for morsel in response.cookies.values():
                morsel["secure"] = True
        return response


NO_STORE_PATHS = ("/floor/", "/admin/", "/api/")


class NoStoreForSignedInAndApi:
    """`Cache-Control: private, no-store` on every console, admin and API response, and on any
    response to a signed-in staff member: they carry patron, money and compliance data, which no
    browser or proxy cache may keep. Static files (served by WhiteNoise, inside) keep theirs."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if request.path.startswith(NO_STORE_PATHS) or getattr(user, "is_authenticated", False):
            response["Cache-Control"] = "private, no-store"
            response.headers.pop("Expires", None)
        return response


class StaffSessionTimeouts:
    """A staff session ends after `CASINO_STAFF_IDLE_MINUTES` without a request the staff member
    made, and `CASINO_STAFF_SESSION_HOURS` after sign-in whatever happens; the next page then asks
    them to sign in again (with a message saying why).

    The sign-in time is stamped by `floor.sign_in.stamp_sign_in`. A background refresh (the floor's
    pit map, which sends `X-Casino-Refresh`) is no activity; the last-seen time is written at most
    once a minute, so a busy console does not write its session on every request. Place it after
    the authentication and messages middleware."""

    REFRESH_HEADER = "X-Casino-Refresh"
    SEEN_EVERY_SECONDS = 60

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        session = getattr(request, "session", None)
        if session is not None and SESSION_KEY in session:
            self._check(request, now=timezone.now().timestamp())
        return self.get_response(request)

    def _check(self, request: HttpRequest, *, now: float) -> None:
        session = request.session
        signed_in_at, seen_at = session.get(SIGNED_IN_AT), session.get(SEEN_AT)
        if not isinstance(signed_in_at, int | float) or not isinstance(seen_at, int | float):
            session[SIGNED_IN_AT] = session[SEEN_AT] = now  # signed in before the stamps existed
            return
        idle = settings.CASINO_STAFF_IDLE_MINUTES * 60
        lifetime = settings.CASINO_STAFF_SESSION_HOURS * 3600
        if now - seen_at >= idle or now - signed_in_at >= lifetime:
            logout(request)
            reason = (
                f"{settings.CASINO_STAFF_IDLE_MINUTES} minutes without activity"
                if now - seen_at >= idle
                else f"{settings.CASINO_STAFF_SESSION_HOURS} hours"
            )
            messages.info(request, f"Your session ended after {reason}. Sign in again.")
            return
        if request.headers.get(self.REFRESH_HEADER) != "1" and now - seen_at >= self.SEEN_EVERY_SECONDS:
            session[SEEN_AT] = now
