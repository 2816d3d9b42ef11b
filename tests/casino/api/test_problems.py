"""Every error on /api/v1/ is application/problem+json with a stable code, never an HTML page."""

import pytest
from django.test import Client

PROBLEM = "application/problem+json"


def assert_problem(response, *, status: int, code: str) -> dict:
    assert response.status_code == status
    assert response["Content-Type"].startswith(PROBLEM)
    body = response.json()
    assert body["status"] == status
    assert body["code"] == code
    assert set(body) >= {"type", "title", "status", "detail", "code", "errors"}
    return body


@pytest.mark.django_db
def test_unknown_api_path_is_problem_404() -> None:
    response = Client().get("/api/v1/no-such-thing/")

    assert_problem(response, status=404, code="not_found")


@pytest.mark.django_db
def test_unknown_admin_path_keeps_html_404() -> None:
    response = Client().get("/admin/no-such-thing/")

    assert response.status_code in (302, 404)
    assert not response["Content-Type"].startswith(PROBLEM)


def test_schema_is_served_as_openapi(make_staff) -> None:
    _, client = make_staff("compliance")
    response = client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")

    assert response.status_code == 200
    assert response.json()["openapi"].startswith("3.")


def test_docs_page_renders_without_network(make_staff) -> None:
    _, client = make_staff("compliance")
    response = client.get("/api/v1/docs/")

    assert response.status_code == 200
    assert b"swagger-ui" in response.content
    assert b"cdn.jsdelivr" not in response.content
