"""API keys and dealer PINs: generated here, stored only as hashes.

An API key is `<prefix>.<secret>`: the prefix finds the row, the SHA-256 of the
whole key is compared in constant time. Keys are 256-bit random, so a fast hash
is enough; dealer PINs are short and use Django's slow password hashers.
"""

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from django.contrib.auth.hashers import check_password, make_password

PREFIX_LENGTH = 8


@dataclass(frozen=True, slots=True)
class NewKey:
    key: str
    prefix: str
    key_hash: str


def new_api_key() -> NewKey:
    prefix = secrets.token_hex(PREFIX_LENGTH // 2)
    key = f"{prefix}.{secrets.token_urlsafe(32)}"
    return NewKey(key=key, prefix=prefix, key_hash=hash_key(key))


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def split_prefix(key: str) -> str | None:
    prefix, dot, rest = key.partition(".")
    if not dot or len(prefix) != PREFIX_LENGTH or not rest:
        return None
    return prefix


def key_matches(key: str, key_hash: str) -> bool:
    return hmac.compare_digest(hash_key(key), key_hash)


def new_pin() -> str:
    return f"{secrets.randbelow(10**6):06d}"


def hash_pin(pin: str) -> str:
    return make_password(pin)


def pin_matches(pin: str, pin_hash: str) -> bool:
    return check_password(pin, pin_hash)
