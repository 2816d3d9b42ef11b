"""The seat a player's device holds: the seat token, kept in a signed, HttpOnly cookie that the
browser sends to `/play/` only (never in the URL once entered, never readable by the page's
script), and looked up as the API's seat-token authentication does (`kernel.keys`: the key's
prefix finds the seat, its SHA-256 hash must match).

The cookie may hold a tournament entry's token instead (the slip's token): it is looked up among
the entries first (a Make 21 table's seat takes its entry's own token, so the entry is what it
names), and the seat it opens is its entry's game of the moment: the one in play, else the last
one. An entry reaches its own entry's games only: nothing the device sends names a game.

What a device sends as a token is checked before it reaches the database: printable ASCII of a
token's length, so that a NUL, a 10 kB paste or a non-ASCII character is "not a seat token", not
an error."""

from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse

from kernel.keys import key_matches, split_prefix
from skill_games.models import GameState, Seat
from tournaments import selectors as tournaments

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


@dataclass(frozen=True)
class PlayerEntry:
    """A tournament entry's token held by the device."""

    entry_id: int
    tournament_id: int
    number: int


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


def holder_for_token(token: str) -> PlayerSeat | PlayerEntry | None:
    """The entry or the seat `token` opens, or None."""
    token = token.strip()
    if not well_formed(token):
        return None
    entry = tournaments.entry_for_key(key=token)
    if entry is not None:
        return PlayerEntry(entry_id=entry.pk, tournament_id=entry.tournament_id, number=entry.number)
    return seat_for_token(token)


def holder_of(request: HttpRequest) -> PlayerSeat | PlayerEntry | None:
    """The seat or entry of the token this device entered, if it still opens one."""
    token = request.get_signed_cookie(COOKIE, default=None, salt=SALT, max_age=COOKIE_MAX_AGE_S)
    return None if token is None else holder_for_token(token)


def seat_of_entry(entry: PlayerEntry) -> PlayerSeat | None:
    """The entry's seat in its game in play, else in its last game; None before its first."""
    games = list(tournaments.list_entry_games(entry_id=entry.entry_id))
    chosen = next((game for game in games if game.game.state == GameState.PLAYING), None)
    if chosen is None and games:
        chosen = games[-1]
    return None if chosen is None else PlayerSeat(game_id=chosen.game_id, seat=chosen.seat)


def seat_of(request: HttpRequest) -> PlayerSeat | None:
    """The seat the token this device entered opens, if it still opens one."""
    holder = holder_of(request)
    return seat_of_entry(holder) if isinstance(holder, PlayerEntry) else holder


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
