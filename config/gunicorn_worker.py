"""The gthread worker, answering what gunicorn refuses itself as problem+json.

gunicorn parses the request line, the headers and a chunked body before or
while Django runs; what it cannot parse or will not accept (a malformed request
line, an over-long URL, too many or too large headers, a Content-Length and a
Transfer-Encoding that disagree, a broken chunk) never reaches Django. The
stock worker answers those with a small HTML page. This worker answers them as
the API answers everything else: `application/problem+json` (RFC 9457) with a
stable `code` and the fitting status, so a terminal has one error format to read.

Why a worker subclass rather than a proxy in front: it is the one place that
sees every refusal of the server the README runs (`make run` and production
alike), it needs no other process, and it keeps gunicorn's own parser, limits
and connection handling; only the answer changes. A proxy in front still may
refuse requests itself (see README, "Production web serving").

After any of these errors the connection is closed (`Connection: close`): once
the framing of one request is in doubt, nothing that follows on the same
connection can be trusted to start where the server thinks it does.

A chunked request body (`Transfer-Encoding: chunked`) is read whole, up to
Django's `DATA_UPLOAD_MAX_MEMORY_SIZE`, before Django sees the request, and
handed on with its `Content-Length`. Django reads a WSGI body only as far as
`Content-Length` says, so without this it would see a chunked body as empty,
and a broken chunk would only be found after the answer had been sent. A larger
chunked body is 413 `request_too_large`, as a larger `Content-Length` is.
"""

import io
import json
import ssl
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from django.conf import settings
from gunicorn.http import errors
from gunicorn.workers.gthread import ThreadWorker

PROBLEM_CONTENT_TYPE = "application/problem+json"
# The headers that say where a request's body ends; a bad or contradictory one is a framing error.
FRAMING_HEADERS = frozenset({"CONTENT-LENGTH", "TRANSFER-ENCODING"})


class ChunkedBodyTooLargeError(Exception):
    """A chunked request body longer than Django accepts."""


@dataclass(frozen=True, slots=True)
class Refusal:
    status: int
    code: str
    detail: str


INTERNAL_ERROR = Refusal(500, "internal_error", "The server could not complete the request.")

# Most specific first: the response-header errors are subclasses of the request-header ones,
# but they are the application's fault (a 500), not the client's.
_REFUSALS: list[tuple[type[BaseException] | tuple[type[BaseException], ...], Refusal]] = [
    (
        (errors.InvalidResponseHeader, errors.InvalidResponseHeaderName, errors.ConfigurationProblem),
        INTERNAL_ERROR,
    ),
    (
        (errors.InvalidRequestLine, errors.InvalidRequestMethod, errors.InvalidH2CPreface),
        Refusal(400, "malformed_request", "The request line is not valid HTTP/1.1."),
    ),
    (
        errors.InvalidHTTPVersion,
        Refusal(400, "invalid_http_version", "The HTTP version is not HTTP/1.0 or 1.1."),
    ),
    (
        errors.LimitRequestLine,
        Refusal(414, "request_line_too_long", "The request line (method and URL) is too long."),
    ),
    (
        errors.LimitRequestHeaders,
        Refusal(
            431, "headers_too_large", "The request has too many header fields, or one that is too large."
        ),
    ),
    (
        errors.UnsupportedTransferCoding,
        Refusal(501, "unsupported_transfer_coding", "The request's Transfer-Encoding is not supported."),
    ),
    (
        (errors.InvalidHeaderName, errors.InvalidHeader, errors.ObsoleteFolding),
        Refusal(400, "invalid_header", "A request header is not valid HTTP."),
    ),
    (
        (errors.InvalidChunkSize, errors.ChunkMissingTerminator, errors.InvalidChunkExtension),
        Refusal(400, "invalid_chunked_body", "The chunked request body is not valid."),
    ),
    (errors.ExpectationFailed, Refusal(417, "expectation_failed", "The Expect header cannot be met.")),
    (
        errors.InvalidSchemeHeaders,
        Refusal(400, "conflicting_scheme_headers", "The forwarded-scheme headers contradict each other."),
    ),
    (
        (errors.InvalidProxyLine, errors.InvalidProxyHeader),
        Refusal(400, "invalid_proxy_protocol", "The PROXY protocol header is not valid."),
    ),
    (
        errors.ForbiddenProxyRequest,
        Refusal(403, "proxy_not_allowed", "PROXY protocol is not accepted from this peer."),
    ),
    (ssl.SSLError, Refusal(400, "tls_error", "The TLS handshake failed.")),
    (ChunkedBodyTooLargeError, Refusal(413, "request_too_large", "The request body is too large.")),
]

FRAMING_ERROR = Refusal(
    400,
    "invalid_framing",
    "Content-Length and Transfer-Encoding do not say unambiguously where the body ends.",
)


def refusal_for(exc: BaseException) -> Refusal:
    """The status, code and sentence that answer what gunicorn raised for a request."""
    if (
        isinstance(exc, errors.InvalidHeader)
        and not isinstance(exc, errors.InvalidResponseHeader)
        and str(getattr(exc, "hdr", "")).upper() in FRAMING_HEADERS
    ):
        return FRAMING_ERROR
    for error_types, refusal in _REFUSALS:
        if isinstance(exc, error_types):
            return refusal
    return INTERNAL_ERROR


def problem_response(refusal: Refusal) -> bytes:
    """A complete HTTP/1.1 response carrying the refusal as problem+json, closing the connection."""
    phrase = HTTPStatus(refusal.status).phrase
    body = json.dumps(
        {
            "type": "about:blank",
            "title": phrase,
            "status": refusal.status,
            "detail": refusal.detail,
            "code": refusal.code,
            "errors": [],
        }
    ).encode()
    head = (
        f"HTTP/1.1 {refusal.status} {phrase}\r\n"
        f"Content-Type: {PROBLEM_CONTENT_TYPE}\r\n"
        f"Content-Length: {len(body)}\r\n"
        "Connection: close\r\n"
        "\r\n"
    )
    return head.encode("ascii") + body


def _is_chunked(req: Any) -> bool:
    # gunicorn has already refused every Transfer-Encoding that does not end in chunked.
    return any(name == "TRANSFER-ENCODING" for name, _ in req.headers)


def read_chunked_body(req: Any, *, limit: int | None) -> None:
    """Replace a chunked body by its bytes and their Content-Length; raise if it is broken or too large."""
    if limit is None:
        data = req.body.read()
    else:
        data = req.body.read(limit + 1)
        if len(data) > limit:
            raise ChunkedBodyTooLargeError(f"more than {limit} bytes")
    req.body = io.BytesIO(data)
    req.headers = [(name, value) for name, value in req.headers if name != "TRANSFER-ENCODING"]
    req.headers.append(("CONTENT-LENGTH", str(len(data))))


class ProblemJsonThreadWorker(ThreadWorker):
    """gunicorn's gthread worker; the answer to a refused request and chunked bodies differ."""

    def handle_request(self, req: Any, conn: Any) -> bool:
        if _is_chunked(req):
            if getattr(req, "_expected_100_continue", False):
                # The client waits for this before sending the body; gunicorn would send it later.
                conn.sock.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
                req._expected_100_continue = False
            # A broken chunk raises here, before any answer: handle_error then refuses the request.
            read_chunked_body(req, limit=settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
        return bool(super().handle_request(req, conn))

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        refusal = refusal_for(exc)
        peer = addr[0] if addr else "unix socket"
        if refusal.status >= 500:
            self.log.exception("Error handling request from %s", peer)
        else:
            # An expected refusal: one line, no traceback.
            self.log.warning(
                "Refused request from %s: %s %s (%s)", peer, refusal.status, refusal.code, str(exc)[:200]
            )
        try:
            client.sendall(problem_response(refusal))
        except OSError:
            self.log.debug("Could not send the refusal to %s.", peer)
