"""Staff sign-in on the floor console and the admin site: wrong passwords lock the username until an
admin unlocks it, one address failing too often is throttled whichever usernames it tries, and
every refusal is in the audit trail, a flood of them summarised.

Transactional: refusals are recorded after the request's transaction, as in production."""

import datetime as dt
import re
import threading
from collections.abc import Callable

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.http import HttpResponseBase
from django.test import Client
from django.utils import timezone

from audit.models import AuditEvent, RefusalTally
from audit.services import REFUSAL_SUMMARY_EVENT, flush_refusal_tallies, verify_chain
from casino.models import StaffSignInLock, StaffSignInThrottle
from casino.services.provisioning import ProvisionedStaff
from tests.security.conftest import PASSWORD, from_address, sign_in, signed_in

pytestmark = pytest.mark.django_db(transaction=True)

LIMIT = settings.CASINO_STAFF_LOCKOUT_FAILURES
ADDRESS_LIMIT = settings.CASINO_STAFF_ADDRESS_SIGN_IN_FAILURES
LOCKED_TEXT = "This account is locked after too many failed sign-ins. An administrator unlocks it."
WRONG_TEXT = "Your username and password did not match."
Staff = Callable[..., ProvisionedStaff]


def alerts(page: HttpResponseBase) -> list[str]:
    return re.findall(r"<p class=\"alarm\" role=\"alert\">([^<]*)</p>", page.content.decode())  # type: ignore[attr-defined]


def events(event_type: str) -> list[AuditEvent]:
    return list(AuditEvent.objects.filter(event_type=event_type).order_by("id"))


def test_wrong_passwords_lock_the_account_and_the_right_one_is_then_refused_with_the_same_answer(
    staff_member: Staff,
) -> None:
    boss = staff_member("pit_boss")
    browser = from_address("198.51.100.7")

    answers = [browser.post("/floor/login/", {"username": boss.user.username, "password": f"guess-{i}"})
               for i in range(LIMIT)]  # fmt: skip

    assert [a.status_code for a in answers] == [200] * LIMIT
    assert all(WRONG_TEXT in a.content.decode() for a in answers[:-1])
    assert LOCKED_TEXT in answers[-1].content.decode()  # the limit-th wrong password locks
    lock = StaffSignInLock.objects.get(username=boss.user.username)
    assert lock.locked_at is not None
    assert lock.failures == LIMIT

    right = browser.post("/floor/login/", {"username": boss.user.username, "password": PASSWORD})
    wrong = browser.post("/floor/login/", {"username": boss.user.username, "password": "another-guess"})

    assert right.status_code == wrong.status_code == 200
    assert LOCKED_TEXT in right.content.decode()
    # The same answer whether the password was right or not.
    assert alerts(right) == alerts(wrong) == [LOCKED_TEXT]
    assert not signed_in(browser)
    assert browser.get("/floor/").status_code == 302  # still asked to sign in


def test_the_admin_site_login_counts_against_the_same_lock(staff_member: Staff) -> None:
    admin_user = staff_member("admin")
    browser = from_address("198.51.100.8")

    for i in range(LIMIT):
        assert sign_in(browser, admin_user.user.username, f"guess-{i}", path="/admin/login/") == 200
    answer = browser.post("/admin/login/", {"username": admin_user.user.username, "password": PASSWORD})

    assert answer.status_code == 200
    assert LOCKED_TEXT in answer.content.decode()
    assert not signed_in(browser)
    # One lock for both doors: the console refuses the right password too.
    assert (
        LOCKED_TEXT
        in browser.post(
            "/floor/login/", {"username": admin_user.user.username, "password": PASSWORD}
        ).content.decode()
    )


def test_a_good_sign_in_clears_the_count_and_failures_outside_the_window_start_again(
    staff_member: Staff, monkeypatch: pytest.MonkeyPatch
) -> None:
    boss = staff_member("floor_supervisor")
    start = timezone.now()
    now = [start]
    monkeypatch.setattr(timezone, "now", lambda: now[0])

    for i in range(LIMIT - 1):
        sign_in(from_address("198.51.100.9"), boss.user.username, f"guess-{i}")
    assert sign_in(from_address("198.51.100.9"), boss.user.username, PASSWORD) == 302
    assert StaffSignInLock.objects.get(username=boss.user.username).failures == 0

    for i in range(LIMIT - 1):
        sign_in(from_address("198.51.100.10"), boss.user.username, f"guess-{i}")
    now[0] = start + dt.timedelta(seconds=settings.CASINO_STAFF_LOCKOUT_WINDOW_SECONDS)
    sign_in(from_address("198.51.100.11"), boss.user.username, "late-guess")  # a new window
    lock = StaffSignInLock.objects.get(username=boss.user.username)
    assert (lock.failures, lock.locked_at) == (1, None)


def test_one_address_trying_many_usernames_is_throttled_whoever_it_tries(
    staff_member: Staff, monkeypatch: pytest.MonkeyPatch
) -> None:
    boss = staff_member("pit_boss")
    attacker = from_address("203.0.113.50")
    start = timezone.now()
    now = [start]
    monkeypatch.setattr(timezone, "now", lambda: now[0])

    statuses = [sign_in(attacker, f"nobody-{i}", "password1") for i in range(ADDRESS_LIMIT)]
    assert statuses == [200] * ADDRESS_LIMIT
    assert not StaffSignInLock.objects.exclude(locked_at=None).exists()  # one guess each: no lock

    refused = attacker.post("/floor/login/", {"username": boss.user.username, "password": PASSWORD})
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) == settings.CASINO_STAFF_ADDRESS_SIGN_IN_WINDOW_SECONDS
    assert "Too many failed sign-ins from your address." in refused.content.decode()
    assert not signed_in(attacker)
    # Refused before the password is checked, so it is not counted against the account.
    assert not StaffSignInLock.objects.filter(username=boss.user.username).exists()
    # The admin site's door is shut for that address too.
    assert sign_in(attacker, boss.user.username, PASSWORD, path="/admin/login/") == 200
    assert not signed_in(attacker)

    # Another address signs in; an IPv6 neighbour in the same /64 counts as the same source.
    assert sign_in(from_address("203.0.113.51"), boss.user.username, PASSWORD) == 302
    (throttled,) = events("security.staff_sign_in_address_throttled")
    assert (throttled.subject_id, throttled.after) == ("203.0.113.50", {"failures": ADDRESS_LIMIT})

    now[0] = start + dt.timedelta(seconds=settings.CASINO_STAFF_ADDRESS_SIGN_IN_WINDOW_SECONDS)
    assert sign_in(attacker, boss.user.username, PASSWORD) == 302  # the window has ended


def test_an_ipv6_address_is_counted_by_its_64_network(staff_member: Staff) -> None:
    for i in range(ADDRESS_LIMIT):
        sign_in(from_address(f"2001:db8:5:6::{i + 1:x}"), f"nobody-{i}", "password1")

    assert list(StaffSignInThrottle.objects.values_list("source", "failures")) == [
        ("2001:db8:5:6::/64", ADDRESS_LIMIT)
    ]
    assert sign_in(from_address("2001:db8:5:6:ffff::1"), "anyone", "password1") == 429


def test_each_refusal_for_an_account_is_an_event_and_a_flood_of_unknown_names_one_summary(
    staff_member: Staff,
) -> None:
    boss = staff_member("pit_boss")
    browser = from_address("198.51.100.20")
    for i in range(LIMIT + 2):  # LIMIT - 1 wrong, the locking one, then two refused as locked
        sign_in(browser, boss.user.username, f"guess-{i}")

    failed = events("security.staff_sign_in_failed")
    locked = events("security.staff_sign_in_locked")
    assert len(failed) == LIMIT - 1
    assert len(locked) == 3
    assert {(e.kind, e.username, e.role, e.client_address) for e in failed + locked} == {
        ("rejection", boss.user.username, "pit_boss", "198.51.100.20")
    }
    assert f"sign-in as '{boss.user.username}' refused (bad_credentials)" in failed[0].detail
    (locked_out,) = events("security.staff_locked_out")
    assert (locked_out.subject_id, locked_out.after) == (
        boss.user.username,
        {"locked": True, "failures": LIMIT},
    )

    flood_from = from_address("203.0.113.77")
    for i in range(ADDRESS_LIMIT + 20):  # names that name nobody; the last 20 throttled
        sign_in(flood_from, f"ghost-{i}", "password1")
    assert not AuditEvent.objects.filter(client_address="203.0.113.77", kind="rejection").exists()
    assert set(RefusalTally.objects.filter(source="address 203.0.113.77").values_list("code", "count")) == {
        ("staff_sign_in_failed", ADDRESS_LIMIT),
        ("staff_sign_in_throttled", 20),
    }

    assert flush_refusal_tallies(now=timezone.now() + dt.timedelta(minutes=1)) >= 2
    summaries = {e.after["code"]: e.after for e in events(REFUSAL_SUMMARY_EVENT) if e.after and
                 e.after["source"] == "address 203.0.113.77"}  # fmt: skip
    assert summaries["staff_sign_in_failed"]["count"] == ADDRESS_LIMIT
    assert summaries["staff_sign_in_throttled"]["count"] == 20
    assert verify_chain().ok


def test_an_admin_unlocks_the_account_in_the_admin_site_and_access_returns(staff_member: Staff) -> None:
    boss = staff_member("pit_boss")
    admin_user = staff_member("admin")
    for i in range(LIMIT):
        sign_in(from_address("198.51.100.30"), boss.user.username, f"guess-{i}")
    lock = StaffSignInLock.objects.get(username=boss.user.username)

    supervisor = Client()
    supervisor.force_login(staff_member("floor_supervisor").user)  # type: ignore[arg-type]
    refused = supervisor.post(
        "/admin/casino/staffsigninlock/",
        {"action": "unlock", "_selected_action": [lock.pk]},
    )
    assert refused.status_code in (200, 302, 403)
    assert StaffSignInLock.objects.get(pk=lock.pk).locked_at is not None  # only an admin unlocks

    admin_browser = Client()
    admin_browser.force_login(admin_user.user)  # type: ignore[arg-type]
    listed = admin_browser.get("/admin/casino/staffsigninlock/")
    assert boss.user.username in listed.content.decode()
    assert "Locked out since" in listed.content.decode()
    answer = admin_browser.post(
        "/admin/casino/staffsigninlock/", {"action": "unlock", "_selected_action": [lock.pk]}, follow=True
    )

    assert f"Unlocked {boss.user.username}." in answer.content.decode()
    assert StaffSignInLock.objects.get(pk=lock.pk).locked_at is None
    (unlocked,) = events("casino.staff.sign_in_unlocked")
    assert (unlocked.subject_id, unlocked.username) == (boss.user.username, admin_user.user.username)
    assert sign_in(from_address("198.51.100.30"), boss.user.username, PASSWORD) == 302


def test_the_unlock_command(staff_member: Staff) -> None:
    boss = staff_member("pit_boss")
    for i in range(LIMIT):
        sign_in(from_address("198.51.100.40"), boss.user.username, f"guess-{i}")

    call_command("unlock_staff", boss.user.username)

    assert sign_in(from_address("198.51.100.40"), boss.user.username, PASSWORD) == 302
    with pytest.raises(CommandError, match="is not locked"):
        call_command("unlock_staff", boss.user.username)
    with pytest.raises(CommandError, match="has no failed sign-ins"):
        call_command("unlock_staff", "nobody-at-all")
    assert [e.actor_kind for e in events("casino.staff.sign_in_unlocked")] == ["system"]


def test_a_username_that_names_nobody_locks_the_same_way(db: None) -> None:
    browser = from_address("198.51.100.50")
    answers = [
        browser.post("/floor/login/", {"username": "ghost", "password": f"g-{i}"}) for i in range(LIMIT)
    ]

    assert LOCKED_TEXT in answers[-1].content.decode()  # nothing tells it from a real account


def test_a_staff_member_changes_their_own_password_on_the_console(staff_member: Staff) -> None:
    boss = staff_member("pit_boss")
    browser = from_address("198.51.100.60")
    assert sign_in(browser, boss.user.username, PASSWORD) == 302
    other_session = from_address("198.51.100.61")
    assert sign_in(other_session, boss.user.username, PASSWORD) == 302
    assert 'href="/floor/password/"' in browser.get("/floor/").content.decode()

    new_password = "a-new-and-longer-secret-77"
    wrong_old = browser.post("/floor/password/", {"old_password": "nope", "new_password1": new_password,
                                                   "new_password2": new_password})  # fmt: skip
    assert wrong_old.status_code == 200
    changed = browser.post("/floor/password/", {"old_password": PASSWORD, "new_password1": new_password,
                                                 "new_password2": new_password}, follow=True)  # fmt: skip

    assert "Password changed" in changed.content.decode()
    assert browser.get("/floor/").status_code == 200  # this session stays signed in
    assert other_session.get("/floor/").status_code == 302  # the other one has ended
    assert sign_in(from_address("198.51.100.62"), boss.user.username, PASSWORD) == 200
    assert sign_in(from_address("198.51.100.62"), boss.user.username, new_password) == 302
    assert Client().get("/floor/password/").status_code == 302  # anonymous: sign in first


def test_an_admin_sets_a_staff_members_password_in_the_admin_site(staff_member: Staff) -> None:
    boss = staff_member("pit_boss")
    admin_browser = Client()
    admin_browser.force_login(staff_member("admin").user)  # type: ignore[arg-type]
    new_password = "set-by-the-admin-2026-x"

    answer = admin_browser.post(
        f"/admin/auth/user/{boss.user.pk}/password/",
        {"password1": new_password, "password2": new_password, "usable_password": "true"},
    )

    assert answer.status_code == 302
    assert sign_in(from_address("198.51.100.70"), boss.user.username, PASSWORD) == 200
    assert sign_in(from_address("198.51.100.70"), boss.user.username, new_password) == 302


def test_parallel_guesses_are_counted_one_after_the_other_and_none_slips_past_the_lock(
    staff_member: Staff,
) -> None:
    boss = staff_member("pit_boss")
    threads, guesses = 4, 3
    answers: list[list[str]] = []
    lock = threading.Lock()

    def guess(address: str) -> None:
        try:
            browser = from_address(address)
            for i in range(guesses):
                page = browser.post("/floor/login/", {"username": boss.user.username, "password": f"g-{i}"})
                with lock:
                    answers.append(alerts(page))
        finally:
            connection.close()

    workers = [threading.Thread(target=guess, args=(f"198.51.100.{80 + n}",)) for n in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()

    counted = StaffSignInLock.objects.get(username=boss.user.username)
    assert (counted.failures, counted.locked_at is not None) == (LIMIT, True)
    assert answers.count([WRONG_TEXT + " Try again."]) == LIMIT - 1
    assert answers.count([LOCKED_TEXT]) == threads * guesses - (LIMIT - 1)
    assert len(events("security.staff_locked_out")) == 1
    assert verify_chain().ok
