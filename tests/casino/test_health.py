import pytest


@pytest.mark.django_db
def test_healthz_reports_database_and_broker(client) -> None:
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok", "checks": {"database": "ok", "broker": "ok"}}


@pytest.mark.django_db
def test_healthz_refuses_post(client) -> None:
    response = client.post("/healthz")

    assert response.status_code == 405
