"""Dealer sign-in and sign-out at a terminal, the lockout after wrong PINs, and when a dealer's
session ends (README, Dealer sign-in and sessions).

- A terminal with `CASINO_TERMINAL_SIGN_IN_FAILURES` failed sign-ins in its window refuses every
  sign-in, without checking a PIN, until the window ends (429 `too_many_sign_in_attempts`): a
  terminal cycling through badges is slowed down whichever badges it tries.
- Wrong PINs for one badge are counted in a window; the `CASINO_DEALER_LOCKOUT_FAILURES`th locks
  the dealer until a supervisor unlocks them. A locked dealer is refused (401 `dealer_locked`)
  whatever PIN is given, so the lock tells nobody whether a PIN was right.
- A dealer is signed in at one terminal at a time: signing in at another ends the first session
  (dealers rotate between tables; the one who signs in is the one standing there).
- A session lasts `CASINO_DEALER_SESSION_MAX_AGE_SECONDS` from sign-in and ends after
  `CASINO_DEALER_SESSION_IDLE_SECONDS` without a change from the terminal. Deactivating the
  dealer, the terminal or the table, or a new PIN, ends it in the database (migration 0008).

A refused sign-in changes nothing in the request's own transaction (so no answer is stored for
its Idempotency-Key: a retry is a new attempt); `record_failed_sign_in` then counts it in a
transaction of its own. Audit events: each refusal is a `security.bad_credentials` or
`security.dealer_locked` rejection (written for every 401, see `audit.refusals`); a lockout
`security.dealer_locked_out`, a terminal reaching its limit `security.terminal_throttled`
(security events: written by refusals), an unlock `casino.dealer.unlocked`.
"""

import datetime as dt
import math
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction

from audit.context import AuditActor
from audit.services import record_event
from casino.locks import lock_dealer, lock_for_sign_in, lock_terminal
from casino.models import Dealer, Terminal
from kernel.errors import ConflictError
from kernel.keys import pin_matches

# How often a terminal's changes move its session's idle clock (a write at most once a minute).
SESSION_SEEN_EVERY = dt.timedelta(minutes=1)


@dataclass(frozen=True)
class SignInRefusal:
    """How to answer a refused sign-in, once it has been counted."""

    status: int
    code: str
    detail: str
    retry_after_seconds: int | None = None


def _seconds(name: str) -> dt.timedelta:
    return dt.timedelta(seconds=getattr(settings, name))


def session_idle_cutoff(*, now: dt.datetime) -> dt.datetime:
    """A session last seen at or before this moment has been idle too long."""
    return now - _seconds("CASINO_DEALER_SESSION_IDLE_SECONDS")


def session_is_live(terminal: Terminal, *, now: dt.datetime) -> bool:
    """Whether the dealer signed in at `terminal` may still act: within the maximum age of the
    session and not idle too long."""
    signed_in_at, seen_at = terminal.dealer_signed_in_at, terminal.dealer_seen_at
    if terminal.dealer_id is None or signed_in_at is None or seen_at is None:
        return False
    too_old = now - signed_in_at >= _seconds("CASINO_DEALER_SESSION_MAX_AGE_SECONDS")
    idle_too_long = seen_at <= session_idle_cutoff(now=now)
    return not (too_old or idle_too_long)


def _count_failure(
    failures: int, since: dt.datetime | None, *, now: dt.datetime, window: dt.timedelta
) -> tuple[int, dt.datetime]:
    """One more failure in a fixed window that opens at the first failure after the last one closed."""
    if since is None or now - since >= window:
        return 1, now
    return failures + 1, since


def _terminal_retry_after(terminal: Terminal, *, now: dt.datetime) -> int | None:
    """Seconds until a throttled terminal takes sign-ins again; None when it takes them now."""
    window = _seconds("CASINO_TERMINAL_SIGN_IN_WINDOW_SECONDS")
    since = terminal.sign_in_failures_since
    if since is None or now - since >= window:
        return None
    if terminal.sign_in_failures < settings.CASINO_TERMINAL_SIGN_IN_FAILURES:
        return None
    return max(1, math.ceil((since + window - now).total_seconds()))


def _record(
    *, event_type: str, actor: AuditActor, terminal: Terminal | None, subject_id: str, label: str,
    before: dict[str, Any] | None = None, after: dict[str, Any], now: dt.datetime,
    subject_type: str = "dealer",
) -> None:  # fmt: skip
    """An audit event about a dealer (or a terminal), in the chain of the terminal's table."""
    record_event(
        event_type=event_type,
        actor=actor,
        table_id=terminal.table_id if terminal else None,
        table_name=terminal.table.name if terminal else "",
        subject_type=subject_type,
        subject_id=subject_id,
        subject_label=label,
        before=before,
        after=after,
        occurred_at=now,
    )


class SignInRefusedError(Exception):
    """A sign-in refused before anything was written: `record_failed_sign_in` counts it."""

    def __init__(self, *, reason: str, badge: str, retry_after_seconds: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason  # throttled, unknown_badge, dealer_locked or wrong_pin
        self.badge = badge
        self.retry_after_seconds = retry_after_seconds


@transaction.atomic
def sign_in_dealer(
    *, terminal: Terminal, badge: str, pin: str, actor: AuditActor, now: dt.datetime
) -> Terminal:
    """Sign a dealer in; a refusal raises `SignInRefusedError` before anything is written."""
    locked = lock_for_sign_in(terminal_id=terminal.pk, badge=badge)
    dealer, terminal = locked.dealer, locked.terminal
    retry_after = _terminal_retry_after(terminal, now=now)
    if retry_after is not None:
        raise SignInRefusedError(reason="throttled", badge=badge, retry_after_seconds=retry_after)
    if dealer is None or not dealer.is_active:
        raise SignInRefusedError(reason="unknown_badge", badge=badge)
    if dealer.locked_at is not None:  # whatever the PIN: the lock answers no guess
        raise SignInRefusedError(reason="dealer_locked", badge=badge)
    if not pin_matches(pin, dealer.pin_hash):
        raise SignInRefusedError(reason="wrong_pin", badge=badge)
    if locked.elsewhere is not None:
        _end_session(locked.elsewhere, reason="signed_in_elsewhere", actor=actor, now=now)
    before = {"dealer": terminal.dealer.badge if terminal.dealer else None}
    terminal.dealer = dealer
    terminal.dealer_signed_in_at = terminal.dealer_seen_at = now
    terminal.save(update_fields=["dealer", "dealer_signed_in_at", "dealer_seen_at"])
    if dealer.sign_in_failures:
        dealer.sign_in_failures, dealer.sign_in_failures_since = 0, None
        dealer.save(update_fields=["sign_in_failures", "sign_in_failures_since"])
    _record(event_type="casino.dealer.signed_in", actor=actor, terminal=terminal, subject_id=str(dealer.pk),
            label=dealer.badge, before=before, after={"dealer": dealer.badge}, now=now)  # fmt: skip
    return terminal


@transaction.atomic
def record_failed_sign_in(
    *, terminal: Terminal, refused: SignInRefusedError, actor: AuditActor, now: dt.datetime
) -> SignInRefusal:
    """Count a refused sign-in at the terminal (and a wrong PIN against the dealer), lock what has
    reached its limit and audit that, and say how to answer. Runs in its own transaction, after
    the refused request's has rolled back; a throttled attempt is not counted."""
    if refused.reason == "throttled":
        seconds = refused.retry_after_seconds
        return SignInRefusal(
            429,
            "too_many_sign_in_attempts",
            f"Too many failed sign-ins at {terminal.name}.",
            retry_after_seconds=seconds,
        )
    locked = lock_for_sign_in(terminal_id=terminal.pk, badge=refused.badge)
    dealer, terminal = locked.dealer, locked.terminal
    terminal.sign_in_failures, terminal.sign_in_failures_since = _count_failure(
        terminal.sign_in_failures,
        terminal.sign_in_failures_since,
        now=now,
        window=_seconds("CASINO_TERMINAL_SIGN_IN_WINDOW_SECONDS"),
    )
    terminal.save(update_fields=["sign_in_failures", "sign_in_failures_since"])
    locked_now = False
    if dealer is not None and refused.reason == "wrong_pin" and dealer.locked_at is None:
        dealer.sign_in_failures, dealer.sign_in_failures_since = _count_failure(
            dealer.sign_in_failures,
            dealer.sign_in_failures_since,
            now=now,
            window=_seconds("CASINO_DEALER_LOCKOUT_WINDOW_SECONDS"),
        )
        locked_now = dealer.sign_in_failures >= settings.CASINO_DEALER_LOCKOUT_FAILURES
        if locked_now:
            dealer.locked_at = now
        dealer.save(update_fields=["sign_in_failures", "sign_in_failures_since", "locked_at"])
    if locked_now and dealer is not None:
        _record(event_type="security.dealer_locked_out", actor=actor, terminal=terminal, subject_id=str(dealer.pk),
                label=dealer.badge, before={"locked": False},
                after={"locked": True, "failures": dealer.sign_in_failures}, now=now)  # fmt: skip
    if terminal.sign_in_failures == settings.CASINO_TERMINAL_SIGN_IN_FAILURES:
        _record(event_type="security.terminal_throttled", actor=actor, terminal=terminal, subject_type="terminal",
                subject_id=str(terminal.pk), label=terminal.name, after={"failures": terminal.sign_in_failures},
                now=now)  # fmt: skip
    locked_out = dealer is not None and dealer.locked_at is not None and refused.reason == "wrong_pin"
    if locked_out or refused.reason == "dealer_locked":
        return SignInRefusal(
            401,
            "dealer_locked",
            "This dealer is locked after too many wrong PINs: a supervisor unlocks them.",
        )
    return SignInRefusal(401, "bad_credentials", "Unknown badge or wrong PIN.")


def _end_session(terminal: Terminal, *, reason: str, actor: AuditActor, now: dt.datetime) -> None:
    dealer = terminal.dealer
    terminal.dealer = None
    terminal.dealer_signed_in_at = terminal.dealer_seen_at = None
    terminal.save(update_fields=["dealer", "dealer_signed_in_at", "dealer_seen_at"])
    _record(
        event_type="casino.dealer.signed_out",
        actor=actor,
        terminal=terminal,
        subject_id=str(dealer.pk) if dealer else "",
        label=dealer.badge if dealer else "",
        before={"dealer": dealer.badge if dealer else None},
        after={"dealer": None, "reason": reason},
        now=now,
    )


@transaction.atomic
def unlock_dealer(*, dealer_id: int, actor: AuditActor, now: dt.datetime) -> Dealer:
    """A supervisor unlocks a locked dealer: the count of wrong PINs starts again from zero."""
    dealer = lock_dealer(dealer_id=dealer_id)
    if dealer.locked_at is None:
        raise ConflictError("dealer_not_locked", f"Dealer {dealer.badge} is not locked.")
    before = {"locked_at": dealer.locked_at.isoformat(), "failures": dealer.sign_in_failures}
    dealer.locked_at, dealer.sign_in_failures, dealer.sign_in_failures_since = None, 0, None
    dealer.save(update_fields=["locked_at", "sign_in_failures", "sign_in_failures_since"])
    _record(event_type="casino.dealer.unlocked", actor=actor, terminal=None, subject_id=str(dealer.pk),
            label=dealer.badge, before=before, after={"locked_at": None}, now=now)  # fmt: skip
    return dealer


@transaction.atomic
def sign_out_dealer(*, terminal: Terminal, actor: AuditActor, now: dt.datetime) -> Terminal:
    terminal = lock_terminal(terminal_id=terminal.pk)
    _end_session(terminal, reason="signed_out", actor=actor, now=now)
    return terminal
