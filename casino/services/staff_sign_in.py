"""Staff sign-in with a password (the floor console and the admin site share it through
`floor.sign_in.ThrottledModelBackend`): the throttle per source address, the lockout per
username, and their audit events. The same rules as a dealer's PIN (`casino.services.terminals`):

- A source (an IPv4 address, or an IPv6 /64) with `CASINO_STAFF_ADDRESS_SIGN_IN_FAILURES` failed
  sign-ins in its window is refused every sign-in, without a password being checked, until the
  window ends: one address cycling through usernames is slowed down whichever it tries.
- Wrong passwords for one username are counted in a window; the `CASINO_STAFF_LOCKOUT_FAILURES`th
  locks the username until an admin unlocks it (`unlock_staff_sign_in`). A locked username is
  refused whatever password is given, and the password is not even checked, so the answer says
  nothing about whether it was right. Usernames that name nobody lock the same way.
- A good sign-in clears the username's count of failures.

Audit events: every refused sign-in is a refusal (`security.staff_sign_in_failed`,
`security.staff_sign_in_locked`, `security.staff_sign_in_throttled`) counted by
`audit.services.record_refusal` and summarised once a minute, so a flood cannot fill the trail:
one for an existing account is recorded as an event of its own (the first few of each minute),
one for a username that names nobody is only counted under its address. A username reaching its
limit is a `security.staff_locked_out` event, a source reaching its limit
`security.staff_sign_in_address_throttled`, an unlock `casino.staff.sign_in_unlocked`.
"""

import datetime as dt
import ipaddress
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

from audit.context import AuditActor, staff_role
from audit.services import Refusal, record_event, record_refusal
from casino.models import StaffSignInLock, StaffSignInThrottle
from kernel.errors import ConflictError, NotFoundError

SIGN_IN = AuditActor(kind="system", username="staff sign-in")
_IPV6_SOURCE_PREFIX = 64  # as the audit trail counts refusals: one subscriber's block

User = TypeVar("User")


@dataclass(frozen=True)
class StaffSignInRefusal:
    """Why a sign-in was refused, and what to tell the person signing in."""

    reason: str  # "bad_credentials", "locked" or "throttled"
    message: str
    retry_after_seconds: int | None = None

    @property
    def code(self) -> str:
        return {
            "bad_credentials": "staff_sign_in_failed",
            "locked": "staff_sign_in_locked",
            "throttled": "staff_sign_in_throttled",
        }[self.reason]


BAD_CREDENTIALS = StaffSignInRefusal(
    "bad_credentials", "Your username and password did not match. Try again."
)
LOCKED = StaffSignInRefusal(
    "locked",
    "This account is locked after too many failed sign-ins. An administrator unlocks it.",
)


def sign_in_source(address: str) -> str:
    """What failed sign-ins are counted under: the client's IPv4 address, or its IPv6 /64."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return "unknown"
    if parsed.version == 6:
        return str(ipaddress.ip_network(f"{parsed}/{_IPV6_SOURCE_PREFIX}", strict=False))
    return str(parsed)


def _window(name: str) -> dt.timedelta:
    return dt.timedelta(seconds=getattr(settings, name))


def _count_failure(
    failures: int, since: dt.datetime | None, *, now: dt.datetime, window: dt.timedelta
) -> tuple[int, dt.datetime]:
    """One more failure in a fixed window that opens at the first failure after the last one closed."""
    if since is None or now - since >= window:
        return 1, now
    return failures + 1, since


def _throttled_for(throttle: StaffSignInThrottle | None, *, now: dt.datetime) -> int | None:
    """Seconds until a throttled source may sign in again; None when it may now."""
    if throttle is None or throttle.failures < settings.CASINO_STAFF_ADDRESS_SIGN_IN_FAILURES:
        return None
    window = _window("CASINO_STAFF_ADDRESS_SIGN_IN_WINDOW_SECONDS")
    if now - throttle.failures_since >= window:
        return None
    return max(1, math.ceil((throttle.failures_since + window - now).total_seconds()))


def _throttled(seconds: int) -> StaffSignInRefusal:
    minutes = math.ceil(seconds / 60)
    return StaffSignInRefusal(
        "throttled",
        f"Too many failed sign-ins from your address. Try again in {minutes} minute{'s' if minutes != 1 else ''}.",
        retry_after_seconds=seconds,
    )


def sign_in_staff(
    *, username: str, source: str, now: dt.datetime, verify: Callable[[], User | None], path: str = ""
) -> User | StaffSignInRefusal:
    """Check the throttle and the lock, then the password (`verify`, which returns the user or
    None); count a failure, and audit it once its transaction has committed.

    The username's and the source's rows stay locked while the password is checked, so
    concurrent guesses are counted one after the other and none slips past the limit."""
    username = username[:150]
    outcome = _sign_in(username=username, source=source, now=now, verify=verify)
    if isinstance(outcome, StaffSignInRefusal):
        _record_refusal(username=username, refused=outcome, path=path, now=now)
    return outcome


@transaction.atomic
def _sign_in(
    *, username: str, source: str, now: dt.datetime, verify: Callable[[], User | None]
) -> User | StaffSignInRefusal:
    # Username first, then source: the one order every sign-in takes its locks in.
    lock = StaffSignInLock.objects.select_for_update(of=("self",)).filter(username=username).first()
    throttle = StaffSignInThrottle.objects.select_for_update(of=("self",)).filter(source=source).first()
    wait = _throttled_for(throttle, now=now)
    if wait is not None:
        return _throttled(wait)  # not counted: the throttle already holds this source
    if lock is None or lock.locked_at is None:
        user = verify()
        if user is not None:
            if lock is not None and lock.failures:
                lock.failures, lock.failures_since = 0, None
                lock.save(update_fields=["failures", "failures_since"])
            return user
    refused = LOCKED if lock is not None and lock.locked_at is not None else BAD_CREDENTIALS
    if refused is BAD_CREDENTIALS:
        refused = _count_against_username(lock, username=username, now=now)
    _count_against_source(throttle, source=source, now=now)
    return refused


def _count_against_username(
    lock: StaffSignInLock | None, *, username: str, now: dt.datetime
) -> StaffSignInRefusal:
    if lock is None:
        lock, _ = StaffSignInLock.objects.select_for_update(of=("self",)).get_or_create(username=username)
    lock.failures, lock.failures_since = _count_failure(
        lock.failures, lock.failures_since, now=now, window=_window("CASINO_STAFF_LOCKOUT_WINDOW_SECONDS")
    )
    if lock.failures < settings.CASINO_STAFF_LOCKOUT_FAILURES:
        lock.save(update_fields=["failures", "failures_since"])
        return BAD_CREDENTIALS
    lock.locked_at = now
    lock.save(update_fields=["failures", "failures_since", "locked_at"])
    record_event(
        event_type="security.staff_locked_out",
        actor=SIGN_IN,
        table_id=None,
        table_name="",
        subject_type="staff_sign_in",
        subject_id=username,
        subject_label=username,
        before={"locked": False},
        after={"locked": True, "failures": lock.failures},
        occurred_at=now,
    )
    return LOCKED


def _count_against_source(throttle: StaffSignInThrottle | None, *, source: str, now: dt.datetime) -> None:
    if throttle is None:
        throttle, _ = StaffSignInThrottle.objects.select_for_update(of=("self",)).get_or_create(
            source=source, defaults={"failures": 0, "failures_since": now}
        )
    throttle.failures, throttle.failures_since = _count_failure(
        throttle.failures,
        throttle.failures_since,
        now=now,
        window=_window("CASINO_STAFF_ADDRESS_SIGN_IN_WINDOW_SECONDS"),
    )
    throttle.save(update_fields=["failures", "failures_since"])
    if throttle.failures == settings.CASINO_STAFF_ADDRESS_SIGN_IN_FAILURES:
        record_event(
            event_type="security.staff_sign_in_address_throttled",
            actor=SIGN_IN,
            table_id=None,
            table_name="",
            subject_type="address",
            subject_id=source,
            subject_label=source,
            after={"failures": throttle.failures},
            occurred_at=now,
        )


def _record_refusal(*, username: str, refused: StaffSignInRefusal, path: str, now: dt.datetime) -> None:
    """A refusal for an existing account names it (recorded one by one, the first few a minute);
    any other is counted under the source address only (audit.services.record_refusal)."""
    actor = None
    if refused.reason != "throttled":
        user = get_user_model()._default_manager.filter(**{get_user_model().USERNAME_FIELD: username}).first()
        if user is not None:
            actor = AuditActor(kind="user", user_id=user.pk, username=username, role=staff_role(user))
    record_refusal(
        Refusal(
            code=refused.code,
            actor=actor,
            table_id=None,
            table_name="",
            detail=f"POST {path}: sign-in as {username!r} refused ({refused.reason})"[:1000],
            occurred_at=now,
        )
    )


@transaction.atomic
def unlock_staff_sign_in(*, username: str, actor: AuditActor, now: dt.datetime) -> StaffSignInLock:
    """An admin unlocks a username locked after too many failed sign-ins: its count starts again."""
    lock = StaffSignInLock.objects.select_for_update(of=("self",)).filter(username=username).first()
    if lock is None:
        raise NotFoundError("not_found", f"{username} has no failed sign-ins.")
    if lock.locked_at is None:
        raise ConflictError("staff_not_locked", f"{username} is not locked.")
    before = {"locked_at": lock.locked_at.isoformat(), "failures": lock.failures}
    lock.locked_at, lock.failures, lock.failures_since = None, 0, None
    lock.save(update_fields=["locked_at", "failures", "failures_since"])
    record_event(
        event_type="casino.staff.sign_in_unlocked",
        actor=actor,
        table_id=None,
        table_name="",
        subject_type="staff_sign_in",
        subject_id=username,
        subject_label=username,
        before=before,
        after={"locked_at": None},
        occurred_at=now,
    )
    return lock
