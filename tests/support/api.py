"""The API as the tests call it: a client with a token, POSTs with a fresh Idempotency-Key, a
provisioned table and its terminal, the answers a test expects, and the calls a terminal, a
supervisor and a cage cashier make."""

import uuid
from dataclasses import dataclass
from typing import Any

from rest_framework.test import APIClient

from casino.models import Table
from casino.services.provisioning import ProvisionedTable


def client_with_token(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def post(client: APIClient, url: str, body: dict[str, Any] | None = None, *, key: str | None = None) -> Any:
    """POST JSON with a fresh Idempotency-Key (or the one given)."""
    return client.post(url, body or {}, format="json", HTTP_IDEMPOTENCY_KEY=key or str(uuid.uuid4()))


@dataclass
class TableActors:
    provisioned: ProvisionedTable
    terminal: APIClient

    @property
    def table(self) -> Table:
        return self.provisioned.table

    def sign_in(self) -> None:
        response = post(
            self.terminal,
            "/api/v1/terminal/sign-in/",
            {"badge": self.provisioned.dealer.badge, "pin": self.provisioned.dealer_pin},
        )
        assert response.status_code == 200, response.json()


# --- answers ---------------------------------------------------------------------------------------


def ok(response: Any, status: int = 200) -> dict[str, Any]:
    assert response.status_code == status, (response.status_code, response.content[:2000])
    return dict(response.json())


def problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, (response.status_code, response.content[:2000])
    assert response["Content-Type"] == "application/problem+json"
    body = dict(response.json())
    assert body["code"] == code, body
    return body


def listed(response: Any) -> list[dict[str, Any]]:
    assert response.status_code == 200, (response.status_code, response.content[:2000])
    return list(response.json())


# --- table money: openers, closers, buy-ins, fills and credits -----------------------------------


def open_table(client: APIClient, actors: TableActors, chips: dict[str, int], status: int = 201) -> Any:
    total = sum(int(d) * n for d, n in chips.items())
    return post(client, f"/api/v1/tables/{actors.table.pk}/open/", {"total_cents": total, "chips": chips})


def close_table(client: APIClient, actors: TableActors, chips: dict[str, int]) -> Any:
    total = sum(int(d) * n for d, n in chips.items())
    return post(client, f"/api/v1/tables/{actors.table.pk}/close/", {"total_cents": total, "chips": chips})


def buy_in(
    actors: TableActors, seat: int, cents: int, method: str = "cash", player: str | None = None
) -> Any:
    return post(
        actors.terminal,
        "/api/v1/buy-ins/",
        {"seat": seat, "amount_cents": cents, "method": method, "player": player},
    )


def request_slip(client: APIClient, kind: str, chips: dict[str, int], **extra: Any) -> Any:
    total = sum(int(d) * n for d, n in chips.items())
    return post(client, f"/api/v1/{kind}s/", {"amount_cents": total, "chips": chips, **extra})


# --- patrons and the cage ---------------------------------------------------------------------------


def new_patron(client: APIClient, name: str, **identification: str) -> int:
    """A patron on file, created through the API: their number. Identified when `identification`
    is given (the name then as first and last name, unless given)."""
    if identification and "last_name" not in identification:
        first, _, last = name.rpartition(" ")
        identification = {"first_name": first, "last_name": last or name, **identification}
    return int(ok(post(client, "/api/v1/patrons/", {"name": name, **identification}), 201)["number"])


def cash_buy_in(
    actors: TableActors, cents: int, *, patron: int | None, method: str = "cash", seat: int = 1
) -> Any:
    return post(
        actors.terminal,
        "/api/v1/buy-ins/",
        {"seat": seat, "amount_cents": cents, "method": method, "patron": patron},
    )


def redeem(client: APIClient, cents: int, **fields: Any) -> Any:
    return post(client, "/api/v1/cage/redemptions/", {"amount_cents": cents, **fields})
