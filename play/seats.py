"""The seat a player's device holds: the seat token, kept in a signed, HttpOnly cookie that the
browser sends to `/play/` only (never in the URL once entered, never readable by the page's
script), and looked up as the API's seat-token authentication does (`kernel.keys`: the key's
prefix finds the seat, its SHA-256 hash must match).

What a device sends as a token is checked before it reaches the database: printable ASCII of a
token's length, so that a NUL, a 10 kB paste or a non-ASCII character is "not a seat token", not
an error."""

from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse

from kernel.keys import key_matches, split_prefix
from skill_games.models import Seat

COOKIE = "play_seat"
COOKIE_PATH = "/play/"
SALT = "play.seat"
# A game lasts at most two hours (a Squares limit of 7200 s); the device forgets the seat after.
COOKIE_MAX_AGE_S = 4 * 3600
MAX_TOKEN_LENGTH = 128


@dataclass(frozen=True)
class PlayerSeat:
    game_id: int
    seat: int


def well_formed(token: str) -> bool:
    return 0 < len(token) <= MAX_TOKEN_LENGTH and token.isascii() and token.isprintable()


def seat_for_token(token: str) -> PlayerSeat | None:
    """The seat `token` opens, or None (malformed, unknown or not matching)."""
    token = token.strip()
    prefix = split_prefix(token) if well_formed(token) else None
    found = None if prefix is None else Seat.objects.filter(key_prefix=prefix).first()
    if found is None or not key_matches(token, found.key_hash):
        return None
    return PlayerSeat(game_id=found.game_id, seat=found.number)


def seat_of(request: HttpRequest) -> PlayerSeat | None:
    """The seat of the token this device entered, if it still opens one."""
    token = request.get_signed_cookie(COOKIE, default=None, salt=SALT, max_age=COOKIE_MAX_AGE_S)
    return None if token is None else seat_for_token(token)


def keep_token(response: HttpResponse, request: HttpRequest, token: str) -> None:
    response.set_signed_cookie(
        COOKIE,
        token.strip(),
        salt=SALT,
        max_age=COOKIE_MAX_AGE_S,
        path=COOKIE_PATH,
        secure=request.is_secure(),
        httponly=True,
        samesite="Strict",
    )


def forget_token(response: HttpResponse) -> None:
    response.delete_cookie(COOKIE, path=COOKIE_PATH, samesite="Strict")
