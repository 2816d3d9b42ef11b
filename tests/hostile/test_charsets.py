"""A body declaring a charset that does not write ASCII as ASCII (`utf-16`), or no charset at all
(`bogus`), with a CSRF cookie of the sender's choosing, is a 400 on any path: problem+json with
code `unsupported_charset` on the API, the plain 400 page elsewhere. It used to be a 500 on every
path, `/healthz` included. UTF-8 and the other ASCII-compatible charsets pass as before."""

import pytest
from django.test import Client

from audit.models import AuditEvent
from config.middleware import readable_charset

pytestmark = pytest.mark.django_db

PATHS = ["/healthz", "/floor/login/", "/floor/count/", "/admin/login/", "/api/v1/terminal/sign-in/"]
UNREADABLE = ["utf-16", "UTF-16LE", "utf-32", '"utf-16"', "bogus", "utf-7", "cp037", "base64", "rot13"]
# Django reads a urlencoded form in UTF-8 only; any other charset was a 500 too.
NOT_UTF8 = ["iso-8859-1", "windows-1252", "us-ascii", "utf8"]
TOKEN = "A" * 32


def _post(path: str, charset: str) -> object:
    client = Client(enforce_csrf_checks=True)
    client.cookies["csrftoken"] = TOKEN
    body = f"csrfmiddlewaretoken={TOKEN}&username=boss&password=x"
    encoding = charset.strip('"') if readable_charset(charset.strip('"')) else "utf-16"
    # The body in the declared charset where there is one (so only the charset is at fault).
    return client.generic(
        "POST",
        path,
        data=body.encode(encoding),
        content_type=f"application/x-www-form-urlencoded; charset={charset}",
    )


@pytest.mark.parametrize("charset", UNREADABLE + NOT_UTF8)
@pytest.mark.parametrize("path", PATHS)
def test_an_unreadable_charset_is_a_400_on_any_path_and_changes_nothing(path: str, charset: str) -> None:
    events = AuditEvent.objects.count()

    answer = _post(path, charset)

    assert answer.status_code == 400  # type: ignore[attr-defined]
    if path.startswith("/api/"):
        assert answer["Content-Type"] == "application/problem+json"  # type: ignore[index]
        body = answer.json()  # type: ignore[attr-defined]
        assert body["code"] == "unsupported_charset"
        assert body["detail"].startswith("The charset ")
        assert body["detail"].endswith(" is not supported: send UTF-8.")
    else:
        assert answer["Content-Type"].startswith("text/html")  # type: ignore[index]
        assert "Bad request" in answer.content.decode()  # type: ignore[attr-defined]
    assert AuditEvent.objects.count() == events


@pytest.mark.parametrize("charset", ["utf-8", "UTF-8", '"utf-8"'])
def test_a_utf8_form_is_read_as_before(charset: str) -> None:
    answer = _post("/floor/login/", charset)

    assert answer.status_code == 200  # type: ignore[attr-defined]
    assert "Your username and password did not match." in answer.content.decode()  # type: ignore[attr-defined]


def test_an_ascii_compatible_charset_on_another_body_passes() -> None:
    answer = Client().generic("POST", "/healthz", data=b"ping", content_type="text/plain; charset=iso-8859-1")

    assert answer.status_code != 400
    assert answer.status_code < 500


def test_which_charsets_are_readable() -> None:
    readable = ("utf-8", "latin-1", "ascii", "cp1252")
    unreadable = ("utf-16", "utf-32", "utf-7", "cp500", "hex", "zlib", "rot13", "", "x" * 100, "utf\x00")
    assert [name for name in readable if not readable_charset(name)] == []
    assert [name for name in unreadable if readable_charset(name)] == []
    assert readable_charset("UTF-8", form=True)
    assert [name for name in (*readable[1:], "utf8") if readable_charset(name, form=True)] == []
