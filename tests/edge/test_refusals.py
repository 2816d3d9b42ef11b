"""What gunicorn refuses before Django sees a request is answered as problem+json, with a stable
code and the fitting status, and the connection is closed. Raw bytes over a socket, against the
real server (`config/gunicorn.py`)."""

import http.client
import json
import socket

import pytest
from django.conf import settings
from gunicorn.http.errors import InvalidResponseHeader

from config.gunicorn_worker import refusal_for
from tests.edge.conftest import Answer, EdgeServer

HOST = b"Host: 127.0.0.1\r\n"
SIGN_IN = b"POST /api/v1/terminal/sign-in/ HTTP/1.1\r\n" + HOST


def assert_problem(answer: Answer, status: int, code: str) -> None:
    assert answer.status == status, answer.body
    assert answer.headers["Content-Type"] == "application/problem+json"
    body = json.loads(answer.body)
    assert body["status"] == status
    assert body["code"] == code
    assert body["type"] == "about:blank"
    assert body["title"]
    assert body["detail"]


@pytest.mark.parametrize(
    ("raw", "status", "code"),
    [
        pytest.param(b"GARBAGE\r\n\r\n", 400, "malformed_request", id="bad-request-line"),
        pytest.param(b"GET /healthz\r\n" + HOST + b"\r\n", 400, "malformed_request", id="no-http-version"),
        pytest.param(
            b"GET /healthz HTTP/9.9\r\n" + HOST + b"\r\n", 400, "invalid_http_version", id="bad-version"
        ),
        pytest.param(
            b"GET /" + b"a" * 10_000 + b" HTTP/1.1\r\n" + HOST + b"\r\n",
            414,
            "request_line_too_long",
            id="long-url",
        ),
        pytest.param(
            b"GET /healthz HTTP/1.1\r\n" + HOST + b"X-Big: " + b"a" * 9_000 + b"\r\n\r\n",
            431,
            "headers_too_large",
            id="header-too-large",
        ),
        pytest.param(
            b"GET /healthz HTTP/1.1\r\n" + HOST + b"".join(b"X-H%d: 1\r\n" % i for i in range(120)) + b"\r\n",
            431,
            "headers_too_large",
            id="too-many-headers",
        ),
        pytest.param(
            SIGN_IN + b"Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            400,
            "invalid_framing",
            id="content-length-and-transfer-encoding",
        ),
        pytest.param(
            SIGN_IN + b"Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}x",
            400,
            "invalid_framing",
            id="two-content-lengths",
        ),
        pytest.param(
            SIGN_IN + b"Content-Length: -1\r\n\r\n", 400, "invalid_framing", id="negative-content-length"
        ),
        pytest.param(
            SIGN_IN + b"Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
            400,
            "invalid_chunked_body",
            id="invalid-chunk-size",
        ),
        pytest.param(
            SIGN_IN + b"Transfer-Encoding: chunked\r\n\r\n2\r\n{}XX0\r\n\r\n",
            400,
            "invalid_chunked_body",
            id="chunk-without-terminator",
        ),
        pytest.param(
            SIGN_IN + b"Transfer-Encoding: rot13\r\n\r\n",
            501,
            "unsupported_transfer_coding",
            id="unknown-transfer-coding",
        ),
        pytest.param(
            b"GET /healthz HTTP/1.1\r\n" + HOST + b"X-\xc3\xa9t\xc3\xa9: 1\r\n\r\n",
            400,
            "invalid_header",
            id="non-ascii-header-name",
        ),
        pytest.param(
            b"GET /healthz HTTP/1.1\r\n" + HOST + b"X-Nul: a\x00b\r\n\r\n",
            400,
            "invalid_header",
            id="nul-in-header",
        ),
        pytest.param(
            b"GET /healthz HTTP/1.1\r\n" + HOST + b"no colon here\r\n\r\n",
            400,
            "invalid_header",
            id="no-colon",
        ),
    ],
)
def test_a_request_gunicorn_refuses_is_answered_as_problem_json_and_closed(
    edge_server: EdgeServer, raw: bytes, status: int, code: str
) -> None:
    answer = edge_server.send(raw)

    assert_problem(answer, status, code)
    assert answer.headers["Connection"] == "close"
    assert answer.closed


def test_a_refusal_is_one_line_in_the_log_without_a_traceback(edge_server: EdgeServer) -> None:
    before = edge_server.log_size()

    assert_problem(edge_server.send(b"GARBAGE\r\n\r\n"), 400, "malformed_request")

    logged = edge_server.wait_for_output(
        lambda text: "malformed_request" in text, since=before, what="log line of the refusal"
    )
    assert "Refused request from 127.0.0.1: 400 malformed_request" in logged
    assert "Traceback" not in logged


def test_a_chunked_body_that_is_too_large_is_413(edge_server: EdgeServer) -> None:
    size = settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1
    raw = SIGN_IN + b"Transfer-Encoding: chunked\r\n\r\n" + b"%x\r\n" % size + b" " * size + b"\r\n0\r\n\r\n"

    assert_problem(edge_server.send(raw), 413, "request_too_large")


def test_a_valid_chunked_body_reaches_the_application(edge_server: EdgeServer) -> None:
    """Django reads a body only as far as Content-Length says: the server hands it one."""
    body = b'{"badge": "B-1", "pin": "0000"}'
    chunks = b"%x\r\n%s\r\n%x\r\n%s\r\n0\r\n\r\n" % (10, body[:10], len(body) - 10, body[10:])
    head = b"POST /api/v1/edge-test/echo/ HTTP/1.1\r\n" + HOST + b"Connection: close\r\n"
    head += b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"

    answer = edge_server.send(head + chunks)

    assert answer.status == 200, answer.body
    assert json.loads(answer.body) == {"received": {"badge": "B-1", "pin": "0000"}}


def test_the_server_still_answers_after_the_refusals(edge_server: EdgeServer) -> None:
    for _ in range(3):
        edge_server.send(b"GARBAGE\r\n\r\n")

    assert edge_server.get("/healthz").status == 200


def test_an_unknown_api_path_is_problem_json(edge_server: EdgeServer) -> None:
    assert_problem(edge_server.get("/api/v1/nope/"), 404, "not_found")


def test_a_host_not_allowed_is_problem_json_on_the_api_and_html_on_the_admin(edge_server: EdgeServer) -> None:
    api = edge_server.get("/api/v1/terminal/", headers={"Host": "evil.example"})
    admin = edge_server.get("/admin/", headers={"Host": "evil.example"})

    assert_problem(api, 400, "malformed_request")
    assert admin.status == 400
    assert admin.headers["Content-Type"].startswith("text/html")


def test_an_error_in_the_application_is_a_500_not_a_refusal() -> None:
    """Headers the application writes wrongly are the server's fault: 500, not 400."""
    assert refusal_for(InvalidResponseHeader("X-Bad")).status == 500
    assert refusal_for(RuntimeError("boom")).code == "internal_error"


def test_a_chunked_body_sent_after_100_continue_reaches_the_application(edge_server: EdgeServer) -> None:
    head = b"POST /api/v1/edge-test/echo/ HTTP/1.1\r\n" + HOST + b"Connection: close\r\n"
    head += b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n"
    with socket.create_connection(("127.0.0.1", edge_server.port), timeout=10) as sock:
        sock.sendall(head)
        interim = b""
        while not interim.endswith(b"\r\n\r\n"):
            received = sock.recv(1)
            assert received, f"the server closed the connection after {interim!r}"
            interim += received
        sock.sendall(b"2\r\n{}\r\n0\r\n\r\n")
        response = http.client.HTTPResponse(sock)
        response.begin()
        body = response.read()

    assert interim == b"HTTP/1.1 100 Continue\r\n\r\n"
    assert response.status == 200, body
    assert json.loads(body) == {"received": {}}
