"""Expected refusals (401, 403, a Host not allowed) write at most one line to the server's log and
no traceback; a 500 still logs its traceback. Read from the real server's output."""

import json
import uuid

import pytest

from tests.edge.conftest import Answer, EdgeServer
from tests.support.factories import StaffFactory

pytestmark = pytest.mark.django_db(transaction=True)


def request_and_log(
    server: EdgeServer, path: str, *, headers: dict[str, str] | None = None
) -> tuple[Answer, str]:
    """The answer to a GET, and what the server logged for it (up to its access-log line)."""
    probe = uuid.uuid4().hex
    before = server.log_size()
    answer = server.get(f"{path}?probe={probe}", headers=headers)
    # The access-log line is written after the answer, and after everything the request logged.
    logged = server.wait_for_output(
        lambda text: probe in text, since=before, what=f"access-log line of {path}"
    )
    return answer, logged


def lines_about(logged: str, path: str) -> list[str]:
    """The lines naming the path, but the access log's (which carries the probe)."""
    return [line for line in logged.splitlines() if path in line and "probe=" not in line]


def test_a_403_logs_one_line_and_no_traceback(edge_server: EdgeServer) -> None:
    pit_boss = StaffFactory.create(username="edge-pit-boss", role="pit_boss")

    answer, logged = request_and_log(
        edge_server, "/api/v1/audit/events/", headers={"Authorization": f"Token {pit_boss.token}"}
    )

    assert answer.status == 403, answer.body
    assert "Traceback" not in logged
    assert len(lines_about(logged, "/api/v1/audit/events/")) <= 1


def test_a_403_of_a_page_logs_one_line_and_no_traceback(edge_server: EdgeServer) -> None:
    """Django's own PermissionDenied, as the admin site raises it, is logged with its exception."""
    answer, logged = request_and_log(edge_server, "/edge-test/forbidden/")

    assert answer.status == 403
    assert answer.headers["Content-Type"].startswith("text/html")
    assert "Traceback" not in logged
    assert len(lines_about(logged, "/edge-test/forbidden/")) == 1


def test_a_401_logs_one_line_and_no_traceback(edge_server: EdgeServer) -> None:
    answer, logged = request_and_log(
        edge_server, "/api/v1/terminal/", headers={"Authorization": "Token not-a-key"}
    )

    assert answer.status == 401, answer.body
    assert "Traceback" not in logged
    assert len(lines_about(logged, "/api/v1/terminal/")) <= 1


def test_a_host_not_allowed_logs_one_line_and_no_traceback(edge_server: EdgeServer) -> None:
    answer, logged = request_and_log(edge_server, "/api/v1/terminal/", headers={"Host": "evil.example"})

    assert answer.status == 400, answer.body
    assert "Traceback" not in logged
    assert len([line for line in logged.splitlines() if "evil.example" in line]) == 1


def test_a_500_still_logs_its_traceback(edge_server: EdgeServer) -> None:
    answer, logged = request_and_log(edge_server, "/api/v1/edge-test/failure/")

    assert answer.status == 500
    assert json.loads(answer.body)["code"] == "internal_error"
    assert "Traceback (most recent call last)" in logged
    assert "DeliberateFailureError: a deliberate failure of the edge tests" in logged
