"""What every deployment sends, the demo included, over HTTP with the Django test client: Secure
and SameSite cookies on requests that came over TLS (the proxy's X-Forwarded-Proto), HSTS there,
the Content-Security-Policy, no caching of staff and API answers, the staff session timeouts and
the API schema for signed-in staff only."""

import datetime as dt
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from casino.services.provisioning import ProvisionedStaff
from tests.security.conftest import PASSWORD, sign_in, signed_in
from tests.support.api import TableActors, client_with_token
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db
TLS = {"X-Forwarded-Proto": "https"}
PROBLEM = "application/problem+json"
Staff = Callable[..., ProvisionedStaff]


def console_of(staff: ProvisionedStaff) -> Client:
    client = Client()
    client.force_login(staff.user)  # type: ignore[arg-type]
    return client


def policy(response: object) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]  # type: ignore[index]
    directives = [part.strip().split() for part in header.split(";") if part.strip()]
    return {name: sources for name, *sources in directives}


# --- cookies and HSTS ------------------------------------------------------------------------


def test_cookies_are_secure_httponly_and_samesite_on_a_request_over_tls(staff_member: Staff) -> None:
    boss = staff_member("pit_boss")
    browser = Client()

    page = browser.get("/floor/login/", headers=TLS)
    signed = browser.post(
        "/floor/login/", {"username": boss.user.username, "password": PASSWORD}, headers=TLS
    )

    assert signed.status_code == 302
    for cookie in (page.cookies[settings.CSRF_COOKIE_NAME], signed.cookies[settings.SESSION_COOKIE_NAME]):
        assert cookie["secure"] is True
        assert cookie["httponly"] is True
        assert cookie["samesite"] == "Lax"


def test_cookies_over_plain_http_are_samesite_but_not_secure(staff_member: Staff) -> None:
    boss = staff_member("pit_boss")
    browser = Client()

    page = browser.get("/floor/login/")
    assert sign_in(browser, boss.user.username, PASSWORD) == 302

    csrf = page.cookies[settings.CSRF_COOKIE_NAME]
    assert (csrf["secure"], csrf["samesite"], csrf["httponly"]) == ("", "Lax", True)
    assert signed_in(browser)


def test_hsts_on_secure_requests_only() -> None:
    over_tls = Client().get("/floor/login/", headers=TLS)
    secure = Client().get("/floor/login/", secure=True)
    plain = Client().get("/floor/login/")

    assert over_tls["Strict-Transport-Security"] == f"max-age={365 * 24 * 3600}"
    assert secure["Strict-Transport-Security"] == over_tls["Strict-Transport-Security"]
    assert "Strict-Transport-Security" not in plain
    assert plain["X-Frame-Options"] == "DENY"
    assert plain["X-Content-Type-Options"] == "nosniff"


def test_a_forwarded_proto_other_than_https_is_not_secure() -> None:
    response = Client().get("/floor/login/", HTTP_X_FORWARDED_PROTO="http")

    assert "Strict-Transport-Security" not in response
    assert response.cookies[settings.CSRF_COOKIE_NAME]["secure"] == ""


# --- Content-Security-Policy -----------------------------------------------------------------


def test_the_console_and_the_admin_site_get_a_policy_with_no_inline_script_or_style(
    staff_member: Staff,
) -> None:
    boss, admin_user = console_of(staff_member("pit_boss")), console_of(staff_member("admin"))
    pages = [
        Client().get("/floor/login/"),
        boss.get("/floor/"),
        boss.get("/floor/password/"),
        Client().get("/admin/login/"),
        admin_user.get("/admin/"),
        admin_user.get("/admin/casino/table/add/"),
    ]

    for page in pages:
        assert page.status_code == 200
        directives = policy(page)
        assert directives["default-src"] == ["'self'"]
        assert directives["script-src"] == ["'self'"]
        assert directives["style-src"] == ["'self'"]
        assert directives["frame-ancestors"] == ["'none'"]
        assert directives["object-src"] == ["'none'"]
        assert directives["form-action"] == ["'self'"]
        assert "'unsafe-inline'" not in page["Content-Security-Policy"]
        assert "'unsafe-eval'" not in page["Content-Security-Policy"]


TEMPLATE_DIRS = [Path(settings.BASE_DIR) / "templates", *Path(settings.BASE_DIR).glob("*/templates")]
INLINE = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>|<style\b|\sstyle=|\son[a-z]+=|javascript:", re.I)


def test_no_template_of_ours_has_inline_script_style_or_event_handlers() -> None:
    found = [
        f"{path.relative_to(settings.BASE_DIR)}: {match.group(0)}"
        for directory in TEMPLATE_DIRS
        for path in directory.rglob("*.html")
        for match in INLINE.finditer(path.read_text())
    ]

    assert len(list(TEMPLATE_DIRS[1].rglob("*.html"))) > 0
    assert found == []


def test_the_api_docs_pages_relax_the_style_policy_for_themselves_only(
    make_staff: Callable[[str], tuple[ProvisionedStaff, object]],
) -> None:
    _, compliance = make_staff("compliance")

    for path in ("/api/v1/docs/", "/api/v1/redoc/"):
        page = compliance.get(path)  # type: ignore[attr-defined]
        assert page.status_code == 200
        directives = policy(page)
        assert directives["style-src"] == ["'self'", "'unsafe-inline'"]
        assert directives["script-src"] == ["'self'"]
    docs = compliance.get("/api/v1/docs/").content.decode()  # type: ignore[attr-defined]
    assert "<script>" not in docs  # its start-up script is loaded from a URL
    assert policy(Client().get("/floor/login/"))["style-src"] == ["'self'"]


# --- caching ---------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)  # an API refusal is recorded after its transaction
def test_staff_pages_and_api_answers_are_never_stored(staff_member: Staff, table: TableActors) -> None:
    boss = console_of(staff_member("pit_boss"))
    admin_user = console_of(staff_member("admin"))
    answers = {
        "console": boss.get("/floor/"),
        "console sign-in": Client().get("/floor/login/"),
        "admin": admin_user.get("/admin/"),
        "admin list": admin_user.get("/admin/casino/table/"),
        "API": table.terminal.get("/api/v1/terminal/"),
        "API refusal": Client().get("/api/v1/terminal/"),
        "root, signed in": boss.get("/"),
    }

    assert {name: a["Cache-Control"] for name, a in answers.items()} == dict.fromkeys(
        answers, "private, no-store"
    )
    assert answers["API"].status_code == 200
    assert "Cache-Control" not in Client().get("/healthz")


# --- staff session timeouts ------------------------------------------------------------------


class Clock:
    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.now = timezone.now()
        monkeypatch.setattr(timezone, "now", lambda: self.now)

    def advance(self, **delta: float) -> None:
        self.now += dt.timedelta(**delta)


def test_an_idle_session_ends_and_the_next_page_asks_to_sign_in_again(
    staff_member: Staff, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock(monkeypatch)
    boss = console_of(staff_member("pit_boss"))
    idle = settings.CASINO_STAFF_IDLE_MINUTES
    assert idle == 30

    assert boss.get("/floor/").status_code == 200
    clock.advance(minutes=idle - 1)
    assert boss.get("/floor/").status_code == 200  # activity: the idle clock starts again
    clock.advance(minutes=idle - 1)
    assert boss.get("/floor/").status_code == 200
    clock.advance(minutes=idle)

    ended = boss.get("/floor/", follow=True)

    assert ended.redirect_chain[0][0].startswith("/floor/login/?next=/floor/")
    assert (
        f"Your session ended after {idle} minutes without activity. Sign in again." in ended.content.decode()
    )
    assert not signed_in(boss)


def test_the_floors_own_refreshes_are_no_activity(
    staff_member: Staff, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock(monkeypatch)
    boss = console_of(staff_member("pit_boss"))
    refresh = {"HX-Request": "true", "X-Casino-Refresh": "1"}

    assert boss.get("/floor/").status_code == 200
    for _ in range(5):
        clock.advance(minutes=5)
        assert boss.get("/floor/pit-map/", headers=refresh).status_code == 200
    clock.advance(minutes=6)  # 31 minutes after the last page the staff member opened

    answer = boss.get("/floor/pit-map/", headers=refresh)

    assert answer.status_code == 204
    assert answer["HX-Redirect"].startswith("/floor/login/")


def test_a_session_ends_after_its_lifetime_however_busy(
    staff_member: Staff, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock(monkeypatch)
    boss = console_of(staff_member("pit_boss"))
    hours = settings.CASINO_STAFF_SESSION_HOURS
    assert hours == 12

    for _ in range(hours * 60 // 20 - 1):
        clock.advance(minutes=20)
        assert boss.get("/floor/").status_code == 200
    clock.advance(minutes=20)

    assert boss.get("/floor/").status_code == 302
    assert hours * 3600 == settings.SESSION_COOKIE_AGE


def test_the_admin_site_session_times_out_too(staff_member: Staff, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock(monkeypatch)
    admin_user = console_of(staff_member("admin"))
    assert admin_user.get("/admin/").status_code == 200
    clock.advance(minutes=settings.CASINO_STAFF_IDLE_MINUTES + 1)

    answer = admin_user.get("/admin/")

    assert answer.status_code == 302
    assert answer["Location"].startswith("/admin/login/")


# --- the API schema and docs -----------------------------------------------------------------


# Transactional: the refusals are recorded after the request's transaction, as in production.
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["/api/v1/schema/", "/api/v1/docs/", "/api/v1/redoc/"])
def test_the_schema_and_docs_refuse_anonymous_callers_and_terminals_with_a_problem(
    path: str, table: TableActors, staff_member: Staff
) -> None:
    anonymous = Client().get(path)
    terminal = table.terminal.get(path)
    no_role = Client()
    no_role.force_login(UserFactory.create(username="plain"))

    assert anonymous.status_code == 401
    assert anonymous["Content-Type"].startswith(PROBLEM)
    assert anonymous.json()["code"] == "not_authenticated"
    assert anonymous["WWW-Authenticate"] == "Token"
    for refused in (terminal, no_role.get(path)):
        assert refused.status_code == 403
        assert refused["Content-Type"].startswith(PROBLEM)
        assert refused.json()["code"] == "staff_only"


def test_signed_in_staff_read_the_schema_by_session_or_token(staff_member: Staff) -> None:
    boss = staff_member("pit_boss")

    by_session = console_of(boss).get("/api/v1/schema/", HTTP_ACCEPT="application/json")
    by_token = client_with_token(boss.token).get("/api/v1/schema/", HTTP_ACCEPT="application/json")

    assert by_session.status_code == by_token.status_code == 200
    assert by_session.json()["openapi"].startswith("3.")
    assert by_session.json() == by_token.json()
