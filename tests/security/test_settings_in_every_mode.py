"""The security settings are the same in every mode: production, the demo and development (so a
probe of the demo sees what production sends). Each mode's settings are loaded in a process of
its own, as the service would load them."""

from typing import Any

import pytest

from tests.support.settings_loaded import settings_loaded

SHOWN = [
    "SECURE_PROXY_SSL_HEADER", "SECURE_HSTS_SECONDS", "SESSION_COOKIE_HTTPONLY", "CSRF_COOKIE_HTTPONLY",
    "SESSION_COOKIE_SAMESITE", "CSRF_COOKIE_SAMESITE", "X_FRAME_OPTIONS", "SECURE_CONTENT_TYPE_NOSNIFF",
    "SESSION_COOKIE_AGE", "CASINO_STAFF_IDLE_MINUTES", "CONTENT_SECURITY_POLICY", "MIDDLEWARE",
    "AUTHENTICATION_BACKENDS",
]  # fmt: skip
MODES = {
    "production": {"DJANGO_SECRET_KEY": "x" * 50},
    "demo": {"DJANGO_DEMO": "1"},
    "development": {"DJANGO_DEBUG": "1"},
}


def settings_of(**env: str) -> dict[str, Any]:
    return settings_loaded(SHOWN, **env)


@pytest.fixture(scope="module")
def modes() -> dict[str, dict[str, Any]]:
    return {mode: settings_of(**env) for mode, env in MODES.items()}


def test_every_mode_has_the_same_security_settings(modes: dict[str, dict[str, Any]]) -> None:
    production = modes["production"]

    assert modes["demo"] == production
    assert modes["development"] == production


def test_the_values(modes: dict[str, dict[str, Any]]) -> None:
    production = modes["production"]

    assert production["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert production["SECURE_HSTS_SECONDS"] == 365 * 24 * 3600
    assert production["SESSION_COOKIE_HTTPONLY"] is production["CSRF_COOKIE_HTTPONLY"] is True
    assert production["SESSION_COOKIE_SAMESITE"] == production["CSRF_COOKIE_SAMESITE"] == "Lax"
    assert production["X_FRAME_OPTIONS"] == "DENY"
    assert production["SESSION_COOKIE_AGE"] == 12 * 3600
    assert production["CASINO_STAFF_IDLE_MINUTES"] == 30
    assert production["AUTHENTICATION_BACKENDS"] == ["floor.sign_in.ThrottledModelBackend"]
    directives = production["CONTENT_SECURITY_POLICY"]["DIRECTIVES"]
    assert directives["default-src"] == directives["script-src"] == directives["style-src"] == ["'self'"]
    assert directives["frame-ancestors"] == ["'none'"]
    for middleware in ("config.middleware.SecureCookiesOnSecureRequests", "config.middleware.NoStoreForSignedInAndApi",
                       "csp.middleware.CSPMiddleware", "config.middleware.StaffSessionTimeouts"):  # fmt: skip
        assert middleware in production["MIDDLEWARE"]


def test_the_proxy_header_is_not_trusted_when_told_not_to() -> None:
    assert (
        settings_of(DJANGO_DEBUG="1", DJANGO_TRUST_X_FORWARDED_PROTO="0")["SECURE_PROXY_SSL_HEADER"] is None
    )
